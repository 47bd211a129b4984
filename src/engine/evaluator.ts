// The one-pass evaluator. It consumes the stream-json token protocol (as TokenSink calls) and keeps,
// per open object or array, a frame with the *runs* active there: one run is one schema node applied
// at one instance location. In-place applicators (allOf, $ref, if/then/else, ...) add runs at the same
// location; keys and items spawn runs for the member value. A run settles as passed or failed and
// reports to the keyword that started it. When the root run fails, the document is certainly invalid.
// See docs/architecture.md for the picture.

import {InputError, NO_POSITION, type InputPosition} from '../output/errors.js';
import {Hash, addToHash, hashScalar, hashValue, startHash} from './fingerprint.js';
import {type KeyPlans} from './keyPlan.js';
import {KeySet} from './keySet.js';
import type {Scope} from './dynamicScope.js';
import {HeldScalar} from './scalar.js';
import {clear, truncate} from './arrays.js';
import {FALSE_KEYWORD, Run, type RunHost} from './run.js';
import {DeferredLeaves, FingerprintRequests, Frame} from './frame.js';
import {stringsAlikePast} from './judgedByKind.js';
import {Assemblies} from './assemblies.js';
import {escapePointerToken} from '../json/pointer.js';
import {ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, type CompiledKeyword, type FingerprintListener, type Kind, type Matcher, type SchemaNode} from '../schema/node.js';
import type {OutputUnit, TokenSink} from '../types.js';

export {EvaluatedItems, Run} from './run.js';

/** The keyword `via` ignores a member that passes and keeps none that fails (see pendingMember). */
function passNeedsNoReport(via: CompiledKeyword): boolean {
  return via.definition.ignoresPassingMembers === true && via.definition.keepsFailedMembers !== true;
}
/** Where the events come from, in streaming mode: the tokenizer. */
export interface InputSource {
  /** Position of the byte that completed the current token. */
  position(): InputPosition;
  /** Position of the opening quote of the string value being delivered (without it: `position`). */
  valueStart?(): InputPosition;
  /** Stop delivering events (the document is certainly invalid). */
  stop(): void;
}

/**
 * Applications every document may make beyond maxApplications per value (a small document under a
 * large schema), and the most one value may have (its location's own applications).
 */
const APPLICATION_ALLOWANCE = 128;

/**
 * The subschemas applied to one document, and its values, against Limits.maxApplications. One per
 * document, shared by every evaluator that judges some of it: the amender's judges (src/engine/amender.ts)
 * judge members again, a nested judge the members of those, and each must count.
 */
export class ApplicationCount {
  applied = 0;
  values = 0;
  constructor(readonly max: number) {}
}

/**
 * What an evaluator does with its ApplicationCount: the document's own counts the values and
 * begins the count with each document; a judge counts the values it is given (each is given to one
 * judge at the outermost level, and to the document's evaluator once, so a value counts at most
 * twice); a nested judge counts applications only, since the values it is given were counted.
 */
export type Counting = 'document' | 'judge' | 'nested judge';

export class Evaluator extends HeldScalar implements TokenSink, RunHost {
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
  /**
   * A string value is being delivered, and the leaves its object deferred to it (checkLeaves
   * clears the frame's count as it runs them; see stringJudgedByKind).
   */
  private scalarIsString = false;
  private scalarLeaves = 0;
  /**
   * The bound past which that string's schemas judge every string alike (stringsAlikeFrom), once
   * a stamp asked: NaN not yet. Runs that fail inside the value (a `contains` miss, an `anyOf`
   * branch) each stamp their error, and the walk of the stack is the same for all of them.
   */
  private scalarPast = NaN;
  /**
   * The string that is arriving was judged before its closing quote (stringBegins, stringGrows):
   * its value is not delivered again.
   */
  private stringJudged = false;
  /** The string value arriving in pieces is judged once longer than this (stringGrows); else Infinity. */
  private growingPast = Infinity;
  /**
   * An array's item that is a string is being announced: what its item hooks find is stamped at
   * its opening quote, where a string cut by a piece's end announces it (stringBegins).
   */
  private announcingString = false;
  /** The document is certainly invalid and only the first error is wanted: feed no more events. */
  stopped = false;
  /** Applications made for the value now at each depth, since it was announced (see applying). */
  private readonly appliedAt: number[] = [0];

