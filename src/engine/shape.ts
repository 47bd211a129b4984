// The text checker's picture of what applies at a location (src/engine/checker.ts): a Shape holds
// every rule of the subschemas applied there with the place its failure goes (a Target), the
// Decisions its in-place applicators reach at the container's close, and the Members a property
// name or an item index selects in it, by way of its Sources. This is the data the checker reads
// per token; how it is built from the keywords' outlines is src/engine/shapeBuilder.ts, and how a
// document's tokens are judged against it is the checker's. Shape, Member and Sources refer to
// one another, so they sit in one file.

import {NameBudget, NameTable} from './nameCache.js';
import type {Scope} from './dynamicScope.js';
import type {Accepts, ScalarPlans} from './scalarPlan.js';
import type {CompiledKeyword, Matcher, SchemaNode} from '../schema/node.js';

/**
 * Where a rule's failure goes. DOCUMENT: the document fails. Otherwise a flag of the container some
 * levels above the rule's location (see Shape), both packed in one number, as `levels * LEVEL +
 * flag`, since a shape keeps thousands of them: read them with levelsUp and flagOf.
 */
export type Target = number;
export const DOCUMENT: Target = -1;
const LEVEL = 65536;
/** Flag `flag` of the container at the rule's own location. */
export const flagHere = (flag: number): Target => flag;
export const levelsUp = (target: Target): number => Math.floor(target / LEVEL);
export const flagOf = (target: Target): number => target % LEVEL;
/** The same target, seen from one level deeper (a member's location). */
export const fromMember = (target: Target): Target => (target === DOCUMENT ? DOCUMENT : target + LEVEL);

/** Item members kept per shape (Shape.itemMember); past these, worked out afresh each time. */
const MAX_INDICES = 256;

/** Flags and presence names per shape, at most. More: the evaluator decides. */
const MAX_BITS = LEVEL - 1;

/** Bit `bit` of a set kept as 32-bit words. */
export const isSet = (words: Int32Array, bit: number): boolean => (words[bit >> 5]! & (1 << (bit & 31))) !== 0;

/** Clear bits `bits` of a set kept as words. */
export function clearBits(words: Int32Array, bits: readonly number[]): void {
  for (let i = 0; i < bits.length; i++) words[bits[i]! >> 5]! &= ~(1 << (bits[i]! & 31));
}

/** Words for `bits` bits. */
export const wordsFor = (bits: number): number => (bits + 31) >> 5;

/** The word set kept at `level` in `sets`, zeroed over `count` words (made, or grown, when too short). */
export function cleared(sets: Int32Array[], level: number, count: number): Int32Array {
  let words = sets[level];
  if (words === undefined || words.length < count) sets[level] = words = new Int32Array(Math.max(count, 2));
  else for (let i = 0; i < count; i++) words[i] = 0;
  return words;
}

/** Bits set in a 32-bit word. */
export function bitCount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count++;
  return count;
}

/** `bits` as masks by word (for rules that test several bits of a set at once). */
export function masksOf(bits: readonly number[]): number[] {
  const masks: number[] = [];
  for (const bit of bits) {
    while (masks.length <= bit >> 5) masks.push(0);
    masks[bit >> 5]! |= 1 << (bit & 31);
  }
  return masks;
}

/**
 * A condition on a container's flags and presence bits, read at its close: when a source of
 * members inside conditional branches counts for `unevaluatedProperties` (its branches passed).
 * A term is `index * 4 + kind`; a condition is a list of terms that must all hold.
 */
export const FLAG_CLEAR = 0;
export const FLAG_SET = 1;
export const PRESENT = 2;
/** A term that never holds (a source under `not`: its annotations never count). */
export const NEVER = 3;
export const term = (kind: number, index: number): number => index * 4 + kind;

export function holds(condition: readonly number[], flags: Int32Array, seen: Int32Array): boolean {
  for (let i = 0; i < condition.length; i++) {
    const term = condition[i]!;
    const kind = term & 3;
    const index = term >> 2;
    if (kind === NEVER) return false;
    if (kind === PRESENT ? !isSet(seen, index) : isSet(flags, index) !== (kind === FLAG_SET)) return false;
  }
  return true;
}

/**
 * `unevaluatedProperties` beside conditional sources of members: the subschema is applied to each
 * property no unconditional source selects, its failure going to `flag` (cleared as each key
 * arrives). A property whose value failed it is remembered with the conditions under which
 * another source evaluated it; at the close, one that holds none of them fails `target`.
 */
