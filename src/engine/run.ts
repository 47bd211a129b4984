// A run: one schema node applied at one instance location, with its outcome, errors and
// annotations, and the keyword hooks it calls as the value's events reach it. Apart from the
// evaluator (src/engine/evaluator.ts), which owns the frames and the stack and routes the events:
// a run sees the evaluator only through RunHost, what it asks of it.

import {escapePointerToken} from '../json/pointer.js';
import {truncate} from './arrays.js';
import {Scope} from './dynamicScope.js';
import {ErrorList} from './errorList.js';
import {IGNORED, classifyName, keyPlanAt, type KeyPlans} from './keyPlan.js';
import {ARRAY, OBJECT, type CompiledKeyword, type EvaluatedItems as ItemAnnotations, type Instance, type Kind, type Matcher, type Resource, type Run as KeywordRun, type SchemaNode} from '../schema/node.js';
import type {AnnotationUnit, OutputUnit} from '../types.js';

/** What a run asks of the evaluator that delivers its events (src/engine/evaluator.ts). */
export interface RunHost extends Instance {
  readonly allErrors: boolean;
  /** The evaluator's stack of runs: a run started for the value about to begin goes on top. */
  readonly stack: Run[];
  /** Runs whose descendants are being abandoned (Run.abandonDescendants); empty between calls. */
  readonly pruning: Run[];
  readonly keyPlans: KeyPlans;
  readonly match: Matcher;
  /** JSON pointer of the instance location at `depth`. */
  pointer(depth: number): string;
  /** The dynamic scope of the document's root run, before it enters its node's resource. */
  readonly rootScope: Scope;
  /** Place an error unit where the input is now. */
  stamp(unit: OutputUnit): void;
  /** A run settled: its parent keyword hears of it. */
  report(run: Run): void;
  rootSettled(root: Run): void;
  /** Remember a leaf application to the member value of the container at `depth`. */
  deferLeaf(depth: number, node: SchemaNode, parent: Run, via: CompiledKeyword, slot: number, viaPath: string): void;
  /** A subschema is applied at instance depth `depth`: counted against Limits.maxApplications (throws past it). */
  applying(depth: number): void;
}

/** Indices of array items evaluated at one location (2020-12 core §11.2 annotations). */
export class EvaluatedItems implements ItemAnnotations {
  /** Items [0, prefix) are evaluated. */
  prefix = 0;
  /** Further single indices (from `contains`). */
  indices: Set<number> | null = null;

  has(index: number): boolean {
    return index < this.prefix || (this.indices !== null && this.indices.has(index));
  }

  add(index: number): void {
    if (index < this.prefix) return;
    if (index === this.prefix) {
      this.prefix++;
      return;
    }
    (this.indices ??= new Set()).add(index);
  }

  merge(other: EvaluatedItems): void {
    if (other.prefix > this.prefix) this.prefix = other.prefix;
    if (other.indices !== null) for (const index of other.indices) this.add(index);
  }
}
/**
 * A chain of in-place applications deeper than this at one location is taken for a cycle. Cycles
 * through static references are found at their first repetition (Run.repeatsAncestor); this bounds
 * those through `$dynamicRef`/`$recursiveRef`, whose target can change once around the loop.
 */
const MAX_IN_PLACE_DEPTH = 2000;

export const FALSE_KEYWORD: CompiledKeyword = {
  definition: {name: 'false', compile: () => undefined},
  index: -1,
  value: undefined,
  name: 'false',
  path: '',
  absoluteLocation: '',
};

/** A run started by `via` in `slot` under `parent` records no errors when nobody will read them. */
function isQuiet(parent: Run, via: CompiledKeyword, slot: number): boolean {
  return parent.quiet || (via.definition.discardsErrors !== undefined && via.definition.discardsErrors(slot));
}

