// A resumable JSON tokenizer that drives a TokenSink with the stream-json token protocol (packed
// values: keyValue, stringValue, numberValue, nullValue, trueValue, falseValue and the four
// structural tokens). We do not reuse stream-json's jsonParser because its tokens and errors carry
// no positions, it cannot stop inside a chunk, and it accumulates hostile strings whole; the
// measurements behind that decision are in docs/decisions.md.
//
// Acceptance is exactly RFC 8259 (what JSON.parse accepts), plus a leading BOM.
// Test: test/tokenizer.test.ts (differential against stream-json and JSON.parse).

import type {Limits, TokenSink} from '../types.js';
import {InputError, type InputPosition} from '../output/errors.js';
import {DecodedText} from './decodedText.js';
import {Ch, NUMBER, PLAIN_RUN, SHORT_ESCAPES, STRING_RUN, describeChar, hexValue, isHighSurrogate, isLowSurrogate} from './grammar.js';
import {defaultLimits, exceeded, inexact} from './limits.js';
import {isDigit, isWithinDoubleRange} from './numbers.js';
import {TextBytes} from './textBytes.js';
import type {Replacements} from './utf8.js';

/** Where a number cut by the end of a text was (see scanNumberCarefully): the part it reads on in. */
const enum NumberPart {
  /** A number's start: no number was cut. */
  Sign,
  FirstDigit,
  Integer,
  /** After an integer part of 0: a fraction, an exponent or the end. */
  AfterInteger,
  FirstFraction,
  Fraction,
  AfterFraction,
  ExponentSign,
  FirstExponent,
  Exponent,
}

// What the tokenizer expects next. Small integers so the dispatch is a jump table.
const enum Expect {
  /** A value: the document start, after ':' or after ',' in an array. */
  Value,
  /** Just after '[': a value or ']'. */
  ValueOrEndArray,
  /** Just after '{': a key or '}'. */
  KeyOrEndObject,
  /** After ',' in an object. */
  Key,
  Colon,
  /** After a value inside a container: ',' or the closing bracket. */
  CommaOrEnd,
  /** After the top-level value: only whitespace may follow (RFC 8259 §2). */
  Done,
  /** Inside a string value that began in an earlier piece of text. */
  InString,
  /** Inside a key that began in an earlier piece of text. */
  InKey
}

/** What an error says was expected, by Expect (CommaOrEnd names the container's bracket: see expectedText). */
const EXPECTED: Readonly<Record<Expect, string>> = {
  [Expect.Value]: 'a value', [Expect.ValueOrEndArray]: "a value or ']'", [Expect.KeyOrEndObject]: "a string key or '}'", [Expect.Key]: 'a string key',
  [Expect.Colon]: "':'", [Expect.CommaOrEnd]: "',' or the closing bracket", [Expect.Done]: 'end of input',
  [Expect.InString]: "a string character or '\"'", [Expect.InKey]: "a string character or '\"' to end the key",
};

/** Marks an array on the container stack; an object's entry is its property count (>= 0). */
const ARRAY = -1;

/** Result of a lexeme scan that reached the end of the text before the lexeme ended. */
const PARTIAL = -1;
const SHORT_RUN = 64;

const LITERALS = ['true', 'false', 'null'];

/** Where `search` next occurs in `text` from `from` on, or the text's length. */
const indexOrLength = (text: string, search: string, from: number): number => {
  const at = text.indexOf(search, from);
  return at < 0 ? text.length : at;
};

export class Tokenizer {
  private sink: TokenSink;
  private readonly maxDepth: number;
  private readonly maxStringLength: number;
  private readonly maxKeyLength: number;
  private readonly maxProperties: number;
  private readonly maxNumberLength: number;
  private readonly rejectInexact: boolean;

  private expect: Expect = Expect.Value;
  /** Property count of each open object, ARRAY for each open array; `top` is the innermost. */
  private readonly stack: number[] = [];
  private top = ARRAY;
  private depth = 0;
  /** The decoded value of a string or key with escapes or spanning texts. */
  private readonly decoded = new DecodedText();
  /**
   * Unconsumed ASCII tail of the previous text (a number, literal or escape cut by a piece
   * boundary), put in front of the next text: a literal or an escape is read again, a number read
   * on from where it was cut. Bounded by maxNumberLength + 1.
   */
  private carry = '';
  /** The carried text is a number cut in this part, read as far as numberRead (see scanNumberCarefully). */
  private numberPart = NumberPart.Sign;
  private numberRead = 0;
  private finished = false;
  /** The first error thrown (ours or the sink's): the state after it is unusable, so later calls rethrow it. */
  private failure: unknown = undefined;
  private failed = false;
  private running = false;
  private _stopped = false;

