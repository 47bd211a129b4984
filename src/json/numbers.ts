// Where JSON number text ends, and exact arithmetic on it. Numbers arrive as their literal text;
// `integer`, `multipleOf`, comparisons and equality are decided on the decimal value, so 1e400,
// 12345678901234567890 and 1.0 are judged as written, not as the nearest double.

/** A finite decimal: (-1)^negative × coefficient × 10^exponent, coefficient without leading zeros. */
export interface Decimal {
  readonly negative: boolean;
  readonly coefficient: string;
  readonly exponent: number;
}

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/;

/** Parse JSON number text (or `String(n)` of a finite double). Undefined for anything else. */
export function parseDecimal(text: string): Decimal | undefined {
  const match = NUMBER_TEXT.exec(text);
  if (match === null) return undefined;
  const fraction = match[3] ?? '';
  let coefficient = (match[2] + fraction).replace(/^0+/, '');
  let exponent = (match[4] === undefined ? 0 : Number(match[4])) - fraction.length;
  if (!Number.isSafeInteger(exponent)) return undefined;
  const trailing = /0+$/.exec(coefficient);
  if (trailing !== null) {
    coefficient = coefficient.slice(0, trailing.index);
    exponent += trailing[0].length;
  }
  if (coefficient === '') return {negative: false, coefficient: '0', exponent: 0};
  return {negative: match[1] === '-', coefficient, exponent};
}

/**
 * Where the number starting at `i` with `c` ends (RFC 8259 §6: its grammar, not what may follow
 * it), or -1. Read digit by digit: a regular expression's call costs more than the few digits of
 * most numbers. A fraction or exponent with no digit is not part of the number, which then ends
 * before its `.` or `e` (what follows the number, for the caller's grammar to refuse).
 */
export function numberEnd(text: string, i: number, c: number): number {
  let end = c === 45 /* - */ ? i + 1 : i;
  c = text.charCodeAt(end);
  if (c > 48 /* 0 */ && c <= 57 /* 9 */) end = digitsEnd(text, end + 1);
  else if (c === 48 /* 0 */) end++;
  else return -1;
  c = text.charCodeAt(end);
  if (c === 46 /* . */ && isDigit(text.charCodeAt(end + 1))) {
    end = digitsEnd(text, end + 2);
    c = text.charCodeAt(end);
  }
  if (c !== 101 /* e */ && c !== 69 /* E */) return end;
  let digits = end + 1;
  c = text.charCodeAt(digits);
  if (c === 43 /* + */ || c === 45 /* - */) c = text.charCodeAt(++digits);
  return isDigit(c) ? digitsEnd(text, digits + 1) : end;
}

/** An ASCII digit's code. */
export function isDigit(c: number): boolean {
  return c >= 48 /* 0 */ && c <= 57 /* 9 */;
}

/** Where the digits from `i` end. */
function digitsEnd(text: string, i: number): number {
  while (isDigit(text.charCodeAt(i))) i++;
  return i;
}

/**
 * Digits with an optional minus sign, `text` from `from` to `to`: the text of an integer written
 * without fraction or exponent.
 */
export function isPlainIntegerAt(text: string, from: number, to: number): boolean {
  for (let i = text.charCodeAt(from) === 45 /* - */ ? from + 1 : from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return to > from;
}

/** True when the number's value is a whole number (1.0, 1e2 and 2^64 included). */
export function isIntegerText(text: string): boolean {
  // Fast path: plain digits.
  let plain = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */ || c === 101 /* e */ || c === 69 /* E */) {
      plain = false;
      break;
    }
  }
  if (plain) return text !== 'NaN' && text !== 'Infinity' && text !== '-Infinity';
  const decimal = parseDecimal(text);
  return decimal !== undefined && decimal.exponent >= 0;
}

