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
// The shapes and members are src/engine/shape.ts, built from the keywords' outlines by
// src/engine/shapeBuilder.ts; the dynamic scopes and scalar plans they hold are
// src/engine/dynamicScope.ts and src/engine/scalarPlan.ts; what the checkers of one schema share,
// src/engine/checkerCache.ts. This file holds what reads a document against them: the TextChecker
// and its doors (check, checkText, valueEndAt, checkValue), which ask the code generated from the
// shapes first (src/engine/programs.ts).
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
import {MemberKeys} from './memberKeys.js';
import {HeldScalar} from './scalar.js';
import {ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, type Kind, type SchemaNode} from '../schema/node.js';
import {PatternTests} from './patterns.js';
import {Ch} from '../json/grammar.js';
import {Tokenizer} from '../json/tokenizer.js';
import {TextScanner, decodeString, type RangeSink} from '../json/scanner.js';
import type {Limits, TokenSink} from '../types.js';
import {
  DOCUMENT,
  Member,
  Shape,
  clearBits,
  cleared,
  flagOf,
  isSet,
  levelsUp,
  type Target,
} from './shape.js';
import {NOT_ASKED, NOT_PASSED, PASSED, RootPrograms, type Asked} from './programs.js';
import {CheckerCache, MAX_VALUE_DEPTH} from './checkerCache.js';
import {failsAtClose, hasAll, holdBack} from './decisions.js';

/**
 * Names and indices remembered per shape; past these, or past the budget of the schema's kept
 * names (CheckerCache.budget), members are worked out afresh each time.
 */
const MAX_NAMES = 1024;
/** Members for values judged apart, kept per schema (as its shapes). */
const MAX_SHAPES = 4096;

/** The checker's verdict on the last document. */
export const PASS = 0;
export const FAIL = 1;
/** The checker could not judge: the evaluator must. */
export const UNSURE = 2;
export type Outcome = typeof PASS | typeof FAIL | typeof UNSURE;

export class TextChecker implements TokenSink, RangeSink {
  outcome: Outcome = PASS;
  /** Why the last document was UNSURE, for tests. */
  unsureOf: 'schema' | 'input' | 'bounds' | 'keyword' | 'early' | undefined = undefined;
  /** What reads the document's text, to be stopped at a verdict. */
  protected tokenizer: Tokenizer | TextScanner | null = null;
  /** Reads whole texts for checkText; made on first need. */
  private scanner: TextScanner | null = null;
  protected readonly root: Member;
  /** The code generated for the document, asked first (checkText, checkValue). */
  private readonly programs: RootPrograms;
  /** The member for the value at depth 0: the document's, or one judged apart (beginValue). */
  protected top: Member;
  // The open containers, by depth.
  protected depth = 0;
  protected readonly open: Shape[] = [];
  protected readonly kinds: Kind[] = [];
  protected readonly counts: number[] = [];
  /** Presence bits and flags of the open containers, as words (see isSet). */
  protected readonly seen: Int32Array[] = [];
  protected readonly flags: Int32Array[] = [];
  /** The keys of the open objects, by depth (a repeated one is refused), and of those in a value skipped. */
  private readonly memberKeys: MemberKeys[] = [];
  private readonly skippedKeys: KeySet[] = [];
  /**
   * The fingerprints of the items of the open arrays under `uniqueItems`, by depth: two items are
   * equal when their fingerprints are (src/engine/fingerprint.ts), as in the evaluator. A collision
   * of two different items fails here and goes to the evaluator, which reports the same false
   * duplicate (docs/keywords.md, uniqueItems).
   */
  private readonly distinct: ItemFingerprints[] = [];
  /** The counts of the open arrays' tallies (Shape.tallyBits), by depth. */
  protected readonly tallies: number[][] = [];
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
  protected readonly held: HeldScalar;
  /** Per open object: the member of its current key, and the properties an UnevaluatedRule holds back. */
  protected readonly currentMembers: Member[] = [];
  protected readonly heldRules: number[][] = [];
  protected readonly heldConditions: (readonly (readonly number[])[])[][] = [];
  /** Depths whose key sets or item sets this document used (see release). */
  private usedLevels = 0;
  /** What the last key selected: the member for the value that follows. */
  protected pending: Member;