// Run.flags: what a run is, in one field (a deep document keeps two runs per level, and each
// field of a run costs 8 bytes).
const LIMITED = 1;
const QUIET = 2;
const COLLECTS_PROPERTIES = 4;
const COLLECTS_ITEMS = 8;
/** `errors` is another run's list too, or part of one: nothing is added to it (Run.ownErrors). */
const SHARED_ERRORS = 16;

/** The runs whose location() is being made, innermost first (reused: location() calls nothing that reenters). */
const unlocated: Run[] = [];
/** The same for dynamicScope(). */
const unscoped: Run[] = [];

export class Run implements KeywordRun {
  kind: Kind | 0 = 0;
  settled = false;
  failed = false;
  errors: ErrorList | null = null;
  /** Per-keyword state, by keyword index, for keywords that remember something. */
  states: unknown[] | null = null;
  /** Names of the properties evaluated here, when someone needs them (`unevaluatedProperties`). */
  evaluatedProperties: Set<string> | null = null;
  evaluatedItems: EvaluatedItems | null = null;
  /** The output's annotations kept here so far (CompileOptions.annotations); null until the first. */
  annotations: AnnotationUnit[] | null = null;
  /**
   * In-place runs started by this one, and runs started for the current member value (for
   * pruning): lists linked through `next`, a run being in one list only. Linked, not arrays: a
   * deep document has one such run per level, and an array each cost ~150 bytes.
   */
  private firstSub: Run | null = null;
  private firstChild: Run | null = null;
  private next: Run | null = null;
  private inPlaceDepth: number;
  private flags: number;
  /** location(), once asked: the parent's with this run's segment after it (see location). */
  private path: string | null = null;
  /** dynamicScope(), once asked: the parent's, this run's resource entered (see dynamicScope). */
  private scope: Scope | null = null;

  constructor(
    readonly evaluator: RunHost,
    public node: SchemaNode,
    public parent: Run | null,
    /** The parent's keyword that started this run, and which of its subschemas this is. */
    public via: CompiledKeyword | null,
    public slot: number,
    /** Keyword-location segment from the parent's node to this node, e.g. `/properties/name`. */
    public viaPath: string,
    /** Depth of the instance location (0 = the document). */
    public depth: number,
    inPlace: boolean,
  ) {
    this.inPlaceDepth = inPlace && parent !== null ? parent.inPlaceDepth + 1 : 0;
    this.flags = Run.flagsOf(node, parent, via, slot, inPlace);
  }

  /** The flags of a run applied under `parent` (null: the root). */
  private static flagsOf(node: SchemaNode, parent: Run | null, via: CompiledKeyword | null, slot: number, inPlace: boolean): number {
    if (parent === null) return (node.collectsProperties ? COLLECTS_PROPERTIES : 0) | (node.collectsItems ? COLLECTS_ITEMS : 0);
    let flags = isQuiet(parent, via!, slot) ? QUIET : 0;
    if (node.collectsProperties || (inPlace && parent.collectsProperties)) flags |= COLLECTS_PROPERTIES;
    if (node.collectsItems || (inPlace && parent.collectsItems)) flags |= COLLECTS_ITEMS;
    return flags;
  }

  /**
   * Failed by a `limit.recursion` before anything else failed it: whoever this run comes to count
   * for fails the same way, whatever its keyword would make of a failure (see notifyParent).
   */
  get limited(): boolean {
    return (this.flags & LIMITED) !== 0;
  }

  /** Nobody will read this run's errors (see KeywordDefinition.discardsErrors): it records none. */
  get quiet(): boolean {
    return (this.flags & QUIET) !== 0;
  }

  private get collectsProperties(): boolean {
    return (this.flags & COLLECTS_PROPERTIES) !== 0;
  }

  private get collectsItems(): boolean {
    return (this.flags & COLLECTS_ITEMS) !== 0;
  }

