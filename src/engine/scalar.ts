// The scalar being delivered, as the keywords read it (Scalar in src/schema/node.ts): a string, a
// boolean, or a number as its JSON text or, in value mode, as a double. Both engines hold one;
// the evaluator is one (it extends HeldScalar), the text checker has its own.

import {compareTiedNumberText, isIntegerText, isPlainIntegerAt, numberTextsEqual, type Decimal} from '../json/numbers.js';
import type {Matcher, Scalar, StringPattern} from '../schema/node.js';
import {decodeString} from '../json/scanner.js';
import {inPlaceEachTime, type InPlaceMatcher} from './patterns.js';

/** Each pattern run as asked: an engine used on its own, outside a document. */
const runEachTime: Matcher = (pattern, text) => pattern.test(text);

/** Digits a double holds exactly, whatever they are (2^53 has 16). */
const MAX_EXACT_DIGITS = 15;

/**
 * The value of JSON number text from `from` to `to`, at most MAX_EXACT_DIGITS long, when it has no
 * exponent; else NaN. Its digits make an integer a double holds exactly, and a fraction divides it
 * by a power of ten that is exact too: one division of exact values is rounded once, to what
 * `Number()` of the text gives (the fast path of correctly rounded decimal conversion).
 */
function readShortNumber(text: string, from: number, to: number): number {
  const negative = text.charCodeAt(from) === 45; /* - */
  let value = 0;
  let point = -1;
  for (let i = negative ? from + 1 : from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */ && point < 0) point = i;
    else if (c >= 48 && c <= 57) value = value * 10 + (c - 48);
    else return NaN;
  }
  if (point >= 0) value /= POWERS_OF_TEN[to - point - 1]!;
  // -0 is a number JSON can write; Number('-0') is -0 too.
  return negative ? -value : value;
}

/** 10^0 to 10^15, each exact in a double (multiplied up: `**` need not be exact). */
const POWERS_OF_TEN: number[] = [1];
while (POWERS_OF_TEN.length <= MAX_EXACT_DIGITS) POWERS_OF_TEN.push(POWERS_OF_TEN[POWERS_OF_TEN.length - 1]! * 10);

/** Unicode code points from `from` to `to` in `text`: a surrogate pair is one, a lone surrogate one too. */
function codePointsIn(text: string, from: number, to: number): number {
  let length = to - from;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < to) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

export class HeldScalar implements Scalar {
  private heldText = '';
  /**
   * A string or number held as a range of a text (holdRange), until a keyword reads it: most are
   * only counted or have their kind checked, and making each was a tenth of a record's time.
   */
  private source = '';
  private from = 0;
  private to = -1;
  private escaped = false;
  booleanValue = false;
  private parsedNumber = NaN;
  private numberParsed = false;
  /**
   * Value mode delivers numbers as doubles; their text is made only if a keyword needs it
   * (`String(n)` cost ~90 ns per number, a tenth of a record's validation).
   */
  private numberTextPending = false;
  /** The number came as a double (value mode), not as text: it is exactly that double. */
  private numberFromDouble = false;
  /**
   * The document's value is handed on (parseText, a session with `parse`): its numbers are judged
   * as the doubles JSON.parse gives that value, as value mode and Fastify judge them, not as the
   * decimals written. Else a number that rounds (0.99999999999999999 under `exclusiveMaximum: 1`)
   * passes as written and reaches the handler as a double the schema refuses. A number whose
   * double is not finite has no such value: its text decides (`inexactNumbers` says whether it
   * passes at all). Set by the document for each call.
   */
  numbersAsDoubles = false;
  /**
   * The number's text has at most 15 digits and no exponent (readShortNumber read it): no other
   * decimal of at most 15 digits has its double (IEEE 754's 15-digit round trip), so where that
   * double ties with a limit's, the limit's shortest decimal (`String`) has the text's value too.
   */
  private numberShort = false;

  constructor(
    /** How the document runs its patterns (src/engine/patterns.ts). */
    readonly match: Matcher = runEachTime,
    /** How it runs them on a plain string held as a range, where it stands in the text. */
    private readonly matchInPlace: InPlaceMatcher = inPlaceEachTime,
  ) {}

  /** The string being delivered (a number's text: `numberText()`). */
  get text(): string {
    if (this.to >= 0) this.takeRange();
    return this.heldText;
  }

  set text(value: string) {
    this.heldText = value;
    this.to = -1;
  }

  private takeRange(): void {
    this.heldText = this.escaped ? decodeString(this.source, this.from, this.to) : this.source.slice(this.from, this.to);
    this.source = '';
    this.to = -1;
  }

