// `dependentRequired` (2019-09 validation §6.5.4): when the trigger property is present, the listed
// properties must be present too. One-way. Decided at the object's close (rules/presence.ts).

import type {KeywordContext} from '../schema/node.js';
import {escapePointerToken} from '../json/pointer.js';
import {contextAt, expectUniqueStrings, isObject} from './rules/expect.js';
import {presenceApplicator, requirementsOf, type Requirement, type Requirements} from './rules/presence.js';

/** Per trigger, the names it requires (an empty list requires nothing). */
export function compileDependentRequired(entries: [string, unknown][], context: KeywordContext): Requirements | undefined {
  const required: Requirement[] = [];
  for (const [trigger, names] of entries) {
    const list = expectUniqueStrings(names, contextAt(context, '/' + escapePointerToken(trigger)));
    if (list.length > 0) required.push({trigger, names: list});
  }
  return required.length === 0 ? undefined : requirementsOf(required);
}

export const dependentRequired = presenceApplicator('dependentRequired', (value, context) => {
  if (!isObject(value)) throw context.fail('must be an object whose values are arrays of unique strings');
  return compileDependentRequired(Object.entries(value), context);
});
