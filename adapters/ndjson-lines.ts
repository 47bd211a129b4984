// NDJSON framing shared by the RxJS operator, the Node stream and the CLI: chunks split anywhere
// become lines (LineSplitter), and each non-blank line is validated (NdjsonRecordReader): by
// validateText when it is found whole (in one chunk, or kept across chunks), else by its own
// engine session while its pieces arrive. Nothing here knows about RxJS, streams or files.
//
// Framing follows the NDJSON / JSON Lines conventions: records end at LF, a CR before it is
// JSON whitespace (so CRLF needs no special case), a UTF-8 BOM may open the stream, blank lines
// are skipped but still counted in line numbers, and the last line may lack its LF. Each record
// is a JSON text, which may itself begin with a BOM (RFC 8259 §8.1 lets a parser ignore it there,
// as validateText does); a BOM anywhere else in it, after leading whitespace too, is malformed.

import type { OutputUnit, Result, Session, SessionOptions, Validator } from '../src/types.js';
import { ChunkDecoder, decodeUtf8, replacementsIn } from '../src/json/utf8.js';
import { isHighSurrogate, isLowSurrogate } from '../src/json/grammar.js';
import { textRangeJudgeOf, type TextRangeJudge } from '../src/session/validator.js';
import { ArgumentError, ArgumentRangeError } from '../src/index.js';

/**
 * Where LineSplitter delivers the text. Pieces of one line arrive in order, never containing LF.
 * With `bytes`, the piece's own bytes, which are what is to be validated: the text has a malformed
 * sequence, and byte offsets in it would count it as the three bytes of its U+FFFD.
 */
export interface LineSink {
  /** The next piece of the current line: never empty, never containing LF. */
  linePart(text: string, bytes?: Uint8Array): void;
  /** The current line ended: at an LF, or at the end of input for a last line without one. */
  lineEnd(): void;
  /**
   * A whole non-empty line found in one piece of text: `text` from `from` to `to`, unsliced (a
   * reader may judge it where it stands). Without this, `linePart` then `lineEnd`.
   */
  wholeLine?(text: string, from: number, to: number, bytes?: Uint8Array): void;
}

const LINE_FEED = 0x0a;
const BYTE_ORDER_MARK = 0xfeff;
/**
 * Bytes decoded into one string at a time, and the longest unfinished line kept whole across
 * chunks. A string over 128 KiB is allocated in V8's large-object space, 15 times slower to make
 * than four of 64 KiB; a line kept whole goes to validateText instead of a session of its own,
 * whose set-up costs as much as validating a few hundred small records.
 */
const DECODED_PIECE_SIZE = 64 * 1024;

/**
 * Splits text or UTF-8 bytes, chunked anywhere, into lines. Bytes are decoded in pieces that end
 * at a line feed, which no UTF-8 sequence contains, so every character is decoded whole and each
 * piece holds whole lines. The unfinished line at the end of a chunk is kept, up to
 * DECODED_PIECE_SIZE bytes, and decoded whole with the rest of it; a longer one is handed on in
 * pieces as soon as they are decoded (through one ChunkDecoder, which says what bytes each piece
 * of text came from), so memory does not grow with line length.
 */
export class LineSplitter {
  readonly #sink: LineSink;
  readonly #decoder = new ChunkDecoder(DECODED_PIECE_SIZE);
  /** No character decoded yet: a BOM here is stripped (RFC 8259 §8.1 lets parsers ignore it). */
  #atStreamStart = true;
  /** Some text of the current line has been seen, so the end of input also ends a line. */
  #lineOpen = false;
  #stopped = false;
  /** The bytes of an unfinished line, copied (the caller may reuse its chunk's buffer), not decoded yet; allocated once, when first needed. */
  #kept: Uint8Array | undefined;
  #keptLength = 0;
  /** The current line outgrew what is kept: its bytes go through the decoder up to its line feed. */
  #handedOn = false;

  /** `streamStart` false: the text begins mid-stream (a shard, a worker's batch), where a BOM is a character of a line, handed on with it. */
  constructor(sink: LineSink, position: { streamStart: boolean } = { streamStart: true }) {
    this.#sink = sink;
    this.#atStreamStart = position.streamStart;
  }

