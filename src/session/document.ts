// One document's state, all of it, in one object (docs/architecture.md, "Per-document state"). A
// Document is begun afresh for each document it judges, whatever way the last one ended — an
// input error, a limit, an early stop, an exception — so nothing of one document reaches the next.
// The validator's whole-document calls take a Document from its pool and give it back when the
// call returns (a call made while another is under way, from a getter say, takes another one); a
// session is a Document of its own, begun for a stream.

import {Assembler, TeeSink} from '../json/assembler.js';
import {InputError, NO_POSITION, inputErrorUnit} from '../output/errors.js';
import {Amender, type AmendPlans} from '../engine/amender.js';
import {ApplicationCount, Evaluator} from '../engine/evaluator.js';
import {clear} from '../engine/arrays.js';
import type {KeyPlans} from '../engine/keyPlan.js';
import {PASS, TextChecker} from '../engine/checker.js';
import {NOT_ASKED, PASSED, type Asked} from '../engine/programs.js';
import {StreamChecker} from '../engine/streamChecker.js';
import type {CheckerCache} from '../engine/checkerCache.js';
import {PatternTests} from '../engine/patterns.js';
import type {SchemaNode} from '../schema/node.js';
import {MemberSink, memberValues} from './memberSink.js';
import {Tokenizer} from '../json/tokenizer.js';
import {ChunkDecoder, decodeUtf8, replacementsIn, type Replacements} from '../json/utf8.js';
import {assignInPlace, unchangeableAt} from '../json/inPlace.js';
import {walkValue} from '../json/walker.js';
import type {Limits, Result, Session, TokenSink, ValidResult, ValueResult} from '../types.js';

/** What every document of one compiled schema shares: the schema, its options, and the engines' caches. */
export interface CompiledParts {
  readonly root: SchemaNode;
  readonly allErrors: boolean;
  /** Results carry the output's annotations (CompileOptions.annotations). */
  readonly annotations: boolean;
  readonly limits: Required<Limits>;
  /** What the evaluators make of property names, per node (src/engine/keyPlan.ts). */
  readonly keyPlans: KeyPlans;
  /** The checker's shapes and plans (src/engine/checker.ts). */
  readonly checkerCache: CheckerCache;
  /** What the value options change where (src/engine/amender.ts); null when none is on. */
  readonly amendPlans: AmendPlans | null;
  /**
   * The value options change no document that is valid as sent (see `changesValidDocuments` in
   * src/session/validator.ts): such a document is judged and parsed as sent.
   */
  readonly validAsSentIsUnchanged: boolean;
  /** Checkers that sessions read ahead with (see Document.beginText), idle; at most MOST_IDLE. */
  readonly idleCheckers: StreamChecker[];
}

/** Bytes decoded at a time by a session (see ChunkDecoder). */
const DECODE_SLICE = 8192;
/**
 * The most text (UTF-16 code units) a session's checker reads ahead of the evaluator (see
 * beginText): what the evaluator reads again when the checker does not pass the document, and what
 * the session holds meanwhile.
 */
const MOST_CHECKED = 16384;
/** Idle checkers kept for sessions per validator: those of sessions that ran at once, beyond, are dropped. */
const MOST_IDLE = 8;

export class Document implements Session {
  /** Runs, frames and the scalar being delivered (see `evaluator`). */
  private made: Evaluator | null = null;
  // Made on first need (see `applications`, `patterns`): a session the checker passes needs neither.
  private applicationsMade: ApplicationCount | null = null;
  private patternsMade: PatternTests | null = null;
  /** The pass-only verdict, and the judge of member values set apart; made on first need. */
  private checker: TextChecker | null = null;
  /** The call under way hands a value on (see handsOnValue). */
  private valueHandedOn = false;
  /** Changes the tokens as the value options say, before the engines see them; made on first need. */
  private amender: Amender | null = null;
  // The input side of a document given as text, set afresh by beginText.
  private tokenizer: Tokenizer | null = null;
  private decoder: ChunkDecoder | null = null;
  private assembler: Assembler | undefined = undefined;
  /** Member values may be judged apart (src/session/memberSink.ts), until a MemberSink is set up. */
  private judgesMembersApart = false;
  private inputError: InputError | undefined = undefined;
  private result: Result | undefined = undefined;
  /** The tokenizer saw the whole document (it was not stopped early). */
  private complete = false;
  /**
   * A session's text goes to the checker first (see beginText), through this tokenizer, until it
   * passes, does not, or is longer than MOST_CHECKED; the text it read is kept for the evaluator.
   */
  private checking: Tokenizer | null = null;
  /** The checker it feeds: one of the validator's idle ones, given back when it is done. */
  private streamChecker: StreamChecker | null = null;
  private readonly checked: string[] = [];
  /** The replacements of the texts in `checked` that have any, by index (see ChunkDecoder): byte offsets need them when they are read again. */
  private checkedReplacements: Map<number, Replacements> | null = null;
  private checkedLength = 0;
  /** What startText is to be given when the evaluator takes over from the checker. */
  private membersApart = false;
  /**
   * The checker's tokenizer, once the checker passed the document: it says how many bytes it read
   * if asked (counting them costs a byteLength of each piece, most sessions never ask).
   */
  private passed: Tokenizer | null = null;

