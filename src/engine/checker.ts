// The fast verdict of validateText and validate: the text checker. Most documents are valid, and
// for them only the verdict matters; the evaluator's runs, reports and per-keyword hook calls cost
// more than twice the tokenizer on the engine benchmark's records. The checker reads the same
// tokens with none of that (docs/decisions.md, "validateText's fast verdict"):
//
// - What applies at a location is a *shape*: the rules of every subschema applied there, each
//   with the place its failure goes (the document, or a flag of an enclosing container that an
//   `anyOf`, `not`, `if`... reads at its close). Keywords describe themselves in these terms
//   (KeywordDefinition.outline); scalars are judged by the keywords' own `accepts`.
// - A shape is built once per distinct set of applications and kept; what a property name or an
//   item index selects in it (a *member*) is kept too, so a key costs a string comparison with
//   the name met at its position last time, or a map lookup.
//
// Only a pass is trusted: a failure anywhere, a repeated key, a limit, or something the checker
// cannot judge (a `$dynamicRef` in a member value judged apart, past its bounds) sends the
// document to the evaluator, which finds the errors and where they became certain. The suite and
// random changes to its documents check the checker alone (test/checker.test.ts).
//
// Value mode asks the same checker first (checkValue): an already-parsed value is read as the same
// events, a recursive walk with `for...in` (V8 reads members from its enumeration cache), and
// anything that is not JSON within the limits is left to the evaluator's walk, which says what.

import {InputError} from '../output/errors.js';
import {Hash, addToHash, hashScalar, hashValue, startHash} from './fingerprint.js';
import {ItemFingerprints} from '../keywords/rules/itemFingerprints.js';
import {KeySet} from './keySet.js';
import {NameBudget, NameTable} from './nameCache.js';
import {HeldScalar} from './scalar.js';
import {ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, acts, type CompiledKeyword, type Kind, type KeywordDefinition, type Matcher, type Outline, type Resource, type SchemaNode} from '../schema/node.js';
import {PatternTests} from './patterns.js';
import {Tokenizer} from '../json/tokenizer.js';
import {TextScanner, decodeString, type RangeSink} from '../json/scanner.js';
import type {Limits, TokenSink} from '../types.js';

type Accepts = NonNullable<KeywordDefinition['accepts']>;

/**
 * Where a rule's failure goes. DOCUMENT: the document fails. Otherwise a flag of the container some
 * levels above the rule's location (see Shape), both packed in one number, as `levels * LEVEL +
 * flag`, since a shape keeps thousands of them: read them with levelsUp and flagOf.
 */
type Target = number;
const DOCUMENT: Target = -1;
const LEVEL = 65536;
/** Flag `flag` of the container at the rule's own location. */
const flagHere = (flag: number): Target => flag;
const levelsUp = (target: Target): number => Math.floor(target / LEVEL);
const flagOf = (target: Target): number => target % LEVEL;
/** The same target, seen from one level deeper (a member's location). */
const fromMember = (target: Target): Target => (target === DOCUMENT ? DOCUMENT : target + LEVEL);

/** Flags and presence names per shape, at most. More: the evaluator decides. */
const MAX_BITS = LEVEL - 1;

/** Bit `bit` of a set kept as 32-bit words. */
const isSet = (words: Int32Array, bit: number): boolean => (words[bit >> 5]! & (1 << (bit & 31))) !== 0;

/** Clear bits `bits` of a set kept as words. */
function clearBits(words: Int32Array, bits: readonly number[]): void {
  for (let i = 0; i < bits.length; i++) words[bits[i]! >> 5]! &= ~(1 << (bits[i]! & 31));
}

/** Words for `bits` bits. */
const wordsFor = (bits: number): number => (bits + 31) >> 5;

/** `bits` as masks by word (for rules that test several bits of a set at once). */
function masksOf(bits: readonly number[]): number[] {
  const masks: number[] = [];
  for (const bit of bits) {
    while (masks.length <= bit >> 5) masks.push(0);
    masks[bit >> 5]! |= 1 << (bit & 31);
  }
  return masks;
}
/** In-place applications deeper than this (a `$ref` cycle that never descends): the evaluator decides. */
const MAX_IN_PLACE = 200;
/**
 * Names and indices remembered per shape; past these, or past the budget of the schema's kept
 * names (CheckerCache.budget), members are worked out afresh each time.
 */
const MAX_NAMES = 1024;
const MAX_INDICES = 256;
/** What a kept member costs beside its name's characters (~1,400-1,700 bytes: benchmarks/name-cache-memory.ts). */
const MEMBER_BYTES = 2048;
/** Shapes kept per schema; past this, shapes are built afresh for each container. */
const MAX_SHAPES = 4096;
/**
 * checkValue recurses on the JavaScript stack: a value nested deeper than this is left to the
 * evaluator's walk, which keeps a stack of its own (and enforces limits.maxDepth).
 */
const MAX_VALUE_DEPTH = 400;

/** The checker's verdict on the last document. */
export const PASS = 0;
export const FAIL = 1;
/** The checker could not judge: the evaluator must. */
export const UNSURE = 2;
export type Outcome = typeof PASS | typeof FAIL | typeof UNSURE;

/** A keyword that judges containers (a hook other than `scalar`). */
function judgesContainers(definition: KeywordDefinition): boolean {
  return definition.begin !== undefined || definition.key !== undefined || definition.item !== undefined || definition.end !== undefined;
}

/**
 * The dynamic scope of an application, for `$dynamicRef` and `$recursiveRef`: the schema resources
 * entered on the way to it, each kept once at its outermost entry, which is all those keywords
 * read (the outermost resource with a matching anchor wins). Interned: equal scopes are one
 * object, and its id goes into shape signatures.
 */
class Scope {
  private static count = 0;
  readonly id = Scope.count++;
  private readonly entered = new Map<Resource, Scope>();
  /** The scope begins somewhere not known here (a member value judged apart: see TextChecker.beginValue). */
  readonly partial: boolean;

  constructor(
    readonly resource: Resource | null,
    readonly parent: Scope | null,
    partial = false,
  ) {
    this.partial = partial || (parent !== null && parent.partial);
  }

  /** This scope after applying a node of `resource`. */
  enter(resource: Resource): Scope {
    if (this.resource === resource) return this;
    let child = this.entered.get(resource);
    if (child === undefined) {
      child = this.includes(resource) ? this : new Scope(resource, this);
      this.entered.set(resource, child);
    }
    return child;
  }

  private includes(resource: Resource): boolean {
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) if (scope.resource === resource) return true;
    return false;
  }

  /** The resources, innermost first. */
  *resources(): Generator<Resource> {
    for (let scope: Scope | null = this; scope !== null && scope.resource !== null; scope = scope.parent) yield scope.resource;
  }
}

// ---- scalars ----