  // Positions. The current text starts at code unit `unitBase` of the input; `index` is the
  // current text's code unit of interest; `bytes` counts the bytes of the input when asked.
  private text = '';
  private readonly bytes = new TextBytes();
  private unitBase = 0;
  private index = 0;
  /** The current text begins with the second half of a surrogate pair whose first half ended the text before. */
  private pairCut = false;
  private line = 1;
  /** Input code unit index at which the current line starts. */
  private lineStart = 0;
  /** The bytes read, once the tokenizer stopped or failed; -1 while it reads on. */
  private bytesFinal = -1;
  /**
   * Where the current string value opened: its quote's code unit in the current text, or -1 when
   * it opened in an earlier text, at `cutStringStart` (see valueStart).
   */
  private stringQuote = -1;
  private cutStringStart: {line: number; column: number} | null = null;
  /**
   * Code units of the string value read before the input error being thrown inside it, -1 where
   * they are all in `decoded`: the sink hears that length, as a cut there would have told it.
   */
  private unitsBeforeError = -1;

  /** The end of a value the sink read itself (readMemberValue, readItem); -1: none. */
  private skipTo = -1;
  /**
   * The first line feed of the current text at or after the last value the sink read, -1 when not
   * looked for yet in this text: each part of a text is searched for line feeds once.
   */
  private nextLineFeed = -1;
  /** This text from `plainFrom` to `plainUntil` holds no backslash or control character (see plainEnd). */
  private plainFrom = 0;
  private plainUntil = -1;
  private shortRuns = false;

  constructor(sink: TokenSink, limits?: Limits) {
    this.sink = sink;
    this.maxDepth = limits?.maxDepth ?? defaultLimits.maxDepth;
    this.maxStringLength = limits?.maxStringLength ?? defaultLimits.maxStringLength;
    this.maxKeyLength = limits?.maxKeyLength ?? defaultLimits.maxKeyLength;
    this.maxProperties = limits?.maxProperties ?? defaultLimits.maxProperties;
    this.maxNumberLength = limits?.maxNumberLength ?? defaultLimits.maxNumberLength;
    this.rejectInexact = (limits?.inexactNumbers ?? defaultLimits.inexactNumbers) === 'reject';
  }

  get stopped(): boolean {
    return this._stopped;
  }

  /** Deliver the tokens of the texts written from now on to `sink` (between writes only). */
  redirect(sink: TokenSink): void {
    this.sink = sink;
  }

  /** UTF-8 bytes consumed: through the last delivered token while running or once stopped. */
  get bytesRead(): number {
    if (this.running) return this.position().offset + 1;
    return this.bytesFinal >= 0 ? this.bytesFinal : this.bytes.total;
  }

  stop(): void {
    this._stopped = true;
  }

  /**
   * From a `keyValue` call: `read` may read the member's value itself from the current text (its
   * start, past the colon, and the objects and arrays open around it) and return where it ends;
   * then its tokens are not delivered, and tokenizing goes on from there. -1: it did not, and the
   * tokens come. False also when the colon is not in this text.
   */
  readMemberValue(read: (text: string, from: number, depth: number) => number): boolean {
    const text = this.text;
    let at = this.index + 1;
    let c = text.charCodeAt(at);
    while (c === Ch.Space || c === Ch.Tab || c === Ch.LF || c === Ch.CR) c = text.charCodeAt(++at);
    return c === Ch.Colon && this.readValue(read(text, at + 1, this.depth));
  }

  /** From a `startObject` or `startArray` call for an array's item: the same for the item, from its bracket. */
  readItem(read: (text: string, from: number, depth: number) => number): boolean {
    return this.readValue(read(this.text, this.index, this.depth - 1));
  }

  private readValue(end: number): boolean {
    if (end < 0) return false;
    this.skipTo = end;
    return true;
  }

  /** Past a value the sink read itself: tokenizing goes on at its end, its line breaks counted. */
  private skipRead(text: string): number {
    const end = this.skipTo;
    this.skipTo = -1;
    // JSON breaks lines only between tokens, where the tokenizer would have counted them.
    let at = this.nextLineFeed;
    if (at < this.index) at = indexOrLength(text, '\n', this.index);
    for (; at < end; at = indexOrLength(text, '\n', at + 1)) {
      ++this.line;
      this.lineStart = this.unitBase + at + 1;
    }
    this.nextLineFeed = at;
    this.index = end - 1;
    return end;
  }