  constructor(private readonly parts: CompiledParts) {}

  /** The subschemas this document applies, whichever evaluator applies them (the amender's judges too). */
  private get applications(): ApplicationCount {
    return (this.applicationsMade ??= new ApplicationCount(this.parts.limits.maxApplications));
  }

  /**
   * The patterns' verdicts found in this document: what the checker found, the evaluator recalls
   * rather than runs again (src/engine/patterns.ts). Cleared as each document begins and ends.
   */
  private get patterns(): PatternTests {
    return (this.patternsMade ??= new PatternTests());
  }

  /** Runs, frames and the scalar being delivered; reset as each document begins. Made on first need: a session the checker passes never needs it. */
  get evaluator(): Evaluator {
    if (this.made === null) {
      const parts = this.parts;
      this.made = new Evaluator(parts.root, parts.allErrors, parts.keyPlans, parts.checkerCache.documentScope, this.applications, 'document', this.patterns.test, parts.annotations);
      this.made.numbersAsDoubles = this.valueHandedOn;
    }
    return this.made;
  }

  /**
   * This call hands a value on (parseText, a session with `parse`, an NDJSON line parsed): the
   * engines judge its numbers as the doubles that value holds (HeldScalar.numbersAsDoubles), so
   * that what the caller gets is what was judged. Set as each call begins; a pooled document
   * serves validateText and parseText in turn.
   */
  private handsOnValue(on: boolean): void {
    this.valueHandedOn = on;
    this.checker?.judgeNumbersAsDoubles(on);
    if (this.made !== null) this.made.numbersAsDoubles = on;
  }

  /** The limits every reader of this document holds it to. */
  get limits(): Required<Limits> {
    return this.parts.limits;
  }

  private checkerOf(): TextChecker {
    if (this.checker === null) {
      this.checker = new TextChecker(this.parts.root, this.parts.limits, this.parts.checkerCache, this.patterns);
      this.checker.judgeNumbersAsDoubles(this.valueHandedOn);
    }
    return this.checker;
  }

  private amenderOf(plans: AmendPlans): Amender {
    return (this.amender ??= new Amender(plans, this.parts.limits, this.patterns.run, this.applications, false));
  }

  /** What the checker's tokenizer feeds under the value options: the amender, then `checker` (and `also`). */
  private amendedCheck(plans: AmendPlans, also?: TokenSink): (checker: TokenSink, tokenizer: Tokenizer) => TokenSink {
    return (checker, tokenizer) => this.amenderOf(plans).begin(also === undefined ? checker : new TeeSink(checker, also), tokenizer, true);
  }

  // ---- whole documents (the validator's calls) ----

  /** validate(): a parsed value, given back as a valid result's value. */
  validateValue(value: unknown): ValueResult {
    // The value is given as doubles already: its numbers are those doubles (HeldScalar.holdDouble).
    this.handsOnValue(false);
    const plans = this.parts.amendPlans;
    try {
      return plans === null ? this.judgeValue(value) : this.judgeAmended(value, plans);
    } finally {
      this.patterns.clear();
    }
  }