  constructor(
    private readonly node: SchemaNode,
    allErrors: boolean,
    /** The validator's key plans, shared by its evaluators (src/engine/keyPlan.ts). */
    readonly keyPlans: KeyPlans,
    /** The scope its documents start from, whose interned scopes the validator's checker shares (CheckerCache.documentScope). */
    readonly rootScope: Scope,
    /** The document's count against Limits.maxApplications, and this evaluator's part in it. */
    private readonly applications: ApplicationCount,
    private readonly counting: Counting,
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
    this.scalarIsString = false;
    this.stringJudged = false;
    this.growingPast = Infinity;
    this.announcingString = false;
    if (this.counting === 'document') {
      this.applications.applied = 0;
      this.applications.values = 0;
    }
    this.appliedAt[0] = 0;
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
    const input = this.input;
    if (input === null) return;
    // A string judged by its kind, or by its kind and its length, is judged at its opening quote,
    // however it was cut and wherever its length was found to pass the bound; a string item is
    // announced there.
    const position = input.valueStart !== undefined && (this.announcingString || this.scalarJudgedAlike()) ? input.valueStart() : input.position();
    unit.offset = position.offset;
    unit.line = position.line;
    unit.column = position.column;
  }

  /** JSON pointer of the instance location at `depth`. */
  pointer(depth: number): string {
    // Each open container keeps the pointer of its current member once made, from its parent's
    // (see Run.location): one join per container, where the errors of a deep document each cost a
    // walk of every level.
    let from = Math.min(depth, this.depth);
    const to = from;
    while (from > 0 && this.frames[from - 1].path === null) from--;
    let pointer = from === 0 ? '' : this.frames[from - 1].path!;
    for (let i = from; i < to; i++) {
      const frame = this.frames[i];
      pointer += '/' + (frame.kind === OBJECT ? escapePointerToken(frame.key) : String(frame.index));
      frame.path = pointer;
    }
    return pointer;
  }

  /**
   * A subschema is applied at instance depth `depth` (a run, or a leaf deferred to the scalar
   * check). Two subschemas that reach the same recursive one apply it twice at the next level,
   * and so on down: the work doubles at every level of the document, as the memory for the runs
   * that wait on its keys. Past maxApplications per value of the document, or past the allowance
   * at one value (however many values elsewhere paid for it), the document is refused with a limit
   * error at this position, rather than judged in exponential time and memory.
   */
  applying(depth: number): void {
    const count = this.applications;
    const here = (this.appliedAt[depth] ?? 0) + 1;
    this.appliedAt[depth] = here;
    if (++count.applied <= count.max * (count.values + APPLICATION_ALLOWANCE) && here <= count.max * APPLICATION_ALLOWANCE) return;
    throw this.limitError('limit.applications', `More than maxApplications (${count.max}) subschema applications per value of the document, or ${count.max * APPLICATION_ALLOWANCE} at one value`, depth);
  }

