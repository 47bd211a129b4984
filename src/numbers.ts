// Exact arithmetic on JSON number text. Numbers arrive as their literal text; `integer`,
// `multipleOf`, comparisons and equality are decided on the decimal value, so 1e400,
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
 * Compare number text with a schema bound. Doubles decide whenever they differ; only equal
 * doubles (where rounding may hide a difference) fall back to the exact decimal comparison.
 */
export function compareNumberText(text: string, value: number, bound: number, boundDecimal: Decimal | undefined): number {
  if (value !== bound || !Number.isFinite(value)) return value < bound ? -1 : value > bound ? 1 : 0;
  const decimal = parseDecimal(text);
  if (decimal === undefined || boundDecimal === undefined) return 0;
  return compareDecimal(decimal, boundDecimal);
}

/** Exponents beyond this make BigInt scaling too costly for a hostile input; doubles decide instead. */
const MAX_EXACT_SCALE = 1000;

/** Is `value` an integer multiple of `divisor` (divisor > 0)? Exact for decimal text. */
export function isMultipleOf(text: string, value: number, divisor: Decimal, divisorNumber: number): boolean {
  const decimal = parseDecimal(text);
  if (decimal === undefined || Math.abs(decimal.exponent - divisor.exponent) > MAX_EXACT_SCALE) {
    if (!Number.isFinite(value)) return false;
    const quotient = value / divisorNumber;
    return Number.isFinite(quotient) && Number.isInteger(quotient);
  }
  if (decimal.coefficient === '0') return true;
  const scale = Math.min(decimal.exponent, divisor.exponent);
  const numerator = BigInt(decimal.coefficient) * 10n ** BigInt(decimal.exponent - scale);
  const denominator = BigInt(divisor.coefficient) * 10n ** BigInt(divisor.exponent - scale);
  return numerator % denominator === 0n;
}

/** Numeric equality of two number texts by value (1 == 1.0 == 1e0). */
export function numberTextsEqual(a: string, b: string): boolean {
  if (a === b) return true;
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (x === undefined || y === undefined) return Number(a) === Number(b);
  return compareDecimal(x, y) === 0;
}