export class UnevaluatedRule {
  constructor(
    readonly flag: number,
    readonly target: Target,
    /** The sources of the node's subtree: indices into the shape's member (or item) sources. */
    readonly sources: readonly number[],
    /** Per source: its conditions beyond the node's own (empty: unconditional). */
    readonly conditions: readonly (readonly number[])[],
    /**
     * Items only: the 2020-12 `contains` of the subtree, which evaluate the items they match. An
     * item matched one when that tally's flag is clear at the item's end; then `condition` counts.
     */
    readonly matches: readonly {readonly flag: number; readonly condition: readonly number[]}[] = [],
  ) {}
}

/** What a source of members or items means to `unevaluated*` beside it: it evaluates what it selects. */
export const EVALUATES = 0;
/** Its selections are no annotations: the members of an `enum`/`const` literal, `contains` before 2020-12. */
export const EVALUATES_NOTHING = 1;
/** `contains` in 2020-12: the items that match count, which is known only item by item. */
export const EVALUATES_MATCHES = 2;
export type Evaluation = typeof EVALUATES | typeof EVALUATES_NOTHING | typeof EVALUATES_MATCHES;

export const DECIDE_SOME = 0;
export const DECIDE_ONE = 1;
export const DECIDE_NONE = 2;
export const DECIDE_IF = 3;
export const DECIDE_WHEN = 4;
/** The pending properties of an UnevaluatedRule (Decision.rule: its index in the shape). */
export const DECIDE_UNEVALUATED = 5;
/** The same for items (Decision.rule: its index among the shape's item rules). */
export const DECIDE_UNEVALUATED_ITEMS = 6;

/**
 * A verdict an in-place applicator reaches at the container's close, from the flags its
 * subschemas' failures set.
 */
export class Decision {
  /** SOME/ONE: the branches' flags, as masks by word (see masksOf). */
  masks: number[] = [];
  /** NONE and WHEN: the subschema's flag; IF: the condition's. */
  flag = -1;
  /** IF: the flags of `then` and `else` (-1 where there is none). */
  thenFlag = -1;
  elseFlag = -1;
  /** WHEN: the trigger's presence bit. */
  trigger = -1;
  /** UNEVALUATED(_ITEMS): the rule's index among the shape's rules of its kind. */
  rule = -1;
  /**
   * SOME/ONE/NONE: how many branches are `true`; IF: 1 when the condition is. Such a branch passes
   * as it is applied, and the evaluator decides on it there (src/engine/decisions.ts, failsAlready).
   */
  passing = 0;

  constructor(
    readonly mode: number,
    readonly target: Target,
  ) {}
}

/** What a property name or an item index selects in a shape: the subschemas for its value. */
export class Member {
  /** The shape for the value when it is an object or array (made on first need). */
  shape: Shape | undefined = undefined;
  /** The property name this member is kept under in its shape's `members` (a copy), or null. */
  name: string | null = null;
  /** The stamp of the open object whose key last selected this member (src/engine/memberKeys.ts). */
  stamp = 0;
  /** Its name (kept) passed the shape's `keyNames` (`propertyNames`): a verdict on the name alone, not asked again. */
  nameAccepted = false;
  /**
   * When every node judges scalars by `accepts` alone (the common leaf), those predicates in one
   * list, each with its node's target: a scalar value is one loop. Null otherwise.
   */
  readonly accepts: Accepts[] | null = null;
  readonly acceptsKeywords: CompiledKeyword[] = [];
  readonly acceptsTargets: Target[] = [];
  /** Its `accepts` run no function of the caller's (KeywordDefinition.callsCaller): a verdict of theirs may be kept. */
  acceptsKeepable = true;
  /** No subschema applies to the value, or only `true` ones: any value passes. */
  readonly free: boolean;
  /** A `false` subschema applies to the value: the value fails as it begins, whatever it is. */
  readonly refuses: boolean;
  /**
   * Per UnevaluatedRule of the enclosing shape: the conditions under which a source evaluates
   * this name (null: unconditionally, so the rule's subschema is not applied to the value).
   */
  unevaluated: (readonly (readonly number[])[] | null)[] | null = null;

  constructor(
    /** The presence bit of the name in the enclosing shape (-1: none, and for items). */
    readonly presence: number,
    readonly nodes: readonly SchemaNode[],
    /** Where each node's failure goes, from the member's location. */
    readonly targets: readonly Target[],
    /** The dynamic scope each node is applied in. */
    readonly scopes: readonly Scope[],
    scalarPlans: ScalarPlans,
  ) {
    this.free = nodes.every((node) => node.bool === true);
    this.refuses = nodes.some((node) => node.bool === false);
    const plans = nodes.map((node) => (node.bool === undefined ? scalarPlans.of(node) : undefined));
    if (!plans.every((plan) => plan !== undefined && plan.plain)) return;
    this.accepts = [];
    plans.forEach((plan, index) => {
      for (let i = 0; i < plan!.accepts.length; i++) {
        const keyword = plan!.acceptsKeywords[i]!;
        if (keyword.definition.callsCaller?.(keyword) === true) this.acceptsKeepable = false;
        this.accepts!.push(plan!.accepts[i]!);
        this.acceptsKeywords.push(keyword);
        this.acceptsTargets.push(targets[index]!);
      }
    });
  }
}

