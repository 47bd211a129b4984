// The keywords that the engine benchmark's record schema does not use, against ajv in the same
// run: `not`, `if`/`then`/`else`, `dependentSchemas`, `contains` with `maxContains`,
// `propertyNames`, `uniqueItems`, `unevaluatedProperties`, `unevaluatedItems`, and `enum` of
// objects. It is the check that moving a keyword's meaning between files cost nothing. Run:
// `npm run bench -- keywords` or `node --import tsx benchmarks/keywords.ts [documents]`.
//
// 1. Value mode on parsed documents vs ajv.
// 2. validateText per document (the pass-only checker) vs JSON.parse + ajv.
// 3. A session per document, its text in two pieces (the evaluator on text) vs JSON.parse + ajv.

import {Ajv2020} from 'ajv/dist/2020.js';
import {compile} from '../dist/src/index.js';
import {bestAlternating, printTable, type Row} from './support.js';

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['kind', 'tags'],
  propertyNames: {pattern: '^[a-z][a-zA-Z0-9]*$', maxLength: 24},
  properties: {
    kind: {enum: ['plain', 'card']},
    tags: {type: 'array', items: {type: 'string'}, uniqueItems: true, contains: {const: 'main'}, maxContains: 1},
    origin: {enum: [{x: 0, y: 0}, {x: 1, y: 0}, {x: 0, y: 1}]},
    note: {not: {type: 'null'}},
    readings: {type: 'array', prefixItems: [{type: 'integer'}], contains: {type: 'string'}, unevaluatedItems: {type: 'number'}},
  },
  // Every document has `billing`: with the trigger absent, ajv 8 lets the paired schema act on
  // unevaluatedProperties (a known deviation, test/differential.test.ts), and the two must agree.
  dependentSchemas: {billing: {required: ['note'], properties: {billing: {type: 'object'}}}},
  if: {properties: {kind: {const: 'card'}}},
  then: {required: ['card']},
  else: {not: {required: ['card']}},
  unevaluatedProperties: {type: ['string', 'number']},
};

function documentOf(i: number): Record<string, unknown> {
  const card = i % 3 === 0;
  const document: Record<string, unknown> = {
    kind: card ? 'card' : 'plain',
    tags: ['main', 'tag' + (i % 7), 'other' + (i % 11), 'more' + (i % 13)],
    origin: [{x: 0, y: 0}, {x: 1, y: 0}, {x: 0, y: 1}][i % 3],
    note: 'note number ' + i,
    readings: [i, 'label' + i, 1.5, 2.5, i / 7, 3],
    extraText: 'free text ' + i,
    extraNumber: i * 3,
    billing: {street: 'Main street ' + i, city: 'Oslo'},
  };
  if (card) document.card = 'card-' + i;
  return document;
}

const count = Number(process.argv[2] ?? 50_000);
const documents = Array.from({length: count}, (_, i) => documentOf(i));
const texts = documents.map((document) => JSON.stringify(document));
// Each half a string of its own, as a decoder gives a network's chunks or an LLM's stream its
// deltas. Slices of the document would be views of it, read a character at a time through it: 4–7%
// slower, a cost no session fed from a network pays.
const ownString = (text: string): string => Buffer.from(text).toString();
const halves = texts.map((text) => [ownString(text.slice(0, text.length >> 1)), ownString(text.slice(text.length >> 1))] as const);
const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);

const ours = compile(schema);
// Both liberties are the schema's meaning: a tuple without a length, a union type.
const ajv = new Ajv2020({allErrors: false, strictTuples: false, allowUnionTypes: true}).compile(schema);

// Sanity: both find every document valid, and a broken one invalid.
for (let i = 0; i < 1000; i++) {
  const verdict = ours.validateText(texts[i]!);
  if (!verdict.valid || !ajv(documents[i])) throw new Error(`document ${i} should be valid: ${verdict.errors[0]?.error}`);
}
const broken = {...documents[0], tags: ['main', 'main']};
if (ours.validate(broken).valid || ajv(broken)) throw new Error('a repeated tag should be invalid');

const ajvOnText = (): number => {
  let valid = 0;
  for (const text of texts) if (ajv(JSON.parse(text))) valid++;
  return valid;
};

const rows: Row[] = [];
const value = bestAlternating(
  () => {
    let valid = 0;
    for (const document of documents) if (ours.validate(document).valid) valid++;
    return valid;
  },
  () => {
    let valid = 0;
    for (const document of documents) if (ajv(document)) valid++;
    return valid;
  },
);
rows.push({name: `value mode, ${count} documents (vs ajv alone)`, ...value, bytes, versus: 'ajv'});

const text = bestAlternating(() => {
  let valid = 0;
  for (const document of texts) if (ours.validateText(document).valid) valid++;
  return valid;
}, ajvOnText);
rows.push({name: `validateText, ${count} documents (${(bytes / count).toFixed(0)} B each)`, ...text, bytes, versus: 'JSON.parse + ajv', target: 0.8});

const session = bestAlternating(() => {
  let valid = 0;
  for (const [first, second] of halves) {
    const each = ours.session();
    each.write(first);
    each.write(second);
    if (each.end().valid) valid++;
  }
  return valid;
}, ajvOnText);
rows.push({name: `a session per document, in two pieces`, ...session, bytes, versus: 'JSON.parse + ajv', target: 0.6});

printTable('stream-schema vs ajv, on the keywords engine.ts does not use', rows);