  /** Make this (finished, unreferenced) run a fresh member run: the evaluator's scratch run for leaves. */
  reuseAsMember(node: SchemaNode, parent: Run, via: CompiledKeyword, slot: number, viaPath: string, depth: number): void {
    this.node = node;
    this.parent = parent;
    this.via = via;
    this.slot = slot;
    this.viaPath = viaPath;
    this.depth = depth;
    this.kind = 0;
    this.settled = false;
    this.failed = false;
    this.errors = null;
    this.states = null;
    this.evaluatedProperties = null;
    this.evaluatedItems = null;
    this.annotations = null;
    this.firstSub = null;
    this.firstChild = null;
    this.next = null;
    this.inPlaceDepth = 0;
    this.flags = Run.flagsOf(node, parent, via, slot, false);
    this.path = null;
    this.scope = null;
  }

  /** Keyword location of this run's node through the evaluation path (`$ref`s included). */
  location(): string {
    if (this.path !== null) return this.path;
    // Each run keeps its location once made, as its parent's string joined with its own segment:
    // the errors of a deep document (an `anyOf` failing at every level) then cost one join each,
    // where a walk up the chain cost one string as long as the document is deep, for every error.
    // A loop, not recursion: the chain is as long as the instance is deep.
    let run: Run | null = this;
    for (; run !== null && run.path === null; run = run.parent) unlocated.push(run);
    let path = run === null ? '' : run.path!;
    for (let i = unlocated.length - 1; i >= 0; i--) {
      const each = unlocated[i]!;
      path += each.viaPath;
      each.path = path;
    }
    truncate(unlocated, 0);
    return path;
  }

  state<T>(keyword: CompiledKeyword, create: () => T): T {
    const states = (this.states ??= new Array(this.node.keywords.length));
    return (states[keyword.index] ??= create()) as T;
  }

  peekState<T>(keyword: CompiledKeyword): T | undefined {
    return this.states === null ? undefined : (this.states[keyword.index] as T | undefined);
  }

  // ---- applying subschemas ----

  /** Apply `node` at this same instance location (in-place applicators). Only from `begin`. */
  applyInPlace(node: SchemaNode, keyword: CompiledKeyword, slot: number, viaPath: string): Run {
    this.evaluator.applying(this.depth);
    const sub = new Run(this.evaluator, node, this, keyword, slot, viaPath, this.depth, true);
    if (sub.decideBoolean()) return sub;
    sub.next = this.firstSub;
    this.firstSub = sub;
    this.evaluator.stack.push(sub);
    return sub;
  }

  /** Apply `node` to the value of the key or item just announced. */
  applyToMember(node: SchemaNode, keyword: CompiledKeyword, slot: number, viaPath: string): void {
    // `true` passes, and this keyword would ignore the pass: nothing to start or report.
    if (node.bool === true && keyword.definition.ignoresPassingMembers) return;
    if (node.bool === undefined && node.scalarLeaf) {
      // Most member values are scalars checked by leaf schemas: no run is made unless the value
      // turns out to be a container (see Evaluator.deferLeaf).
      this.evaluator.deferLeaf(this.depth, node, this, keyword, slot, viaPath);
      return;
    }
    this.startMember(node, keyword, slot, viaPath);
  }

  startMember(node: SchemaNode, keyword: CompiledKeyword, slot: number, viaPath: string): void {
    this.evaluator.applying(this.depth + 1);
    this.startDeferredMember(node, keyword, slot, viaPath);
  }

  /** startMember for a leaf the evaluator deferred (Evaluator.deferLeaf), counted as it was deferred. */
  startDeferredMember(node: SchemaNode, keyword: CompiledKeyword, slot: number, viaPath: string): void {
    const child = new Run(this.evaluator, node, this, keyword, slot, viaPath, this.depth + 1, false);
    if (child.decideBoolean()) return;
    child.next = this.firstChild;
    this.firstChild = child;
    // This run's container is the innermost: the top of the stack gathers its member's runs.
    this.evaluator.stack.push(child);
  }