  /** A value begins: it counts towards the document's applications unless it was counted already. */
  private counted(): void {
    if (this.counting !== 'nested judge') this.applications.values++;
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
    this.applying(parent.depth + 1);
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
    this.applying(depth + 1);
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
      if (!parent.settled) parent.startDeferredMember(leaves.nodes[i], leaves.vias[i], leaves.slots[i], leaves.paths[i]);
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
    // A value judged apart is a value of the document all the same: its applications were counted.
    this.counted();
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
   * Announce the item of `kind` that starts now to the innermost array's runs, before its first
   * token (which then does not announce it again): for src/session/memberSink.ts, which may judge
   * it apart, and for a string at its opening quote (stringBegins).
   */
  announceItem(kind: Kind): void {
    const frame = this.frames[this.depth - 1];
    this.announce(frame, kind);
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
    this.memberBegins(frame);
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
    this.growingPast = Infinity;
    if (this.stringJudged) {
      this.stringJudged = false;
      return;
    }
    if (this.assemblies.length > 0) this.assemblies.scalar(value);
    this.text = value;
    this.deliverScalar(STRING);
  }

  /**
   * A string value has opened and its text is still to come. An array's item is announced now
   * (its item hooks run: `maxItems`, `items: false`... decide here). Where every schema applied to
   * it judges strings by their kind alone (src/engine/judgedByKind.ts), it is judged now, as the
   * empty string: a string of the wrong kind is refused at its opening quote rather than at its
   * closing one, up to `maxStringLength` bytes later. Where they judge it by its kind and a bound
   * on its length (`maxLength`, `minLength`), it is judged as it grows past the bound (stringGrows).
   */
  stringBegins(): void {
    if (this.stopped || this.stringJudged) return;
    const frame = this.depth === 0 ? null : this.frames[this.depth - 1];
    if (frame !== null && frame.kind === ARRAY && !frame.announced) {
      this.announceItem(STRING);
      if (this.stopped) return;
    }
    const past = this.stringsAlikeFrom(frame === null ? 0 : frame.leafCount);
    if (past < 0) this.judgeString('');
    else this.growingPast = past;
  }

  /**
   * The string value that began (stringBegins) has `length` UTF-16 code units so far. Once it is
   * longer than the bound of every schema applied to it, its verdict is that of any string as long:
   * it is judged now as such a string of `x`s. A code point is at most two code units, so the
   * string is longer than the bound once half its code units are.
   */
  stringGrows(length: number): void {
    if (this.stopped || this.stringJudged || length - (length >> 1) <= this.growingPast) return;
    this.judgeString('x'.repeat(this.growingPast + 1));
  }

  /** Judge the string arriving as `text`, which every schema applied to it judges as it would judge it. */
  private judgeString(text: string): void {
    this.growingPast = Infinity;
    this.text = text;
    this.deliverScalar(STRING);
    this.stringJudged = true;
  }

  /** The string being delivered is judged by its kind, or its kind and its length (see scalarPast). */
  private scalarJudgedAlike(): boolean {
    if (!this.scalarIsString) return false;
    if (this.scalarPast !== this.scalarPast) this.scalarPast = this.stringsAlikeFrom(this.scalarLeaves);
    return this.scalarPast !== Infinity;
  }

  /**
   * The bound past which every schema applied to the string value (its runs, above its
   * container's on the stack, and the first `leaves` leaves of its container) judges every string
   * alike (stringsAlikePast), where nothing else reads the value: no fingerprint of it, no
   * assembled value, no annotations. Infinity where the text decides. An item must have been
   * announced.
   */
  private stringsAlikeFrom(leaves: number): number {
    if (this.assemblies.length > 0 || this.collectsAnnotations) return Infinity;
    let start = 0;
    let past = -1;
    if (this.depth > 0) {
      const frame = this.frames[this.depth - 1];
      if (this.wantsFingerprint(frame)) return Infinity;
      for (let i = 0; i < leaves && past !== Infinity; i++) past = Math.max(past, stringsAlikePast(frame.leaves!.nodes[i]));
      start = frame.end;
    }
    const stack = this.stack;
    for (let i = start; i < stack.length && past !== Infinity; i++) past = Math.max(past, stringsAlikePast(stack[i].node));
    return past;
  }

  numberValue(text: string): void {
    if (this.assemblies.length > 0) this.assemblies.scalar(Number(text));
    this.holdNumberText(text);
    this.deliverScalar(NUMBER);
  }

  /** Value mode: a number as a double (its text is made only if asked for, see numberText). */
  numberValueOf(value: number): void {
    if (this.assemblies.length > 0) this.assemblies.scalar(value);
    this.holdDouble(value);
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
   * Where on the stack the runs for the value of `kind` that starts now begin (they reach its
   * top); inside an array this announces the item first, unless it was announced ahead.
   */
  private incoming(kind: Kind): number {
    if (this.depth === 0) return 0;
    const frame = this.frames[this.depth - 1];
    if (frame.kind === ARRAY) {
      if (frame.announced) frame.announced = false;
      else this.announce(frame, kind);
    }
    return frame.end;
  }

  /**
   * The innermost container `frame` moved on to a new member: the pointer made for the last one,
   * and the applications counted for its value, are not the new one's.
   */
  private memberBegins(frame: Frame): void {
    frame.path = null;
    this.appliedAt[this.depth] = 0;
  }

  /**
   * A new item of `kind` in the array `frame`: its runs' item hooks. What they find of a string is
   * stamped at its opening quote (announcingString). What they throw (a limit) ends the document,
   * and reset clears the flag for the next.
   */
  private announce(frame: Frame, kind: Kind): void {
    const index = frame.count++;
    frame.index = index;
    this.memberBegins(frame);
    this.announcingString = kind === STRING;
    const stack = this.stack;
    for (let i = frame.start; i < frame.end; i++) {
      const run = stack[i];
      if (!run.settled) run.item(index);
    }
    this.announcingString = false;
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
    this.counted();
    const start = this.incoming(kind);
    if (kind === STRING) {
      this.scalarIsString = true;
      this.scalarLeaves = this.depth === 0 ? 0 : this.frames[this.depth - 1].leafCount;
      this.scalarPast = NaN;
    }
    this.deliverScalarTo(start, kind);
    if (this.depth > 0) {
      const frame = this.frames[this.depth - 1];
      if (frame.leafCount > 0) this.checkLeaves(frame, kind);
      if (this.wantsFingerprint(frame)) {
        hashScalar(this.scalarHash, kind, this);
        this.fingerprinted(frame, this.scalarHash);
      }
    }
    this.scalarIsString = false;
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
    this.counted();
    const start = this.incoming(kind);
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
    frame.path = null;
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
