// Engine throughput against JSON.parse + ajv, measured in the same run (these machines are noisy:
// read the ratios, not the absolute numbers). Run: `npm run bench` or
// `node --import tsx benchmarks/engine.ts [records]`.
//
// 1. 100,000 NDJSON records of ~500 bytes: validateText per line vs JSON.parse + ajv; and with the
//    empty schema vs JSON.parse alone (the reading of the text, with nothing to validate).
// 2. One ~20 MB object with 200,000 keys, fed in 64 KiB chunks vs JSON.parse + ajv.
// 3. Value mode on the parsed records vs ajv.
// 4. The records as one JSON array (~19 MB at 40,000 records), fed to a session in 64 KiB chunks
//    (the session path of a large document of small objects).

import {Ajv} from 'ajv';
import {compile, type Validator} from '../dist/src/index.js';
import {bestAlternating, printTable, type Row} from './support.js';
import {record, recordSchema} from './workloads.js';

/** `text` in 64 KiB pieces, as a request body or a file arrives. */
function chunksOf(text: string): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += 65536) chunks.push(text.slice(at, at + 65536));
  return chunks;
}

/** 1 when a session fed `chunks` finds the document valid (a number, for bestAlternating). */
function sessionVerdict(validator: Validator, chunks: readonly string[]): number {
  const session = validator.session();
  for (const chunk of chunks) session.write(chunk);
  return session.end().valid ? 1 : 0;
}

const recordCount = Number(process.argv[2] ?? 100_000);

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
  // k1 is an object by patternProperties already; saying so here keeps ajv's strictTypes quiet.
  then: {properties: {k1: {type: 'object', required: ['label']}}},
};
const bigObject: Record<string, unknown> = {};
for (let i = 0; i < 200_000; i++) bigObject['k' + i] = {v: i, label: 'label number ' + i, flag: i % 2 === 0, ratio: i / 7};
const bigText = JSON.stringify(bigObject);
const bigBytes = Buffer.byteLength(bigText);
const bigChunks = chunksOf(bigText);

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

const ndjson = bestAlternating(
  () => {
    let valid = 0;
    for (const line of lines) if (oursRecord.validateText(line).valid) valid++;
    return valid;
  },
  () => {
    let valid = 0;
    for (const line of lines) if (ajvRecord(JSON.parse(line))) valid++;
    return valid;
  },
);
rows.push({name: `NDJSON, ${recordCount} records (${(ndjsonBytes / recordCount).toFixed(0)} B each), validateText per record`, ...ndjson, bytes: ndjsonBytes, target: 1.0});

// The tokenizer and its machinery alone: a schema that reads nothing, against JSON.parse alone.
const oursEmpty = compile({});
const empty = bestAlternating(
  () => {
    let valid = 0;
    for (const line of lines) if (oursEmpty.validateText(line).valid) valid++;
    return valid;
  },
  () => {
    let parsed = 0;
    for (const line of lines) if (JSON.parse(line) !== null) parsed++;
    return parsed;
  },
);
rows.push({name: `NDJSON, the same records, the empty schema {} (vs JSON.parse alone)`, ...empty, bytes: ndjsonBytes, target: 1.0, versus: 'JSON.parse'});

const big = bestAlternating(
  () => sessionVerdict(oursBig, bigChunks),
  () => (ajvBig(JSON.parse(bigText)) ? 1 : 0),
  5,
);
rows.push({name: `one ${(bigBytes / 1e6).toFixed(1)} MB object, 200,000 keys, 64 KiB chunks`, ...big, bytes: bigBytes, target: 1.2});

const value = bestAlternating(
  () => {
    let valid = 0;
    for (const value of records) if (oursRecord.validate(value).valid) valid++;
    return valid;
  },
  () => {
    let valid = 0;
    for (const value of records) if (ajvRecord(value)) valid++;
    return valid;
  },
);
rows.push({name: `value mode, ${recordCount} parsed records (vs ajv alone)`, ...value, bytes: ndjsonBytes, target: 0.7, versus: 'ajv'});

const arrayCount = Math.min(recordCount, 40_000);
const arrayText = '[' + lines.slice(0, arrayCount).join(',') + ']';
const arrayChunks = chunksOf(arrayText);
const arraySchema = {type: 'array', items: recordSchema};
const oursArray = compile(arraySchema);
const ajvArray = ajv.compile(arraySchema);
const array = bestAlternating(
  () => sessionVerdict(oursArray, arrayChunks),
  () => (ajvArray(JSON.parse(arrayText)) ? 1 : 0),
  5,
);
rows.push({name: `one JSON array of ${arrayCount} records (${(Buffer.byteLength(arrayText) / 1e6).toFixed(1)} MB), 64 KiB chunks`, ...array, bytes: Buffer.byteLength(arrayText), target: 1.0});

printTable('stream-schema vs JSON.parse + ajv', rows);