  /**
   * validate() under the value options: the value is amended first, in place as ajv does, then
   * judged; `Result.value` is the value judged (a new one only where the whole value changed kind).
   */
  private judgeAmended(value: unknown, plans: AmendPlans): ValueResult {
    const assembler = new Assembler();
    const amender = this.amenderOf(plans).begin(assembler, null, false);
    try {
      walkValue(value, amender, this.parts.limits);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      return {valid: false, errors: [inputErrorUnit(error)]};
    } finally {
      amender.release();
    }
    // A value that cannot be changed where the options change it (frozen, sealed) is refused as it
    // is, unchanged: ajv, in code that is not strict, changes what it can and says nothing.
    const unchangeable = unchangeableAt(value, assembler.value);
    if (unchangeable !== null) {
      const error = new InputError('syntax', 'value.unchangeable', 'the value options would change the value here, in an object or array that cannot be changed (frozen, sealed or read-only): pass a copy', NO_POSITION);
      error.instanceLocation = unchangeable;
      return {valid: false, errors: [inputErrorUnit(error)]};
    }
    const amended = assignInPlace(value, assembler.value);
    const result = this.judgeValue(amended);
    result.value = amended;
    return result;
  }

  private judgeValue(value: unknown): ValueResult {
    // Most values pass: the fast verdict says so without events; otherwise the events say why.
    if (this.parts.checkerCache.usable && this.checkerOf().checkValue(value) === PASS) return {valid: true, errors: [], value};
    const evaluator = this.evaluator;
    evaluator.reset(null);
    try {
      if (!evaluator.stopped) walkValue(value, evaluator, this.parts.limits);
      const result = verdict(evaluator, undefined);
      if (result.valid) result.value = value;
      return result as ValueResult;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      return verdict(evaluator, error) as ValueResult;
    } finally {
      // The walk's keys and strings are the caller's: the pooled document must not keep them alive.
      evaluator.forget();
    }
  }

  /**
   * Whether a whole text is judged as sent, by the checker's text pass: no value option could
   * change a valid document (under those that could, the amender stands in front).
   */
  private judgesAsSent(): boolean {
    return this.parts.amendPlans === null || this.parts.validAsSentIsUnchanged;
  }

  /**
   * validateText(): a whole document as text or bytes. `programAsked`: what the schema's code said
   * of the range this text was cut from (judgeTextRange), not to be asked again.
   */
  validateText(text: string | Uint8Array, programAsked?: Asked): Result {
    this.handsOnValue(false);
    try {
      // Most documents pass: the checker says so without runs; otherwise the evaluator says why.
      if (!this.parts.checkerCache.usable) return this.evaluateText(text);
      const source = typeof text === 'string' ? text : decodeUtf8(text);
      const plans = this.parts.amendPlans;
      const checker = this.checkerOf();
      if ((plans === null || this.judgesAsSent() ? checker.checkText(source, programAsked) : checker.check(source, this.amendedCheck(plans))) === PASS) return {valid: true, errors: []};
      return this.evaluateText(source, replacementsOf(text, source));
    } finally {
      this.patterns.clear();
      this.amender?.release();
    }
  }

  /**
   * validateText's result for text.slice(from, to), or with `parse` parseText's, as they give it
   * to the slice (or to `bytes`, the slice's own bytes where the text is not their true length).
   * NDJSON lines found whole are judged so in the decoded piece they stand in: the schema's code
   * is asked of the range (TextChecker.askTextRange), and only a line it does not pass is sliced,
   * its answer carried along so that the code does not read the line twice.
   */
  judgeTextRange(text: string, from: number, to: number, parse: boolean, bytes?: Uint8Array): Result {
    this.handsOnValue(parse);
    let asked: Asked = NOT_ASKED;
    try {
      if (this.parts.checkerCache.usable && this.judgesAsSent()) asked = this.checkerOf().askTextRange(text, from, to);
    } finally {
      this.patterns.clear();
    }
    if (asked === PASSED) return parse ? withValue({valid: true, errors: []}, text.slice(from, to)) : {valid: true, errors: []};
    const line = bytes ?? text.slice(from, to);
    return parse ? this.parseText(line, asked) : this.validateText(line, asked);
  }

  /** parseText(): validateText's verdict, and the value of a valid document. `programAsked`: as validateText's. */
  parseText(text: string | Uint8Array, programAsked?: Asked): ValueResult {
    this.handsOnValue(true);
    try {
      const source = typeof text === 'string' ? text : decodeUtf8(text);
      const plans = this.parts.amendPlans;
      // For a valid document whose value is wanted anyway: the checker's pass, then JSON.parse once.
      // Under value options that change no valid document, its value as sent is the amended one.
      if (this.judgesAsSent() && this.parts.checkerCache.usable && this.checkerOf().checkText(source, programAsked) === PASS) return withValue({valid: true, errors: []}, source);
      if (plans !== null) return this.parseAmended(source, replacementsOf(text, source), plans);
      const result = this.evaluateText(source, replacementsOf(text, source));
      return result.valid ? withValue(result, source) : result;
    } finally {
      this.patterns.clear();
    }
  }

