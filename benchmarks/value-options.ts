// The value options (coerceTypes, useDefaults, removeAdditional) with Fastify's settings, on the
// engine benchmark's records sent as a form or a query string might make them: the timestamp and
// the user's id as strings, no tags (a default), and a field the schema does not list (removed).
// Against JSON.parse + ajv with the same options, and against our own run without the options on
// records that need no change (what the amender costs where it changes nothing). Run:
// `npm run bench -- value-options` or `node --import tsx benchmarks/value-options.ts [records]`.

import {Ajv} from 'ajv';
import {compile, type Validator} from '../dist/src/index.js';
import {bestAlternating, printTable, type Row} from './support.js';
import {record, recordSchema} from './workloads.js';

const recordCount = Number(process.argv[2] ?? 50_000);
const fastify = {coerceTypes: 'array', useDefaults: true, removeAdditional: true} as const;

const schema = {...recordSchema, properties: {...recordSchema.properties, tags: {...recordSchema.properties.tags, default: []}}};

/** A record as a client that sends strings might: what the options change. */
function sentLoosely(i: number): Record<string, unknown> {
  const value = record(i);
  value.timestamp = String(value.timestamp);
  (value.user as Record<string, unknown>).id = String((value.user as Record<string, unknown>).id);
  delete value.tags;
  value.debug = {trace: i, on: true};
  return value;
}

const loose = Array.from({length: recordCount}, (_, i) => JSON.stringify(sentLoosely(i)));
const exact = Array.from({length: recordCount}, (_, i) => JSON.stringify(record(i)));
const bytesOf = (lines: readonly string[]): number => lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0);

const ajv = new Ajv({...fastify, allowMatchingProperties: true, strict: false});
const ajvRecord = ajv.compile(schema);
const ours = compile(schema, fastify);
const oursWithout = compile(schema);

// Sanity: the same verdict and the same value on every record.
for (let i = 0; i < 1000; i++) {
  const theirs = JSON.parse(loose[i]);
  if (!ajvRecord(theirs)) throw new Error(`ajv refuses record ${i}`);
  const mine = ours.parseText(loose[i]);
  if (!mine.valid || JSON.stringify(mine.value) !== JSON.stringify(theirs)) throw new Error(`record ${i} differs: ${JSON.stringify(mine)}`);
}

function countValid(lines: readonly string[], judge: (line: string) => boolean): number {
  let valid = 0;
  for (const line of lines) if (judge(line)) valid++;
  return valid;
}

const parsedBy = (validator: Validator) => (line: string) => validator.parseText(line).valid;
const validatedBy = (validator: Validator) => (line: string) => validator.validate(JSON.parse(line)).valid;
const ajvJudges = (line: string) => ajvRecord(JSON.parse(line));

const rows: Row[] = [];
const looseBytes = bytesOf(loose);
const exactBytes = bytesOf(exact);
rows.push({
  name: `parseText, ${recordCount} records to coerce, default and trim (vs JSON.parse + ajv)`,
  ...bestAlternating(() => countValid(loose, parsedBy(ours)), () => countValid(loose, ajvJudges), 5),
  bytes: looseBytes,
  versus: 'JSON.parse + ajv',
});
rows.push({
  name: 'JSON.parse + validate, the same records (vs JSON.parse + ajv)',
  ...bestAlternating(() => countValid(loose, validatedBy(ours)), () => countValid(loose, ajvJudges), 5),
  bytes: looseBytes,
  versus: 'JSON.parse + ajv',
});
rows.push({
  name: 'parseText, records that need no change (vs ours without the options)',
  ...bestAlternating(() => countValid(exact, parsedBy(ours)), () => countValid(exact, parsedBy(oursWithout)), 5),
  bytes: exactBytes,
  versus: 'ours without the options',
});

printTable('value options (Fastify\'s settings)', rows);
