// `uniqueItems` (2020-12 validation §6.4.3): no two items are equal (as JSON values: numbers by
// value, objects regardless of key order). Each item streams through a fingerprint run that hashes
// it bottom-up; only one 53-bit fingerprint per item is kept (a Map entry, ~46 bytes measured).
// This is the one keyword whose memory grows with the array. Two different items collide with a
// probability around n²/2^54, which reports a false duplicate, never misses a real one
// (docs/keywords.md).

import type {Run} from '../evaluator.js';
import {fingerprintNode, fingerprintOf} from '../fingerprint.js';
import type {KeywordDefinition} from '../schema.js';

const newSeen = (): Map<number, number> => new Map();

export const uniqueItems: KeywordDefinition<true> = {
  name: 'uniqueItems',
  discardsErrors: () => true,
  compile(value, context) {
    if (typeof value !== 'boolean') throw context.fail('must be a boolean');
    return value ? true : undefined;
  },
  outline: (_keyword, outline) => outline.distinctItems(),
  item(run, keyword, index) {
    run.applyToMember(fingerprintNode, keyword, index, '');
  },
  result(run: Run, keyword, child) {
    const seen = run.state(keyword, newSeen);
    const fingerprint = fingerprintOf(child);
    const earlier = seen.get(fingerprint);
    if (earlier !== undefined) {
      run.fail(keyword, `must NOT have duplicate items (items ${earlier} and ${child.slot} are identical)`, {i: earlier, j: child.slot});
      return;
    }
    seen.set(fingerprint, child.slot);
  },
};
