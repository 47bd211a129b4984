// Feeding a session in pieces: random boundaries (seeded, so a failure can be replayed) and 1-byte
// chunks; and where in the bytes a character of their text is.

import type {Result, Validator} from '../../src/types.js';

/** A small deterministic PRNG (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Split bytes at random places (pieces of 1 to `max` bytes). */
export function randomChunks(bytes: Uint8Array, next: () => number, max = 16): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(next() * max);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

export function byteChunks(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (_, index) => bytes.subarray(index, index + 1));
}

/** Run a session over the chunks; also reports whether `write` said false before the end. */
export function feed(validator: Validator, chunks: readonly (Uint8Array | string)[]): Result & {refusedAt: number} {
  const session = validator.session();
  let refusedAt = -1;
  chunks.forEach((chunk, index) => {
    if (!session.write(chunk) && refusedAt === -1) refusedAt = index;
  });
  return {...session.end(), refusedAt};
}

/** UTF-8 as WHATWG decodes it, a leading BOM kept. */
const utf8 = new TextDecoder('utf-8', {ignoreBOM: true});

/**
 * The byte at which code unit `unit` of what `bytes` decode to begins: the longest prefix that
 * decodes to the text before it. A prefix that ends inside a character adds a U+FFFD for it, and
 * one that ends inside a malformed sequence decodes as the whole sequence does.
 */
export function byteOfUnit(bytes: Uint8Array, unit: number): number {
  const before = utf8.decode(bytes).slice(0, unit);
  for (let at = bytes.length; at >= 0; at--) if (utf8.decode(bytes.subarray(0, at)) === before) return at;
  throw new Error(`no prefix decodes to the text before code unit ${unit}`);
}

/** The byte where an error's 1-based `line` and `column` (UTF-16 code units) are in `bytes`. */
export function byteOfPosition(bytes: Uint8Array, line: number, column: number): number {
  const text = utf8.decode(bytes);
  let lineStart = 0;
  for (let at = 1; at < line; at++) lineStart = text.indexOf('\n', lineStart) + 1;
  return byteOfUnit(bytes, lineStart + column - 1);
}
