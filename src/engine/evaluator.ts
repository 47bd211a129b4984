// The one-pass evaluator. It consumes the stream-json token protocol (as TokenSink calls) and keeps,
// per open object or array, a frame with the *runs* active there: one run is one schema node applied
// at one instance location. In-place applicators (allOf, $ref, if/then/else, ...) add runs at the same
// location; keys and items spawn runs for the member value. A run settles as passed or failed and
// reports to the keyword that started it. When the root run fails, the document is certainly invalid.
// See docs/architecture.md for the picture.

import {InputError, NO_POSITION, type InputPosition} from '../output/errors.js';
import {Hash, addToHash, hashScalar, hashValue, startHash} from './fingerprint.js';
import {IGNORED, classifyName, keyPlanAt, type KeyPlans} from './keyPlan.js';
import {KeySet} from './keySet.js';
import {HeldScalar} from './scalar.js';
import {escapePointerToken} from '../json/pointer.js';
import {Assembler} from '../json/assembler.js';
import {ARRAY, BOOLEAN, NOT_ASSEMBLED, NULL, NUMBER, OBJECT, STRING, type CompiledKeyword, type EvaluatedItems as ItemAnnotations, type FingerprintListener, type Instance, type Kind, type Matcher, type Run as KeywordRun, type SchemaNode} from '../schema/node.js';
import type {AnnotationUnit, OutputUnit, TokenSink} from '../types.js';

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

/** Empty a short array. Popping is inlined by V8; `length = 0` is a runtime call (6% of a profile). */
function clear(runs: Run[]): void {
  while (runs.length > 0) runs.pop();
}

/** Cut `items` back to its first `length` entries (popping, as `clear`). */
function truncate<T>(items: T[], length: number): void {
  while (items.length > length) items.pop();
}

/** The keyword `via` ignores a member that passes and keeps none that fails (see pendingMember). */
function passNeedsNoReport(via: CompiledKeyword): boolean {
  return via.definition.ignoresPassingMembers === true && via.definition.keepsFailedMembers !== true;
}

/**
 * A chain of in-place applications deeper than this at one location is taken for a cycle. Cycles
 * through static references are found at their first repetition (Run.repeatsAncestor); this bounds
 * those through `$dynamicRef`/`$recursiveRef`, whose target can change once around the loop.
 */
const MAX_IN_PLACE_DEPTH = 2000;