const NO_NODES: readonly SchemaNode[] = [];

/** What tells two members apart: their nodes, with the targets and scopes they apply in. Equal members have one shape. */
export function signatureOf({nodes, targets, scopes}: Member): string {
  let signature = '';
  for (let i = 0; i < nodes.length; i++) signature += nodes[i]!.id + ':' + targets[i] + ':' + scopes[i]!.id + ',';
  return signature;
}

/** What a key (a name or an index) selects; a name's regular expressions run through `match`. */
export type Selector<K> = (key: K, match: Matcher) => readonly SchemaNode[] | undefined;

/**
 * What selects the subschemas for an object's properties (by name) or an array's items (by
 * index) at one location: per source, the selector, where a failure of what it selects goes, the
 * dynamic scope, when its annotations count (see holds), and what it means to `unevaluated*`;
 * and the UnevaluatedRules over these sources, with their flags (cleared as each member starts).
 */
export class Sources<K> {
  readonly selectors: Selector<K>[] = [];
  readonly targets: Target[] = [];
  readonly scopes: Scope[] = [];
  readonly conditions: (readonly number[])[] = [];
  readonly evaluation: Evaluation[] = [];
  readonly rules: UnevaluatedRule[] = [];
  readonly ruleFlags: number[] = [];
  /** The names some source selects by name (Outline.members), for code written per name. */
  readonly names = new Set<string>();
  /**
   * Some source may tell names outside `names` apart (`patternProperties`, an object literal):
   * false, every such name selects the same, and has one member.
   */
  tellsOtherNamesApart = false;
  /** Items: from this index on, every source selects alike (Outline.items; Infinity: none is known to). */
  alikeFrom = 0;

  /** `alikeFrom` (items): from this index on, `selector` selects the same at every index. */
  add(selector: Selector<K>, target: Target, scope: Scope, condition: readonly number[], evaluation: Evaluation, alikeFrom = Infinity): void {
    this.alikeFrom = Math.max(this.alikeFrom, alikeFrom);
    this.selectors.push(selector);
    this.targets.push(target);
    this.scopes.push(scope);
    this.conditions.push(condition);
    this.evaluation.push(evaluation);
  }

  /**
   * Items: an index whose member is the member of item `index`, the same for every index past
   * those the sources tell apart. A long array then needs one member, not one per item.
   */
  alike(index: number): number {
    return index < this.alikeFrom ? index : this.alikeFrom;
  }

  /** The member `key` selects (`presence`: its presence bit, or -1). */
  select(key: K, presence: number, plans: ScalarPlans, match: Matcher): Member {
    const nodes: SchemaNode[] = [];
    const targets: Target[] = [];
    const scopes: Scope[] = [];
    const {selectors} = this;
    for (let i = 0; i < selectors.length; i++) {
      const selected = selectors[i]!(key, match);
      if (selected !== undefined) for (const node of selected) if (node.bool !== true) (nodes.push(node), targets.push(this.targets[i]!), scopes.push(this.scopes[i]!));
    }
    const member = new Member(presence, nodes.length === 0 ? NO_NODES : nodes, targets, scopes, plans);
    if (this.rules.length > 0) member.unevaluated = this.rules.map((rule) => this.evaluatedWhen(rule, key, match));
    return member;
  }

  /** When a rule's sources evaluate `key`: null unconditionally, else their conditions (none: never). */
  private evaluatedWhen(rule: UnevaluatedRule, key: K, match: Matcher): (readonly number[])[] | null {
    const when: (readonly number[])[] = [];
    for (let i = 0; i < rule.sources.length; i++) {
      if (this.selectors[rule.sources[i]!]!(key, match) === undefined) continue;
      const condition = rule.conditions[i]!;
      if (condition.length === 0) return null;
      when.push(condition);
    }
    return when;
  }
}

/** What may fail in a container of a shape before its close, for a session's checker, worked out once. */
export interface EagerFacts {
  /** The decisions that may fail before the close (src/engine/decisions.ts, mayFailEarly). */
  readonly decisions: readonly Decision[];
  /** The most members and items any bound allows (Infinity: none). */
  readonly mostMembers: number;
  readonly mostItems: number;
}

