// src/keywords/rules/itemFingerprints.ts: every repeat is found, at the earliest item with its fingerprint,
// through the scan of short arrays and each growth of the table; different fingerprints are never
// taken for one another; and a cleared set starts afresh.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import fc from 'fast-check';
import {ItemFingerprints} from '../../../src/keywords/rules/itemFingerprints.js';
import {property} from '../../support/property.js';

/** Distinct 53-bit fingerprints, spread as hashValue's are, with those next to 0 and 2^53 among them. */
function distinctFingerprints(count: number): number[] {
  const seen = new Set<number>([0, 1, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1]);
  let state = 0x2545f491;
  while (seen.size < count) {
    state = (Math.imul(state, 0x9e3779b1) + 0x7f4a7c15) | 0;
    seen.add(((state >>> 11) & 0x1fffff) * 0x100000000 + (Math.imul(state, 0x85ebca6b) >>> 0));
  }
  return [...seen];
}

describe('ItemFingerprints', () => {
  test('100,000 distinct fingerprints are all new; each again is found at its own position', () => {
    const fingerprints = distinctFingerprints(100_000);
    const seen = new ItemFingerprints();
    fingerprints.forEach((fingerprint, position) => assert.equal(seen.add(fingerprint), -1, `position ${position}`));
    fingerprints.forEach((fingerprint, position) => assert.equal(seen.add(fingerprint), position, `position ${position}`));
    assert.equal(seen.size, 200_000);
  });

  test('a repeat is found at the earliest item, at every length across the scan and the growths', () => {
    const fingerprints = distinctFingerprints(5000);
    for (const length of [1, 2, 7, 8, 9, 16, 17, 100, 4095, 4096, 4097, 5000]) {
      const seen = new ItemFingerprints();
      for (let i = 0; i < length; i++) seen.add(fingerprints[i]!);
      for (const repeated of [0, length >> 1, length - 1]) assert.equal(seen.add(fingerprints[repeated]!), repeated, `item ${repeated} of ${length}`);
      // Repeats take positions too (an item's position is its index), and are found at the first.
      assert.equal(seen.size, length + 3);
      assert.equal(seen.add(fingerprints[length - 1]!), length - 1);
    }
  });

  test('clear forgets every item, whatever the array grew to', () => {
    const seen = new ItemFingerprints();
    const all = distinctFingerprints(20_000);
    for (const length of [10_000, 3, 0, 9, 20_000]) {
      seen.clear();
      for (const fingerprint of all.slice(0, length)) assert.equal(seen.add(fingerprint), -1);
      assert.equal(seen.size, length);
    }
  });

  test('as a Map of first positions would say, for any sequence', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({min: 0, max: 40}), fc.constantFrom(2 ** 53 - 1, 2 ** 32, 2 ** 52 + 1)), {maxLength: 300}), (sequence) => {
        const seen = new ItemFingerprints();
        const first = new Map<number, number>();
        sequence.forEach((fingerprint, position) => {
          assert.equal(seen.add(fingerprint), first.get(fingerprint) ?? -1);
          if (!first.has(fingerprint)) first.set(fingerprint, position);
        });
      }),
      property(200),
    );
  });
});
