// Engine throughput against JSON.parse + ajv, measured in the same run (these machines are noisy:
// read the ratios, not the absolute numbers). Run: `npm run bench` or
// `node --import tsx benchmarks/engine.ts [records]`.
//
// 1. 100,000 NDJSON records of ~500 bytes: streaming (one session per line) vs JSON.parse + ajv.
// 2. One ~20 MB object with 200,000 keys, fed in 64 KiB chunks vs JSON.parse + ajv.
// 3. Value mode on the parsed records vs ajv.

import Ajv from 'ajv';
import {compile} from '../dist/src/index.js';
import {best, printTable, type Row} from './support.js';

const recordCount = Number(process.argv[2] ?? 100_000);

const recordSchema = {
  type: 'object',
  required: ['id', 'type', 'timestamp', 'user'],
  properties: {
    id: {type: 'string', pattern: '^evt_[0-9a-f]{12}$'},
    type: {enum: ['click', 'view', 'purchase', 'signup']},
    timestamp: {type: 'integer', minimum: 0},
    user: {
      type: 'object',
      required: ['id', 'email'],
      properties: {id: {type: 'integer'}, email: {type: 'string', maxLength: 120}, name: {type: 'string'}, country: {type: 'string', minLength: 2, maxLength: 2}},
      additionalProperties: false,
    },
    amount: {type: 'number', minimum: 0},
    currency: {type: 'string', minLength: 3, maxLength: 3},
    items: {type: 'array', maxItems: 20, items: {type: 'object', required: ['sku', 'qty'], properties: {sku: {type: 'string'}, qty: {type: 'integer', minimum: 1}, price: {type: 'number'}}}},
    tags: {type: 'array', items: {type: 'string'}},
    session: {type: 'string'},
    agent: {type: 'string', maxLength: 512},
    referrer: {type: ['string', 'null']},
  },
  patternProperties: {'^x-': {type: 'string'}},
  additionalProperties: false,
  if: {properties: {type: {const: 'purchase'}}, required: ['type']},
  then: {required: ['amount', 'currency', 'items']},
};

function record(i: number): Record<string, unknown> {
  const purchase = i % 4 === 2;
  const base: Record<string, unknown> = {
    id: 'evt_' + (0x100000000000 + i * 7919).toString(16).slice(-12),
    type: ['click', 'view', 'purchase', 'signup'][i % 4],
    timestamp: 1_700_000_000_000 + i * 1000,
    user: {id: i % 5000, email: `user${i % 5000}@example.com`, name: `User Number ${i % 5000} of the Example Organisation`, country: 'NO'},
    agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    session: 'sess_' + (i * 2654435761).toString(36),
    referrer: i % 3 === 0 ? null : 'https://www.example.com/landing/page?utm_source=newsletter&utm_medium=email',
    tags: ['web', 'mobile', 'beta', 'campaign-2026'].slice(0, 1 + (i % 4)),
    'x-trace': 'trace-' + i.toString(16),
  };
  if (purchase) {
    base.amount = 19.99 + (i % 100);
    base.currency = 'EUR';
    base.items = [
      {sku: 'SKU-' + (i % 997), qty: 1 + (i % 3), price: 9.99},
      {sku: 'SKU-' + (i % 991), qty: 1, price: 10},
    ];
  }
  return base;
}

const records = Array.from({length: recordCount}, (_, i) => record(i));
const lines = records.map((value) => JSON.stringify(value));
const ndjsonBytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);

const bigSchema = {
  type: 'object',
  required: ['k0'],
  properties: {k0: {type: 'object'}},
  patternProperties: {'^k[0-9]+$': {type: 'object', required: ['v'], properties: {v: {type: 'integer'}, label: {type: 'string'}}}},
  additionalProperties: false,
  if: {required: ['k1']},
  then: {properties: {k1: {required: ['label']}}},
};
const bigObject: Record<string, unknown> = {};
for (let i = 0; i < 200_000; i++) bigObject['k' + i] = {v: i, label: 'label number ' + i, flag: i % 2 === 0, ratio: i / 7};
const bigText = JSON.stringify(bigObject);
const bigBytes = Buffer.byteLength(bigText);
const bigChunks: string[] = [];
for (let at = 0; at < bigText.length; at += 65536) bigChunks.push(bigText.slice(at, at + 65536));

const ajv = new Ajv({allErrors: false, allowMatchingProperties: true});
const ajvRecord = ajv.compile(recordSchema);
const ajvBig = ajv.compile(bigSchema);
const oursRecord = compile(recordSchema);
const oursBig = compile(bigSchema);

// Sanity: both agree on every record, and all are valid.
for (let i = 0; i < 1000; i++) {
  const ours = oursRecord.validateText(lines[i]).valid;
  if (ours !== ajvRecord(records[i]) || !ours) throw new Error(`disagreement on record ${i}: ${oursRecord.validateText(lines[i]).errors[0]?.error}`);
}
if (!oursBig.validateText(bigText).valid || !ajvBig(bigObject)) throw new Error('the big object should be valid');

const rows: Row[] = [];

const ndjsonOurs = best(() => {
  let valid = 0;
  for (const line of lines) if (oursRecord.validateText(line).valid) valid++;
  return valid;
});
const ndjsonTheirs = best(() => {
  let valid = 0;
  for (const line of lines) if (ajvRecord(JSON.parse(line))) valid++;
  return valid;
});
rows.push({name: `NDJSON, ${recordCount} records (${(ndjsonBytes / recordCount).toFixed(0)} B each), streaming`, ours: ndjsonOurs, theirs: ndjsonTheirs, bytes: ndjsonBytes, target: 0.6});

const bigOurs = best(() => {
  const session = oursBig.session();
  for (const chunk of bigChunks) session.write(chunk);
  return session.end().valid ? 1 : 0;
}, 5);
const bigTheirs = best(() => (ajvBig(JSON.parse(bigText)) ? 1 : 0), 5);
rows.push({name: `one ${(bigBytes / 1e6).toFixed(1)} MB object, 200,000 keys, 64 KiB chunks`, ours: bigOurs, theirs: bigTheirs, bytes: bigBytes, target: 1.0});

const valueOurs = best(() => {
  let valid = 0;
  for (const value of records) if (oursRecord.validate(value).valid) valid++;
  return valid;
});
const valueTheirs = best(() => {
  let valid = 0;
  for (const value of records) if (ajvRecord(value)) valid++;
  return valid;
});
rows.push({name: `value mode, ${recordCount} parsed records (vs ajv alone)`, ours: valueOurs, theirs: valueTheirs, bytes: ndjsonBytes, target: 1 / 3});

printTable('stream-schema vs JSON.parse + ajv', rows);
