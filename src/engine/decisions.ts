// What the in-place applicators of a shape decide from the flags their subschemas' failures set
// (src/engine/shape.ts, Decision): at the container's close, and before it where the failure is
// already certain. Flags are only ever set while a container is open (a subschema that failed stays
// failed), so "every branch of an `anyOf` failed" is as certain at the third key as at the close;
// "the `not`'s subschema passed" is known only at the close. A session's checker asks the second
// (src/engine/checker.ts, beginStream): the evaluator refuses at the first token that makes a
// document invalid, and a session must not answer later than it would.

import {DECIDE_IF, DECIDE_NONE, DECIDE_ONE, DECIDE_SOME, DECIDE_UNEVALUATED, DECIDE_WHEN, NEVER, bitCount, holds, isSet, type Decision, type Member, type UnevaluatedRule} from './shape.js';
import {ARRAY, OBJECT, type Kind} from '../schema/node.js';

/** Every bit of `masks` (by word) is set in `words`. */
export function hasAll(words: Int32Array, masks: readonly number[]): boolean {
  for (let word = 0; word < masks.length; word++) if ((words[word]! & masks[word]!) !== masks[word]) return false;
  return true;
}

/** The conditions under which each member an UnevaluatedRule held back would have been evaluated. */
type Conditions = readonly (readonly (readonly number[])[])[];

/**
 * The decision fails at the close of a container of `kind` with these flags and presence bits, and
 * these members held back by rule (`rules`, with their `conditions`).
 */
export function failsAtClose(decision: Decision, kind: Kind, flags: Int32Array, seen: Int32Array, rules: readonly number[], conditions: Conditions): boolean {
  const {masks, flag} = decision;
  switch (decision.mode) {
    case DECIDE_SOME:
      return hasAll(flags, masks);
    case DECIDE_ONE: {
      let passed = 0;
      for (let word = 0; word < masks.length; word++) passed += bitCount(masks[word]! & ~flags[word]!);
      return passed !== 1;
    }
    case DECIDE_NONE:
      return !isSet(flags, flag);
    case DECIDE_IF: {
      const branch = isSet(flags, flag) ? decision.elseFlag : decision.thenFlag;
      return branch >= 0 && isSet(flags, branch);
    }
    case DECIDE_WHEN:
      return kind === OBJECT && isSet(seen, decision.trigger) && isSet(flags, flag);
    case DECIDE_UNEVALUATED:
      return kind === OBJECT && heldBack(rules, conditions, decision.rule, flags, seen);
    default:
      return kind === ARRAY && heldBack(rules, conditions, decision.rule, flags, seen);
  }
}

/**
 * The decision will fail at the close of the open container of `kind`, whatever comes before it:
 * every branch of an `anyOf` or `oneOf` failed, the `if` and the `else` failed, a present
 * trigger's `dependentSchemas` failed. A subschema passes before the close only where it is `true`
 * (it passes as it is applied): a `not: true`, a `oneOf` with two, a `then` that failed after an
 * `if: true`. (Anything else that passes is known to at the close.)
 */
export function failsAlready(decision: Decision, kind: Kind, flags: Int32Array, seen: Int32Array): boolean {
  switch (decision.mode) {
    case DECIDE_SOME:
      return hasAll(flags, decision.masks);
    case DECIDE_ONE:
      return decision.passing > 1 || hasAll(flags, decision.masks);
    case DECIDE_NONE:
      return decision.passing > 0;
    case DECIDE_IF: {
      const {flag, thenFlag, elseFlag} = decision;
      if (decision.passing > 0) return thenFlag >= 0 && isSet(flags, thenFlag);
      return elseFlag >= 0 && isSet(flags, flag) && isSet(flags, elseFlag);
    }
    case DECIDE_WHEN:
      return kind === OBJECT && isSet(seen, decision.trigger) && isSet(flags, decision.flag);
    default:
      return false;
  }
}

/** failsAlready may ever say yes of the decision. */
export function mayFailEarly(decision: Decision): boolean {
  switch (decision.mode) {
    case DECIDE_SOME:
    case DECIDE_ONE:
    case DECIDE_WHEN:
      return true;
    case DECIDE_NONE:
      return decision.passing > 0;
    case DECIDE_IF:
      return decision.elseFlag >= 0 || (decision.passing > 0 && decision.thenFlag >= 0);
    default:
      return false;
  }
}

/** A member held back under these conditions can never be evaluated: each has a term that never holds. */
export function neverEvaluated(when: readonly (readonly number[])[]): boolean {
  for (let i = 0; i < when.length; i++) if (!when[i]!.some((term) => (term & 3) === NEVER)) return false;
  return true;
}

/** Some member the rule `rule` held back was evaluated under no condition that holds. */
function heldBack(rules: readonly number[], conditions: Conditions, rule: number, flags: Int32Array, seen: Int32Array): boolean {
  for (let i = 0; i < rules.length; i++) {
    if (rules[i] !== rule) continue;
    const when = conditions[i]!;
    let evaluated = false;
    for (let j = 0; j < when.length && !evaluated; j++) evaluated = holds(when[j]!, flags, seen);
    if (!evaluated) return true;
  }
  return false;
}

/**
 * The conditions under which `member`, whose value failed the subschema of `rule` (the `r`th
 * UnevaluatedRule of its container, whose flags these are), was evaluated after all; null where it
 * is not held back (it passed, or a source evaluates it unconditionally: Sources.evaluatedWhen).
 */
export function heldWhen(rule: UnevaluatedRule, member: Member, r: number, flags: Int32Array): readonly (readonly number[])[] | null {
  if (!isSet(flags, rule.flag)) return null;
  let when = member.unevaluated![r];
  if (when === null || when === undefined) return null;
  // The contains that matched this item evaluated it, under their own conditions.
  const {matches} = rule;
  for (let m = 0; m < matches.length && when !== null; m++) {
    const {flag, condition} = matches[m]!;
    if (isSet(flags, flag)) continue;
    when = condition.length === 0 ? null : [...when, condition];
  }
  return when;
}

/**
 * A member of a container with these `flags` ended: the rules among `rules` whose subschema its
 * value failed, and that no source evaluates unconditionally, hold it back (into `held` and
 * `conditions`, by rule) with the conditions under which it was evaluated after all.
 */
export function holdBack(rules: readonly UnevaluatedRule[], member: Member, flags: Int32Array, held: number[], conditions: (readonly (readonly number[])[])[]): void {
  for (let r = 0; r < rules.length; r++) {
    const when = heldWhen(rules[r]!, member, r, flags);
    if (when === null) continue;
    held.push(r);
    conditions.push(when);
  }
}