  /** Code units of the current text after the token just delivered. */
  get remaining(): number {
    return this.text.length - this.index - 1;
  }

  /** From a sink call: where the token just delivered ends, in code units of the whole input. */
  get unitOffset(): number {
    return this.unitBase + this.index;
  }

  /**
   * Inside a sink callback, after stop() and in errors: the last byte of the token just delivered
   * (or the offending character). Between writes: just past the input consumed so far.
   */
  position(): InputPosition {
    return this.positionAt(this.index);
  }

  /** The position of the opening quote of the string value being delivered (or begun: see stringCut). */
  valueStart(): InputPosition {
    if (this.stringQuote >= 0) return this.positionAt(this.stringQuote);
    const start = this.cutStringStart;
    return start === null ? this.position() : {offset: this.bytes.markedOffset(), line: start.line, column: start.column};
  }

  private positionAt(index: number): InputPosition {
    return {
      offset: this.bytes.offsetAt(index),
      line: this.line,
      column: this.unitBase + index - this.lineStart + 1
    };
  }

  /** The next piece of the input; decoded from bytes, with its `replacements` (see ChunkDecoder). */
  write(text: string, replacements: Replacements | null = null): void {
    if (this._stopped) return;
    if (this.failed) throw this.failure;
    if (this.finished) throw this.fail('syntax', 'syntax.trailing', 'Input after end()');
    // An empty text reads nothing, and must not stand between the halves of a surrogate pair that
    // two writes cut (run() looks for the first half at the end of the text before).
    if (text === '') return;
    this.run(text, false, replacements);
  }

  end(): void {
    if (this._stopped) return;
    if (this.failed) throw this.failure;
    if (this.finished) return;
    this.run('', true, null);
    if (this._stopped) return;
    this.finished = true;
    if (this.expect === Expect.Done) return;
    this.index = this.text.length;
    // Only a value leaves Expect.Value at depth 0, and a cut value is finished or failed by now.
    if (this.expect === Expect.Value && this.depth === 0) throw this.fail('syntax', 'syntax.empty', `Empty input at ${this.where()}, expected a JSON value`);
    throw this.fail('syntax', 'syntax.end', `Unexpected end of input at ${this.where()}, expected ${this.expectedText()}`);
  }

  /** Prepends the carried tail, then tokenizes; `final` means end of input is a valid boundary. */
  private run(piece: string, final: boolean, replacements: Replacements | null): void {
    const carry = this.carry;
    const text = carry === '' ? piece : carry + piece;
    this.carry = '';
    this.pairCut = text.length > 0 && isLowSurrogate(text.charCodeAt(0)) && this.text.length > 0 && isHighSurrogate(this.text.charCodeAt(this.text.length - 1));
    this.unitBase += this.text.length - carry.length;
    this.text = text;
    this.stringQuote = -1;
    this.nextLineFeed = -1;
    this.plainUntil = -1;
    this.index = 0;
    this.bytes.next(text, replacements, carry.length, this.pairCut);
    this.runText(text, final);
  }

  /** Tokenize the current text, then account for what was consumed. */
  private runText(text: string, final: boolean): void {
    this.running = true;
    try {
      this.tokenize(text, final);
    } catch (error) {
      this.running = false;
      // Read through the byte that made the error (bytesRead after a refusal says how far it got).
      const read = this.bytes.total;
      this.bytesFinal = error instanceof InputError && error.offset >= 0 ? Math.min(error.offset + 1, read) : read;
      this.decoded.reset();
      this.carry = '';
      this.failed = true;
      this.failure = error;
      throw error;
    }
    this.running = false;
    if (this._stopped) {
      this.bytesFinal = this.bytes.offsetThrough(this.index);
      return;
    }
    this.index = text.length;
  }

