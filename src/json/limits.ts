// The limits every reader of a document holds it to unless told otherwise (`Limits` in
// ../types.ts says what each bounds and why).

import type {Limits} from '../types.js';

export const defaultLimits: Required<Limits> = {
  maxDepth: 1000,
  maxStringLength: 16 * 1024 * 1024,
  maxKeyLength: 65536,
  maxProperties: 1 << 20,
  maxNumberLength: 4096,
  maxUniqueItems: 1 << 23,
  maxAssembledValues: 1 << 23,
  maxApplications: 32,
  inexactNumbers: 'allow'
};

/** The limits a reader of text or tokens holds each value to, by the code of the error past it. */
export type ReadLimit = 'limit.depth' | 'limit.properties' | 'limit.string' | 'limit.key' | 'limit.number';

/**
 * What a `limit` error says was exceeded, `bound` being the limit's value, before where (each
 * reader says where in its own terms).
 */
export function exceeded(code: ReadLimit, bound: number): string {
  switch (code) {
    case 'limit.depth':
      return `Nesting deeper than maxDepth (${bound})`;
    case 'limit.properties':
      return `More than maxProperties (${bound}) properties in one object`;
    case 'limit.string':
      return `String longer than maxStringLength (${bound})`;
    case 'limit.key':
      return `Key longer than maxKeyLength (${bound})`;
    case 'limit.number':
      return `Number longer than maxNumberLength (${bound})`;
  }
}

/** What a `limit.number.inexact` error says of the number `text` (Limits.inexactNumbers). */
export function inexact(text: string): string {
  const read = Number(text) === 0 ? '0' : 'Infinity';
  return `Number outside the range of a double (JSON.parse reads it as ${text.startsWith('-') ? '-' : ''}${read})`;
}
