// `additionalProperties` (2020-12 core §10.3.2.3): properties matched by neither `properties` nor
// `patternProperties` of the same schema object must validate against it. It sees only its own
// siblings, so names declared in `allOf` subschemas are "additional" here. `false` fails at the
// key, with a message that names it. Under `removeAdditional` (ajv's option) such properties are
// taken out of the value instead: every one (`'all'`), where the keyword is `false` (`true`), or
// also those whose value fails it (`'failing'`).

import type {Matcher, Removal} from '../schema/node.js';
import type {CompileOptions} from '../types.js';
import {additionalNames, namesApartFromAdditional, propertyApplicator, type Selected} from './rules/members.js';
import {expectSchema} from './rules/expect.js';

interface AdditionalProperties {
  readonly selected: readonly Selected[];
  readonly forbidden: boolean;
  readonly isAdditional: (name: string, match: Matcher) => boolean;
  /** The names it tells apart from every other (Outline.members); undefined: it may tell any apart. */
  readonly namesApart: ReadonlySet<string> | undefined;
  readonly removal: Removal | null;
}

function removalOf(value: unknown, {selected, isAdditional}: Pick<AdditionalProperties, 'selected' | 'isAdditional'>, mode: CompileOptions['removeAdditional']): Removal | null {
  if (mode === 'all' || ((mode === true || mode === 'failing') && value === false)) return {isAdditional, failing: null};
  return mode === 'failing' ? {isAdditional, failing: selected[0]!.node} : null;
}

export const additionalProperties = propertyApplicator<AdditionalProperties>({
  name: 'additionalProperties',
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    const members = {selected: [{node: context.subschema(value, ''), path: '/additionalProperties'}], isAdditional: additionalNames(context)};
    return {...members, forbidden: value === false, namesApart: namesApartFromAdditional(context), removal: removalOf(value, members, context.options.removeAdditional)};
  },
  select: ({selected, isAdditional}, name, match) => (isAdditional(name, match) ? selected : undefined),
  names: ({namesApart}) => namesApart,
  refuse: ({forbidden}, name) => (forbidden ? {message: `must NOT have additional property "${name}"`, params: {additionalProperty: name}} : undefined),
  amend({removal}, amendments) {
    if (removal !== null) amendments.remove(removal);
  },
});