  // One loop over the text: skip whitespace, then act on the character according to `expect`.
  // Hot path: locals only, no allocation but the delivered strings.
  private tokenize(text: string, final: boolean): void {
    const sink = this.sink;
    const length = text.length;
    let i = 0;
    let expect = this.expect;
    if (i === 0 && this.unitBase === 0 && length > 0 && text.charCodeAt(0) === Ch.BOM) {
      // RFC 8259 §8.1 lets parsers ignore a BOM; it is not content (the input is still empty).
      i = 1;
    }
    if (expect === Expect.InString || expect === Expect.InKey) {
      // The text starts inside a string (possibly at a carried escape).
      i = expect === Expect.InKey ? this.scanString(text, i, true, final) : this.scanStringValue(text, i, final, true);
      if (i === PARTIAL) {
        if (expect === Expect.InString) this.stringGrew(this.decoded.length);
        return;
      }
      if (this._stopped) return;
      expect = this.expect;
      if (this.skipTo >= 0) {
        i = this.skipRead(text);
        expect = this.afterValue();
      }
    }
    for (;;) {
      let c = 0;
      for (;;) {
        if (i >= length) {
          this.expect = expect;
          return;
        }
        c = text.charCodeAt(i);
        if (c > Ch.Space) break;
        if (c === Ch.Space || c === Ch.Tab || c === Ch.CR) {
          ++i;
        } else if (c === Ch.LF) {
          // Lines end only in whitespace: a raw LF inside a string is a syntax error.
          ++this.line;
          this.lineStart = this.unitBase + ++i;
        } else {
          break;
        }
      }
      switch (expect) {
        case Expect.CommaOrEnd:
          if (c === Ch.Comma) {
            expect = this.top === ARRAY ? Expect.Value : Expect.Key;
            ++i;
            continue;
          }
          if (c === Ch.CloseBrace && this.top !== ARRAY) {
            expect = this.close(i);
            sink.endObject();
          } else if (c === Ch.CloseBracket && this.top === ARRAY) {
            expect = this.close(i);
            sink.endArray();
          } else {
            throw this.unexpected(i, expect);
          }
          if (this._stopped) return;
          ++i;
          continue;
        case Expect.Colon:
          if (c !== Ch.Colon) throw this.unexpected(i, expect);
          expect = Expect.Value;
          ++i;
          continue;
        case Expect.Key:
        case Expect.KeyOrEndObject:
          if (c === Ch.Quote) {
            this.countProperty(i);
            this.expect = Expect.InKey;
            i = this.scanString(text, i + 1, true, final);
            if (i === PARTIAL || this._stopped) return;
            if (this.skipTo >= 0) {
              i = this.skipRead(text);
              expect = this.afterValue();
              continue;
            }
            expect = Expect.Colon;
            continue;
          }
          if (c !== Ch.CloseBrace || expect === Expect.Key) throw this.unexpected(i, expect);
          expect = this.close(i);
          sink.endObject();
          if (this._stopped) return;
          ++i;
          continue;
        case Expect.Value:
        case Expect.ValueOrEndArray:
          break;
        default:
          throw this.unexpected(i, expect);
      }
      // A value (or ']' right after '[').
      if (c === Ch.Quote) {
        this.expect = Expect.InString;
        this.stringQuote = i;
        i = this.scanStringValue(text, i + 1, final, false);
        if (i === PARTIAL) {
          this.stringCut();
          return;
        }
        if (this._stopped) return;
        expect = this.expect;
        continue;
      }
      if (c === Ch.OpenBrace) {
        this.open(i, 0);
        sink.startObject();
        expect = Expect.KeyOrEndObject;
      } else if (c === Ch.OpenBracket) {
        this.open(i, ARRAY);
        sink.startArray();
        expect = Expect.ValueOrEndArray;
      } else if (c === Ch.CloseBracket && expect === Expect.ValueOrEndArray) {
        expect = this.close(i);
        sink.endArray();
      } else if (c === Ch.Minus || isDigit(c)) {
        const end = this.scanNumber(text, i, final);
        if (end === PARTIAL) {
          this.carry = text.slice(i);
          this.expect = expect;
          return;
        }
        this.index = end - 1;
        expect = this.afterValue();
        const number = text.slice(i, end);
        // Refused before any sink judges it: no verdict may rest on a value JSON.parse cannot give.
        if (this.rejectInexact && !isWithinDoubleRange(number)) throw this.inexactNumber(number);
        sink.numberValue(number);
        if (this._stopped) return;
        i = end;
        continue;
      } else if (c === Ch.LowerT || c === Ch.LowerF || c === Ch.LowerN) {
        const end = this.scanLiteral(text, i, c, final);
        if (end === PARTIAL) {
          this.carry = text.slice(i);
          this.expect = expect;
          return;
        }
        this.index = end - 1;
        expect = this.afterValue();
        if (c === Ch.LowerT) sink.trueValue();
        else if (c === Ch.LowerF) sink.falseValue();
        else sink.nullValue();
        if (this._stopped) return;
        i = end;
        continue;
      } else {
        throw this.unexpected(i, expect);
      }
      if (this._stopped) return;
      if (this.skipTo >= 0) {
        // An item the sink read itself, from its bracket: as if it had closed at its end.
        expect = this.close(i);
        i = this.skipRead(text);
        continue;
      }
      ++i;
    }
  }

