// A streaming fingerprint of a JSON value, for `uniqueItems`: the value is hashed bottom-up as it
// arrives (objects order-independently, arrays in order, numbers by their decimal value), so equal
// values get equal fingerprints without either being kept. The evaluator and the text checker
// each hash a value once, as its tokens pass, however many arrays around it want fingerprints.

import {isExactNumberText, parseDecimal} from '../json/numbers.js';
import {ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, type Kind, type Scalar} from '../schema/node.js';

export class Hash {
  // Two independent 32-bit lanes; 53 bits of them make the fingerprint.
  a = 0;
  b = 0;
}

/** A 32-bit hash of `text` (FNV-1a's shape over UTF-16 units, then a murmur finalizer). */
export function mixString(seed: number, multiplier: number, text: string): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), multiplier);
  return finalize(h ^ text.length);
}

function finalize(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Both lanes of `mixString` of the text preceded by one tag unit, in one pass, without making that string. */
function setFromText(hash: Hash, tag: number, text: string): void {
  let a = Math.imul(0x811c9dc5 ^ tag, 0x01000193);
  let b = Math.imul(0x9747b28c ^ tag, 0x5bd1e995);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x5bd1e995);
  }
  hash.a = finalize(a ^ (text.length + 1));
  hash.b = finalize(b ^ (text.length + 1));
}

const TAG_STRING = 0x73;
const TAG_DECIMAL = 0x6e;
const TAG_DOUBLE = 0x64;
const TAG_BOOLEAN = 0x62;
const TAG_NULL = 0x7a;

const double = new Float64Array(1);
const doubleWords = new Int32Array(double.buffer);

/** A number whose text has the value of its double's shortest decimal: hashed by the double's bits. */
function setFromDouble(hash: Hash, value: number): void {
  double[0] = value === 0 ? 0 : value; // -0 is 0 (numbers by value)
  const low = doubleWords[0]!;
  const high = doubleWords[1]!;
  hash.a = finalize(Math.imul(Math.imul(0x811c9dc5 ^ TAG_DOUBLE, 0x01000193) ^ low, 0x01000193) ^ high);
  hash.b = finalize(Math.imul(Math.imul(0x9747b28c ^ TAG_DOUBLE, 0x5bd1e995) ^ high, 0x5bd1e995) ^ low);
}

/**
 * Numbers hash by value: 1, 1.0 and 1e0 are one number. Most number texts have exactly the value
 * of their double's shortest decimal (isExactNumberText), and two such texts are equal exactly when
 * their doubles are: those hash by the double. The rest (1.00000000000000001, 1e400) equal no such
 * text, since equal values round to one double: they hash by their canonical decimal, which
 * building costs more.
 */
function setFromNumber(hash: Hash, scalar: Scalar): void {
  const text = scalar.numberText();
  if (isExactNumberText(text)) setFromDouble(hash, scalar.number());
  else setFromText(hash, TAG_DECIMAL, canonicalNumber(text));
}

/** A number's decimal value as text, one text per value. */
function canonicalNumber(text: string): string {
  const decimal = parseDecimal(text);
  if (decimal === undefined) return text;
  return (decimal.negative ? '-' : '') + decimal.coefficient + 'e' + decimal.exponent;
}

/** The hash of the scalar being delivered (numbers by value). */
export function hashScalar(hash: Hash, kind: Kind | 0, scalar: Scalar): void {
  switch (kind) {
    case STRING:
      return setFromText(hash, TAG_STRING, scalar.text);
    case NUMBER:
      return setFromNumber(hash, scalar);
    case BOOLEAN:
      return setFromText(hash, TAG_BOOLEAN, scalar.booleanValue ? 't' : 'f');
    case NULL:
      return setFromText(hash, TAG_NULL, '');
  }
}

/** An object's or array's hash before its members. */
export function startHash(hash: Hash, kind: Kind | 0): void {
  hash.a = kind === OBJECT ? 0x1234567 : 0x7654321;
  hash.b = kind === OBJECT ? 0x2345678 : 0x8765432;
}

/** Add a member's hash: an object's order-independently with its name, an array's in order. */
export function addToHash(hash: Hash, kind: Kind | 0, member: Hash, name: string): void {
  if (kind === OBJECT) {
    const pairA = finalize(mixString(0x3c6ef372, 0x01000193, name) ^ member.a);
    const pairB = finalize(mixString(0xa54ff53a, 0x5bd1e995, name) ^ Math.imul(member.b, 0x27d4eb2d));
    hash.a = (hash.a + pairA) >>> 0;
    hash.b = (hash.b + pairB) >>> 0;
  } else if (kind === ARRAY) {
    hash.a = finalize(Math.imul(hash.a, 31) ^ member.a);
    hash.b = finalize(Math.imul(hash.b, 37) ^ member.b);
  }
}

/** 53 bits of a hash: the fingerprint. */
export function hashValue(hash: Hash): number {
  return (hash.a & 0x1fffff) * 0x100000000 + hash.b;
}
