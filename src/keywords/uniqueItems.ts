// `uniqueItems` (2020-12 validation §6.4.3): no two items are equal (as JSON values: numbers by
// value, objects regardless of key order). The evaluator hashes each item bottom-up as it streams
// (src/fingerprint.ts, Evaluator.fingerprintItem); only one 53-bit fingerprint per item is kept
// (a Map entry, ~46 bytes measured). This is the one keyword whose memory grows with the array.
// Two different items collide with a probability around n²/2^54, which reports a false
// duplicate, never misses a real one (docs/keywords.md).

import type {Run} from '../evaluator.js';
import type {FingerprintListener} from '../fingerprint.js';
import type {CompiledKeyword, KeywordDefinition} from '../schema.js';

const newSeen = (): Map<number, number> => new Map();

/** Each item's fingerprint: new, or the item repeats an earlier one. */
const distinctItems: FingerprintListener = {
  fingerprinted(run: Run, keyword: CompiledKeyword, index: number, fingerprint: number) {
    const seen = run.state(keyword, newSeen);
    const earlier = seen.get(fingerprint);
    if (earlier !== undefined) {
      run.fail(keyword, `must NOT have duplicate items (items ${earlier} and ${index} are identical)`, {i: earlier, j: index});
      return;
    }
    seen.set(fingerprint, index);
  },
};

export const uniqueItems: KeywordDefinition<true> = {
  name: 'uniqueItems',
  compile(value, context) {
    if (typeof value !== 'boolean') throw context.fail('must be a boolean');
    return value ? true : undefined;
  },
  outline: (_keyword, outline) => outline.distinctItems(),
  item(run, keyword) {
    run.evaluator.fingerprintItem(run, keyword, distinctItems);
  },
};
