// How a Shape (src/engine/shape.ts) is derived from the applications at a location: the
// ShapeBuilder is the Outline each keyword describes itself to (KeywordDefinition.outline), and
// turns those descriptions into rules, flags, sources and decisions. Apart from the shape because
// it runs once per distinct set of applications, while the shape is read for every token.

import {ARRAY, OBJECT, acts, type KeywordDefinition, type Matcher, type Outline, type Resource, type SchemaNode} from '../schema/node.js';
import type {Scope} from './dynamicScope.js';
import {
  DECIDE_IF,
  DECIDE_NONE,
  DECIDE_ONE,
  DECIDE_SOME,
  DECIDE_UNEVALUATED,
  DECIDE_UNEVALUATED_ITEMS,
  DECIDE_WHEN,
  DOCUMENT,
  Decision,
  EVALUATES,
  EVALUATES_MATCHES,
  EVALUATES_NOTHING,
  FLAG_CLEAR,
  FLAG_SET,
  NEVER,
  PRESENT,
  UnevaluatedRule,
  flagHere,
  flagOf,
  fromMember,
  masksOf,
  term,
  type Selector,
  type Shape,
  type Sources,
  type Target,
} from './shape.js';

/** In-place applications deeper than this (a `$ref` cycle that never descends): the evaluator decides. */
const MAX_IN_PLACE = 200;
/** Applications in one shape, at most: past this the evaluator decides. */
const MAX_APPLICATIONS = 4096;
/**
 * How often one subschema may be applied in one shape. Two subschemas that reach the same
 * recursive one apply it twice at the next level of the document (as members of the shape), and
 * references that fan out (`d0: {allOf: [{$ref: d1}, {$ref: d1}]}`, …) twice at the next step (in
 * place): either way its applications, and the shapes and programs made of them, double. Past
 * this the evaluator decides, and it counts its applications (Limits.maxApplications, see
 * Evaluator.applying). The official suite repeats a node at most twice.
 */
const MAX_REPEATS = 8;

/** A keyword that judges containers (a hook other than `scalar`). */
function judgesContainers(definition: KeywordDefinition): boolean {
  return definition.begin !== undefined || definition.key !== undefined || definition.item !== undefined || definition.end !== undefined;
}

/** Builds a shape from the applications at a location: the Outline keywords describe themselves to. */
export class ShapeBuilder implements Outline {
  private target: Target = DOCUMENT;
  /** The dynamic scope of the node being applied (its own resource entered); set by apply before any outline call. */
  private scope!: Scope;
  private depth = 0;
  private applications = 0;
  /** How often each node was applied in this shape (see MAX_REPEATS). */
  private readonly repeats = new Map<SchemaNode, number>();
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
    const repeats = (this.repeats.get(node) ?? 0) + 1;
    this.repeats.set(node, repeats);
    if (this.depth >= MAX_IN_PLACE || ++this.applications > MAX_APPLICATIONS || repeats > MAX_REPEATS) {
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

  members(nodesOf: Selector<string>, annotates = true, names?: Iterable<string>): void {
    if (names === undefined) this.shape.memberSources.tellsOtherNamesApart = true;
    else for (const name of names) this.shape.memberSources.names.add(name);
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

  items(nodesAt: (index: number) => readonly SchemaNode[] | undefined, annotates = true, alikeFrom = Infinity): void {
    this.shape.itemSources.add(nodesAt, fromMember(this.target), this.scope, this.condition.slice(), annotates ? EVALUATES : EVALUATES_NOTHING, alikeFrom);
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
    shape.itemSources.add(() => nodes, fromMember(flagHere(flag)), this.scope, this.condition.slice(), annotates ? EVALUATES_MATCHES : EVALUATES_NOTHING, 0);
    shape.tallyBits.push(flag);
    shape.tallyBounds.push(min, max);
    shape.tallyTargets.push(this.target);
    shape.tallyAtStart.push(node.bool === true);
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
    decision.passing = nodes.filter((node) => node.bool === true).length;
    nodes.forEach((node, index) => this.branch(node, flags[index]!, term(FLAG_CLEAR, flags[index]!)));
  }

  none(node: SchemaNode): void {
    const flag = this.shape.newFlag();
    const decision = new Decision(DECIDE_NONE, this.target);
    decision.flag = flag;
    decision.passing = node.bool === true ? 1 : 0;
    this.shape.decisions.push(decision);
    this.branch(node, flag, NEVER);
  }

  conditional(condition: SchemaNode, then: SchemaNode | undefined, otherwise: SchemaNode | undefined): void {
    const decision = new Decision(DECIDE_IF, this.target);
    decision.flag = this.shape.newFlag();
    decision.passing = condition.bool === true ? 1 : 0;
    this.shape.decisions.push(decision);
    const passed = term(FLAG_CLEAR, decision.flag);
    this.branch(condition, decision.flag, passed);
    // A boolean condition leaves one branch dead: it is never applied (2020-12 core §10.2.2.1-3).
    if (then !== undefined && condition.bool !== false) {
      decision.thenFlag = this.shape.newFlag();
      this.branch(then, decision.thenFlag, passed, term(FLAG_CLEAR, decision.thenFlag));
    }
    if (otherwise !== undefined && condition.bool !== true) {
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
