// `dependentRequired` (2019-09 validation §6.5.4): when the trigger property is present, the listed
// properties must be present too. One-way. Decided at the object's close.

import {OBJECT, type CompiledKeyword, type KeywordContext, type KeywordDefinition, type Outline, type Run} from '../schema/node.js';
import {PresenceSet, newSeen, seeBit, type Seen} from './rules/presence.js';
import {escapePointerToken} from '../json/pointer.js';
import {contextAt, expectUniqueStrings, isObject} from './rules/expect.js';

export interface Dependencies {
  readonly presence: PresenceSet;
  readonly dependents: ReadonlyMap<string, readonly string[]>;
}

export function compileDependentRequired(entries: [string, unknown][], context: KeywordContext): Dependencies | undefined {
  const dependents = new Map<string, readonly string[]>();
  for (const [trigger, names] of entries) {
    const list = expectUniqueStrings(names, contextAt(context, '/' + escapePointerToken(trigger)));
    if (list.length > 0) dependents.set(trigger, list);
  }
  if (dependents.size === 0) return undefined;
  const all = [...dependents.keys(), ...[...dependents.values()].flat()];
  return {presence: new PresenceSet(all), dependents};
}

export function checkDependentRequired(run: Run, keyword: CompiledKeyword, dependencies: Dependencies, seen: Seen | undefined): void {
  if (run.kind !== OBJECT) return;
  const {presence, dependents} = dependencies;
  for (const [trigger, names] of dependents) {
    if (!presence.has(seen, trigger)) continue;
    for (const name of names) {
      if (presence.has(seen, name)) continue;
      run.fail(keyword, `must have property "${name}" when property "${trigger}" is present`, {property: trigger, missingProperty: name});
      if (run.settled) return;
    }
  }
}

/** The text checker's terms (KeywordDefinition.outline): a present trigger needs its dependents. */
export function outlineDependentRequired(dependencies: Dependencies, outline: Outline): void {
  for (const [trigger, names] of dependencies.dependents) outline.present(names, trigger);
}

export const dependentRequired: KeywordDefinition<Dependencies> = {
  name: 'dependentRequired',
  compile(value, context) {
    if (!isObject(value)) throw context.fail('must be an object whose values are arrays of unique strings');
    return compileDependentRequired(Object.entries(value), context);
  },
  classify: (keyword, name) => keyword.value.presence.bitOf(name),
  outline: (keyword, outline) => outlineDependentRequired(keyword.value, outline),
  key(run, keyword, _name, bit: number) {
    seeBit(run.state(keyword, newSeen), bit);
  },
  end(run, keyword) {
    checkDependentRequired(run, keyword, keyword.value, run.peekState<Seen>(keyword));
  },
};