  private open(i: number, entry: number): void {
    this.index = i;
    if (this.depth >= this.maxDepth) {
      throw this.fail('limit', 'limit.depth', `${exceeded('limit.depth', this.maxDepth)} at ${this.where()}`);
    }
    ++this.depth;
    this.stack.push(this.top);
    this.top = entry;
  }

  /** Pops a container; returns what follows it. */
  private close(i: number): Expect {
    this.index = i;
    --this.depth;
    this.top = this.stack.pop()!;
    return this.afterValue();
  }

  private afterValue(): Expect {
    return this.depth === 0 ? Expect.Done : Expect.CommaOrEnd;
  }

  /** Counts a key at its opening quote, so an excess key is rejected before it is read. */
  private countProperty(i: number): void {
    if (this.top < this.maxProperties) {
      ++this.top;
      return;
    }
    this.index = i;
    throw this.fail('limit', 'limit.properties', `${exceeded('limit.properties', this.maxProperties)} at ${this.where()}`);
  }

  /**
   * scanString for a string value that opened in this text. An input error inside it (a control
   * character, a bad escape, the string limit, the end of the input) comes after its opening
   * quote: the sink hears that the string began first, as it would have had the text been cut
   * before the error, so that every cut of a text gives the same answer. If that stopped the
   * sink, the error is never reached. A limit the sink counts and raised as the string ended
   * (`maxApplications`) is raised again by the announcement, at the quote, as a cut text raises it.
   */
  private scanStringValue(text: string, i: number, final: boolean, begun: boolean): number {
    this.unitsBeforeError = -1;
    try {
      return this.scanString(text, i, false, final);
    } catch (error) {
      if (!(error instanceof InputError) || this.sink.stringBegins === undefined) throw error;
      // As a cut there would have told it: that the string began, and how long it is up to there.
      if (!begun) this.announceString();
      this.stringGrew(this.unitsBeforeError >= 0 ? this.unitsBeforeError : this.decoded.length);
      if (!this._stopped) throw error;
      return text.length;
    }
  }

  /**
   * A string value opened in this text and goes on in the next: the sink hears that it has begun,
   * and may stop here. Once per string. Where it opened is kept for the sink (valueStart): the
   * next text will not hold it.
   */
  private stringCut(): void {
    if (this.sink.stringBegins === undefined) return;
    // Its offset is counted only if asked for (TextBytes.mark): most cut strings pass.
    this.cutStringStart = {line: this.line, column: this.unitBase + this.stringQuote - this.lineStart + 1};
    this.bytes.mark(this.stringQuote);
    this.announceString();
    this.stringGrew(this.decoded.length);
  }

  /** A string value is `length` code units long so far, and goes on: the sink hears it (TokenSink.stringGrows). */
  private stringGrew(length: number): void {
    if (!this._stopped) this.sink.stringGrows?.(length);
  }

  /** Tell the sink the string value begins, as from its opening quote (TokenSink.stringBegins). */
  private announceString(): void {
    this.index = this.stringQuote;
    this.sink.stringBegins!();
  }