/** Everything the schema asks of the objects and arrays at one location. */
export class Shape {
  /** A keyword here cannot be judged by the checker. */
  unsure = false;
  /** Objects of this shape open now, in any checker: only the outermost stamps its members (src/engine/memberKeys.ts). */
  openObjects = 0;
  /** The kinds of container judged whole here by a keyword the checker does not run (Outline.judgedWhole). */
  judgedWhole = 0;
  readonly objectFails: Target[] = [];
  readonly arrayFails: Target[] = [];
  // Scalars: the `accepts` of every node applied here, the kinds rules of keywords without one,
  // and the `false` nodes; then the decisions, as for a container.
  readonly scalarFails: Target[] = [];
  readonly scalarAccepts: Accepts[] = [];
  readonly scalarAcceptsKeywords: CompiledKeyword[] = [];
  readonly scalarAcceptsTargets: Target[] = [];
  readonly scalarKinds: number[] = [];
  readonly scalarKindTargets: Target[] = [];
  /** The member for a property name, judged as a string (`keyNames`): see keyNamesMemberOf. */
  private keyNamesMember: Member | undefined = undefined;
  // Objects
  readonly memberSources = new Sources<string>();
  readonly keyNameNodes: SchemaNode[] = [];
  readonly keyNameTargets: Target[] = [];
  readonly keyNameScopes: Scope[] = [];
  /** Names whose presence some rule needs, with their bits. */
  readonly presenceBits = new Map<string, number>();
  /** Per presence rule: the bits of the names it needs, as masks by word; its trigger's bit (-1: none). */
  readonly presenceMasks: number[][] = [];
  readonly presenceTriggers: number[] = [];
  readonly presenceTargets: Target[] = [];
  readonly propertyBounds: number[] = [];
  readonly propertyTargets: Target[] = [];
  // Arrays
  readonly itemSources = new Sources<number>();
  readonly itemBounds: number[] = [];
  readonly itemTargetsOfBounds: Target[] = [];
  /** Where a repeated item's failure goes (uniqueItems), one target per rule. */
  readonly distinctTargets: Target[] = [];
  /**
   * Items counted against a subschema (contains): each tally's flag is cleared as an item starts
   * and read when it ends (set: the item failed the subschema); the count must end in bounds.
   */
  readonly tallyBits: number[] = [];
  readonly tallyBounds: number[] = [];
  readonly tallyTargets: Target[] = [];
  /** Per tally: its subschema is `true`, which an item passes as it starts (the evaluator counts it there). */
  readonly tallyAtStart: boolean[] = [];
  // Both
  readonly decisions: Decision[] = [];
  /** What a session's checker looks at before the close (src/engine/streamChecker.ts); null until it first asks. */
  eager: EagerFacts | null = null;
  flags = 0;
  /**
   * Something happens as a member of a container of this shape ends, or starts as an item
   * (uniqueItems, contains, unevaluatedProperties with UnevaluatedRules; set once built).
   */
  extras = false;
  /** Words of flags and of presence bits a container of this shape needs (set once built). */
  flagWords = 0;
  presenceWords = 0;
  /**
   * The members by property name, and at each key position the member of the name met there last
   * (src/engine/nameCache.ts): names of the document, kept as copies within the cache's budget.
   */
  readonly named: NameTable<Member>;
  readonly items: Member[] = [];

  constructor(budget: NameBudget) {
    this.named = new NameTable(budget);
  }

  /**
   * The member that judges a property name as a string (`keyNames`), made on first need: as the
   * value of a member would be, one level below the object, whose flags its failures set.
   */
  keyNamesMemberOf(plans: ScalarPlans): Member {
    return (this.keyNamesMember ??= new Member(-1, this.keyNameNodes, this.keyNameTargets.map(fromMember), this.keyNameScopes, plans));
  }

  /** The member of item `item` (its alike index's: Sources.alike), kept for the first MAX_INDICES indices. */
  itemMember(item: number, plans: ScalarPlans, match: Matcher): Member {
    const index = this.itemSources.alike(item);
    const known = this.items[index];
    if (known !== undefined) return known;
    if (index >= MAX_INDICES) return this.itemSources.select(index, -1, plans, match);
    // Those before it too: they are kept by index, and generated code asks only for some items
    // (programs.ts, holdItem), where the checker asks for each in turn.
    while (this.items.length <= index) this.items.push(this.itemSources.select(this.items.length, -1, plans, match));
    return this.items[index]!;
  }

  bitOf(name: string): number {
    let bit = this.presenceBits.get(name);
    if (bit === undefined) {
      bit = this.presenceBits.size;
      if (bit >= MAX_BITS) {
        this.unsure = true;
        return 0;
      }
      this.presenceBits.set(name, bit);
    }
    return bit;
  }

  newFlag(): number {
    if (this.flags >= MAX_BITS) {
      this.unsure = true;
      return 0;
    }
    return this.flags++;
  }
}