  /** Boolean schemas settle where they are applied: `false` fails at the key, not at the value. */
  decideBoolean(): boolean {
    const verdict = this.node.bool;
    if (verdict === undefined) return false;
    if (!verdict) {
      this.recordError(FALSE_KEYWORD, 'boolean schema false: no value is allowed here');
      this.failed = true;
    }
    this.settle();
    return true;
  }

  // ---- outcome ----

  /** A keyword of this run failed. In the default mode the run settles at once. */
  fail(keyword: CompiledKeyword, message: string, params?: Record<string, unknown>, memberLocation?: string): void {
    this.recordError(keyword, message, params, memberLocation);
    this.failed = true;
    if (!this.evaluator.allErrors) this.settle();
  }

  /**
   * Fail with the errors of a subschema run (it already says what went wrong). A limited child
   * makes this run limited unless it had failed already: with allErrors it goes on after a
   * failure, which in the first-error mode would have settled it before the child started.
   */
  failWith(child: Run): void {
    if (child.limited && !this.failed) this.flags |= LIMITED;
    this.adoptErrors(child);
    this.failed = true;
    // A limited run stops even when all errors are wanted: what it started may loop again.
    if (!this.evaluator.allErrors || this.limited) this.settle();
  }

  /**
   * 2020-12 core §9.4.1: a schema that applies itself at the same instance location never ends,
   * and its outcome is undefined. The run fails with a `limit` error (recorded even in a quiet
   * run) that counts wherever the run comes to count, and nowhere else.
   */
  private failRecursion(): void {
    const unit: OutputUnit = {
      valid: false,
      kind: 'limit',
      keyword: 'limit',
      keywordLocation: this.location(),
      absoluteKeywordLocation: this.node.absoluteLocation,
      instanceLocation: this.evaluator.pointer(this.depth),
      error: `schema recursion does not descend into the instance (at ${this.node.absoluteLocation})`,
      params: {code: 'limit.recursion'},
    };
    this.evaluator.stamp(unit);
    this.errors = ErrorList.of([unit]);
    this.flags = (this.flags & ~SHARED_ERRORS) | LIMITED;
    this.failed = true;
    this.settle();
  }

  /**
   * An in-place ancestor at this location applies this run's node, and no `$dynamicRef` or
   * `$recursiveRef` lies between: this run would do what it did, forever.
   */
  private repeatsAncestor(): boolean {
    for (let run: Run = this; run.inPlaceDepth > 0; ) {
      if (run.via!.definition.followsDynamicScope === true) return false;
      run = run.parent!;
      if (run.node === this.node) return true;
    }
    return false;
  }

  /** Take on a subschema run's errors without failing (e.g. the branches of a failed `anyOf`). */
  collectErrors(child: Run): void {
    this.adoptErrors(child);
  }

  /**
   * Add a settled subschema run's errors to this run's, never copied (src/engine/errorList.ts):
   * the first are this run's list too, later ones a part of it. Neither run adds to a list the
   * other holds.
   */
  private adoptErrors(child: Run): void {
    const errors = child.errors;
    if (errors === null) return;
    child.flags |= SHARED_ERRORS;
    if (this.errors === null) {
      this.errors = errors;
      this.flags |= SHARED_ERRORS;
      return;
    }
    this.ownErrors().append(errors);
  }

  /** This run's errors, as a list of its own to add to. */
  private ownErrors(): ErrorList {
    if (this.errors === null) return (this.errors = new ErrorList());
    if ((this.flags & SHARED_ERRORS) !== 0) {
      this.errors = ErrorList.after(this.errors);
      this.flags &= ~SHARED_ERRORS;
    }
    return this.errors;
  }

  private recordError(keyword: CompiledKeyword, message: string, params?: Record<string, unknown>, memberLocation?: string): void {
    if (this.quiet) return;
    this.ownErrors().add(this.errorUnit(keyword, message, params, memberLocation));
  }