  /**
   * Scans string contents from `i` (just past the opening quote, or the start of a continuation)
   * and delivers the string or key. Returns the index after the closing quote, or PARTIAL when the
   * text ends first (the decoded prefix is kept in `decoded`, a cut escape in `carry`).
   */
  private scanString(text: string, i: number, isKey: boolean, final: boolean): number {
    const length = text.length;
    const max = isKey ? this.maxKeyLength : this.maxStringLength;
    let segment = i;
    for (;;) {
      // Past an escape the plain run is short: a run to the quote, not a quote search as well.
      if (this.decoded.length === 0) i = this.plainEnd(text, i);
      else i = ((STRING_RUN.lastIndex = i), STRING_RUN.test(text), STRING_RUN.lastIndex);
      // The value so far is what was accumulated plus text[segment, i): fail at the first unit past the bound.
      const room = max - this.decoded.length;
      if (i - segment > room) {
        this.unitsBeforeError = max;
        throw this.tooLong(segment + room, isKey);
      }
      if (i >= length) {
        if (final) {
          this.index = i;
          this.unitsBeforeError = this.decoded.length + i - segment;
          throw this.endOfInput(isKey ? "a string character or '\"' to end the key" : "a string character or '\"'");
        }
        if (i > segment) this.decoded.add(text.slice(segment, i));
        return PARTIAL;
      }
      const c = text.charCodeAt(i);
      if (c === Ch.Quote) {
        this.index = i;
        const value = this.decoded.length === 0 ? text.slice(segment, i) : this.decoded.take(text.slice(segment, i));
        if (isKey) {
          this.expect = Expect.Colon;
          this.sink.keyValue(value);
        } else {
          this.expect = this.afterValue();
          this.sink.stringValue(value);
        }
        return i + 1;
      }
      if (c !== Ch.Backslash) {
        this.index = i;
        this.unitsBeforeError = this.decoded.length + i - segment;
        throw this.fail(
          'syntax',
          'syntax.unexpected',
          `Unexpected control character ${describeChar(c)} in string at ${this.where()}, expected a string character, an escape or '"'`
        );
      }
      if (i - segment >= room) {
        this.unitsBeforeError = this.decoded.length + i - segment;
        throw this.tooLong(i, isKey);
      }
      if (i > segment) this.decoded.add(text.slice(segment, i));
      const escaped = this.escape(text, i, final);
      if (escaped === '') {
        // Cut escape: carry it (at most 5 ASCII characters) and resume in the next text.
        this.carry = text.slice(i);
        return PARTIAL;
      }
      this.decoded.add(escaped);
      i += text.charCodeAt(i + 1) === Ch.LowerU ? 6 : 2;
      segment = i;
    }
  }

  /** Where STRING_RUN from `i` stops: the next quote within this text's PLAIN_RUN from `i` (found once for many strings), else the run's end. */
  private plainEnd(text: string, i: number): number {
    if (i < this.plainFrom || i >= this.plainUntil) {
      // Where escapes are dense, runs are short (under SHORT_RUN): each string is run to its end as
      // it comes, until one ends with no escape.
      if (this.shortRuns) return ((STRING_RUN.lastIndex = i), STRING_RUN.test(text), (this.shortRuns = text.charCodeAt(STRING_RUN.lastIndex) !== Ch.Quote), STRING_RUN.lastIndex);
      PLAIN_RUN.lastIndex = i;
      PLAIN_RUN.test(text);
      this.plainFrom = i;
      this.plainUntil = PLAIN_RUN.lastIndex;
      this.shortRuns = this.plainUntil - i < SHORT_RUN;
    }
    const quote = text.indexOf('"', i);
    return quote >= 0 && quote < this.plainUntil ? quote : this.plainUntil;
  }

  /** Decodes the escape at `i` (a backslash); '' when the text ends inside it. */
  private escape(text: string, i: number, final: boolean): string {
    const length = text.length;
    if (i + 1 >= length) return this.cutEscape(i + 1, final, "an escape character");
    const c = text.charCodeAt(i + 1);
    if (c !== Ch.LowerU) {
      const short = c < 128 ? SHORT_ESCAPES[c] : undefined;
      if (short === undefined) {
        this.index = i + 1;
        throw this.fail(
          'syntax',
          'syntax.unexpected',
          `Unexpected character ${describeChar(c)} after '\\' at ${this.where()}, expected one of " \\ / b f n r t u`
        );
      }
      return short;
    }
    let code = 0;
    for (let k = i + 2; k < i + 6; ++k) {
      if (k >= length) return this.cutEscape(k, final, 'a hexadecimal digit');
      const h = hexValue(text.charCodeAt(k));
      if (h < 0) {
        this.index = k;
        throw this.fail(
          'syntax',
          'syntax.unexpected',
          `Unexpected character ${describeChar(text.charCodeAt(k))} in \\u escape at ${this.where()}, expected a hexadecimal digit`
        );
      }
      code = code * 16 + h;
    }
    // Like JSON.parse, a lone surrogate escape yields a lone surrogate.
    return String.fromCharCode(code);
  }

  private cutEscape(i: number, final: boolean, expected: string): string {
    if (!final) return '';
    this.index = i;
    throw this.endOfInput(expected);
  }

