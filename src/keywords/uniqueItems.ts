// `uniqueItems` (2020-12 validation §6.4.3): no two items are equal (as JSON values: numbers by
// value, objects regardless of key order). Two items are equal when their fingerprints are
// (src/engine/fingerprint.ts), in the evaluator as in the text checker (its outline's
// `distinctItems`). The evaluator hashes each item bottom-up as it streams
// (Instance.fingerprintItem); only one 53-bit fingerprint per item is kept
// (a Map entry, ~46 bytes measured). This is the one keyword whose memory grows with the array.
// Two different items collide with a probability around n²/2^54, which reports a false
// duplicate, never misses a real one (docs/keywords.md).

import type {CompiledKeyword, KeywordDefinition, Run, FingerprintListener} from '../schema/node.js';

/**
 * The fingerprints of the items seen so far, with their indices. The first is kept apart and the
 * Map made at the second: an empty Map costs ~200 bytes, and a deep document of nested arrays
 * under a recursive `uniqueItems` has an array of one item per level.
 */
class Seen {
  firstFingerprint = -1;
  firstIndex = -1;
  rest: Map<number, number> | null = null;

  /** The index of the item with this fingerprint, if one was seen. */
  indexOf(fingerprint: number): number | undefined {
    if (fingerprint === this.firstFingerprint) return this.firstIndex;
    return this.rest === null ? undefined : this.rest.get(fingerprint);
  }

  add(fingerprint: number, index: number): void {
    if (this.firstIndex < 0) {
      this.firstFingerprint = fingerprint;
      this.firstIndex = index;
    } else (this.rest ??= new Map()).set(fingerprint, index);
  }
}

const newSeen = (): Seen => new Seen();

/** Each item's fingerprint: new, or the item repeats an earlier one. */
const distinctItems: FingerprintListener = {
  fingerprinted(run: Run, keyword: CompiledKeyword, index: number, fingerprint: number) {
    const seen = run.state(keyword, newSeen);
    const earlier = seen.indexOf(fingerprint);
    if (earlier !== undefined) {
      // ajv's params name the later item `i` and the earlier `j`.
      run.fail(keyword, `must NOT have duplicate items (items ${earlier} and ${index} are identical)`, {i: index, j: earlier});
      return;
    }
    seen.add(fingerprint, index);
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
