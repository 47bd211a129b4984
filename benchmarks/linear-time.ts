// Each format check on a 100 KB string built against it, and each way of feeding a session (and
// validate()) 64 KB of deep nesting (maxDepth 100,000), against no schema and against recursive
// ones, a session reading 4,096 items of one text ahead, an anyOf failing at each of 999 levels
// of arrays and of objects, and the meta-schema on a schema 999 levels deep: the best wall time of a few runs, against the 50 ms target (docs/decisions.md, "Format
// checks and sessions stay linear"). The tests count what can be counted on the same inputs
// (test/linear.test.ts); the time is measured here only.
//
//   npm run build && node --import tsx benchmarks/linear-time.ts

import {formatsFor} from '../dist/src/formats/index.js';
import {compile, type Validator} from '../dist/src/index.js';
import {adversarialFormatInputs, deepDocuments} from '../test/support/adversarial.js';
import {best} from './support.js';

const TARGET_MS = 50;
const FORMAT_LENGTH = 100_000;
const SESSION_BYTES = 64 * 1024;

function printRows(title: string, rows: readonly (readonly [string, number])[]): number {
  console.log(`\n${title}`);
  console.log('| input | best ms | target |');
  console.log('|---|---:|---:|');
  let missed = 0;
  for (const [name, milliseconds] of rows) {
    const met = milliseconds < TARGET_MS;
    if (!met) missed++;
    console.log(`| ${name} | ${milliseconds.toFixed(1)} | < ${TARGET_MS} ${met ? 'met' : 'NOT met'} |`);
  }
  return missed;
}

function formatRows(): [string, number][] {
  const rows: [string, number][] = [];
  for (const [name, check] of formatsFor('draft2020-12')) {
    // A fresh salt each run: the regex engine caches patterns by their text.
    let salt = 0;
    rows.push([name, best(() => (check(adversarialFormatInputs(FORMAT_LENGTH, salt++)[name]!) ? 1 : 0), 5)]);
  }
  return rows;
}

function feed(validator: Validator, input: string | Uint8Array, chunk: number, parse = false): number {
  const session = validator.session({parse});
  for (let at = 0; at < input.length; at += chunk) session.write(input.slice(at, at + chunk));
  return session.end().valid ? 1 : 0;
}

function sessionRows(): [string, number][] {
  const limits = {maxDepth: 100_000};
  const anything = compile({}, {limits});
  const recursive = compile({type: ['array', 'object', 'number'], items: {$ref: '#'}, additionalProperties: {$ref: '#'}}, {limits});
  const distinct = compile({uniqueItems: true, items: {$ref: '#'}}, {limits});
  const documents = deepDocuments(SESSION_BYTES);
  const cases: [string, Validator, string][] = [
    ['arrays', anything, documents.arrays!],
    ['objects', anything, documents.objects!],
    ['arrays and objects', anything, documents['arrays and objects']!],
    ['arrays around a string, recursive schema (fails)', recursive, documents['arrays around a string']!],
    ['arrays, recursive uniqueItems', distinct, documents.arrays!],
  ];
  const rows: [string, number][] = [];
  for (const [name, validator, text] of cases) {
    const bytes = Buffer.from(text);
    const value: unknown = JSON.parse(text);
    rows.push([`${name}: one write`, best(() => feed(validator, text, text.length), 5)]);
    rows.push([`${name}: one Buffer`, best(() => feed(validator, bytes, bytes.length), 5)]);
    rows.push([`${name}: 4 KiB chunks`, best(() => feed(validator, bytes, 4096), 5)]);
    rows.push([`${name}: parse: true`, best(() => feed(validator, bytes, bytes.length, true), 5)]);
    rows.push([`${name}: validate()`, best(() => (validator.validate(value).valid ? 1 : 0), 5)]);
  }
  // Each item is read ahead by the checker, in the one text the session holds.
  const records = compile({type: 'array', items: {type: 'object', properties: {id: {type: 'integer'}, name: {type: 'string'}}}});
  const items = `[${Array.from({length: 4096}, (_, id) => `{"id": ${id}, "name": "item number ${id}", "more": [1, 2, "three"]}`).join(',')}]`;
  rows.push(['4,096 items of one text, read ahead: one write', best(() => feed(records, items, items.length), 5)]);
  // An anyOf failing at each level reports every branch's error: 3,000 errors at 999 levels (the
  // default maxDepth), whose locations are made once per run and per member.
  const branches = compile({anyOf: [{type: 'array', items: {$ref: '#'}}, {type: 'object', additionalProperties: {$ref: '#'}}, {type: 'number'}]});
  const failing = `${'['.repeat(999)}"x"${']'.repeat(999)}`;
  rows.push(['anyOf failing at each of 999 levels: one write', best(() => feed(branches, failing, failing.length), 5)]);
  rows.push(['anyOf failing at each of 999 levels: validate()', best(() => (branches.validate(JSON.parse(failing)).valid ? 1 : 0), 5)]);
  // Each level's errors are taken on by the level above without a copy (src/engine/errorList.ts).
  const members = compile({anyOf: [{type: 'object', properties: {a: {$ref: '#'}}, required: ['a']}, {type: 'null'}]});
  const failingMembers = `${'{"a":'.repeat(999)}1${'}'.repeat(999)}`;
  rows.push(['anyOf over 999 nested objects, failing at the bottom: one write', best(() => feed(members, failingMembers, failingMembers.length), 5)]);
  rows.push(['anyOf over 999 nested objects, failing at the bottom: validate()', best(() => (members.validate(JSON.parse(failingMembers)).valid ? 1 : 0), 5)]);
  // The meta-schema applies every subschema through `$dynamicRef`: a schema sent to be checked,
  // nested as deep as the limits allow, reads its dynamic scope once per level.
  const meta = compile({$ref: 'https://json-schema.org/draft/2020-12/schema'});
  const deepSchema = `${'{"not":'.repeat(999)}{"type":1}${'}'.repeat(999)}`;
  rows.push(['the 2020-12 meta-schema on 999 nested nots: one write', best(() => feed(meta, deepSchema, deepSchema.length), 5)]);
  rows.push(['the 2020-12 meta-schema on 999 nested nots: validate()', best(() => (meta.validate(JSON.parse(deepSchema)).valid ? 1 : 0), 5)]);
  return rows;
}

const missed = printRows(`format checks, ${FORMAT_LENGTH / 1000} KB adversarial strings`, formatRows()) + printRows(`sessions and validate(), ${SESSION_BYTES / 1024} KiB of nesting, maxDepth 100,000`, sessionRows());
console.log(`\n${missed === 0 ? 'every input' : `${missed} inputs NOT`} under ${TARGET_MS} ms`);