  /**
   * Scans a number starting at `i` (RFC 8259 §6). Returns its end, or PARTIAL when the text ends
   * where the number could still go on. The character after it is left to the caller's grammar.
   */
  private scanNumber(text: string, i: number, final: boolean): number {
    if (this.numberPart !== NumberPart.Sign) return this.scanNumberCarefully(text, i, final);
    // Short plain integers (most numbers in real documents) without the regex call, which costs
    // more than scanning a few digits.
    let end = i;
    let c = text.charCodeAt(end);
    if (c === Ch.Minus) c = text.charCodeAt(++end);
    if (c >= Ch.One && c <= Ch.Nine) {
      do c = text.charCodeAt(++end);
      while (c >= Ch.Zero && c <= Ch.Nine && end - i < 16);
      if (c === Ch.Comma || c === Ch.CloseBrace || c === Ch.CloseBracket || c === Ch.Space || c === Ch.LF || c === Ch.CR || c === Ch.Tab) {
        if (end - i <= this.maxNumberLength) return end;
      }
    }
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) {
      end = NUMBER.lastIndex;
      // A match followed by '.', 'e' or 'E' stopped at a malformed fraction or exponent; one that
      // reaches the end of the text may go on. The careful scanner reports or waits for those.
      c = end < text.length ? text.charCodeAt(end) : Ch.Dot;
      if (c !== Ch.Dot && c !== Ch.LowerE && c !== Ch.UpperE) return this.withinNumberLength(i, end);
    }
    return this.scanNumberCarefully(text, i, final);
  }

  /**
   * Character by character, to name the exact offending character or to wait for more text. A
   * number cut by the end of a text is carried into the next (see run) with the part it was in, and
   * read on from there: read again from its start at every piece, a number of maxNumberLength
   * characters sent one at a time would cost its length squared in character reads. What remains
   * per piece is the carried text's copy, bounded by maxNumberLength.
   */
  private scanNumberCarefully(text: string, start: number, final: boolean): number {
    const length = text.length;
    let part = this.numberPart;
    let i = part === NumberPart.Sign ? start : start + this.numberRead;
    this.numberPart = NumberPart.Sign;
    let c = 0;
    // RFC 8259 §6: [ minus ] int [ frac ] [ exp ]. Each part reads on from where it begins, and
    // one that needs a character and finds the text's end cuts the number there.
    if (part === NumberPart.Sign) {
      c = text.charCodeAt(i);
      part = NumberPart.FirstDigit;
      if (c === Ch.Minus) ++i;
    }
    if (part === NumberPart.FirstDigit) {
      if (i >= length) return this.cutNumber(start, i, final, 'a digit', part);
      c = text.charCodeAt(i);
      if (!isDigit(c)) throw this.badNumber(start, i, 'a digit');
      ++i;
      part = c === Ch.Zero ? NumberPart.AfterInteger : NumberPart.Integer;
    }
    if (part === NumberPart.Integer) {
      while (i < length && isDigit(text.charCodeAt(i))) ++i;
    }
    if (part === NumberPart.Integer || part === NumberPart.AfterInteger) {
      if (i >= length) return this.cutNumber(start, i, final, '', part);
      c = text.charCodeAt(i);
      if (c === Ch.Dot) {
        ++i;
        part = NumberPart.FirstFraction;
      } else part = NumberPart.AfterFraction;
    }
    if (part === NumberPart.FirstFraction) {
      if (i >= length) return this.cutNumber(start, i, final, 'a digit', part);
      if (!isDigit(text.charCodeAt(i))) throw this.badNumber(start, i, 'a digit');
      ++i;
      part = NumberPart.Fraction;
    }
    if (part === NumberPart.Fraction) {
      while (i < length && isDigit(text.charCodeAt(i))) ++i;
      if (i >= length) return this.cutNumber(start, i, final, '', part);
      part = NumberPart.AfterFraction;
    }
    if (part === NumberPart.AfterFraction) {
      c = text.charCodeAt(i);
      if (c !== Ch.LowerE && c !== Ch.UpperE) return this.withinNumberLength(start, i);
      ++i;
      part = NumberPart.ExponentSign;
    }
    if (part === NumberPart.ExponentSign) {
      if (i >= length) return this.cutNumber(start, i, final, 'a digit or a sign', part);
      c = text.charCodeAt(i);
      if (c === Ch.Plus || c === Ch.Minus) ++i;
      part = NumberPart.FirstExponent;
    }
    if (part === NumberPart.FirstExponent) {
      if (i >= length) return this.cutNumber(start, i, final, 'a digit', part);
      if (!isDigit(text.charCodeAt(i))) throw this.badNumber(start, i, 'a digit');
      ++i;
    }
    while (i < length && isDigit(text.charCodeAt(i))) ++i;
    if (i >= length) return this.cutNumber(start, i, final, '', NumberPart.Exponent);
    return this.withinNumberLength(start, i);
  }

  /** `end`, where the number from `start` ends, once it is within maxNumberLength. */
  private withinNumberLength(start: number, end: number): number {
    if (end - start > this.maxNumberLength) throw this.numberTooLong(start);
    return end;
  }

  /** The text ended inside a number, in `part`: done at end of input if complete, else wait or fail. */
  private cutNumber(start: number, end: number, final: boolean, expected: string, part: NumberPart): number {
    this.withinNumberLength(start, end);
    if (!final) {
      this.numberPart = part;
      this.numberRead = end - start;
      return PARTIAL;
    }
    this.index = end;
    if (expected !== '') throw this.endOfInput(expected);
    return end;
  }

  private scanLiteral(text: string, i: number, c: number, final: boolean): number {
    const literal = c === Ch.LowerT ? LITERALS[0] : c === Ch.LowerF ? LITERALS[1] : LITERALS[2];
    const length = text.length;
    for (let k = 1; k < literal.length; ++k) {
      if (i + k >= length) {
        if (!final) return PARTIAL;
        this.index = i + k;
        throw this.endOfInput(`'${literal}'`);
      }
      if (text.charCodeAt(i + k) !== literal.charCodeAt(k)) {
        this.index = i + k;
        throw this.fail(
          'syntax',
          'syntax.unexpected',
          `Unexpected character ${describeChar(text.charCodeAt(i + k))} at ${this.where()}, expected '${literal}'`
        );
      }
    }
    // Wait for the character after the literal (or end of input) so that it is delivered with its boundary.
    const end = i + literal.length;
    if (end >= length && !final) return PARTIAL;
    return end;
  }

  // ---- errors (cold) ----

  private where(position = this.position()): string {
    return `line ${position.line} column ${position.column}`;
  }

  private fail(kind: 'syntax' | 'limit', code: string, message: string, position = this.position()): InputError {
    return new InputError(kind, code, message, position);
  }

  private unexpected(i: number, expect: Expect): InputError {
    this.index = i;
    const c = this.text.charCodeAt(i);
    if (expect === Expect.Done) {
      return this.fail('syntax', 'syntax.trailing', `Unexpected character ${describeChar(c)} after the JSON value at ${this.where()}, expected end of input`);
    }
    this.expect = expect;
    return this.fail('syntax', 'syntax.unexpected', `Unexpected character ${describeChar(c)} at ${this.where()}, expected ${this.expectedText()}`);
  }

  private endOfInput(expected: string): InputError {
    return this.fail('syntax', 'syntax.end', `Unexpected end of input at ${this.where()}, expected ${expected}`);
  }

  /**
   * The character at `i` cannot go on the number from `start`. A number already longer than
   * maxNumberLength there was bad at its first character past the limit, before this one: that is
   * the error, as it is when the text is cut between the two (cutNumber).
   */
  private badNumber(start: number, i: number, expected: string): InputError {
    if (i - start > this.maxNumberLength) return this.numberTooLong(start);
    this.index = i;
    const c = this.text.charCodeAt(i);
    return this.fail('syntax', 'syntax.unexpected', `Unexpected character ${describeChar(c)} in number at ${this.where()}, expected ${expected}`);
  }

  private numberTooLong(start: number): InputError {
    this.index = start + this.maxNumberLength;
    return this.fail('limit', 'limit.number', `${exceeded('limit.number', this.maxNumberLength)} at ${this.where()}`);
  }

  /** At the number's last character, where a scalar's errors are. */
  private inexactNumber(text: string): InputError {
    return this.fail('limit', 'limit.number.inexact', `${inexact(text)} at ${this.where()}`);
  }

  /**
   * The string's code unit at `i` is one past the limit. The limit counts code units, so that unit
   * may be the second half of a surrogate pair: the error is at the character, where the pair
   * begins (in the text before, when a write cut the pair).
   */
  private tooLong(i: number, isKey: boolean): InputError {
    const code = isKey ? 'limit.key' : 'limit.string';
    const message = exceeded(code, isKey ? this.maxKeyLength : this.maxStringLength);
    const text = this.text;
    if (isLowSurrogate(text.charCodeAt(i)) && i > 0 && isHighSurrogate(text.charCodeAt(i - 1))) --i;
    this.index = i;
    const position = this.position();
    if (i === 0 && this.pairCut) {
      // The first half ended the text before: one code unit and, as run() counts the pair, one byte back.
      --position.offset;
      --position.column;
    }
    return this.fail('limit', code, `${message} at ${this.where(position)}`, position);
  }

  private expectedText(): string {
    if (this.expect === Expect.CommaOrEnd) return this.top === ARRAY ? "',' or ']'" : "',' or '}'";
    return EXPECTED[this.expect];
  }
}