  /**
   * Hold the string or number text of `source` from `from` to `to` (as TextScanner gives them:
   * `escaped`, a string with escapes, which `decodeString` reads).
   */
  holdRange(source: string, from: number, to: number, escaped: boolean): void {
    this.source = source;
    this.from = from;
    this.to = to;
    this.escaped = escaped;
    this.numberParsed = false;
    this.numberTextPending = false;
    this.numberFromDouble = false;
  }

  get units(): number {
    return this.to >= 0 && !this.escaped ? this.to - this.from : this.text.length;
  }

  codePoints(): number {
    return this.to >= 0 && !this.escaped ? codePointsIn(this.source, this.from, this.to) : codePointsIn(this.text, 0, this.text.length);
  }

  matches(pattern: StringPattern): boolean {
    // A plain string still held as a range is matched where it stands, not copied out.
    if (this.to >= 0 && !this.escaped) {
      const verdict = this.matchInPlace(pattern, this.source, this.from, this.to);
      if (verdict !== undefined) return verdict;
    }
    return this.match(pattern.regExp, this.text);
  }

  // One method per kind of scalar: a caller knows which it holds, and V8 inlines these where a
  // method taking the kind did not inline (value mode's arrays of numbers ran 1.5x slower).

  /** Hold a string. */
  holdString(value: string): void {
    this.text = value;
  }

  /** Hold a number as a double (value mode). */
  holdDouble(value: number): void {
    this.parsedNumber = value;
    this.numberParsed = true;
    this.numberTextPending = true;
    this.numberFromDouble = true;
  }

  /** Hold a boolean. */
  holdBoolean(value: boolean): void {
    this.booleanValue = value;
  }

  /** Hold a number as its JSON text. */
  holdNumberText(text: string): void {
    this.text = text;
    this.numberParsed = false;
    this.numberTextPending = false;
    this.numberFromDouble = false;
  }

  /** Hold nothing: the text of a document must not stay reachable from here after it. */
  releaseScalar(): void {
    this.text = '';
    this.source = '';
    this.numberParsed = false;
    this.numberTextPending = false;
    this.numberFromDouble = false;
    this.booleanValue = false;
  }

  numberText(): string {
    if (this.numbersAsDoubles) this.number();
    if (this.numberTextPending) {
      this.text = String(this.parsedNumber);
      this.numberTextPending = false;
    }
    return this.text;
  }

  /**
   * In value mode equal doubles are the same number; text can be more precise than its double
   * (1e-400 is not 0), so the decimals decide.
   */
  numberEquals(other: number): boolean {
    if (this.number() !== other) return false;
    return this.numberFromDouble || this.numberShort || numberTextsEqual(this.text, String(other));
  }

  compareNumber(limit: number, limitDecimal: Decimal | undefined): number {
    const number = this.number();
    if (number !== limit) return number < limit ? -1 : 1;
    return this.numberFromDouble || this.numberShort ? 0 : compareTiedNumberText(this.text, limitDecimal);
  }

  isInteger(): boolean {
    if (this.numbersAsDoubles) this.number();
    if (this.numberFromDouble) return Number.isInteger(this.parsedNumber);
    // A short number's double is whole exactly when its text is: a fraction of at most 15 digits
    // lies farther from an integer than the double's rounding. The one reading serves a bound too.
    if (this.heldShort()) {
      const value = this.number();
      if (this.numberShort) return Number.isInteger(value);
    }
    // Most integers are plain digits: read in the text they came in, without making their own.
    if (this.to >= 0 && isPlainIntegerAt(this.source, this.from, this.to)) return true;
    return isIntegerText(this.text);
  }

  /** A number held as a range of at most MAX_EXACT_DIGITS characters: readShortNumber may read it. */
  private heldShort(): boolean {
    return this.to >= 0 && this.to - this.from <= MAX_EXACT_DIGITS;
  }

  /** Parsed once per value, on first use. */
  number(): number {
    if (!this.numberParsed) {
      this.parsedNumber = this.heldShort() ? readShortNumber(this.source, this.from, this.to) : NaN;
      this.numberShort = this.parsedNumber === this.parsedNumber;
      if (!this.numberShort) {
        this.parsedNumber = Number(this.text);
        // A short number's text and double have one value (numberShort): only a longer one is
        // held as its double instead, its text made from that double if a keyword reads it.
        if (this.numbersAsDoubles && Number.isFinite(this.parsedNumber)) this.numberFromDouble = this.numberTextPending = true;
      }
      this.numberParsed = true;
    }
    return this.parsedNumber;
  }
}
