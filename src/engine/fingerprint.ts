// A streaming fingerprint of a JSON value, for `uniqueItems`: the value is hashed bottom-up as it
// arrives (objects order-independently, arrays in order, numbers by their decimal value), so equal
// values get equal fingerprints without either being kept. The evaluator and the text checker
// each hash a value once, as its tokens pass, however many arrays around it want fingerprints.

import {parseDecimal} from '../json/numbers.js';
import {ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, type Instance, type Kind} from '../schema/node.js';

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

function setFromText(hash: Hash, tag: string, text: string): void {
  hash.a = mixString(0x811c9dc5, 0x01000193, tag + text);
  hash.b = mixString(0x9747b28c, 0x5bd1e995, tag + text);
}

/** Numbers hash by value: 1, 1.0 and 1e0 are one number. */
function canonicalNumber(text: string): string {
  const decimal = parseDecimal(text);
  if (decimal === undefined) return text;
  return (decimal.negative ? '-' : '') + decimal.coefficient + 'e' + decimal.exponent;
}

/** The hash of the scalar `evaluator` holds (numbers by value). */
export function hashScalar(hash: Hash, kind: Kind | 0, evaluator: Instance): void {
  switch (kind) {
    case STRING:
      return setFromText(hash, 's', evaluator.text);
    case NUMBER:
      return setFromText(hash, 'n', canonicalNumber(evaluator.numberText()));
    case BOOLEAN:
      return setFromText(hash, 'b', evaluator.booleanValue ? 't' : 'f');
    case NULL:
      return setFromText(hash, 'z', '');
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