  constructor(
    rootNode: SchemaNode,
    private readonly limits: Required<Limits>,
    private readonly cache: CheckerCache = new CheckerCache(),
    /** The document's pattern verdicts: the evaluator recalls what this checker found. */
    readonly patterns: PatternTests = new PatternTests(),
  ) {
    this.held = new HeldScalar(patterns.run, patterns.runInPlace);
    this.root = new Member(-1, [rootNode], [DOCUMENT], [cache.documentScope], cache.scalarPlans);
    this.programs = new RootPrograms(cache, this.root, limits);
    this.top = this.root;
    this.pending = this.root;
  }

  /** Judge numbers as the doubles of a value handed on, or as written (HeldScalar.numbersAsDoubles). */
  judgeNumbersAsDoubles(on: boolean): void {
    this.held.numbersAsDoubles = on;
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
  protected begin(top: Member): void {
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
  checkText(text: string, programAsked?: Asked): Outcome {
    this.begin(this.root);
    // `programAsked`: the code was asked already, of the range of a longer text this one was cut from (askTextRange).
    const asked = programAsked ?? (this.cache.asksPrograms('text') ? this.programs.textPasses(text, this.held, (this.scanner ??= new TextScanner(this.limits))) : NOT_ASKED);
    if (asked === PASSED) {
      this.cache.programPasses.text++;
      this.release();
      return PASS;
    }
    const scanner = (this.tokenizer = this.scanner ??= new TextScanner(this.limits));
    if (this.root.free) scanner.skipValue();
    try {
      if (!scanner.scan(text, this)) this.giveUp('input');
    } finally {
      this.release();
    }
    if (asked === NOT_PASSED && this.outcome === PASS) this.cache.programMisses.text++;
    return this.outcome;
  }

  /**
   * What the code generated for the schema says of `text` from `from` to `to`, as checkText would
   * ask it of `text.slice(from, to)` (see RootPrograms.textPasses). Unless PASSED, the caller gives
   * the slice to checkText with this answer, and the code is not run on it a second time.
   */
  askTextRange(text: string, from: number, to: number): Asked {
    if (!this.cache.asksPrograms('text')) return NOT_ASKED;
    this.begin(this.root);
    try {
      const asked = this.programs.textPasses(text, this.held, (this.scanner ??= new TextScanner(this.limits)), from, to);
      if (asked === PASSED) this.cache.programPasses.text++;
      return asked;
    } finally {
      this.release();
    }
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
      // The generated code's pass is the checker's; anything else, the checker reads again.
      const asked = prototypeHasEnumerables() ? NOT_ASKED : this.programs.valuePasses(value, this.held);
      if (asked === PASSED) this.cache.programPasses.value++;
      else if (!this.emitValue(value, 0)) this.giveUp('input');
      else if (asked === NOT_PASSED && this.outcome === PASS) this.cache.programMisses.value++;
      // A getter of the value's may have given Object.prototype an enumerable property while it
      // was read: `for...in` then listed it as the value's own.
      if (prototypeHasEnumerables()) this.giveUp('input');
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
        this.held.holdDouble(value);
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
      this.member(name, null);
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
  protected release(): void {
    for (let depth = 0; depth < this.usedLevels; depth++) {
      this.memberKeys[depth]?.forget();
      this.skippedKeys[depth]?.clear();
      this.distinct[depth]?.clear();
      this.hashKeys[depth] = '';
    }
    this.held.releaseScalar();
    this.pending = this.root;
    this.tokenizer = null;
  }

  protected giveUp(reason: NonNullable<TextChecker['unsureOf']>): void {
    this.outcome = UNSURE;
    this.unsureOf ??= reason;
    this.tokenizer?.stop();
  }

  protected fail(target: Target, level: number): void {
    if (target === DOCUMENT) {
      if (this.outcome === PASS) this.outcome = FAIL;
      this.tokenizer?.stop();
      return;
    }
    const flag = flagOf(target);
    this.flags[level - levelsUp(target)]![flag >> 5]! |= 1 << (flag & 31);
  }

  // ---- shapes and members ----

  private newMember(shape: Shape, name: string): Member {
    const bit = shape.presenceBits.get(name);
    const member = shape.memberSources.select(name, bit === undefined ? -1 : bit, this.cache.scalarPlans, this.held.match);
    const {named} = shape;
    if (named.keptNames < MAX_NAMES && named.admits(name)) member.name = named.set(name, member);
    return member;
  }

  protected memberAt(shape: Shape, item: number): Member {
    return shape.itemMember(item, this.cache.scalarPlans, this.held.match);
  }


  // ---- scalars ----

  /**
   * Judge the scalar being held, the value of `member` at `level` (a scalar has no frame: `level`
   * is where its frame would be, and the flags there are scratch). The common leaf is one loop of
   * `accepts`; anything else is judged by the shape of its location, with the rules and decisions
   * an object or array there would get: `allOf`, `anyOf`, `not`, `if`... are decided one way.
   * True when it passed every `accepts` of the common leaf (false also when it was judged otherwise).
   */
  protected judgeScalar(member: Member, kind: Kind, level: number): boolean {
    const scalar = this.held;
    const {accepts} = member;
    if (accepts !== null) {
      const {acceptsKeywords, acceptsTargets} = member;
      let passed = true;
      for (let i = 0; i < accepts.length; i++) {
        if (accepts[i]!(acceptsKeywords[i]!, kind, scalar)) continue;
        passed = false;
        this.fail(acceptsTargets[i]!, level);
      }
      return passed;
    }
    const shape = member.shape ?? this.cache.shapeOf(member);
    if (shape.unsure) {
      this.giveUp(this.usable ? 'bounds' : 'schema');
      return false;
    }
    cleared(this.flags, level, shape.flagWords);
    const {scalarFails, scalarKinds, scalarKindTargets, scalarAccepts, scalarAcceptsKeywords, scalarAcceptsTargets} = shape;
    for (let i = 0; i < scalarFails.length; i++) this.fail(scalarFails[i]!, level);
    for (let i = 0; i < scalarKinds.length; i++) if ((scalarKinds[i]! & kind) === 0) this.fail(scalarKindTargets[i]!, level);
    for (let i = 0; i < scalarAccepts.length; i++) if (!scalarAccepts[i]!(scalarAcceptsKeywords[i]!, kind, scalar)) this.fail(scalarAcceptsTargets[i]!, level);
    this.decide(shape, level, kind);
    return false;
  }

  // ---- TokenSink ----

  /** The member for the value that starts now; inside an array this counts the item. */
  protected incoming(): Member {
    const depth = this.depth;
    if (depth === 0) return this.top;
    if (this.kinds[depth - 1] !== ARRAY) return this.pending;
    const shape = this.open[depth - 1]!;
    const member = this.memberAt(shape, this.counts[depth - 1]!++);
    if (shape.extras) this.itemBegins(depth - 1, member);
    return member;
  }

  /**
   * `member`, an item of the array at `level` (whose shape has extras), begins: the flags of its
   * tallies and rules are its own, and memberEnded finds it when it is an object or array that ends later.
   */
  protected itemBegins(level: number, member: Member): void {
    const shape = this.open[level]!;
    const flags = this.flags[level]!;
    clearBits(flags, shape.tallyBits);
    clearBits(flags, shape.itemSources.ruleFlags);
    this.currentMembers[level] = member;
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
  protected memberEnded(level: number, member: Member): void {
    const shape = this.open[level]!;
    const flags = this.flags[level]!;
    const array = this.kinds[level] === ARRAY;
    if (array && shape.tallyBits.length > 0) this.countItem(level);
    const {rules} = array ? shape.itemSources : shape.memberSources;
    if (rules.length > 0) holdBack(rules, member, flags, this.heldRules[level]!, this.heldConditions[level]!);
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
  protected countItem(level: number): void {
    const {tallyBits} = this.open[level]!;
    const counts = this.tallies[level]!;
    const flags = this.flags[level]!;
    for (let i = 0; i < tallyBits.length; i++) if (!isSet(flags, tallyBits[i]!)) counts[i]!++;
  }

  protected openContainer(kind: Kind): void {
    const outer = this.depth - 1;
    // An item of a `uniqueItems` array, or a container inside one: its fingerprint is wanted.
    const hashed = outer >= 0 && ((this.hashing !== 0 && this.hashed[outer]!) || (this.kinds[outer] === ARRAY && this.open[outer]!.distinctTargets.length > 0));
    const member = this.incoming();
    const shape = member.shape ?? this.cache.shapeOf(member);
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
    cleared(this.seen, level, shape.presenceWords);
    cleared(this.flags, level, shape.flagWords);
    if (kind === OBJECT) {
      if (shape.memberSources.rules.length > 0) this.clearHeld(level);
      (this.memberKeys[level] ??= new MemberKeys()).open(shape);
      if (level >= this.usedLevels) this.usedLevels = level + 1;
    } else {
      if (shape.distinctTargets.length > 0) {
        let seen = this.distinct[level];
        if (seen === undefined) this.distinct[level] = seen = new ItemFingerprints();
        else seen.clear();
        if (level >= this.usedLevels) this.usedLevels = level + 1;
      }
      if (shape.itemSources.rules.length > 0) this.clearHeld(level);
      if (shape.tallyBits.length > 0) {
        const counts = (this.tallies[level] ??= []);
        const {length} = shape.tallyBits;
        for (let i = 0; i < length; i++) counts[i] = 0;
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

  /** No property or item of the container at `level` held back yet (popping: setting `length` is a runtime call). */
  private clearHeld(level: number): void {
    const rules = (this.heldRules[level] ??= []);
    const conditions = (this.heldConditions[level] ??= []);
    while (rules.length > 0) {
      rules.pop();
      conditions.pop();
    }
  }

  private closeContainer(kind: Kind): void {
    const level = --this.depth;
    const shape = this.open[level]!;
    const count = this.counts[level]!;
    if (kind === OBJECT) {
      this.memberKeys[level]!.close();
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
    // A scalar's level has no presence bits or held members: only an object's or array's are read.
    const seen = this.seen[level]!;
    const rules = this.heldRules[level]!;
    const conditions = this.heldConditions[level]!;
    for (let i = decisions.length - 1; i >= 0; i--) if (failsAtClose(decisions[i]!, kind, flags, seen, rules, conditions)) this.fail(decisions[i]!.target, level);
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
    this.member(key, this.memberKeys[this.depth - 1]!);
  }

  /**
   * The property named `key` of the innermost open object begins. `keys`: the object's keys so
   * far, to refuse a repeated one (null: a parsed value, which repeats none).
   */
  protected member(key: string, keys: MemberKeys | null): void {
    const level = this.depth - 1;
    const position = this.counts[level]!;
    const shape = this.open[level]!;
    const {named} = shape;
    const {names} = named;
    let member: Member | undefined;
    let kept = true;
    if (position < names.length && names[position] === key) member = named.values[position]!;
    else {
      member = named.byName.get(key);
      if (member === undefined) {
        kept = false;
        member = this.newMember(shape, key);
      }
      if (member.name !== null) named.place(position, member.name, member);
    }
    if (keys !== null && !keys.add(key, member, kept)) {
      // A repeated key is a syntax error: the evaluator reports it.
      this.giveUp('input');
      return;
    }
    this.counts[level] = position + 1;
    const bit = member.presence;
    if (bit >= 0) this.seen[level]![bit >> 5]! |= 1 << (bit & 31);
    this.pending = member;
    if (this.hashing !== 0 && this.hashed[level]) this.hashKeys[level] = key;
    const {ruleFlags} = shape.memberSources;
    if (ruleFlags.length > 0) {
      this.currentMembers[level] = member;
      clearBits(this.flags[level]!, ruleFlags);
    }
    if (shape.keyNameNodes.length === 0 || member.nameAccepted) return;
    this.held.holdString(key);
    const keyNames = shape.keyNamesMemberOf(this.cache.scalarPlans);
    const passed = this.judgeScalar(keyNames, STRING, level + 1);
    // A name's verdict is the name's alone (but a function of the caller's): a kept member's name passes for good.
    if (passed && member.name !== null && keyNames.acceptsKeepable) member.nameAccepted = true;
  }

  /**
   * A key as a range of the text (checkText). A value any value would pass is skipped, unless
   * something here reads it whole (a fingerprint, a tally, unevaluated*).
   */
  keyAt(text: string, from: number, to: number, escaped: boolean): void {
    this.keyValue(escaped ? decodeString(text, from, to) : text.slice(from, to));
    if (this.pending.free && this.hashing === 0 && !this.open[this.depth - 1]!.extras) this.scanner!.skipValue();
  }

  /** The keys of the object opening at `depth` (its level + 1) in a value skipped, kept afresh. */
  openKeys(depth: number): void {
    const level = depth - 1;
    const keys = this.skippedKeys[level];
    if (keys === undefined) this.skippedKeys[level] = new KeySet();
    else keys.clear();
    if (level >= this.usedLevels) this.usedLevels = depth;
  }

  addKey(depth: number, key: string): boolean {
    return this.skippedKeys[depth - 1]!.add(key);
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
    this.held.holdString(value);
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
    this.held.holdBoolean(true);
    this.scalar(BOOLEAN);
  }

  falseValue(): void {
    this.held.holdBoolean(false);
    this.scalar(BOOLEAN);
  }
}

/** Someone gave Object.prototype an enumerable property: `for...in` would list it on every object. */
function prototypeHasEnumerables(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}
