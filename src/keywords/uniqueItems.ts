// `uniqueItems` (2020-12 validation §6.4.3): no two items are equal (as JSON values: numbers by
// value, objects regardless of key order). Two items are equal when their fingerprints are
// (src/engine/fingerprint.ts), in the evaluator as in the text checker (its outline's
// `distinctItems`). The evaluator hashes each item bottom-up as it streams
// (Instance.fingerprintItem); only one 53-bit fingerprint per item is kept, packed with an index
// to find it (rules/itemFingerprints.ts: 13-16 bytes an item). This is the one keyword whose
// memory grows with the array, so it has a limit of its own (limits.maxUniqueItems): past it the
// document is refused as input past a bound (RFC 8259 §9 lets a parser limit what it takes),
// before memory runs out. Two different items collide with a probability around n²/2^54, which
// reports a false duplicate, never misses a real one (docs/keywords.md).

import {ItemFingerprints} from './rules/itemFingerprints.js';
import {defaultLimits} from '../json/limits.js';
import type {CompiledKeyword, KeywordDefinition, Run, FingerprintListener} from '../schema/node.js';

const newSeen = (): ItemFingerprints => new ItemFingerprints();

/** Each item's fingerprint: new, or the item repeats an earlier one. */
const distinctItems: FingerprintListener = {
  fingerprinted(run: Run, keyword: CompiledKeyword<number>, index: number, fingerprint: number) {
    const seen = run.state(keyword, newSeen);
    const max = keyword.value;
    if (seen.size >= max) throw run.evaluator.limitError('limit.uniqueItems', `More than maxUniqueItems (${max}) items in one array under uniqueItems`, run.depth);
    const earlier = seen.add(fingerprint);
    // ajv's params name the later item `i` and the earlier `j`.
    if (earlier >= 0) run.fail(keyword, `must NOT have duplicate items (items ${earlier} and ${index} are identical)`, {i: index, j: earlier});
  },
};

/** Compiled: the most items an array may have (limits.maxUniqueItems). */
export const uniqueItems: KeywordDefinition<number> = {
  name: 'uniqueItems',
  compile(value, context) {
    if (typeof value !== 'boolean') throw context.fail('must be a boolean');
    return value ? (context.options.limits?.maxUniqueItems ?? defaultLimits.maxUniqueItems) : undefined;
  },
  outline: (_keyword, outline) => outline.distinctItems(),
  item(run, keyword) {
    run.evaluator.fingerprintItem(run, keyword, distinctItems);
  },
};
