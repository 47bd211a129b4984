// Unevaluated members (2020-12 core §11.2-3): the properties or items that no successful subschema
// at this location evaluated must validate against the keyword's subschema. What
// `unevaluatedProperties` and `unevaluatedItems` share, told to both engines from one statement
// (the subschema, and whether a sibling can still evaluate a member later): the evaluator tries
// each candidate as it arrives and keeps only the ones that failed; the checker gets the outline's
// `unevaluatedMembers` and `unevaluatedItems`.
//
// Annotations of failed subschemas do not count, so while a sibling applies subschemas in place
// (allOf, $ref, if...) or marks items only once they matched (2020-12 `contains`), a member those
// could evaluate waits for the container's close. Any other member, nobody can evaluate later: a
// failing candidate fails at once (for in-place siblings, what they could evaluate is read from
// their outlines, rules/inPlaceReach.ts).

import type {CompiledKeyword, KeywordContext, KeywordDefinition, Run, SchemaNode} from '../../schema/node.js';
import {compileSchema} from './expect.js';
import {inPlaceReachOf} from './inPlaceReach.js';

export interface Unevaluated {
  readonly node: SchemaNode;
  /** No sibling can evaluate a member later: a failing candidate fails the keyword at once. */
  readonly decidesAtMember: boolean;
  /** Only in-place siblings can: a member none of them could evaluate is decided at once (InPlaceReach). */
  readonly reachDecides: boolean;
}

/** A candidate's slot under `unevaluatedProperties`: whether its verdict is final as it ends. */
const AT_CLOSE = 0;
const AT_MEMBER = 1;

/** Does a sibling keyword apply subschemas in place whose annotations count for `unevaluated*`? */
function siblingsAnnotateInPlace(context: KeywordContext): boolean {
  return Object.keys(context.schema).some((name) => context.draft.keywords.get(name)?.annotatesInPlace === true);
}

/** Does a sibling keyword mark items evaluated only once their subschema passed? */
function siblingsAnnotateMatches(context: KeywordContext): boolean {
  return Object.keys(context.schema).some((name) => context.draft.keywords.get(name)?.annotatesMatchedItems === true);
}

/**
 * The candidates held until the close, by member: those whose value failed the subschema (fine
 * only if someone else evaluated them), and those that passed with annotations (kept only if
 * nobody else did).
 */
class Held<K> {
  readonly failures = new Map<K, Run>();
  passes: Map<K, Run> | null = null;
}

/** What tells the two kinds of member apart: how each is named, found evaluated, and reported. */
interface MemberKind<K> {
  evaluated(run: Run): {has(member: K): boolean; add(member: K): void};
  /** The member a candidate run was applied to. */
  memberOf(run: Run, child: Run): K;
  /** No in-place sibling could evaluate the candidate's member (asked when `reachDecides`). */
  beyondReach(run: Run, keyword: CompiledKeyword<Unevaluated>, child: Run): boolean;
  location(member: K): string;
  message(member: K): string;
  params(member: K): Record<string, unknown>;
}

/** Fail for an unevaluated `member`: a `false` subschema says so in one error, any other gives its own. */
function failFor<K>(kind: MemberKind<K>, run: Run, keyword: CompiledKeyword<Unevaluated>, member: K, child: Run): void {
  if (keyword.value.node.bool === false) run.fail(keyword, kind.message(member), kind.params(member), kind.location(member));
  else run.failWith(child);
}

/**
 * What both keywords are: a candidate's verdict, and the close that decides the held ones. Each
 * adds the hook that tries a member as it arrives.
 */