const FALSE_KEYWORD: CompiledKeyword = {
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
/** `errors` is another run's array too: it is copied before anything is added (Run.ownErrors). */
const SHARED_ERRORS = 16;

export class Run implements KeywordRun {
  kind: Kind | 0 = 0;
  settled = false;
  failed = false;
  errors: OutputUnit[] | null = null;
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

  constructor(
    readonly evaluator: Evaluator,
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
  }

  /** Keyword location of this run's node through the evaluation path (`$ref`s included). */
  location(): string {
    // A loop, not recursion: the chain is as long as the instance is deep.
    let path = '';
    for (let run: Run | null = this; run !== null; run = run.parent) path = run.viaPath + path;
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
    this.errors = [unit];
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
   * Add a settled subschema run's errors to this run's. The first are shared, not copied: a
   * failure deep in a document travels up as many runs as it is deep.
   */
  private adoptErrors(child: Run): void {
    const errors = child.errors;
    if (errors === null) return;
    if (this.errors === null) {
      this.errors = errors;
      this.flags |= SHARED_ERRORS;
      child.flags |= SHARED_ERRORS;
      return;
    }
    const own = this.ownErrors();
    for (let i = 0; i < errors.length; i++) own.push(errors[i]);
  }

  /** This run's errors, as an array of its own to add to. */
  private ownErrors(): OutputUnit[] {
    if (this.errors === null) return (this.errors = []);
    if ((this.flags & SHARED_ERRORS) !== 0) {
      this.errors = this.errors.slice();
      this.flags &= ~SHARED_ERRORS;
    }
    return this.errors;
  }

  private recordError(keyword: CompiledKeyword, message: string, params?: Record<string, unknown>, memberLocation?: string): void {
    if (this.quiet) return;
    this.ownErrors().push(this.errorUnit(keyword, message, params, memberLocation));
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
    if (params !== undefined) unit.params = params;
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
    for (let i = 0; i < keywords.length; i++) this.errors = keywords[i].definition.restate!(this, keywords[i], this.errors!);
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
      const datum = classifyName(keyword, name, this.evaluator.match);
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

/**
 * The keywords that asked for the fingerprints of the open containers' current items, as
 * parallel stacks: a frame's are those from its `requestsFrom` up to the next frame's.
 */
class FingerprintRequests {
  readonly runs: Run[] = [];
  readonly keywords: CompiledKeyword[] = [];
  readonly listeners: FingerprintListener[] = [];

  truncate(length: number): void {
    truncate(this.runs, length);
    truncate(this.keywords, length);
    truncate(this.listeners, length);
  }
}

/** One value being assembled for a keyword that judges it whole (Instance.assemble). */
interface Assembly {
  readonly run: Run;
  readonly keyword: CompiledKeyword;
  readonly assembler: Assembler;
  /** Values in it so far, against `maxValues` (limits.maxAssembledValues). */
  count: number;
  readonly maxValues: number;
}

/**
 * The values being assembled: one per open container under a keyword that judges it whole, fed
 * the tokens within it, dropped once its keyword took the value or its run settled without it.
 * Each is counted against its bound, the one memory here that grows with the document.
 */
class Assemblies {
  private readonly assemblies: Assembly[] = [];

  constructor(private readonly evaluator: Evaluator) {}

  get length(): number {
    return this.assemblies.length;
  }

  add(run: Run, keyword: CompiledKeyword, maxValues: number): void {
    const assembler = new Assembler();
    if (run.kind === OBJECT) assembler.startObject();
    else assembler.startArray();
    this.assemblies.push({run, keyword, assembler, count: 1, maxValues});
  }

  /** The value assembled for `run` and `keyword`, taken out; NOT_ASSEMBLED if there is none. */
  take(run: Run, keyword: CompiledKeyword): unknown {
    const index = this.assemblies.findIndex((assembly) => assembly.run === run && assembly.keyword === keyword);
    if (index === -1) return NOT_ASSEMBLED;
    const [assembly] = this.assemblies.splice(index, 1);
    return assembly.assembler.value;
  }

  /** The assemblies still wanted, those of settled runs dropped: a value nobody will judge is not built. */
  private live(): Assembly[] {
    for (let i = this.assemblies.length - 1; i >= 0; i--) if (this.assemblies[i].run.settled) this.assemblies.splice(i, 1);
    return this.assemblies;
  }

  /** The assemblies still wanted, each counting one more value. */
  private withValue(): Assembly[] {
    const assemblies = this.live();
    for (const assembly of assemblies) {
      if (++assembly.count <= assembly.maxValues) continue;
      const message = `More than maxAssembledValues (${assembly.maxValues}) values in one value that "${assembly.keyword.name}" judges whole`;
      throw this.evaluator.limitError('limit.assembled', message, assembly.run.depth);
    }
    return assemblies;
  }

  /** An object or array starts within the values being assembled. */
  start(kind: Kind): void {
    for (const {assembler} of this.withValue()) {
      if (kind === OBJECT) assembler.startObject();
      else assembler.startArray();
    }
  }

  /** The innermost open object or array ends. */
  close(): void {
    for (const {assembler} of this.live()) assembler.endObject();
  }

  key(name: string): void {
    for (const {assembler} of this.live()) assembler.keyValue(name);
  }

  scalar(value: string | number | boolean | null): void {
    for (const {assembler} of this.withValue()) assembler.scalarValue(value);
  }

  clear(): void {
    truncate(this.assemblies, 0);
  }
}

/**
 * Member applications of leaf schemas (SchemaNode.scalarLeaf) waiting for the member value, as
 * parallel arrays: a scalar value is checked without allocating a run for it.
 */
class DeferredLeaves {
  readonly nodes: SchemaNode[] = [];
  readonly parents: Run[] = [];
  readonly vias: CompiledKeyword[] = [];
  readonly slots: number[] = [];
  readonly paths: string[] = [];
}

/**
 * One open object or array. Frames are pooled per depth; what only some containers need is made
 * on first use, since a session's frames are new and a deep document makes one per level.
 */
class Frame {
  kind: Kind = OBJECT;
  /**
   * The container's runs are Evaluator.stack[start, end); the runs for the member value about to
   * start are gathered above them (the next frame's own runs, if it is a container).
   */
  start = 0;
  end = 0;
  key = '';
  index = -1;
  count = 0;
  /** The item that starts next was announced already (Evaluator.announceItem). */
  announced = false;
  /** Keys seen so far, to reject a repeated key (src/engine/keySet.ts): objects from text only. */
  keys: KeySet | null = null;
  /** How many of `leaves` wait for the member value; entries past it are stale. */
  leafCount = 0;
  leaves: DeferredLeaves | null = null;
  /**
   * This container's fingerprint is wanted: it is an item whose fingerprint was asked for, or lies
   * within one. Its hash so far (src/engine/fingerprint.ts), pooled like the frame.
   */
  hashed = false;
  hash: Hash | null = null;
  /** Where the requests for the fingerprint of the current item begin (Evaluator.fingerprintItem). */
  requestsFrom = 0;

  /**
   * Forget everything of the document that used this frame. A document can end anywhere — a
   * syntax error, a limit, an early stop, an exception — and leave runs gathered for a member
   * that never came: the next document must not meet them (they once made it pass).
   */
  clear(): void {
    this.start = 0;
    this.end = 0;
    this.key = '';
    this.index = -1;
    this.count = 0;
    this.announced = false;
    this.keys?.clear();
    // Entries past leafCount are never read, and are overwritten before they are.
    this.leafCount = 0;
    this.hashed = false;
    this.requestsFrom = 0;
  }
}

/** Where the events come from, in streaming mode: the tokenizer. */
export interface InputSource {
  /** Position of the byte that completed the current token. */
  position(): InputPosition;
  /** Stop delivering events (the document is certainly invalid). */
  stop(): void;
}

export class Evaluator extends HeldScalar implements TokenSink, Instance {
  readonly allErrors: boolean;
  root!: Run;
  /**
   * The runs of the open containers, outermost first (a frame's own are stack[frame.start,
   * frame.end)), then those gathered for the value about to start, and the in-place runs they
   * start as it begins. One array for the document: an array per frame cost ~180 bytes per level
   * of a deep document.
   */
  readonly stack: Run[] = [];
  /** The hash of the scalar item being delivered, when its fingerprint is wanted (see fingerprinted). */
  private readonly scalarHash = new Hash();
  private readonly requests = new FingerprintRequests();
  private readonly assemblies = new Assemblies(this);
  private readonly frames: Frame[] = [];
  private depth = 0;
  /** Frames used by this document (see release). */
  private deepest = 0;
  /** Runs whose descendants are being abandoned (Run.abandonDescendants); empty between calls. */
  readonly pruning: Run[] = [];
  /** Settled runs whose parents have not heard yet (see report). */
  private readonly reports: Run[] = [];
  private reporting = false;
  /** The run reused for leaf checks of scalar members (see checkLeaves); each use sets it up whole (Run.reuseAsMember). */
  private scratch: Run;
  private input: InputSource | null = null;
  private fromText = false;
  /** The document is certainly invalid and only the first error is wanted: feed no more events. */
  stopped = false;

  constructor(
    private readonly node: SchemaNode,
    allErrors: boolean,
    /** The validator's key plans, shared by its evaluators (src/engine/keyPlan.ts). */
    readonly keyPlans: KeyPlans,
    /** How the document runs its patterns (src/engine/patterns.ts). */
    match?: Matcher,
    /** The verdict carries the root run's annotations (CompileOptions.annotations). */
    readonly collectsAnnotations = false,
  ) {
    super(match);
    this.allErrors = allErrors;
    this.scratch = new Run(this, node, null, null, 0, '', 0, false);
    this.reset(null);
  }

  /**
   * Start a new document, reusing the frames of the last one. Everything one document touches is
   * set afresh here, whatever way the last one ended, so that nothing of it reaches this one.
   * `fromText`: the events come from JSON text, which can repeat a key (an error we must catch);
   * a parsed value cannot.
   */
  reset(input: InputSource | null, fromText: boolean = input !== null): void {
    this.release();
    this.input = input;
    this.fromText = fromText;
    this.stopped = false;
    this.depth = 0;
    clear(this.reports);
    this.reporting = false;
    this.releaseScalar();
    this.root = new Run(this, this.node, null, null, 0, '', 0, false);
    this.stack.push(this.root);
    // A boolean root schema is decided before any input.
    if (this.node.bool === false) this.root.fail(FALSE_KEYWORD, 'boolean schema false: no value is allowed here');
  }

  /**
   * Forget the document's frames, keys and scalar (its verdict is taken). Keys and strings are
   * slices of its text: an evaluator that outlives the document (the validator's shared one)
   * would keep the text alive until the next, and get it promoted by any scavenge meanwhile.
   */
  release(): void {
    for (let depth = 0; depth < this.deepest; depth++) this.frames[depth].clear();
    clear(this.stack);
    this.requests.truncate(0);
    this.assemblies.clear();
    this.deepest = 0;
    this.releaseScalar();
  }

  /**
   * `release`, and every run of the document too, once its verdict is taken: runs' errors and
   * annotations quote the document's keys, which an evaluator kept for the next document (the
   * validator's pooled one) would keep alive.
   */
  forget(): void {
    // Runs a frame deferred leaves to, and the scratch run, outlive their document otherwise.
    for (const frame of this.frames) if (frame.leaves !== null) clear(frame.leaves.parents);
    this.scratch = new Run(this, this.node, null, null, 0, '', 0, false);
    this.reset(null);
  }

  /** True once the document is certainly invalid. */
  get failed(): boolean {
    return this.root.failed;
  }

  /** Number of properties / items seen so far in the innermost open container. */
  count(): number {
    return this.frames[this.depth - 1].count;
  }

  position(): InputPosition {
    return this.input === null ? NO_POSITION : this.input.position();
  }

  stamp(unit: OutputUnit): void {
    if (this.input === null) return;
    const position = this.input.position();
    unit.offset = position.offset;
    unit.line = position.line;
    unit.column = position.column;
  }

  /** JSON pointer of the instance location at `depth`. */
  pointer(depth: number): string {
    let pointer = '';
    for (let i = 0; i < depth && i < this.depth; i++) {
      const frame = this.frames[i];
      pointer += '/' + (frame.kind === OBJECT ? escapePointerToken(frame.key) : String(frame.index));
    }
    return pointer;
  }

  limitError(code: string, message: string, depth: number): InputError {
    return this.inputError('limit', code, message, depth);
  }

  /** An input error at the current position, for the value at instance depth `depth`. */
  private inputError(kind: 'syntax' | 'limit', code: string, message: string, depth: number): InputError {
    const error = new InputError(kind, code, message, this.position());
    error.instanceLocation = this.pointer(depth);
    return error;
  }

  /** The key of the member at `depth` (default: the innermost open object's current key). */
  currentKey(depth: number = this.depth): string {
    return this.frames[depth - 1].key;
  }

  /**
   * Validate a string that is not a document value, such as a property name (`propertyNames`), now.
   * The run reports to `parent` through `keyword` like any other.
   */
  applyToString(parent: Run, node: SchemaNode, keyword: CompiledKeyword, text: string, viaPath: string): void {
    const run = new Run(this, node, parent, keyword, 0, viaPath, parent.depth + 1, false);
    if (node.bool !== undefined) {
      run.decideBoolean();
      return;
    }
    // Above the runs gathered for the key's value, and gone before they are used.
    const start = this.stack.length;
    this.stack.push(run);
    const savedText = this.text;
    this.text = text;
    this.deliverScalarTo(start, STRING);
    this.text = savedText;
  }

  /** Remember a leaf application to the member value of the container at `depth` (see Frame). */
  deferLeaf(depth: number, node: SchemaNode, parent: Run, via: CompiledKeyword, slot: number, viaPath: string): void {
    const frame = this.frames[depth];
    const leaves = (frame.leaves ??= new DeferredLeaves());
    const i = frame.leafCount++;
    leaves.nodes[i] = node;
    leaves.parents[i] = parent;
    leaves.vias[i] = via;
    leaves.slots[i] = slot;
    leaves.paths[i] = viaPath;
  }

  /**
   * `run`'s keyword wants the fingerprint of the item about to start (from an `item` hook):
   * `listener` hears it as the item ends. Each value is hashed once, as its tokens pass, for
   * every keyword at every enclosing level that asked (a run per asker and level was quadratic
   * in the depth of nested arrays under a recursive `uniqueItems`).
   */
  fingerprintItem(run: Run, keyword: CompiledKeyword, listener: FingerprintListener): void {
    // The run's container is the innermost: its requests are at the top.
    const requests = this.requests;
    requests.runs.push(run);
    requests.keywords.push(keyword);
    requests.listeners.push(listener);
  }

  assemble(run: Run, keyword: CompiledKeyword, maxValues: number): void {
    this.assemblies.add(run, keyword, maxValues);
  }

  assembled(run: Run, keyword: CompiledKeyword): unknown {
    return this.assemblies.take(run, keyword);
  }

  /** A value whose hash is `hash` ended in the container `frame`: it joins that container's hash, and whoever asked hears its fingerprint. */
  private fingerprinted(frame: Frame, hash: Hash): void {
    if (frame.hashed) addToHash(frame.hash!, frame.kind, hash, frame.key);
    const requests = this.requests;
    const {runs, keywords, listeners} = requests;
    if (runs.length === frame.requestsFrom) return;
    const fingerprint = hashValue(hash);
    for (let i = frame.requestsFrom; i < runs.length; i++) {
      const run = runs[i];
      if (!run.settled) listeners[i].fingerprinted(run, keywords[i], frame.index, fingerprint);
    }
    requests.truncate(frame.requestsFrom);
  }

  /** The fingerprint of the member value about to end in `frame`, the innermost container, is wanted. */
  private wantsFingerprint(frame: Frame): boolean {
    return frame.hashed || this.requests.runs.length > frame.requestsFrom;
  }

  /** The member value is a scalar: run each deferred leaf on the scratch run. */
  private checkLeaves(frame: Frame, kind: Kind): void {
    const count = frame.leafCount;
    frame.leafCount = 0;
    const leaves = frame.leaves!;
    for (let i = 0; i < count; i++) {
      const parent = leaves.parents[i];
      if (parent.settled) continue;
      const node = leaves.nodes[i];
      // A pass the parent's keyword would ignore, decided without a run: the common case.
      if (node.scalarAccepts !== null && leaves.vias[i].definition.ignoresPassingMembers && this.accepts(node.scalarAccepts, kind)) continue;
      const run = this.scratch;
      run.reuseAsMember(node, parent, leaves.vias[i], leaves.slots[i], leaves.paths[i], this.depth);
      run.begin(kind);
      if (!run.settled) run.scalar();
      if (!run.settled) run.end();
      // A pass that the parent's keyword would ignore needs no report, unless it brings annotations.
      if (!run.settled && (run.failed || !run.via!.definition.ignoresPassingMembers || run.annotations !== null)) run.settle();
      // A failed run that its parent's keyword keeps (unevaluated*) is not reused.
      if (run.failed && run.via!.definition.keepsFailedMembers) this.scratch = new Run(this, run.node, null, null, 0, '', 0, false);
    }
  }

  private accepts(keywords: readonly CompiledKeyword[], kind: Kind): boolean {
    for (let i = 0; i < keywords.length; i++) if (!keywords[i].definition.accepts!(keywords[i], kind, this)) return false;
    return true;
  }

  /** The member value is a container: deferred leaves become ordinary runs. */
  private startLeaves(frame: Frame): void {
    const count = frame.leafCount;
    frame.leafCount = 0;
    const leaves = frame.leaves!;
    for (let i = 0; i < count; i++) {
      const parent = leaves.parents[i];
      if (!parent.settled) parent.startMember(leaves.nodes[i], leaves.vias[i], leaves.slots[i], leaves.paths[i]);
    }
  }

  /**
   * The subschemas applied to the value of the key just delivered, when that value may be judged
   * elsewhere (src/session/memberSink.ts): every keyword that applied one ignores a passing member and
   * keeps no failed one, so a pass needs no report (see skipMember). Else, or with nothing that
   * judges objects or arrays among them, null.
   */
  pendingMember(container = false): SchemaNode[] | null {
    const frame = this.frames[this.depth - 1];
    // A value whose fingerprint is wanted is hashed, one being assembled built, from its tokens:
    // the evaluator must see them.
    if (this.wantsFingerprint(frame) || this.assemblies.length > 0) return null;
    // Reused: callers copy what they keep.
    const nodes = this.pendingNodes;
    while (nodes.length > 0) nodes.pop();
    let containers = container;
    const stack = this.stack;
    for (let i = frame.end; i < stack.length; i++) {
      const run = stack[i];
      if (run.parent!.settled) continue;
      if (!passNeedsNoReport(run.via!)) return null;
      nodes.push(run.node);
      containers = true;
    }
    const leaves = frame.leaves;
    for (let i = 0; i < frame.leafCount; i++) {
      if (leaves!.parents[i].settled) continue;
      if (!passNeedsNoReport(leaves!.vias[i])) return null;
      const node = leaves!.nodes[i];
      nodes.push(node);
      if (node.key.length > 0 || node.item.length > 0 || node.begin.length > 0) containers = true;
    }
    return containers ? nodes : null;
  }

  private readonly pendingNodes: SchemaNode[] = [];

  /** The value of the key just delivered passed every subschema pendingMember named: nothing to do. */
  skipMember(): void {
    const frame = this.frames[this.depth - 1];
    truncate(this.stack, frame.end);
    frame.leafCount = 0;
    frame.announced = false;
    this.requests.truncate(frame.requestsFrom);
  }

  /** The innermost open container is an array. */
  inArray(): boolean {
    return this.depth > 0 && this.frames[this.depth - 1].kind === ARRAY;
  }

  /**
   * Announce the item that starts now to the innermost array's runs, before its first token (which
   * then does not announce it again): for src/session/memberSink.ts, which may judge it apart.
   */
  announceItem(): void {
    const frame = this.frames[this.depth - 1];
    this.announce(frame);
    frame.announced = true;
  }

  /**
   * A run settled: its parent keyword hears of it. A failure can travel up as many levels as the
   * instance is deep, so reports are queued and delivered by one loop instead of by recursion
   * (a 5,000-deep failing document overflowed the stack before).
   */
  report(run: Run): void {
    const reports = this.reports;
    reports.push(run);
    if (this.reporting) return;
    this.reporting = true;
    try {
      for (let i = 0; i < reports.length; i++) reports[i].notifyParent();
    } finally {
      clear(reports);
      this.reporting = false;
    }
  }

  rootSettled(root: Run): void {
    // The first byte that makes the document invalid ends the work, unless all errors are wanted.
    if (!root.failed || this.allErrors) return;
    this.stopped = true;
    this.input?.stop();
  }

  // ---- TokenSink ----

  startObject(): void {
    if (this.assemblies.length > 0) this.assemblies.start(OBJECT);
    this.startContainer(OBJECT);
  }

  startArray(): void {
    if (this.assemblies.length > 0) this.assemblies.start(ARRAY);
    this.startContainer(ARRAY);
  }

  endObject(): void {
    if (this.assemblies.length > 0) this.assemblies.close();
    this.endContainer();
  }

  endArray(): void {
    if (this.assemblies.length > 0) this.assemblies.close();
    this.endContainer();
  }

  keyValue(key: string): void {
    if (this.assemblies.length > 0) this.assemblies.key(key);
    const frame = this.frames[this.depth - 1];
    frame.key = key;
    // A parsed value cannot repeat a key: only text needs the check.
    if (this.fromText && !frame.keys!.add(key)) throw this.inputError('syntax', 'syntax.duplicateKey', `Duplicate key "${key}" in one object (RFC 7493 §2.3)`, this.depth);
    frame.count++;
    const stack = this.stack;
    for (let i = frame.start; i < frame.end; i++) {
      const run = stack[i];
      if (!run.settled) run.key(key);
    }
  }

  stringValue(value: string): void {
    if (this.assemblies.length > 0) this.assemblies.scalar(value);
    this.text = value;
    this.deliverScalar(STRING);
  }

  numberValue(text: string): void {
    if (this.assemblies.length > 0) this.assemblies.scalar(Number(text));
    this.holdNumberText(text);
    this.deliverScalar(NUMBER);
  }

  /** Value mode: a number as a double (its text is made only if asked for, see numberText). */
  numberValueOf(value: number): void {
    if (this.assemblies.length > 0) this.assemblies.scalar(value);
    this.holdScalar(NUMBER, value);
    this.deliverScalar(NUMBER);
  }

  /** Make a scalar the one keywords read, without delivering it (the text checker's `accepts` calls). */
  nullValue(): void {
    if (this.assemblies.length > 0) this.assemblies.scalar(null);
    this.deliverScalar(NULL);
  }

  trueValue(): void {
    if (this.assemblies.length > 0) this.assemblies.scalar(true);
    this.booleanValue = true;
    this.deliverScalar(BOOLEAN);
  }

  falseValue(): void {
    if (this.assemblies.length > 0) this.assemblies.scalar(false);
    this.booleanValue = false;
    this.deliverScalar(BOOLEAN);
  }

  // ---- internals ----

  /**
   * Where on the stack the runs for the value that starts now begin (they reach its top); inside
   * an array this announces the item first.
   */
  private incoming(): number {
    if (this.depth === 0) return 0;
    const frame = this.frames[this.depth - 1];
    if (frame.kind === ARRAY) {
      if (frame.announced) frame.announced = false;
      else this.announce(frame);
    }
    return frame.end;
  }

  /** A new item of the array `frame`: its runs' item hooks. */
  private announce(frame: Frame): void {
    const index = frame.count++;
    frame.index = index;
    const stack = this.stack;
    for (let i = frame.start; i < frame.end; i++) {
      const run = stack[i];
      if (!run.settled) run.item(index);
    }
  }

  /** Begin the runs from `start` to the top, and the in-place runs they start on the way. */
  private beginAll(start: number, kind: Kind): void {
    const stack = this.stack;
    for (let i = start; i < stack.length; i++) {
      const run = stack[i];
      if (!run.settled) run.begin(kind);
    }
  }

  private deliverScalar(kind: Kind): void {
    this.deliverScalarTo(this.incoming(), kind);
    if (this.depth > 0) {
      const frame = this.frames[this.depth - 1];
      if (frame.leafCount > 0) this.checkLeaves(frame, kind);
      if (this.wantsFingerprint(frame)) {
        hashScalar(this.scalarHash, kind, this);
        this.fingerprinted(frame, this.scalarHash);
      }
    }
  }

  /** A scalar for the runs from `start` to the top of the stack, which are done with it after. */
  private deliverScalarTo(start: number, kind: Kind): void {
    const stack = this.stack;
    for (let i = start; i < stack.length; i++) {
      const run = stack[i];
      if (run.settled) continue;
      run.begin(kind);
      if (!run.settled) run.scalar();
    }
    for (let i = stack.length - 1; i >= start; i--) {
      const run = stack[i];
      if (!run.settled) run.finish();
    }
    truncate(stack, start);
  }

  private startContainer(kind: Kind): void {
    const start = this.incoming();
    if (this.depth > 0) {
      const parentFrame = this.frames[this.depth - 1];
      if (parentFrame.leafCount > 0) this.startLeaves(parentFrame);
    }
    this.beginAll(start, kind);
    let frame = this.frames[this.depth];
    if (frame === undefined) this.frames.push((frame = new Frame()));
    frame.kind = kind;
    frame.start = start;
    frame.end = this.stack.length;
    frame.count = 0;
    frame.index = -1;
    frame.announced = false;
    frame.leafCount = 0;
    frame.key = '';
    if (kind === OBJECT && this.fromText) {
      if (frame.keys === null) frame.keys = new KeySet();
      else frame.keys.clear();
    }
    frame.hashed = this.depth > 0 && this.wantsFingerprint(this.frames[this.depth - 1]);
    if (frame.hashed) startHash((frame.hash ??= new Hash()), kind);
    frame.requestsFrom = this.requests.runs.length;
    this.depth++;
    if (this.depth > this.deepest) this.deepest = this.depth;
  }

  private endContainer(): void {
    const frame = this.frames[this.depth - 1];
    // Complete now: its fingerprint is known before its own runs finish.
    if (frame.hashed) this.fingerprinted(this.frames[this.depth - 2], frame.hash!);
    const stack = this.stack;
    for (let i = frame.end - 1; i >= frame.start; i--) {
      const run = stack[i];
      if (!run.settled) run.finish();
    }
    this.depth--;
    truncate(stack, frame.start);
  }
}