  /**
   * parseText() under the value options: the value is the amended one, assembled from the tokens
   * the engines judged (JSON.parse's would be the value as sent).
   */
  private parseAmended(source: string, replacements: Replacements | null, plans: AmendPlans): ValueResult {
    if (this.parts.checkerCache.usable) {
      const assembler = new Assembler();
      const outcome = this.checkerOf().check(source, this.amendedCheck(plans, assembler));
      this.amender!.release();
      if (outcome === PASS) return {valid: true, errors: [], value: assembler.value};
    }
    const result = this.evaluateText(source, replacements, true);
    if (!result.valid) delete result.value;
    return result as ValueResult;
  }

  /**
   * The evaluator's verdict and errors on a whole text: it finds where the document fails. Decoded
   * from bytes, with its `replacements`. `parse`: with its value.
   */
  private evaluateText(text: string | Uint8Array, replacements: Replacements | null = null, parse = false): Result {
    // Not begun afresh: what the checker found in this same text is recalled, not run again.
    this.startInput();
    this.startText(parse, false);
    try {
      if (typeof text === 'string') this.writePiece(text, replacements);
      else this.write(text);
      return this.end();
    } finally {
      this.forgetText();
      this.amender?.release();
    }
  }

  /**
   * Drop the input and the verdict of a whole text: this document goes back to the validator's
   * pool, and its tokenizer holds the last chunk, its errors quote the keys (slices of the text).
   */
  private forgetText(): void {
    this.tokenizer = null;
    this.decoder = null;
    this.assembler = undefined;
    this.inputError = undefined;
    this.result = undefined;
    this.evaluator.forget();
  }

  // ---- a document as a stream (Session) ----

  /**
   * Begin a document given as text in chunks. `parse`: assemble its value too. `membersApart`:
   * member values may be judged by the checker rather than the evaluator (not when every error is
   * wanted, nor when the value is assembled from the tokens).
   */
  beginText(parse: boolean, membersApart: boolean, checkFirst = true, valueHandedOn = parse): void {
    this.handsOnValue(valueHandedOn);
    this.patternsMade?.clear();
    this.dropChecked();
    this.passed = null;
    this.startInput();
    // Most documents are valid, and the checker reads them several times faster than the evaluator.
    // It gives up at the first token at which the evaluator might refuse the document (its `eager`
    // mode), and the evaluator then reads what it read, and goes on: the session answers when the
    // evaluator alone would have, with the same verdict and errors.
    const parts = this.parts;
    if (checkFirst && !parse && !parts.allErrors && !parts.annotations && parts.amendPlans === null && parts.checkerCache.usable) {
      this.membersApart = membersApart;
      this.tokenizer = null;
      const checker = (this.streamChecker = parts.idleCheckers.pop() ?? new StreamChecker(parts.root, parts.limits, parts.checkerCache));
      checker.judgeNumbersAsDoubles(valueHandedOn);
      this.checking = new Tokenizer(checker, parts.limits);
      checker.beginStream(this.checking);
      if (checker.outcome !== PASS) this.handOver();
      return;
    }
    this.checking = null;
    this.startText(parse, membersApart);
  }

  /** A document's text begins: no bytes held, nothing read, no verdict. */
  private startInput(): void {
    // Made at the first bytes: a text given as strings needs none.
    this.decoder = null;
    this.inputError = undefined;
    this.result = undefined;
    this.complete = false;
  }

  /** Forget the text the checker read ahead (see check). */
  private dropChecked(): void {
    // Not `length = 0`, a runtime call: a tenth of a small session's time.
    clear(this.checked);
    this.checkedReplacements = null;
    this.checkedLength = 0;
  }

  /**
   * A piece of a session's text, to the checker while it reads ahead: the evaluator takes over
   * when it has not passed what it read, or the piece would take it past MOST_CHECKED.
   */
  private check(checking: Tokenizer, text: string, replacements: Replacements | null): void {
    if (this.checkedLength + text.length > MOST_CHECKED) {
      this.handOver();
      this.guard(() => this.writeText(this.tokenizer!, text, replacements));
      return;
    }
    this.checked.push(text);
    if (replacements !== null) (this.checkedReplacements ??= new Map()).set(this.checked.length - 1, replacements);
    this.checkedLength += text.length;
    try {
      checking.write(text, replacements);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      this.handOver();
      return;
    }
    const checker = this.streamChecker!;
    if (checker.outcome === PASS) checker.pieceEnded();
    if (checker.outcome !== PASS) this.handOver();
  }