function unevaluatedApplicator<K>(name: string, kind: MemberKind<K>, waitsForMatches: (context: KeywordContext) => boolean): KeywordDefinition<Unevaluated> {
  const newHeld = (): Held<K> => new Held();
  return {
    name,
    keepsFailedMembers: true,
    speculative: () => true,
    subschemas: 'schema',
    compile(value, context) {
      const inPlace = siblingsAnnotateInPlace(context);
      const matches = waitsForMatches(context);
      return {node: compileSchema(value, context), decidesAtMember: !inPlace && !matches, reachDecides: inPlace && !matches};
    },
    result(run, keyword, child) {
      const member = kind.memberOf(run, child);
      const decided = keyword.value.decidesAtMember || (keyword.value.reachDecides && kind.beyondReach(run, keyword, child));
      if (child.failed) {
        if (decided) failFor(kind, run, keyword, member, child);
        else run.state(keyword, newHeld).failures.set(member, child);
      } else if (child.annotations === null || decided) {
        kind.evaluated(run).add(member);
        run.mergeAnnotations(child);
      } else {
        // Its annotations count only if no sibling turns out to have evaluated the member.
        const held = run.state(keyword, newHeld);
        (held.passes ??= new Map()).set(member, child);
      }
    },
    end(run, keyword) {
      const held = run.peekState<Held<K>>(keyword);
      if (held === undefined) return;
      const evaluated = kind.evaluated(run);
      for (const [member, child] of held.failures) {
        if (evaluated.has(member)) continue;
        failFor(kind, run, keyword, member, child);
        if (run.settled) return;
      }
      for (const [member, child] of held.passes ?? []) {
        if (evaluated.has(member)) continue;
        evaluated.add(member);
        run.mergeAnnotations(child);
      }
    },
  };
}

const properties: MemberKind<string> = {
  evaluated: (run) => run.evaluatedProperties!,
  memberOf: (run, child) => run.evaluator.currentKey(child.depth),
  // Told by the key's plan (classify below), in the candidate's slot.
  beyondReach: (_run, _keyword, child) => child.slot === AT_MEMBER,
  location: (name) => name,
  message: (name) => `must NOT have unevaluated property "${name}"`,
  params: (name) => ({unevaluatedProperty: name}),
};

const items: MemberKind<number> = {
  evaluated: (run) => run.evaluatedItems!,
  memberOf: (_run, child) => child.slot,
  beyondReach: (run, keyword, child) => !inPlaceReachOf(run.node, keyword).mayEvaluateItem(child.slot),
  location: (index) => String(index),
  message: (index) => `must NOT have unevaluated item ${index}`,
  params: (index) => ({unevaluatedItem: index}),
};

/** `unevaluatedProperties` (core §11.3): decided at each key unless an in-place sibling could evaluate it. */
export function unevaluatedPropertiesApplicator(name: string): KeywordDefinition<Unevaluated> {
  const path = '/' + name;
  return {
    ...unevaluatedApplicator(name, properties, () => false),
    readsEvaluatedProperties: true,
    outline: (keyword, outline) => outline.unevaluatedMembers(keyword.value.node),
    // Whether the name's candidate is decided as it ends, once per name (key plans).
    classify(keyword, property, match, node) {
      if (!keyword.value.reachDecides) return AT_CLOSE;
      return inPlaceReachOf(node, keyword).mayEvaluateProperty(property, match) ? AT_CLOSE : AT_MEMBER;
    },
    key(run, keyword, property, slot: number) {
      // Keywords of this same node ran first (see the draft tables' order): what they took is settled.
      if (run.evaluatedProperties!.has(property)) return;
      run.applyToMember(keyword.value.node, keyword, slot, path);
    },
  };
}

/** `unevaluatedItems` (core §11.2): the same, and 2020-12 `contains` annotates too. */
export function unevaluatedItemsApplicator(name: string): KeywordDefinition<Unevaluated> {
  const path = '/' + name;
  return {
    ...unevaluatedApplicator(name, items, siblingsAnnotateMatches),
    readsEvaluatedItems: true,
    outline: (keyword, outline) => outline.unevaluatedItems(keyword.value.node),
    item(run, keyword, index) {
      if (run.evaluatedItems!.has(index)) return;
      run.applyToMember(keyword.value.node, keyword, index, path);
    },
  };
}