/**
 * What one node's own keywords make of a scalar: their `accepts`, and whether anything else acts
 * on it (an in-place subschema, a `kinds` rule of a keyword without `accepts`). A member whose
 * nodes are all plain (the common leaf) is judged by these predicates in one loop (Member.accepts);
 * any other scalar is judged by the shape of its location, as a container is (judgeScalar).
 */
export class ScalarPlan {
  readonly accepts: Accepts[] = [];
  readonly acceptsKeywords: CompiledKeyword[] = [];
  /** Only the `accepts` above act on a scalar. */
  plain = true;
}

/** Tells whether a node's outlines ask anything of a scalar besides its keywords' `accepts`. */
class ScalarPlanOutline implements Outline {
  constructor(private readonly plan: ScalarPlan) {}
  private notPlain(): void {
    this.plan.plain = false;
  }
  kinds = this.notPlain;
  all = this.notPlain;
  dynamic = this.notPlain;
  some = this.notPlain;
  none = this.notPlain;
  conditional = this.notPlain;
  // Objects and arrays only.
  members(): void {}
  keyNames(): void {}
  present(): void {}
  propertyCount(): void {}
  items(): void {}
  itemCount(): void {}
  distinctItems(): void {}
  tally(): void {}
  unevaluatedMembers(): void {}
  unevaluatedItems(): void {}
  when(): void {}
  judgedWhole(): void {}
}

/**
 * The scalar plans of one compiled schema, by node id (held by its CheckerCache): they depend on
 * the schema alone, and are kept here rather than on the nodes, which hold nothing an engine writes.
 */
class ScalarPlans {
  private readonly byNode: (ScalarPlan | undefined)[] = [];

  of(node: SchemaNode): ScalarPlan {
    return (this.byNode[node.id] ??= scalarPlanOf(node));
  }
}

function scalarPlanOf(node: SchemaNode): ScalarPlan {
  const plan = new ScalarPlan();
  const outline = new ScalarPlanOutline(plan);
  for (const keyword of node.keywords) {
    const {definition} = keyword;
    if (!acts(definition)) continue;
    if (definition.accepts !== undefined) {
      plan.accepts.push(definition.accepts);
      plan.acceptsKeywords.push(keyword);
    } else if (definition.outline !== undefined) definition.outline(keyword, outline);
    else plan.plain = false;
  }
  return plan;
}

// ---- containers ----

/**
 * A condition on a container's flags and presence bits, read at its close: when a source of
 * members inside conditional branches counts for `unevaluatedProperties` (its branches passed).
 * A term is `index * 4 + kind`; a condition is a list of terms that must all hold.
 */
const FLAG_CLEAR = 0;
const FLAG_SET = 1;
const PRESENT = 2;
/** A term that never holds (a source under `not`: its annotations never count). */
const NEVER = 3;
const term = (kind: number, index: number): number => index * 4 + kind;