/** Exact comparison of two decimals: negative, zero or positive. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  if (a.coefficient === '0' && b.coefficient === '0') return 0;
  if (a.negative !== b.negative) {
    if (a.coefficient === '0') return b.negative ? 1 : -1;
    if (b.coefficient === '0') return a.negative ? -1 : 1;
    return a.negative ? -1 : 1;
  }
  const magnitude = compareMagnitude(a, b);
  return a.negative ? -magnitude : magnitude;
}

function compareMagnitude(a: Decimal, b: Decimal): number {
  if (a.coefficient === '0') return b.coefficient === '0' ? 0 : -1;
  if (b.coefficient === '0') return 1;
  // Order of magnitude of the leading digit decides unless equal.
  const aTop = a.coefficient.length + a.exponent;
  const bTop = b.coefficient.length + b.exponent;
  if (aTop !== bTop) return aTop < bTop ? -1 : 1;
  const length = Math.max(a.coefficient.length, b.coefficient.length);
  const aDigits = a.coefficient.padEnd(length, '0');
  const bDigits = b.coefficient.padEnd(length, '0');
  return aDigits < bDigits ? -1 : aDigits > bDigits ? 1 : 0;
}

/**
 * Compare number text with a schema bound whose double it equals. Doubles decide whenever they
 * differ (the caller compares them first, before any text is made); only equal doubles, where
 * rounding may hide a difference, need the exact decimal comparison.
 */
export function compareTiedNumberText(text: string, boundDecimal: Decimal | undefined): number {
  const decimal = parseDecimal(text);
  if (decimal === undefined || boundDecimal === undefined) return 0;
  return compareDecimal(decimal, boundDecimal);
}

/**
 * Is `value` an integer multiple of `divisor` (divisor > 0)? Exact for decimal text, whatever the
 * exponents: with value = a·10^i and divisor = d·10^j (no trailing zeros in a or d), a multiple
 * needs i >= j (else a would end in a zero), and then d | a·10^(i-j). Only the powers of 2 and 5 in
 * d can use the 10^(i-j), and there are at most log2(d) < 4·digits(d) of them, so the power is
 * capped there: 1e2000 and 1e-2000 cost no more than 1e20.
 */
export function isMultipleOf(text: string, value: number, divisor: Decimal, divisorNumber: number): boolean {
  // Plain integer text within 2^53 is exact as a double (1e-2000 is a double 0, but not plain).
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisorNumber) && isPlainIntegerAt(text, 0, text.length)) return value % divisorNumber === 0;
  const decimal = parseDecimal(text);
  if (decimal === undefined) {
    // Not decimal text (value mode's Infinity cannot happen for a JSON value): doubles decide.
    const quotient = value / divisorNumber;
    return Number.isFinite(quotient) && Number.isInteger(quotient);
  }
  if (decimal.coefficient === '0') return true;
  const shift = decimal.exponent - divisor.exponent;
  if (shift < 0) return false;
  const power = Math.min(shift, 4 * divisor.coefficient.length);
  return (BigInt(decimal.coefficient) * 10n ** BigInt(power)) % BigInt(divisor.coefficient) === 0n;
}

/** Numeric equality of two number texts by value (1 == 1.0 == 1e0). */
export function numberTextsEqual(a: string, b: string): boolean {
  if (a === b) return true;
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (x === undefined || y === undefined) return Number(a) === Number(b);
  return compareDecimal(x, y) === 0;
}

/**
 * `JSON.parse` turns this number text into a double whose shortest decimal (`String(n)`) has the
 * same value, so keywords decide the double as they decide the text. True at once for texts of at
 * most 15 characters without an exponent: at most 15 significant digits, in the normal range, and
 * two different decimals of 15 digits never round to the same double (DBL_DIG).
 */
export function isExactNumberText(text: string): boolean {
  if (text.length <= 15 && text.indexOf('e') < 0 && text.indexOf('E') < 0) return true;
  const value = Number(text);
  return Number.isFinite(value) && numberTextsEqual(text, String(value));
}

/**
 * `JSON.parse` reads this number text as a finite double, and as a non-zero one unless the text is
 * zero. Text of at most 308 characters without an exponent always is: reaching 2^1024 takes 309
 * digits, and underflowing to zero ~324 zeros after the point.
 */
export function isWithinDoubleRange(text: string): boolean {
  if (text.length <= 308 && text.indexOf('e') < 0 && text.indexOf('E') < 0) return true;
  const value = Number(text);
  return Number.isFinite(value) && (value !== 0 || isZeroText(text));
}

/** Every digit before the exponent is 0 (`-0`, `0.000`, `0e10`). */
function isZeroText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 101 /* e */ || c === 69 /* E */) return true;
    if (c >= 49 /* 1 */ && c <= 57 /* 9 */) return false;
  }
  return true;
}
