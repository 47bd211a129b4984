// Required properties (2020-12 validation §6.5.3-4): names that must be present, all of them or
// when a trigger is. What `required`, `dependentRequired` and draft 7's `dependencies` share, told
// to both engines from one statement (Requirements): the evaluator notes which names arrive and
// decides at the close; the checker keeps presence bits. Which of a fixed list of names an object
// has is bits in one number (a Set past 31 names): no string work per key beyond one lookup.

import {OBJECT, type CompiledKeyword, type KeywordContext, type KeywordDefinition, type Outline, type Run} from '../../schema/node.js';

export class Seen {
  bits = 0;
  more: Set<number> | null = null;
}

export const newSeen = (): Seen => new Seen();

export function seeBit(seen: Seen, bit: number): void {
  if (bit < 31) seen.bits |= 1 << bit;
  else (seen.more ??= new Set()).add(bit);
}

export class PresenceSet {
  readonly names: readonly string[];
  private readonly bits = new Map<string, number>();

  constructor(names: Iterable<string>) {
    this.names = [...new Set(names)];
    this.names.forEach((name, index) => this.bits.set(name, index));
  }

  includes(name: string): boolean {
    return this.bits.has(name);
  }

  /** The bit of a listed name (undefined for others): what `classify` hands to `key`. */
  bitOf(name: string): number | undefined {
    return this.bits.get(name);
  }

  see(seen: Seen, name: string): void {
    const bit = this.bits.get(name);
    if (bit !== undefined) seeBit(seen, bit);
  }

  has(seen: Seen | undefined, name: string): boolean {
    const bit = this.bits.get(name);
    if (bit === undefined || seen === undefined) return false;
    return bit < 31 ? (seen.bits & (1 << bit)) !== 0 : seen.more !== null && seen.more.has(bit);
  }
}

/** All of `names` must be present; with a `trigger`, only when the trigger is present. */
export interface Requirement {
  readonly trigger: string | undefined;
  readonly names: readonly string[];
}

export interface Requirements {
  /** Every name involved, triggers included. */
  readonly presence: PresenceSet;
  readonly required: readonly Requirement[];
}

export function requirementsOf(required: readonly Requirement[]): Requirements {
  const names = required.flatMap(({trigger, names}) => (trigger === undefined ? names : [trigger, ...names]));
  return {presence: new PresenceSet(names), required};
}

/** The checker's terms (KeywordDefinition.outline). */
export function outlineRequirements({required}: Requirements, outline: Outline): void {
  for (const {names, trigger} of required) outline.present(names, trigger);
}

/** The evaluator's verdict at the object's close, from the names `seen`. */
export function checkRequirements(run: Run, keyword: CompiledKeyword, {presence, required}: Requirements, seen: Seen | undefined): void {
  if (run.kind !== OBJECT) return;
  for (const {trigger, names} of required) {
    if (trigger !== undefined && !presence.has(seen, trigger)) continue;
    for (const name of names) {
      if (presence.has(seen, name)) continue;
      if (trigger === undefined) run.fail(keyword, `must have required property "${name}"`, {missingProperty: name});
      else run.fail(keyword, `must have property "${name}" when property "${trigger}" is present`, dependencyParams(trigger, names, name));
      if (run.settled) return;
    }
  }
}

/** ajv's params of a missing dependency: the trigger, the name missing, and all the trigger requires. */
function dependencyParams(trigger: string, names: readonly string[], missing: string): Record<string, unknown> {
  return {property: trigger, missingProperty: missing, depsCount: names.length, deps: names.join(', ')};
}

/** A keyword whose whole meaning is Requirements (`required`, `dependentRequired`). */
export function presenceApplicator(name: string, compile: (value: unknown, context: KeywordContext) => Requirements | undefined): KeywordDefinition<Requirements> {
  return {
    name,
    compile,
    classify: (keyword, property) => keyword.value.presence.bitOf(property),
    outline: (keyword, outline) => outlineRequirements(keyword.value, outline),
    key(run, keyword, _name, bit: number) {
      seeBit(run.state(keyword, newSeen), bit);
    },
    end(run, keyword) {
      checkRequirements(run, keyword, keyword.value, run.peekState<Seen>(keyword));
    },
  };
}