  /**
   * Kept once made, as the parent's scope with this run's resource entered, the scopes interned
   * (src/engine/dynamicScope.ts): read off the chain of runs instead, a `$dynamicRef` at every level
   * of a deep document would cost work quadratic in the depth.
   */
  dynamicScope(): Iterable<Resource> {
    return this.scopeHere().resources();
  }

  private scopeHere(): Scope {
    if (this.scope !== null) return this.scope;
    // A loop, not recursion: the chain is as long as the instance is deep.
    let run: Run | null = this;
    for (; run !== null && run.scope === null; run = run.parent) unscoped.push(run);
    let scope = run === null ? this.evaluator.rootScope : run.scope!;
    for (let i = unscoped.length - 1; i >= 0; i--) {
      const each = unscoped[i]!;
      scope = each.scope = scope.enter(each.node.resource);
    }
    truncate(unscoped, 0);
    return scope;
  }

  instanceLocation(): string {
    return this.evaluator.pointer(this.depth);
  }

  errorUnit(keyword: CompiledKeyword, message: string, params?: Record<string, unknown>, memberLocation?: string): OutputUnit {
    const evaluator = this.evaluator;
    let instanceLocation = evaluator.pointer(this.depth);
    if (memberLocation !== undefined) instanceLocation += '/' + escapePointerToken(memberLocation);
    const unit: OutputUnit = {
      valid: false,
      kind: 'validation',
      keyword: keyword.name,
      keywordLocation: this.location() + keyword.path,
      absoluteKeywordLocation: keyword.absoluteLocation || this.node.absoluteLocation,
      instanceLocation,
      error: message,
    };
    // Always an object, as ajv's `params` is: a handler reads `error.params.limit` without a guard.
    unit.params = params ?? {};
    evaluator.stamp(unit);
    return unit;
  }

  /**
   * Annotations of a successful subschema run become this run's: the output's from any subschema,
   * the evaluated properties and items only from one at the same location.
   */
  mergeAnnotations(sub: Run): void {
    if (sub.failed) return;
    if (sub.annotations !== null) {
      const own = (this.annotations ??= []);
      for (const unit of sub.annotations) own.push(unit);
    }
    if (sub.depth !== this.depth) return;
    if (this.evaluatedProperties !== null && sub.evaluatedProperties !== null) {
      for (const name of sub.evaluatedProperties) this.evaluatedProperties.add(name);
    }
    if (this.evaluatedItems !== null && sub.evaluatedItems !== null) this.evaluatedItems.merge(sub.evaluatedItems);
  }

  annotate(keyword: CompiledKeyword, annotation: unknown): void {
    (this.annotations ??= []).push({
      valid: true,
      keyword: keyword.name,
      keywordLocation: this.location() + keyword.path,
      absoluteKeywordLocation: keyword.absoluteLocation,
      instanceLocation: this.evaluator.pointer(this.depth),
      annotation,
    });
  }

  /** Stop a run whose outcome no longer matters, with everything it started. */
  abandon(): void {
    if (this.settled) return;
    this.settled = true;
    this.abandonDescendants();
  }

  /** Everything this run started, and all they started, is settled without a report (a loop: deep instances). */
  private abandonDescendants(): void {
    if (this.firstSub === null && this.firstChild === null) return;
    // Empty between calls, and nothing here calls out: no other pruning can use it meanwhile.
    const pending = this.evaluator.pruning;
    pending.push(this);
    while (pending.length > 0) {
      const run = pending.pop()!;
      for (let sub = run.firstSub; sub !== null; sub = sub.next) if (!sub.settled) ((sub.settled = true), pending.push(sub));
      for (let child = run.firstChild; child !== null; child = child.next) if (!child.settled) ((child.settled = true), pending.push(child));
    }
  }

