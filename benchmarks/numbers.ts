// validateText on number-heavy texts against JSON.parse + ajv, in the same run: where the reading
// of number text and the bounds on it cost most. Run: `node --import tsx benchmarks/numbers.ts`.
//
// 1. The 1 KB order body of the HTTP benchmarks: prices with fractions under `minimum`.
// 2. Counts of which half are 0 under `minimum: 0`: a number tied with its limit in its double is
//    settled without its exact decimal when its text is short (HeldScalar.numberShort).
// 3. Random doubles of up to 17 digits and small exponents: the longest numbers JSON.stringify
//    writes, read digit by digit (numberEnd in src/json/numbers.ts).
// 4. An embedding of 1,536 numbers: past 256 items, one member stands for every item alike
//    (Sources.alike in src/engine/shape.ts).

import {Ajv} from 'ajv';
import {compile} from '../dist/src/index.js';
import {bestAlternating, orderSchema, printTable, smallBody, type Row} from './support.js';
import {random as seeded} from '../test/support/chunks.js';

const ajv = new Ajv({allErrors: false});

/** `count` validateText calls of `text` against as many JSON.parse + ajv, best of alternating rounds. */
function row(name: string, schema: object, text: string, count: number): Row {
  const ours = compile(schema);
  const theirs = ajv.compile(schema);
  if (!ours.validateText(text).valid || !theirs(JSON.parse(text))) throw new Error(`${name}: the text should be valid`);
  const times = bestAlternating(
    () => {
      let valid = 0;
      for (let i = 0; i < count; i++) if (ours.validateText(text).valid) valid++;
      return valid;
    },
    () => {
      let valid = 0;
      for (let i = 0; i < count; i++) if (theirs(JSON.parse(text))) valid++;
      return valid;
    },
  );
  return {name, ...times, bytes: Buffer.byteLength(text) * count};
}

// Deterministic doubles, so every run reads the same text.
const random = seeded(0x5eed);

const counts = JSON.stringify(Array.from({length: 200}, (_, index) => (index % 2 === 0 ? 0 : index)));
const embedding = JSON.stringify({model: 'text-embedding-3-small', embedding: Array.from({length: 1536}, () => Math.round((random() - 0.5) * 2e6) / 1e6)});
const doubles = JSON.stringify(Array.from({length: 200}, (_, index) => (index % 3 === 0 ? Math.floor(random() * 1e6) : index % 3 === 1 ? (random() - 0.5) * 1e4 : random() * 1e-5)));

printTable('validateText vs JSON.parse + ajv', [
  row('the 1 KB order body (prices with fractions)', orderSchema, smallBody().toString(), 20_000),
  row('200 counts, half of them 0, under minimum: 0', {type: 'array', items: {type: 'integer', minimum: 0}}, counts, 20_000),
  row('200 random doubles of up to 17 digits', {type: 'array', items: {type: 'number'}}, doubles, 10_000),
  row('an embedding of 1,536 numbers', {type: 'object', required: ['embedding'], properties: {model: {type: 'string'}, embedding: {type: 'array', items: {type: 'number'}}}}, embedding, 2_000),
]);