  /** Feed the next chunk. Strings are taken as already decoded; bytes must be UTF-8. The chunk is not kept: its buffer may be reused once this returns. */
  write(chunk: string | Uint8Array): void {
    if (typeof chunk === 'string') {
      // Kept bytes go first; bytes still held before this text are an unfinished character, which ends here (as in a session).
      if (this.#keptLength > 0) this.#handOnKept();
      this.#flushDecoder();
      this.#split(chunk);
      return;
    }
    if (!(chunk instanceof Uint8Array)) {
      throw new ArgumentError(`NDJSON chunks must be strings or Uint8Arrays, got ${describe(chunk)}`);
    }
    this.#writeBytes(chunk);
  }

  /** The input is complete: flush a trailing incomplete character and end a last unterminated line. */
  end(): void {
    if (this.#stopped) return;
    if (this.#keptLength > 0) this.#splitDecoded(this.#takeKept());
    this.#flushDecoder();
    if (this.#lineOpen && !this.#stopped) {
      this.#lineOpen = false;
      this.#sink.lineEnd();
    }
  }

  /** Deliver nothing more, even for the rest of a chunk being split (e.g. the consumer unsubscribed). */
  stop(): void {
    this.#stopped = true;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  #writeBytes(bytes: Uint8Array): void {
    let start = 0;
    if (this.#keptLength > 0 || this.#handedOn) {
      const lineFeed = bytes.indexOf(LINE_FEED);
      start = lineFeed === -1 ? bytes.length : lineFeed + 1;
      this.#continueLine(bytes.subarray(0, start), lineFeed !== -1);
      if (lineFeed === -1 || this.#stopped) return;
    }
    const lineFeed = bytes.lastIndexOf(LINE_FEED);
    if (lineFeed >= start) {
      this.#splitWholeLines(bytes, start, lineFeed + 1);
      start = lineFeed + 1;
    }
    if (start < bytes.length && !this.#stopped) this.#continueLine(bytes.subarray(start), false);
  }

  /** Bytes `from` to `to`, which ends at a line feed, decoded a piece of whole lines at a time. */
  #splitWholeLines(bytes: Uint8Array, from: number, to: number): void {
    while (from < to && !this.#stopped) {
      let end = to;
      if (to - from > DECODED_PIECE_SIZE) {
        // Looked for within the piece only: a scan back to the start of `bytes` would make many long lines quadratic.
        const lineFeed = bytes.subarray(from, from + DECODED_PIECE_SIZE).lastIndexOf(LINE_FEED);
        // A line longer than a piece is decoded alone.
        end = lineFeed === -1 ? bytes.indexOf(LINE_FEED, from + DECODED_PIECE_SIZE) + 1 : from + lineFeed + 1;
      }
      this.#splitDecoded(bytes.subarray(from, end));
      from = end;
    }
  }

  /** More of an unfinished line, up to and including its line feed when `endsLine`. */
  #continueLine(bytes: Uint8Array, endsLine: boolean): void {
    if (!this.#handedOn && this.#keptLength + bytes.length <= DECODED_PIECE_SIZE) {
      (this.#kept ??= new Uint8Array(DECODED_PIECE_SIZE)).set(bytes, this.#keptLength);
      this.#keptLength += bytes.length;
      if (endsLine) this.#splitDecoded(this.#takeKept());
      return;
    }
    if (this.#keptLength > 0) this.#handOnKept();
    this.#handedOn = !endsLine;
    this.#handOn(bytes);
  }

  /** The kept bytes go on through the decoder, as the rest of their line will. */
  #handOnKept(): void {
    this.#handedOn = true;
    this.#handOn(this.#takeKept());
  }

  /** Bytes through the decoder, which holds a character they end in for the bytes after them. */
  #handOn(bytes: Uint8Array): void {
    const decoder = this.#decoder;
    decoder.start(bytes);
    for (let text = decoder.next(); text !== undefined && !this.#stopped; text = decoder.next()) this.#splitFrom(decoder, text);
  }

  /** The character the decoder holds, unfinished: U+FFFD. */
  #flushDecoder(): void {
    const text = this.#decoder.flush();
    if (text.length > 0) this.#splitFrom(this.#decoder, text);
  }

  #splitFrom(decoder: ChunkDecoder, text: string): void {
    this.#split(text, decoder.replacements === null ? undefined : decoder.textBytes());
  }

  /** Bytes of whole characters, decoded at once; with them where the text is not their true length. */
  #splitDecoded(bytes: Uint8Array): void {
    const text = decodeUtf8(bytes);
    this.#split(text, replacementsIn(bytes, 0, bytes.length, text) === null ? undefined : bytes);
  }

  /** The kept bytes, to be decoded before anything is kept again. */
  #takeKept(): Uint8Array {
    const kept = this.#kept!.subarray(0, this.#keptLength);
    this.#keptLength = 0;
    return kept;
  }