  /**
   * The checker is done with the session's text: back to the validator's idle ones. `handOver`:
   * the patterns' verdicts it found go to the evaluator (else they are dropped with the text).
   */
  private releaseChecker(handOver: boolean): void {
    const checker = this.streamChecker!;
    this.streamChecker = null;
    this.checking = null;
    checker.endStream();
    if (handOver) this.patterns.adopt(checker.patterns);
    else checker.patterns.clear();
    if (this.parts.idleCheckers.length < MOST_IDLE) this.parts.idleCheckers.push(checker);
  }

  /** The evaluator takes over from the checker: it reads the text the checker read, and what follows. */
  private handOver(): void {
    this.releaseChecker(true);
    this.startText(false, this.membersApart);
    const tokenizer = this.tokenizer!;
    // One piece after the other, without forgetting the patterns' verdicts between them: the
    // checker's failures are recalled, not run again (src/engine/patterns.ts).
    this.guard(() => {
      for (let i = 0; i < this.checked.length && !tokenizer.stopped; i++) tokenizer.write(this.checked[i]!, this.checkedReplacements?.get(i) ?? null);
    });
    this.dropChecked();
    this.patterns.clear();
  }

  private startText(parse: boolean, membersApart: boolean): void {
    this.assembler = parse ? new Assembler() : undefined;
    const sink: TokenSink = this.assembler === undefined ? this.evaluator : new TeeSink(this.evaluator, this.assembler);
    const tokenizer = (this.tokenizer = new Tokenizer(sink, this.parts.limits));
    const plans = this.parts.amendPlans;
    if (plans !== null) tokenizer.redirect(this.amenderOf(plans).begin(sink, tokenizer, true));
    // A member value judged apart would be judged as sent, not as amended.
    this.judgesMembersApart = membersApart && this.parts.checkerCache.usable && plans === null;
    // The amender holds tokens back and replays them: the string being delivered is then not the
    // one the tokenizer last opened, so errors take the tokenizer's position alone.
    this.evaluator.reset(plans === null ? tokenizer : {position: () => tokenizer.position(), stop: () => tokenizer.stop()});
  }

  /** Begin a document given as tokens (see `tokenValidator`): the events come from elsewhere, into the sink returned. */
  beginTokens(): TokenSink {
    this.handsOnValue(false);
    this.tokenizer = null;
    this.patterns.clear();
    this.evaluator.reset(null, true);
    const plans = this.parts.amendPlans;
    return plans === null ? this.evaluator : this.amenderOf(plans).begin(this.evaluator, null, true);
  }

  /**
   * The tokens go through a MemberSink from the first chunk long enough for a member value to be
   * judged apart in it (memberValues.worthIt): small documents in small chunks never pay for it.
   */
  private judgeMembersApart(tokenizer: Tokenizer, length: number): void {
    if (!this.judgesMembersApart || length < memberValues.worthIt || tokenizer.stopped) return;
    this.judgesMembersApart = false;
    const members = new MemberSink(this.evaluator, () => this.checkerOf());
    members.attach(tokenizer);
    tokenizer.redirect(members);
  }

  get failed(): boolean {
    // While the checker reads, nothing has failed: it hands over at the first doubt.
    return this.checking === null && (this.inputError !== undefined || this.made?.failed === true);
  }