  settle(): void {
    if (this.settled) return;
    this.settled = true;
    if (this.failed) {
      this.abandonDescendants();
      if (this.errors !== null && this.node.restate.length > 0) this.restate();
    }
    this.evaluator.report(this);
  }

  /** The node's keywords restate the errors it is about to report (KeywordDefinition.restate). */
  private restate(): void {
    const keywords = this.node.restate;
    let errors = this.errors!.units();
    for (let i = 0; i < keywords.length; i++) errors = keywords[i].definition.restate!(this, keywords[i], errors);
    this.errors = ErrorList.of(errors);
    this.flags &= ~SHARED_ERRORS;
  }

  /** Tell the keyword that started this run how it went (called by Evaluator.report). */
  notifyParent(): void {
    const parent = this.parent;
    if (parent === null) {
      this.evaluator.rootSettled(this);
      return;
    }
    if (parent.settled) return;
    const via = this.via!;
    // A limit counts where the run counts: for most keywords, now, whatever they make of a failure
    // (`not` would pass). A speculative run's keyword hears of it as a failure and fails with it
    // once the run comes to count (KeywordDefinition.speculative).
    if (this.limited && !parent.failed && via.definition.speculative?.(this.slot) !== true) parent.failWith(this);
    else via.definition.result!(parent, via, this);
  }

  // ---- events, called by the Evaluator ----

  begin(kind: Kind): void {
    this.kind = kind;
    // Found when the run starts, not when it is applied: a run abandoned before it starts finds nothing.
    if (this.inPlaceDepth > 0 && (this.inPlaceDepth > MAX_IN_PLACE_DEPTH || this.repeatsAncestor())) {
      this.failRecursion();
      return;
    }
    if (kind === OBJECT && this.collectsProperties) this.evaluatedProperties = new Set();
    else if (kind === ARRAY && this.collectsItems) this.evaluatedItems = new EvaluatedItems();
    const hooks = this.node.begin;
    for (let i = 0; i < hooks.length; i++) {
      hooks[i].definition.begin!(this, hooks[i]);
      if (this.settled) return;
    }
  }

  scalar(): void {
    const hooks = this.node.scalar;
    for (let i = 0; i < hooks.length; i++) {
      hooks[i].definition.scalar!(this, hooks[i]);
      if (this.settled) return;
    }
  }

  key(name: string): void {
    if (this.node.key.length === 0) return;
    this.firstChild = null;
    const plan = keyPlanAt(this.evaluator.keyPlans, this.node, name, this.evaluator.count() - 1, this.evaluator.match);
    if (plan === undefined) {
      this.keyUnplanned(name);
      return;
    }
    const {keywords, data} = plan;
    for (let i = 0; i < keywords.length; i++) {
      keywords[i].definition.key!(this, keywords[i], name, data[i]);
      if (this.settled) return;
    }
  }

  /** `key` for names that do not repeat: classify on the spot, cache nothing. */
  private keyUnplanned(name: string): void {
    const hooks = this.node.key;
    for (let i = 0; i < hooks.length; i++) {
      const keyword = hooks[i];
      const datum = classifyName(keyword, name, this.evaluator.match, this.node);
      if (datum === IGNORED) continue;
      keyword.definition.key!(this, keyword, name, datum);
      if (this.settled) return;
    }
  }

  item(index: number): void {
    const hooks = this.node.item;
    if (hooks.length === 0) return;
    this.firstChild = null;
    for (let i = 0; i < hooks.length; i++) {
      hooks[i].definition.item!(this, hooks[i], index);
      if (this.settled) return;
    }
  }

  finish(): void {
    this.end();
    this.settle();
  }

  /** The `end` hooks; the run may settle (fail) on the way. */
  end(): void {
    const hooks = this.node.end;
    for (let i = 0; i < hooks.length; i++) {
      hooks[i].definition.end!(this, hooks[i]);
      if (this.settled) return;
    }
  }
}