function holds(condition: readonly number[], flags: Int32Array, seen: Int32Array): boolean {
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
class UnevaluatedRule {
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
const EVALUATES = 0;
/** Its selections are no annotations: the members of an `enum`/`const` literal, `contains` before 2020-12. */
const EVALUATES_NOTHING = 1;
/** `contains` in 2020-12: the items that match count, which is known only item by item. */
const EVALUATES_MATCHES = 2;
type Evaluation = typeof EVALUATES | typeof EVALUATES_NOTHING | typeof EVALUATES_MATCHES;

const DECIDE_SOME = 0;
const DECIDE_ONE = 1;
const DECIDE_NONE = 2;
const DECIDE_IF = 3;
const DECIDE_WHEN = 4;
/** The pending properties of an UnevaluatedRule (Decision.rule: its index in the shape). */
const DECIDE_UNEVALUATED = 5;
/** The same for items (Decision.rule: its index among the shape's item rules). */
const DECIDE_UNEVALUATED_ITEMS = 6;

/**
 * A verdict an in-place applicator reaches at the container's close, from the flags its
 * subschemas' failures set.
 */
class Decision {
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

  constructor(
    readonly mode: number,
    readonly target: Target,
  ) {}
}

/** What a property name or an item index selects in a shape: the subschemas for its value. */
class Member {
  /** The shape for the value when it is an object or array (made on first need). */
  shape: Shape | undefined = undefined;
  /** The property name this member is kept under in its shape's `members` (a copy), or null. */
  name: string | null = null;
  /**
   * When every node judges scalars by `accepts` alone (the common leaf), those predicates in one
   * list, each with its node's target: a scalar value is one loop. Null otherwise.
   */
  readonly accepts: Accepts[] | null = null;
  readonly acceptsKeywords: CompiledKeyword[] = [];
  readonly acceptsTargets: Target[] = [];
  /** No subschema applies to the value, or only `true` ones: any value passes. */
  readonly free: boolean;
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
    const plans = nodes.map((node) => (node.bool === undefined ? scalarPlans.of(node) : undefined));
    if (!plans.every((plan) => plan !== undefined && plan.plain)) return;
    this.accepts = [];
    plans.forEach((plan, index) => {
      for (let i = 0; i < plan!.accepts.length; i++) {
        this.accepts!.push(plan!.accepts[i]!);
        this.acceptsKeywords.push(plan!.acceptsKeywords[i]!);
        this.acceptsTargets.push(targets[index]!);
      }
    });
  }
}

const NO_NODES: readonly SchemaNode[] = [];

/** What a key (a name or an index) selects; a name's regular expressions run through `match`. */
type Selector<K> = (key: K, match: Matcher) => readonly SchemaNode[] | undefined;

/**
 * What selects the subschemas for an object's properties (by name) or an array's items (by
 * index) at one location: per source, the selector, where a failure of what it selects goes, the
 * dynamic scope, when its annotations count (see holds), and what it means to `unevaluated*`;
 * and the UnevaluatedRules over these sources, with their flags (cleared as each member starts).
 */
class Sources<K> {
  readonly selectors: Selector<K>[] = [];
  readonly targets: Target[] = [];
  readonly scopes: Scope[] = [];
  readonly conditions: (readonly number[])[] = [];
  readonly evaluation: Evaluation[] = [];
  readonly rules: UnevaluatedRule[] = [];
  readonly ruleFlags: number[] = [];

  add(selector: Selector<K>, target: Target, scope: Scope, condition: readonly number[], evaluation: Evaluation): void {
    this.selectors.push(selector);
    this.targets.push(target);
    this.scopes.push(scope);
    this.conditions.push(condition);
    this.evaluation.push(evaluation);
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

/** Everything the schema asks of the objects and arrays at one location. */
class Shape {
  /** A keyword here cannot be judged by the checker. */
  unsure = false;
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
  /** The member for a property name, judged as a string (`keyNames`), made on first need. */
  keyNamesMember: Member | undefined = undefined;
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
  // Both
  readonly decisions: Decision[] = [];
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

/** Builds a shape from the applications at a location: the Outline keywords describe themselves to. */
class ShapeBuilder implements Outline {
  private target: Target = DOCUMENT;
  /** The dynamic scope of the node being applied (its own resource entered); set by apply before any outline call. */
  private scope!: Scope;
  private depth = 0;
  /** The conditions under which the application being added counts (see holds). */
  private condition: number[] = [];
  /** Where the node being applied starts in `condition` and in the decisions. */
  private nodeCondition = 0;
  private nodeDecisions = 0;
  /** Where the member and item sources of the node being applied begin (see unevaluatedMembers). */
  private nodeSources = 0;
  private nodeItemSources = 0;
  /** The keyword being outlined has `accepts`, which decides scalars for it. */
  private judgesScalars = false;

  constructor(
    private readonly shape: Shape,
    private readonly onUnsupported: () => void,
  ) {}

  /** Add the rules of `node`, applied in `scope`, its failures going to `target`. */
  apply(node: SchemaNode, target: Target, scope: Scope): void {
    const {shape} = this;
    if (node.bool === true) return;
    if (node.bool === false) {
      shape.objectFails.push(target);
      shape.arrayFails.push(target);
      shape.scalarFails.push(target);
      return;
    }
    // An unsure shape is left to the evaluator: building on would only cost (a cycle whose nodes
    // have two branches each doubles at every level).
    if (shape.unsure) return;
    if (this.depth >= MAX_IN_PLACE) {
      shape.unsure = true;
      return;
    }
    const outer = this.target;
    const outerScope = this.scope;
    const outerSources = this.nodeSources;
    const outerItemSources = this.nodeItemSources;
    const outerCondition = this.nodeCondition;
    const outerDecisions = this.nodeDecisions;
    const outerJudgesScalars = this.judgesScalars;
    this.target = target;
    this.scope = scope.enter(node.resource);
    this.nodeSources = shape.memberSources.selectors.length;
    this.nodeItemSources = shape.itemSources.selectors.length;
    this.nodeCondition = this.condition.length;
    this.nodeDecisions = shape.decisions.length;
    this.depth++;
    for (const keyword of node.keywords) {
      const {definition} = keyword;
      if (!acts(definition)) continue;
      const {accepts} = definition;
      if (accepts !== undefined) {
        shape.scalarAccepts.push(accepts);
        shape.scalarAcceptsKeywords.push(keyword);
        shape.scalarAcceptsTargets.push(target);
      }
      this.judgesScalars = accepts !== undefined;
      if (definition.outline !== undefined) definition.outline(keyword, this);
      else if (accepts === undefined || judgesContainers(definition)) {
        shape.unsure = true;
        this.onUnsupported();
      }
    }
    this.depth--;
    this.target = outer;
    this.scope = outerScope;
    this.nodeSources = outerSources;
    this.nodeItemSources = outerItemSources;
    this.nodeCondition = outerCondition;
    this.nodeDecisions = outerDecisions;
    this.judgesScalars = outerJudgesScalars;
  }

  /**
   * Apply a subschema whose failure goes to `flag`: a conditional branch, whose annotations count
   * when all of `terms` hold (see holds).
   */
  private branch(node: SchemaNode, flag: number, ...terms: number[]): void {
    const length = this.condition.length;
    this.condition.push(...terms);
    this.apply(node, flagHere(flag), this.scope);
    this.condition.length = length;
  }

  kinds(mask: number): void {
    if ((mask & OBJECT) === 0) this.shape.objectFails.push(this.target);
    if ((mask & ARRAY) === 0) this.shape.arrayFails.push(this.target);
    // A keyword with `accepts` judges scalars by it alone (a literal object fails a number).
    if (!this.judgesScalars) {
      this.shape.scalarKinds.push(mask);
      this.shape.scalarKindTargets.push(this.target);
    }
  }

  judgedWhole(mask: number): void {
    this.shape.judgedWhole |= mask;
  }

  members(nodesOf: Selector<string>, annotates = true): void {
    this.shape.memberSources.add(nodesOf, fromMember(this.target), this.scope, this.condition.slice(), annotates ? EVALUATES : EVALUATES_NOTHING);
  }

  unevaluatedMembers(node: SchemaNode): void {
    this.unevaluated(this.shape.memberSources, this.nodeSources, node, DECIDE_UNEVALUATED);
  }

  /**
   * `unevaluated*`: the members evaluated here are those the sources of this node and its
   * in-place subschemas select, each counting when the branches it sits in (below this node)
   * pass, and, for items, those a 2020-12 `contains` matched. With none of these conditional, the
   * subschema applies to every member no source selects, at once. Else see UnevaluatedRule.
   */
  private unevaluated<K>(table: Sources<K>, start: number, node: SchemaNode, mode: number): void {
    const {shape} = this;
    const sources: number[] = [];
    const conditions: number[][] = [];
    const matches: {flag: number; condition: number[]}[] = [];
    for (let i = start; i < table.selectors.length; i++) {
      const evaluation = table.evaluation[i];
      const condition = table.conditions[i]!.slice(this.nodeCondition);
      if (evaluation === EVALUATES_MATCHES) matches.push({flag: flagOf(table.targets[i]!), condition});
      else if (evaluation === EVALUATES) (sources.push(i), conditions.push(condition));
    }
    const nodes = [node];
    const selects = (key: K, match: Matcher, unconditional: boolean): boolean =>
      sources.some((source, at) => (!unconditional || conditions[at]!.length === 0) && table.selectors[source]!(key, match) !== undefined);
    if (matches.length === 0 && conditions.every((condition) => condition.length === 0)) {
      // It evaluates every member itself: an enclosing unevaluated* sees them all.
      table.add((key, match) => (selects(key, match, false) ? undefined : nodes), fromMember(this.target), this.scope, this.condition.slice(), EVALUATES);
      return;
    }
    const flag = shape.newFlag();
    table.rules.push(new UnevaluatedRule(flag, this.target, sources, conditions, matches));
    table.ruleFlags.push(flag);
    // Decided after the decisions of this node's subtree (they set the flags its conditions read)
    // and before those enclosing it (its failure may go to one of their flags).
    const decision = new Decision(mode, this.target);
    decision.rule = table.rules.length - 1;
    shape.decisions.splice(this.nodeDecisions, 0, decision);
    table.add((key, match) => (selects(key, match, true) ? undefined : nodes), fromMember(flagHere(flag)), this.scope, this.condition.slice(), EVALUATES);
  }

  keyNames(node: SchemaNode): void {
    this.shape.keyNameNodes.push(node);
    this.shape.keyNameTargets.push(this.target);
    this.shape.keyNameScopes.push(this.scope);
  }

  present(names: readonly string[], trigger?: string): void {
    const {shape} = this;
    shape.presenceMasks.push(masksOf(names.map((name) => shape.bitOf(name))));
    shape.presenceTriggers.push(trigger === undefined ? -1 : shape.bitOf(trigger));
    shape.presenceTargets.push(this.target);
  }

  propertyCount(min: number, max: number): void {
    this.shape.propertyBounds.push(min, max);
    this.shape.propertyTargets.push(this.target);
  }

  items(nodesAt: (index: number) => readonly SchemaNode[] | undefined): void {
    this.shape.itemSources.add(nodesAt, fromMember(this.target), this.scope, this.condition.slice(), EVALUATES);
  }

  unevaluatedItems(node: SchemaNode): void {
    this.unevaluated(this.shape.itemSources, this.nodeItemSources, node, DECIDE_UNEVALUATED_ITEMS);
  }

  itemCount(min: number, max: number): void {
    this.shape.itemBounds.push(min, max);
    this.shape.itemTargetsOfBounds.push(this.target);
  }

  distinctItems(): void {
    this.shape.distinctTargets.push(this.target);
  }

  tally(node: SchemaNode, min: number, max: number, annotates: boolean): void {
    const {shape} = this;
    const flag = shape.newFlag();
    const nodes = [node];
    shape.itemSources.add(() => nodes, fromMember(flagHere(flag)), this.scope, this.condition.slice(), annotates ? EVALUATES_MATCHES : EVALUATES_NOTHING);
    shape.tallyBits.push(flag);
    shape.tallyBounds.push(min, max);
    shape.tallyTargets.push(this.target);
  }

  all(node: SchemaNode): void {
    this.apply(node, this.target, this.scope);
  }

  dynamic(resolve: (scope: Iterable<Resource>) => SchemaNode): void {
    // Without the whole scope the target is not known: the evaluator decides.
    if (this.scope.partial) this.shape.unsure = true;
    else this.apply(resolve(this.scope.resources()), this.target, this.scope);
  }

  some(nodes: readonly SchemaNode[], exactly: boolean): void {
    // The decision goes in before its subschemas' own: decisions are taken last to first, so the
    // ones nested in a branch have set their flags by then.
    const decision = new Decision(exactly ? DECIDE_ONE : DECIDE_SOME, this.target);
    this.shape.decisions.push(decision);
    const flags = nodes.map(() => this.shape.newFlag());
    decision.masks = masksOf(flags);
    nodes.forEach((node, index) => this.branch(node, flags[index]!, term(FLAG_CLEAR, flags[index]!)));
  }

  none(node: SchemaNode): void {
    const flag = this.shape.newFlag();
    const decision = new Decision(DECIDE_NONE, this.target);
    decision.flag = flag;
    this.shape.decisions.push(decision);
    this.branch(node, flag, NEVER);
  }

  conditional(condition: SchemaNode, then: SchemaNode | undefined, otherwise: SchemaNode | undefined): void {
    const decision = new Decision(DECIDE_IF, this.target);
    decision.flag = this.shape.newFlag();
    this.shape.decisions.push(decision);
    const passed = term(FLAG_CLEAR, decision.flag);
    this.branch(condition, decision.flag, passed);
    if (then !== undefined) {
      decision.thenFlag = this.shape.newFlag();
      this.branch(then, decision.thenFlag, passed, term(FLAG_CLEAR, decision.thenFlag));
    }
    if (otherwise !== undefined) {
      decision.elseFlag = this.shape.newFlag();
      this.branch(otherwise, decision.elseFlag, term(FLAG_SET, decision.flag), term(FLAG_CLEAR, decision.elseFlag));
    }
  }

  when(trigger: string, node: SchemaNode): void {
    const flag = this.shape.newFlag();
    const bit = this.shape.bitOf(trigger);
    const decision = new Decision(DECIDE_WHEN, this.target);
    decision.trigger = bit;
    decision.flag = flag;
    this.shape.decisions.push(decision);
    this.branch(node, flag, term(PRESENT, bit), term(FLAG_CLEAR, flag));
  }
}

/** Every bit of `masks` (by word) is set in `words`. */
function hasAll(words: Int32Array, masks: readonly number[]): boolean {
  for (let word = 0; word < masks.length; word++) if ((words[word]! & masks[word]!) !== masks[word]) return false;
  return true;
}

/** The word set kept at `level` in `sets`, zeroed over `count` words (grown when too short). */
function cleared(sets: Int32Array[], level: number, count: number): Int32Array {
  const words = sets[level];
  if (words === undefined || words.length < count) return new Int32Array(Math.max(count, 2));
  for (let i = 0; i < count; i++) words[i] = 0;
  return words;
}

/** Bits set in a 32-bit word. */
function bitCount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count++;
  return count;
}

/** What checkers of one schema share: the shapes and members built so far (see TextChecker). */
export class CheckerCache {
  /** False once the schema turned out to have a keyword the checker cannot ask: stop trying. */
  usable = true;
  readonly shapes = new Map<string, Shape>();
  /** What the property names kept by the shapes' members may still take. */
  readonly budget = new NameBudget(MEMBER_BYTES);
  readonly scalarPlans = new ScalarPlans();
  /** Members for values judged apart (beginValue): by their one node, or by their nodes' ids. */
  readonly valuesOfNode = new Map<SchemaNode, Member>();
  readonly values = new Map<string, Member>();
  /**
   * The scopes everything starts from: a document's, and a member value's judged apart (what lies
   * outside it is not known). They intern the scopes entered from them by resource, so they belong
   * to one schema: module-level ones kept every schema that ever checked a container alive.
   */
  readonly documentScope = new Scope(null, null);
  readonly partialScope = new Scope(null, null, true);
}

export class TextChecker implements TokenSink, RangeSink {
  outcome: Outcome = PASS;
  /** Why the last document was UNSURE, for tests. */
  unsureOf: 'schema' | 'input' | 'bounds' | 'keyword' | undefined = undefined;
  /** What reads the document's text, to be stopped at a verdict. */
  private tokenizer: Tokenizer | TextScanner | null = null;
  /** Reads whole texts for checkText; made on first need. */
  private scanner: TextScanner | null = null;
  private readonly root: Member;
  /** The member for the value at depth 0: the document's, or one judged apart (beginValue). */
  private top: Member;
  // The open containers, by depth.
  private depth = 0;
  private readonly open: Shape[] = [];
  private readonly kinds: Kind[] = [];
  private readonly counts: number[] = [];
  /** Presence bits and flags of the open containers, as words (see isSet). */
  private readonly seen: Int32Array[] = [];
  private readonly flags: Int32Array[] = [];
  private readonly keySets: KeySet[] = [];
  /**
   * The fingerprints of the items of the open arrays under `uniqueItems`, by depth: two items are
   * equal when their fingerprints are (src/engine/fingerprint.ts), as in the evaluator. A collision
   * of two different items fails here and goes to the evaluator, which reports the same false
   * duplicate (docs/keywords.md, uniqueItems).
   */
  private readonly distinct: ItemFingerprints[] = [];
  /** The counts of the open arrays' tallies (Shape.tallyBits), by depth. */
  private readonly tallies: number[][] = [];
  /**
   * Open containers whose fingerprint is wanted (an item of a `uniqueItems` array, or anything in
   * one): their hashes so far and, for objects, the current key.
   */
  private readonly hashed: boolean[] = [];
  /** How many of the open containers are hashed: 0 in most documents, which then skip all this. */
  private hashing = 0;
  private readonly hashes: Hash[] = [];
  private readonly hashKeys: string[] = [];
  private readonly scalarHash = new Hash();
  /** The scalar being judged, for the keywords' `accepts`; its patterns are logged (see PatternTests.run). */
  private readonly held: HeldScalar;
  /** Per open object: the member of its current key, and the properties an UnevaluatedRule holds back. */
  private readonly currentMembers: Member[] = [];
  private readonly heldRules: number[][] = [];
  private readonly heldConditions: (readonly (readonly number[])[])[][] = [];
  /** Depths whose key sets or item sets this document used (see release). */
  private usedLevels = 0;
  /** What the last key selected: the member for the value that follows. */
  private pending: Member;

  constructor(
    rootNode: SchemaNode,
    private readonly limits: Required<Limits>,
    private readonly cache: CheckerCache = new CheckerCache(),
    /** The document's pattern verdicts: the evaluator recalls what this checker found. */
    private readonly patterns: PatternTests = new PatternTests(),
  ) {
    this.held = new HeldScalar(patterns.run);
    this.root = new Member(-1, [rootNode], [DOCUMENT], [cache.documentScope], cache.scalarPlans);
    this.top = this.root;
    this.pending = this.root;
  }

  /** False once the schema turned out to have a keyword the checker cannot ask: stop trying. */
  get usable(): boolean {
    return this.cache.usable;
  }

  /**
   * Judge one member value whose tokens someone else delivers (src/session/memberSink.ts): `nodes` apply
   * to it and any failure fails it. Its end is the caller's to see; `outcome` says how it went.
   */
  beginValue(nodes: readonly SchemaNode[]): void {
    this.begin(nodes.length === 1 ? this.valueOfNode(nodes[0]!) : this.valueOfNodes(nodes));
  }

  private valueOfNode(node: SchemaNode): Member {
    const {valuesOfNode} = this.cache;
    let member = valuesOfNode.get(node);
    if (member === undefined) {
      member = new Member(-1, [node], [DOCUMENT], [this.cache.partialScope], this.cache.scalarPlans);
      if (valuesOfNode.size < MAX_SHAPES) valuesOfNode.set(node, member);
    }
    return member;
  }

  private valueOfNodes(nodes: readonly SchemaNode[]): Member {
    let signature = '';
    for (let i = 0; i < nodes.length; i++) signature += nodes[i]!.id + ',';
    const {values} = this.cache;
    let member = values.get(signature);
    if (member === undefined) {
      member = new Member(-1, nodes.slice(), nodes.map(() => DOCUMENT), nodes.map(() => this.cache.partialScope), this.cache.scalarPlans);
      if (values.size < MAX_SHAPES) values.set(signature, member);
    }
    return member;
  }

  /**
   * A new document or member value begins, judged against `top`. What a level holds is set when
   * its container opens (openContainer), so the levels need no clearing here; the rest is set
   * afresh, whatever way the last document ended.
   */
  private begin(top: Member): void {
    // The verdicts of what was judged before are no use to the evaluator now.
    this.patterns.clear();
    this.outcome = PASS;
    this.unsureOf = undefined;
    this.top = top;
    this.pending = top;
    this.depth = 0;
    this.hashing = 0;
    this.usedLevels = 0;
  }

  /**
   * Judge one whole document. `front`: what stands between the tokenizer and the checker, given
   * both (the amender of the value options, src/engine/amender.ts).
   */
  check(text: string, front?: (checker: TokenSink, tokenizer: Tokenizer) => TokenSink): Outcome {
    this.begin(this.root);
    const tokenizer = (this.tokenizer = new Tokenizer(this, this.limits));
    if (front !== undefined) tokenizer.redirect(front(this, tokenizer));
    try {
      tokenizer.write(text);
      tokenizer.end();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      this.giveUp('input');
    } finally {
      this.release();
    }
    return this.outcome;
  }

  /**
   * Judge one whole document given as text, with no value options: read by a TextScanner, which
   * hands over keys and strings as ranges of the text (see keyAt, stringAt).
   */
  checkText(text: string): Outcome {
    this.begin(this.root);
    const scanner = (this.tokenizer = this.scanner ??= new TextScanner(this.limits));
    if (this.root.free) scanner.skipValue();
    try {
      if (!scanner.scan(text, this)) this.giveUp('input');
    } finally {
      this.release();
    }
    return this.outcome;
  }

  /**
   * Judge one member value or array item, to which `nodes` apply, read from `text` at `from`
   * inside `depth` open objects and arrays (src/session/memberSink.ts): where it ends when it
   * passes, else -1 (a failure, or anything TextScanner.valueAt refuses).
   */
  valueEndAt(nodes: readonly SchemaNode[], text: string, from: number, depth: number): number {
    this.beginValue(nodes);
    const scanner = (this.tokenizer = this.scanner ??= new TextScanner(this.limits));
    if (this.top.free) scanner.skipValue();
    let end: number;
    try {
      end = scanner.valueAt(text, from, this, depth);
    } finally {
      this.release();
    }
    return this.outcome === PASS ? end : -1;
  }

  /** Hold nothing of the text values were read from (valueEndAt): it is done with. */
  forgetText(): void {
    this.scanner?.forgetText();
  }

  /**
   * Judge an already-parsed value (value mode). UNSURE when it is not JSON within the limits, is
   * nested deeper than MAX_VALUE_DEPTH, or a getter throws (also a stack nearly used up by the
   * caller): the evaluator's walk decides those, and says what is wrong and where.
   */
  checkValue(value: unknown): Outcome {
    this.begin(this.root);
    try {
      if (prototypeHasEnumerables() || !this.emitValue(value, 0)) this.giveUp('input');
    } catch {
      this.giveUp('input');
    } finally {
      this.release();
    }
    return this.outcome;
  }

  /**
   * The events of `value` at nesting `depth`, as the tokenizer would give them for its JSON text
   * (and src/json/walker.ts does); false when it is not JSON within the limits. Stops early once the
   * outcome is not a pass.
   */
  private emitValue(value: unknown, depth: number): boolean {
    switch (typeof value) {
      case 'string':
        if (value.length > this.limits.maxStringLength) return false;
        this.stringValue(value);
        return true;
      case 'number':
        if (!Number.isFinite(value)) return false;
        this.held.holdScalar(NUMBER, value);
        this.scalar(NUMBER);
        return true;
      case 'boolean':
        if (value) this.trueValue();
        else this.falseValue();
        return true;
      case 'object':
        if (value === null) {
          this.nullValue();
          return true;
        }
        if (depth >= this.limits.maxDepth || depth >= MAX_VALUE_DEPTH) return false;
        return Array.isArray(value) ? this.emitArray(value, depth) : this.emitObject(value, depth);
      default:
        return false;
    }
  }

  private emitArray(array: readonly unknown[], depth: number): boolean {
    this.startArray();
    for (let i = 0; i < array.length; i++) {
      if (!this.emitValue(array[i], depth + 1)) return false;
      if (this.outcome !== PASS) return true;
    }
    this.endArray();
    return true;
  }

  /** A plain object, as JSON.parse makes them: `for...in` lists what Object.keys does (see prototypeHasEnumerables). */
  private emitObject(object: object, depth: number): boolean {
    const prototype = Object.getPrototypeOf(object);
    if (prototype !== Object.prototype && prototype !== null) return false;
    this.startObject();
    let count = 0;
    for (const name in object) {
      // Every own property counts against maxProperties, as in the walk (Object.keys).
      if (++count > this.limits.maxProperties) return false;
      const member = (object as Record<string, unknown>)[name];
      // As JSON.stringify does, a property whose value is undefined is not there.
      if (member === undefined) continue;
      if (name.length > this.limits.maxKeyLength) return false;
      this.member(name);
      if (this.outcome !== PASS) return true;
      if (!this.emitValue(member, depth + 1)) return false;
      if (this.outcome !== PASS) return true;
    }
    this.endObject();
    return true;
  }

  /**
   * Forget the document: its keys and scalars are slices of its text, which a long-lived checker
   * would keep alive (see Evaluator.release).
   */
  private release(): void {
    for (let depth = 0; depth < this.usedLevels; depth++) {
      this.keySets[depth]?.clear();
      this.distinct[depth]?.clear();
      this.hashKeys[depth] = '';
    }
    this.held.releaseScalar();
    this.pending = this.root;
    this.tokenizer = null;
  }

  private giveUp(reason: NonNullable<TextChecker['unsureOf']>): void {
    this.outcome = UNSURE;
    this.unsureOf ??= reason;
    this.tokenizer?.stop();
  }

  private fail(target: Target, level: number): void {
    if (target === DOCUMENT) {
      if (this.outcome === PASS) this.outcome = FAIL;
      this.tokenizer?.stop();
      return;
    }
    const flag = flagOf(target);
    this.flags[level - levelsUp(target)]![flag >> 5]! |= 1 << (flag & 31);
  }

  // ---- shapes and members ----

  private shapeOf(member: Member): Shape {
    const {nodes, targets, scopes} = member;
    let signature = '';
    for (let i = 0; i < nodes.length; i++) signature += nodes[i]!.id + ':' + targets[i] + ':' + scopes[i]!.id + ',';
    const {shapes} = this.cache;
    let shape = shapes.get(signature);
    if (shape === undefined) {
      shape = new Shape(this.cache.budget);
      const builder = new ShapeBuilder(shape, () => (this.cache.usable = false));
      for (let i = 0; i < nodes.length; i++) builder.apply(nodes[i]!, targets[i]!, scopes[i]!);
      shape.flagWords = wordsFor(shape.flags);
      shape.extras = shape.distinctTargets.length > 0 || shape.tallyBits.length > 0 || shape.memberSources.rules.length > 0 || shape.itemSources.rules.length > 0;
      shape.presenceWords = wordsFor(shape.presenceBits.size);
      if (shapes.size < MAX_SHAPES) shapes.set(signature, shape);
    }
    return (member.shape = shape);
  }

  /** The member a property name selects in `shape`, remembered for the key's position when kept. */
  private memberNamed(shape: Shape, name: string, position: number): Member {
    const member = shape.named.byName.get(name) ?? this.newMember(shape, name);
    if (member.name !== null) shape.named.place(position, member.name, member);
    return member;
  }

  private newMember(shape: Shape, name: string): Member {
    const bit = shape.presenceBits.get(name);
    const member = shape.memberSources.select(name, bit === undefined ? -1 : bit, this.cache.scalarPlans, this.held.match);
    const {named} = shape;
    if (named.keptNames < MAX_NAMES && named.admits(name)) member.name = named.set(name, member);
    return member;
  }

  private memberAt(shape: Shape, index: number): Member {
    const known = shape.items[index];
    if (known !== undefined) return known;
    const member = shape.itemSources.select(index, -1, this.cache.scalarPlans, this.held.match);
    if (index < MAX_INDICES && index === shape.items.length) shape.items.push(member);
    return member;
  }


  // ---- scalars ----

  /**
   * Judge the scalar being held, the value of `member` at `level` (a scalar has no frame: `level`
   * is where its frame would be, and the flags there are scratch). The common leaf is one loop of
   * `accepts`; anything else is judged by the shape of its location, with the rules and decisions
   * an object or array there would get: `allOf`, `anyOf`, `not`, `if`... are decided one way.
   */
  private judgeScalar(member: Member, kind: Kind, level: number): void {
    const scalar = this.held;
    const {accepts} = member;
    if (accepts !== null) {
      const {acceptsKeywords, acceptsTargets} = member;
      for (let i = 0; i < accepts.length; i++) if (!accepts[i]!(acceptsKeywords[i]!, kind, scalar)) this.fail(acceptsTargets[i]!, level);
      return;
    }
    const shape = member.shape ?? this.shapeOf(member);
    if (shape.unsure) {
      this.giveUp(this.usable ? 'bounds' : 'schema');
      return;
    }
    this.flags[level] = cleared(this.flags, level, shape.flagWords);
    const {scalarFails, scalarKinds, scalarKindTargets, scalarAccepts, scalarAcceptsKeywords, scalarAcceptsTargets} = shape;
    for (let i = 0; i < scalarFails.length; i++) this.fail(scalarFails[i]!, level);
    for (let i = 0; i < scalarKinds.length; i++) if ((scalarKinds[i]! & kind) === 0) this.fail(scalarKindTargets[i]!, level);
    for (let i = 0; i < scalarAccepts.length; i++) if (!scalarAccepts[i]!(scalarAcceptsKeywords[i]!, kind, scalar)) this.fail(scalarAcceptsTargets[i]!, level);
    this.decide(shape, level, kind);
  }

  /** The member that judges a property name as a string (`keyNames`) in objects of `shape`. */
  private keyNamesMemberOf(shape: Shape): Member {
    const targets = shape.keyNameTargets.map(fromMember);
    return (shape.keyNamesMember = new Member(-1, shape.keyNameNodes, targets, shape.keyNameScopes, this.cache.scalarPlans));
  }

  // ---- TokenSink ----

  /** The member for the value that starts now; inside an array this counts the item. */
  private incoming(): Member {
    const depth = this.depth;
    if (depth === 0) return this.top;
    if (this.kinds[depth - 1] !== ARRAY) return this.pending;
    const shape = this.open[depth - 1]!;
    if (shape.extras) {
      const flags = this.flags[depth - 1]!;
      clearBits(flags, shape.tallyBits);
      clearBits(flags, shape.itemSources.ruleFlags);
      // For memberEnded, when the item is an object or array that ends later.
      return (this.currentMembers[depth - 1] = this.memberAt(shape, this.counts[depth - 1]!++));
    }
    return this.memberAt(shape, this.counts[depth - 1]!++);
  }

  private scalar(kind: Kind): void {
    const level = this.depth - 1;
    const extras = level >= 0 && this.open[level]!.extras;
    const distinct = extras && this.kinds[level] === ARRAY && this.open[level]!.distinctTargets.length > 0;
    const hashed = this.hashing !== 0 && level >= 0 && this.hashed[level]!;
    if (distinct || hashed) {
      hashScalar(this.scalarHash, kind, this.held);
      if (hashed) addToHash(this.hashes[level]!, this.kinds[level]!, this.scalarHash, this.hashKeys[level]!);
      if (distinct) this.distinctItemEnded(level, hashValue(this.scalarHash));
    }
    const member = this.incoming();
    this.judgeScalar(member, kind, this.depth);
    if (extras) this.memberEnded(level, member);
  }

  /**
   * A member of the container at `level` ended. An item counts for the tallies; a property whose
   * value failed an UnevaluatedRule's subschema is held back with the conditions under which it
   * was evaluated after all.
   */
  private memberEnded(level: number, member: Member): void {
    const shape = this.open[level]!;
    const flags = this.flags[level]!;
    const array = this.kinds[level] === ARRAY;
    if (array && shape.tallyBits.length > 0) this.countItem(level);
    const {rules} = array ? shape.itemSources : shape.memberSources;
    for (let r = 0; r < rules.length; r++) {
      const rule = rules[r]!;
      if (!isSet(flags, rule.flag)) continue;
      let when = member.unevaluated![r];
      if (when === null || when === undefined) continue;
      // The contains that matched this item evaluated it, under their own conditions.
      for (const match of rule.matches) if (!isSet(flags, match.flag)) when = [...when, match.condition];
      if (when.some((condition) => condition.length === 0)) continue;
      this.heldRules[level]!.push(r);
      this.heldConditions[level]!.push(when);
    }
  }


  /**
   * An object or array whose fingerprint is `hash` ended inside the container at `level`: it goes
   * into that container's own fingerprint, and as an item of a `uniqueItems` array it must be new.
   */
  private hashedContainerEnded(level: number, hash: Hash): void {
    if (level < 0) return;
    if (this.hashed[level]) addToHash(this.hashes[level]!, this.kinds[level]!, hash, this.hashKeys[level]!);
    if (this.kinds[level] === ARRAY && this.open[level]!.distinctTargets.length > 0) this.distinctItemEnded(level, hashValue(hash));
  }

  /**
   * An item of the `uniqueItems` array at `level` ended, with this fingerprint: is it new? Past
   * limits.maxUniqueItems the evaluator decides, and refuses the document.
   */
  private distinctItemEnded(level: number, fingerprint: number): void {
    const seen = this.distinct[level]!;
    if (seen.size >= this.limits.maxUniqueItems) {
      this.giveUp('input');
      return;
    }
    if (seen.add(fingerprint) < 0) return;
    const targets = this.open[level]!.distinctTargets;
    for (let i = 0; i < targets.length; i++) this.fail(targets[i]!, level);
  }

  /** An item of the array at `level` ended: count it for each tally whose subschema it satisfied. */
  private countItem(level: number): void {
    const {tallyBits} = this.open[level]!;
    const counts = this.tallies[level]!;
    const flags = this.flags[level]!;
    for (let i = 0; i < tallyBits.length; i++) if (!isSet(flags, tallyBits[i]!)) counts[i]!++;
  }

  private openContainer(kind: Kind): void {
    const outer = this.depth - 1;
    // An item of a `uniqueItems` array, or a container inside one: its fingerprint is wanted.
    const hashed = outer >= 0 && ((this.hashing !== 0 && this.hashed[outer]!) || (this.kinds[outer] === ARRAY && this.open[outer]!.distinctTargets.length > 0));
    const member = this.incoming();
    const shape = member.shape ?? this.shapeOf(member);
    const level = this.depth;
    this.open[level] = shape;
    this.kinds[level] = kind;
    this.hashed[level] = hashed;
    if (hashed) {
      this.hashing++;
      startHash((this.hashes[level] ??= new Hash()), kind);
      if (level >= this.usedLevels) this.usedLevels = level + 1;
    }
    this.counts[level] = 0;
    this.seen[level] = cleared(this.seen, level, shape.presenceWords);
    this.flags[level] = cleared(this.flags, level, shape.flagWords);
    if (kind === OBJECT) {
      if (shape.memberSources.rules.length > 0) {
        (this.heldRules[level] ??= []).length = 0;
        (this.heldConditions[level] ??= []).length = 0;
      }
      this.openKeys(level + 1);
    } else {
      if (shape.distinctTargets.length > 0) {
        let seen = this.distinct[level];
        if (seen === undefined) this.distinct[level] = seen = new ItemFingerprints();
        else seen.clear();
        if (level >= this.usedLevels) this.usedLevels = level + 1;
      }
      if (shape.itemSources.rules.length > 0) {
        (this.heldRules[level] ??= []).length = 0;
        (this.heldConditions[level] ??= []).length = 0;
      }
      if (shape.tallyBits.length > 0) {
        const counts = (this.tallies[level] ??= []);
        counts.length = shape.tallyBits.length;
        counts.fill(0);
      }
    }
    this.depth = level + 1;
    // After the frame is set up: a failure may go to one of its flags (`not: false`).
    const fails = kind === OBJECT ? shape.objectFails : shape.arrayFails;
    for (let i = 0; i < fails.length; i++) this.fail(fails[i]!, level);
    // Unsure but usable: past the checker's bounds (flags, presence bits, in-place depth).
    if (shape.unsure) this.giveUp(this.usable ? 'bounds' : 'schema');
    else if ((shape.judgedWhole & kind) !== 0) this.giveUp('keyword');
  }

  private closeContainer(kind: Kind): void {
    const level = --this.depth;
    const shape = this.open[level]!;
    const count = this.counts[level]!;
    if (kind === OBJECT) {
      const seen = this.seen[level]!;
      const {presenceMasks, presenceTriggers, presenceTargets} = shape;
      for (let i = 0; i < presenceMasks.length; i++) {
        const trigger = presenceTriggers[i]!;
        if ((trigger >= 0 && !isSet(seen, trigger)) || hasAll(seen, presenceMasks[i]!)) continue;
        this.fail(presenceTargets[i]!, level);
      }
      const {propertyBounds, propertyTargets} = shape;
      for (let i = 0; i < propertyTargets.length; i++) {
        if (count < propertyBounds[2 * i]! || count > propertyBounds[2 * i + 1]!) this.fail(propertyTargets[i]!, level);
      }
    } else {
      const {itemBounds, itemTargetsOfBounds} = shape;
      for (let i = 0; i < itemTargetsOfBounds.length; i++) {
        if (count < itemBounds[2 * i]! || count > itemBounds[2 * i + 1]!) this.fail(itemTargetsOfBounds[i]!, level);
      }
      const {tallyBounds, tallyTargets} = shape;
      if (tallyTargets.length > 0) {
        const counts = this.tallies[level]!;
        for (let i = 0; i < tallyTargets.length; i++) {
          if (counts[i]! < tallyBounds[2 * i]! || counts[i]! > tallyBounds[2 * i + 1]!) this.fail(tallyTargets[i]!, level);
        }
      }
    }
    this.decide(shape, level, kind);
    // The container was a member: its verdicts are in (tallies, unevaluatedProperties).
    if (level > 0 && this.open[level - 1]!.extras) this.memberEnded(level - 1, this.currentMembers[level - 1]!);
    if (this.hashing !== 0 && this.hashed[level]) {
      this.hashing--;
      this.hashedContainerEnded(level - 1, this.hashes[level]!);
    }
  }

  /**
   * The verdicts the in-place applicators at `level` reach from the flags their subschemas' failures
   * set: last to first, so those nested in a branch have set their flags by then.
   */
  private decide(shape: Shape, level: number, kind: Kind): void {
    const {decisions} = shape;
    const flags = this.flags[level]!;
    for (let i = decisions.length - 1; i >= 0; i--) {
      const decision = decisions[i]!;
      const {mode, masks, flag} = decision;
      let failed: boolean;
      switch (mode) {
        case DECIDE_SOME:
          failed = hasAll(flags, masks);
          break;
        case DECIDE_ONE: {
          let passed = 0;
          for (let word = 0; word < masks.length; word++) passed += bitCount(masks[word]! & ~flags[word]!);
          failed = passed !== 1;
          break;
        }
        case DECIDE_NONE:
          failed = !isSet(flags, flag);
          break;
        case DECIDE_IF: {
          const branch = isSet(flags, flag) ? decision.elseFlag : decision.thenFlag;
          failed = branch >= 0 && isSet(flags, branch);
          break;
        }
        case DECIDE_WHEN:
          failed = kind === OBJECT && isSet(this.seen[level]!, decision.trigger) && isSet(flags, flag);
          break;
        case DECIDE_UNEVALUATED:
          failed = kind === OBJECT && this.heldBack(level, decision.rule);
          break;
        default:
          failed = kind === ARRAY && this.heldBack(level, decision.rule);
      }
      if (failed) this.fail(decision.target, level);
    }
  }

  /** Some property the rule `rule` of the object at `level` held back was evaluated under no condition that holds. */
  private heldBack(level: number, rule: number): boolean {
    const rules = this.heldRules[level]!;
    const conditions = this.heldConditions[level]!;
    const flags = this.flags[level]!;
    const seen = this.seen[level]!;
    for (let i = 0; i < rules.length; i++) {
      if (rules[i] !== rule) continue;
      const when = conditions[i]!;
      let evaluated = false;
      for (let j = 0; j < when.length && !evaluated; j++) evaluated = holds(when[j]!, flags, seen);
      if (!evaluated) return true;
    }
    return false;
  }

  startObject(): void {
    this.openContainer(OBJECT);
  }

  startArray(): void {
    this.openContainer(ARRAY);
  }

  endObject(): void {
    this.closeContainer(OBJECT);
  }

  endArray(): void {
    this.closeContainer(ARRAY);
  }

  keyValue(key: string): void {
    if (!this.keySets[this.depth - 1]!.add(key)) {
      // A repeated key is a syntax error: the evaluator reports it.
      this.giveUp('input');
      return;
    }
    this.member(key);
  }

  /** The property named `key` of the innermost open object begins (a parsed value repeats no key). */
  private member(key: string): void {
    const level = this.depth - 1;
    const position = this.counts[level]!++;
    const shape = this.open[level]!;
    const {names} = shape.named;
    const member = position < names.length && names[position] === key ? shape.named.values[position]! : this.memberNamed(shape, key, position);
    const bit = member.presence;
    if (bit >= 0) this.seen[level]![bit >> 5]! |= 1 << (bit & 31);
    this.pending = member;
    if (this.hashing !== 0 && this.hashed[level]) this.hashKeys[level] = key;
    const {ruleFlags} = shape.memberSources;
    if (ruleFlags.length > 0) {
      this.currentMembers[level] = member;
      clearBits(this.flags[level]!, ruleFlags);
    }
    if (shape.keyNameNodes.length === 0) return;
    this.held.holdScalar(STRING, key);
    // As the value of a member would be: one level below the object, whose flags its failures set.
    this.judgeScalar(shape.keyNamesMember ?? this.keyNamesMemberOf(shape), STRING, level + 1);
  }

  /**
   * A key as a range of the text (checkText). A value any value would pass is skipped, unless
   * something here reads it whole (a fingerprint, a tally, unevaluated*).
   */
  keyAt(text: string, from: number, to: number, escaped: boolean): void {
    this.keyValue(escaped ? decodeString(text, from, to) : text.slice(from, to));
    if (this.pending.free && this.hashing === 0 && !this.open[this.depth - 1]!.extras) this.scanner!.skipValue();
  }

  /** The keys of the object opening at `depth` (its level + 1), kept afresh. */
  openKeys(depth: number): void {
    const level = depth - 1;
    const keys = this.keySets[level];
    if (keys === undefined) this.keySets[level] = new KeySet();
    else keys.clear();
    if (level >= this.usedLevels) this.usedLevels = depth;
  }

  addKey(depth: number, key: string): boolean {
    return this.keySets[depth - 1]!.add(key);
  }

  /** A string as a range of the text (checkText): made only if a keyword reads it. */
  stringAt(text: string, from: number, to: number, escaped: boolean): void {
    this.held.holdRange(text, from, to, escaped);
    this.scalar(STRING);
  }

  numberAt(text: string, from: number, to: number): void {
    this.held.holdRange(text, from, to, false);
    this.scalar(NUMBER);
  }

  stringValue(value: string): void {
    this.held.holdScalar(STRING, value);
    this.scalar(STRING);
  }

  numberValue(text: string): void {
    this.held.holdNumberText(text);
    this.scalar(NUMBER);
  }

  nullValue(): void {
    this.scalar(NULL);
  }

  trueValue(): void {
    this.held.holdScalar(BOOLEAN, true);
    this.scalar(BOOLEAN);
  }

  falseValue(): void {
    this.held.holdScalar(BOOLEAN, false);
    this.scalar(BOOLEAN);
  }
}

/** Someone gave Object.prototype an enumerable property: `for...in` would list it on every object. */
function prototypeHasEnumerables(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}