  /** `bytes`: the text's own bytes, to be validated rather than the text (see LineSink). */
  #split(text: string, bytes?: Uint8Array): void {
    if (this.#stopped || text.length === 0) return;
    let start = 0;
    let byteStart = 0;
    if (this.#atStreamStart) {
      this.#atStreamStart = false;
      if (text.charCodeAt(0) === BYTE_ORDER_MARK) {
        start = 1;
        byteStart = 3;
      }
    }
    let lineFeed = text.indexOf('\n', start);
    let byteLineFeed = bytes === undefined ? -1 : bytes.indexOf(LINE_FEED, byteStart);
    while (lineFeed !== -1) {
      const lineBytes = bytes?.subarray(byteStart, byteLineFeed);
      if (!this.#lineOpen && lineFeed > start && this.#sink.wholeLine !== undefined) this.#sink.wholeLine(text, start, lineFeed, lineBytes);
      else {
        if (lineFeed > start) this.#sink.linePart(text.slice(start, lineFeed), lineBytes);
        this.#lineOpen = false;
        this.#sink.lineEnd();
      }
      if (this.#stopped) return;
      start = lineFeed + 1;
      lineFeed = text.indexOf('\n', start);
      byteStart = byteLineFeed + 1;
      if (bytes !== undefined) byteLineFeed = bytes.indexOf(LINE_FEED, byteStart);
    }
    if (start < text.length) {
      this.#lineOpen = true;
      this.#sink.linePart(start === 0 ? text : text.slice(start), bytes?.subarray(byteStart));
    }
  }
}

/**
 * The verdict on one NDJSON line: a Result (`R`), and the line. Error positions are in these
 * units: `line` is the NDJSON line; `offset` (bytes) and `column` are within it. `value`, the
 * parsed record, is there only when `parse` was asked for and the line was read to its end as
 * well-formed JSON (an invalid record usually lacks it: reading stops at its first error).
 */
export type NdjsonRecord<R extends Result = Result> = R & {
  /** 1-based line number in the whole input; blank lines count. */
  line: number;
};

export interface NdjsonReaderOptions {
  /** Assemble each record's value (as `JSON.parse` would). Default false: nothing is assembled. */
  parse?: boolean;
  /**
   * Longest line, in UTF-16 code units excluding its LF (default 64 Mi). A longer line becomes an
   * invalid record with a `limit` error, and the rest of it is skipped without being kept.
   */
  maxLineLength?: number;
  /**
   * Line number of the first line given (default 1): a reader given a part of a larger input (a
   * byte range, a worker's batch) reports the lines' true numbers. Only line 1 begins the stream,
   * where a byte order mark is stripped; elsewhere it is a character of its line, which the
   * record, a JSON text, may begin with (RFC 8259 §8.1), as the first line's record may.
   */
  firstLine?: number;
}

/**
 * The reader's own options, copied out of an adapter's options (which hold compile options too),
 * so that a later change to the caller's object does not reach readers created afterwards.
 */
export function readerOptionsOf(options: NdjsonReaderOptions): NdjsonReaderOptions {
  return { parse: options.parse, maxLineLength: options.maxLineLength, firstLine: options.firstLine };
}

export const DEFAULT_MAX_LINE_LENGTH = 64 * 1024 * 1024;

/**
 * Validates NDJSON line by line: a line found whole goes to validateText (parseText with
 * `parse`), any other gets an engine session fed with its pieces as they arrive; one
 * `onRecord` call per non-blank line, synchronously within the `write` or `end` call that
 * completed the line.
 */
export class NdjsonRecordReader {
  readonly #validator: Validator;
  readonly #sessionOptions: SessionOptions;
  readonly #maxLineLength: number;
  readonly #stopFeedingOnFailure: boolean;
  readonly #onRecord: (record: NdjsonRecord) => void;
  readonly #splitter: LineSplitter;
  /** Line number of the line being read. */
  #line: number;
  /** Session of the current line; undefined while the line holds only whitespace. */
  #session: Session | undefined = undefined;
  /** The session's document is certainly invalid: the rest of the line is skipped, not fed. */
  #sessionFailed = false;
  /** Code units of the line's parts so far, and bytes (as sent) of those before the limit was passed. */
  #lineLength = 0;
  #lineBytes = 0;
  /** The last part ended with the first half of a surrogate pair (string chunks may cut one). */
  #partEndsHigh = false;
  /** JSON whitespace before the record (not fed to the session): error columns are shifted by it. */
  #leadingWhitespace = 0;
  /** Where the line went past maxLineLength: the character past the limit; null while within it. */
  #pastLimit: LinePosition | null = null;
  /** The validator's judgement of a line where it stands in its piece (textRangeJudgeOf). */
  readonly #judgeRange: TextRangeJudge | undefined;

  constructor(validator: Validator, options: NdjsonReaderOptions, onRecord: (record: NdjsonRecord) => void) {
    this.#validator = validator;
    this.#sessionOptions = { parse: options.parse === true };
    this.#judgeRange = textRangeJudgeOf(validator);
    this.#maxLineLength = checkMaxLineLength(options.maxLineLength);
    this.#line = checkFirstLine(options.firstLine);
    // A validator compiled with `allErrors` is fed a line to its end even once the line is known
    // to be invalid, so that every error is found (the engine ignores input after a syntax error).
    this.#stopFeedingOnFailure = !validator.allErrors;
    this.#onRecord = onRecord;
    // A line that arrives whole goes to validateText / parseText, whose text checker is faster
    // than a session (docs/decisions.md, "validateText's fast verdict"). Not with `parse` and
    // `allErrors` together: a session then gives an invalid record read to its end its value too.
    const wholeLines = options.parse !== true || !validator.allErrors;
    this.#splitter = new LineSplitter({
      linePart: (text, bytes) => this.#linePart(text, bytes),
      lineEnd: () => this.#lineEnd(),
      wholeLine: wholeLines ? (text, from, to, bytes) => this.#wholeLine(text, from, to, bytes) : undefined,
    }, { streamStart: this.#line === 1 });
  }

  /** Feed the next chunk of NDJSON text or UTF-8 bytes, split anywhere. */
  write(chunk: string | Uint8Array): void {
    this.#splitter.write(chunk);
  }

  /** The input is complete: a last line without LF is validated now. */
  end(): void {
    this.#splitter.end();
  }

  /** Emit no more records, even for lines of a chunk already being read. */
  stop(): void {
    this.#splitter.stop();
    this.#session = undefined;
  }

  /** Lines completed so far, blank ones included (those before `firstLine` too). */
  get linesRead(): number {
    return this.#line - 1;
  }

  /** `bytes`: what the session reads, where the text is not their true length (see LineSink). */
  #linePart(text: string, bytes?: Uint8Array): void {
    const before = this.#lineLength;
    this.#lineLength += text.length;
    if (this.#pastLimit !== null) return;
    // A pair cut between two parts was counted as two 3-byte halves (U+FFFD each); it is 4 bytes.
    const pairCut = this.#partEndsHigh && isLowSurrogate(text.charCodeAt(0));
    if (pairCut) this.#lineBytes -= 2;
    if (this.#lineLength > this.#maxLineLength) {
      this.#pastLimit = this.#positionIn(text, bytes, this.#maxLineLength - before, pairCut);
      this.#session = undefined;
      return;
    }
    this.#lineBytes += bytes?.length ?? Buffer.byteLength(text);
    this.#partEndsHigh = isHighSurrogate(text.charCodeAt(text.length - 1));
    if (this.#sessionFailed) return;
    let part = bytes ?? text;
    if (this.#session === undefined) {
      // JSON whitespace is ASCII: as many bytes as code units.
      const recordStart = skipWhitespace(part);
      this.#leadingWhitespace += recordStart;
      if (recordStart === part.length) return;
      this.#session = this.#validator.session(this.#sessionOptions);
      if (recordStart > 0) part = part.slice(recordStart);
      // A session ignores a byte order mark where its text begins (RFC 8259 §8.1), as validateText
      // does a whole line's: after whitespace it is malformed on either path. One space stands
      // for all the whitespace skipped, and positions are shifted by the rest.
      if (this.#leadingWhitespace > 0) {
        this.#session.write(' ');
        this.#leadingWhitespace--;
      }
    }
    // The engine's contract: once write() says false, the verdict is final; stop feeding it
    // (unless every error is wanted).
    if (!validating(this.#line, this.#session, writeTo, part) && this.#stopFeedingOnFailure) this.#sessionFailed = true;
  }

  /** `bytes`: what is validated, where the text is not their true length (see LineSink). */
  #wholeLine(piece: string, from: number, to: number, bytes?: Uint8Array): void {
    if (to - from > this.#maxLineLength) {
      this.#linePart(piece.slice(from, to), bytes);
      this.#lineEnd();
      return;
    }
    const line = this.#line++;
    // Blank line (nothing but JSON whitespace): skipped, but it was counted.
    if (skipWhitespace(piece, from, to) === to) return;
    // Most lines pass: the checker's code says so where the line stands in the piece. A line
    // sliced out of it cost validateText 7% more, each character read through the piece.
    // Positions are already relative to the line, leading whitespace included.
    const parse = this.#sessionOptions.parse === true;
    const result =
      this.#judgeRange === undefined
        ? validating(line, this.#validator, parse ? parseText : validateText, bytes ?? piece.slice(from, to))
        : validating(line, this.#judgeRange, judgeRange, { piece, from, to, parse, bytes });
    this.#onRecord(toRecord(line, result, 0));
  }

  /**
   * The line's character that holds code unit `unit` of this part, the next part of the line:
   * where the line is past maxLineLength. The limit counts code units, so that unit may be the
   * second half of a surrogate pair: the position is the pair's.
   */
  #positionIn(text: string, bytes: Uint8Array | undefined, unit: number, pairCut: boolean): LinePosition {
    if (isLowSurrogate(text.charCodeAt(unit))) {
      if (unit > 0 && isHighSurrogate(text.charCodeAt(unit - 1))) unit--;
      // The first half ended the part before: one code unit and, as the pair is counted, one byte back.
      else if (unit === 0 && pairCut) return { offset: this.#lineBytes - 1, column: this.#lineLength - text.length };
    }
    let offset = this.#lineBytes + Buffer.byteLength(text.slice(0, unit));
    // A malformed sequence is as many bytes as it was sent in, not its U+FFFD's three.
    if (bytes !== undefined) offset -= replacementsIn(bytes, 0, bytes.length, text)?.addedBefore(unit) ?? 0;
    return { offset, column: this.#lineLength - text.length + unit + 1 };
  }

  #lineEnd(): void {
    const line = this.#line++;
    const record = this.#finishLine(line);
    this.#session = undefined;
    this.#sessionFailed = false;
    this.#lineLength = 0;
    this.#lineBytes = 0;
    this.#partEndsHigh = false;
    this.#leadingWhitespace = 0;
    this.#pastLimit = null;
    if (record !== undefined) this.#onRecord(record);
  }

  #finishLine(line: number): NdjsonRecord | undefined {
    if (this.#pastLimit !== null) {
      return { line, valid: false, errors: [lineLengthError(line, this.#maxLineLength, this.#pastLimit)] };
    }
    // Blank line (nothing but JSON whitespace): skipped, but it was counted.
    if (this.#session === undefined) return undefined;
    return toRecord(line, validating(line, this.#session, endOf, undefined), this.#leadingWhitespace);
  }
}

// The reader's calls into the engine, as functions of their target (no closure made per line).
const writeTo = (session: Session, text: string | Uint8Array): boolean => session.write(text);
const endOf = (session: Session): Result => session.end();
const parseText = (validator: Validator, text: string | Uint8Array): Result => validator.parseText(text);
const validateText = (validator: Validator, text: string | Uint8Array): Result => validator.validateText(text);
const judgeRange = (judge: TextRangeJudge, range: { piece: string; from: number; to: number; parse: boolean; bytes: Uint8Array | undefined }): Result =>
  judge(range.piece, range.from, range.to, range.parse, range.bytes);

/**
 * `call(target, argument)`, a step of validating the record on `line`. What it throws comes from
 * code the engine runs for the user (a custom format or keyword), or from a bug: either way the
 * record has no verdict, and the error says which record it was (RecordThrewError).
 */
function validating<T, A, R>(line: number, target: T, call: (target: T, argument: A) => R, argument: A): R {
  try {
    return call(target, argument);
  } catch (error) {
    throw new RecordThrewError(line, error);
  }
}

/** What a throw is called in a message: an Error by its name and message, anything else as text. */
export function describeThrown(thrown: unknown): string {
  return thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
}

/**
 * Validating the record on `line` threw (see `validating`): that record has no verdict, so
 * neither has the input; nothing after it is read. `cause` is what was thrown (from a worker
 * thread, its description: describeThrown).
 */
export class RecordThrewError extends Error {
  override readonly name = 'RecordThrewError';
  readonly code = 'ndjson.record.threw';
  /** 1-based NDJSON line of the record. */
  readonly line: number;

  constructor(line: number, cause: unknown) {
    super(`line ${line}: validating the record threw ${describeThrown(cause)}`, { cause });
    this.line = line;
  }
}

function toRecord(line: number, result: Result, leadingWhitespace: number): NdjsonRecord {
  const errors = result.errors.length === 0 ? result.errors : result.errors.map((unit) => atLine(unit, line, leadingWhitespace));
  if (!('value' in result)) return { line, valid: result.valid, errors };
  return { line, valid: result.valid, errors, value: result.value };
}

/** A unit's position is relative to what its session saw; make it relative to the NDJSON line. */
function atLine(unit: OutputUnit, line: number, leadingWhitespace: number): OutputUnit {
  const positioned: OutputUnit = { ...unit, line };
  // The skipped whitespace is ASCII: one byte and one UTF-16 code unit per character.
  if (unit.offset !== undefined) positioned.offset = unit.offset + leadingWhitespace;
  if (unit.column === undefined) return positioned;
  positioned.column = unit.column + leadingWhitespace;
  // Input errors name their position in the message too ("... at line 1 column 7, expected ...").
  const sessionPosition = ` at line ${unit.line} column ${unit.column}`;
  if (unit.kind !== 'validation' && unit.error.includes(sessionPosition)) {
    positioned.error = unit.error.replace(sessionPosition, ` at line ${line} column ${positioned.column}`);
  }
  return positioned;
}

/** Where in a line: its byte offset (as sent) and 1-based column (UTF-16 code units). */
interface LinePosition {
  offset: number;
  column: number;
}

function lineLengthError(line: number, maxLineLength: number, { offset, column }: LinePosition): OutputUnit {
  return {
    valid: false,
    kind: 'limit',
    keyword: 'limit',
    keywordLocation: '',
    instanceLocation: '',
    error: `line is longer than maxLineLength (${maxLineLength} characters)`,
    params: { code: 'limit.lineLength', limit: maxLineLength },
    offset,
    line,
    column,
  };
}

/** Index of the first character (or byte) that is not JSON whitespace (RFC 8259 §2: space, tab, LF, CR). */
function skipWhitespace(text: string | Uint8Array, from = 0, to = text.length): number {
  let index = from;
  while (index < to) {
    const code = typeof text === 'string' ? text.charCodeAt(index) : text[index]!;
    if (code !== 0x20 && code !== 0x09 && code !== 0x0d && code !== LINE_FEED) return index;
    index++;
  }
  return index;
}

function checkMaxLineLength(maxLineLength: number | undefined): number {
  if (maxLineLength === undefined) return DEFAULT_MAX_LINE_LENGTH;
  if (!(maxLineLength >= 1)) throw new ArgumentRangeError(`maxLineLength must be a positive number, got ${maxLineLength}`);
  return maxLineLength;
}

/** `firstLine` as given, else 1; a RangeError for anything but a positive integer (line 1 is where a BOM is stripped). */
export function checkFirstLine(firstLine: number | undefined): number {
  if (firstLine === undefined) return 1;
  if (!Number.isSafeInteger(firstLine) || firstLine < 1) throw new ArgumentRangeError(`firstLine must be a positive integer, got ${firstLine}`);
  return firstLine;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return value.constructor?.name ?? 'object';
  return typeof value;
}

/**
 * Raised (as an RxJS error notification or a stream error) by `onInvalid: 'error'`:
 * the first invalid record, with its line number and errors.
 */
export class InvalidRecordError extends Error {
  override readonly name = 'InvalidRecordError';
  readonly code = 'ndjson.invalidRecord';
  /** 1-based NDJSON line of the record. */
  readonly line: number;
  readonly errors: OutputUnit[];

  constructor(line: number, errors: OutputUnit[]) {
    super(`line ${line}: ${invalidReason(errors)}`);
    this.line = line;
    this.errors = errors;
  }
}

/** The message's reason for an invalid record or value: its first error and where it is. */
export function invalidReason(errors: OutputUnit[]): string {
  const first = errors[0];
  return first === undefined ? 'invalid' : `${first.error} (at instance location "${first.instanceLocation}")`;
}

/** What to do with an invalid record: pass it on, drop it, or fail the whole stream with it. */
export type OnInvalid = 'emit' | 'skip' | 'error';

export function checkOnInvalid(onInvalid: OnInvalid | undefined): OnInvalid {
  if (onInvalid === undefined) return 'emit';
  if (onInvalid === 'emit' || onInvalid === 'skip' || onInvalid === 'error') return onInvalid;
  throw new ArgumentRangeError(`onInvalid must be 'emit', 'skip' or 'error', got ${String(onInvalid)}`);
}