  get bytesRead(): number {
    const tokenizer = this.checking ?? this.tokenizer;
    return (tokenizer ?? this.passed)?.bytesRead ?? 0;
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.result !== undefined || this.stopped()) return !this.failed;
    const length = typeof chunk === 'string' ? chunk.length : chunk.byteLength;
    // A chunk the checker would not read whole goes to the evaluator at once (a byte is at most a code unit).
    if (this.checking !== null && this.checkedLength + length > MOST_CHECKED) this.handOver();
    if (this.checking === null) this.judgeMembersApart(this.tokenizer!, length);
    if (typeof chunk === 'string') {
      // Bytes still held before this text are an unfinished character, which ends here.
      this.flushDecoder();
      if (!this.stopped()) this.writePiece(chunk, null);
      return !this.failed;
    }
    const decoder = (this.decoder ??= new ChunkDecoder(DECODE_SLICE));
    decoder.start(chunk);
    for (let text = decoder.next(); text !== undefined && !this.stopped(); text = decoder.next()) {
      if (text !== '') this.writePiece(text, decoder.replacements);
    }
    return !this.failed;
  }

  /** The bytes held, an unfinished character, end: they are one piece more (U+FFFD). */
  private flushDecoder(): void {
    const decoder = this.decoder;
    if (decoder === null) return;
    const held = decoder.flush();
    if (held !== '') this.writePiece(held, decoder.replacements);
  }

  /** The evaluator's tokenizer stopped: the document is decided, or ended in an input error. */
  private stopped(): boolean {
    return this.checking === null && this.tokenizer!.stopped;
  }

  /** One piece of a session's text, to the checker while it reads ahead, else to the evaluator; decoded from bytes, with its `replacements`. */
  private writePiece(text: string, replacements: Replacements | null): void {
    if (this.checking !== null) this.check(this.checking, text, replacements);
    else this.guard(() => this.writeText(this.tokenizer!, text, replacements));
  }

  /** One text to the tokenizer; what the engines found in it goes with it. */
  private writeText(tokenizer: Tokenizer, text: string, replacements: Replacements | null): void {
    tokenizer.write(text, replacements);
    this.checker?.forgetText();
    this.patterns.clear();
  }

  end(): Result {
    if (this.result !== undefined) return this.result;
    if (this.checking !== null) {
      this.flushDecoder();
      if (this.checking !== null) this.endChecking(this.checking);
      if (this.result !== undefined) return this.result;
    }
    const tokenizer = this.tokenizer!;
    if (!tokenizer.stopped) {
      this.flushDecoder();
      this.guard(() => {
        if (tokenizer.stopped) return;
        tokenizer.end();
        // A failure in the last token (a number the end completes) stops the tokenizer before it
        // checks that the document ended: `[0` is no whole document.
        this.complete = !tokenizer.stopped;
      });
    }
    const result = verdict(this.evaluator, this.inputError);
    // Only a valid document has a value, as from parseText: with allErrors an invalid one is read whole too.
    if (this.assembler !== undefined && this.complete && result.valid) result.value = this.assembler.value;
    this.result = result;
    return result;
  }

  /** The text ended while the checker read ahead: its pass is the verdict; anything else, the evaluator's. */
  private endChecking(checking: Tokenizer): void {
    try {
      checking.end();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      this.handOver();
      return;
    }
    if (this.streamChecker!.outcome !== PASS) {
      this.handOver();
      return;
    }
    this.passed = checking;
    this.releaseChecker(false);
    this.dropChecked();
    this.result = {valid: true, errors: []};
  }

  private guard(work: () => void): void {
    try {
      work();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      this.inputError = error;
      this.tokenizer!.stop();
    }
  }
}

/** The replacements of `source`, decoded from `text` when it is bytes (see ChunkDecoder). */
function replacementsOf(text: string | Uint8Array, source: string): Replacements | null {
  return typeof text === 'string' ? null : replacementsIn(text, 0, text.length, source);
}

/** The verdict of the evaluator, with the input error that ended the document, if any. */
export function verdict(evaluator: Evaluator, inputError: InputError | undefined): Result {
  const errors = evaluator.root.failed && evaluator.root.errors !== null ? evaluator.root.errors.units() : [];
  if (inputError !== undefined) errors.push(inputErrorUnit(inputError));
  const result: Result = {valid: errors.length === 0 && !evaluator.root.failed, errors};
  // A failed document has no annotations (2020-12 core §7.7.1.2).
  if (evaluator.collectsAnnotations && result.valid) result.annotations = evaluator.root.annotations ?? [];
  return result;
}

/**
 * A valid result with its value: JSON.parse of text the tokenizer accepted, which may start with a
 * byte order mark (RFC 8259 §8.1). The tokenizer accepts what JSON.parse does, but should the two
 * ever disagree, the text is refused as malformed rather than the call throwing: the verdict and
 * the value must agree.
 */
function withValue(result: ValidResult, source: string): ValueResult {
  try {
    result.value = JSON.parse(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
    return result as ValueResult;
  } catch {
    // V8's message quotes the text, which must never be echoed back to whoever sent it.
    const refusal = new InputError('syntax', 'syntax.parse', 'JSON.parse refused text the validator accepted', NO_POSITION);
    return {valid: false, errors: [inputErrorUnit(refusal)]};
  }
}
