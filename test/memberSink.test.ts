// Sessions that judge member values apart (src/session/memberSink.ts) against sessions that do not, on
// every test of the official suite: the same verdict, errors and positions, and `write` saying
// false in the same call. With the size threshold at 0, every member value whose subschemas allow
// it is judged apart, whatever the chunking: values that end in a later chunk, values that fail
// (replayed into the evaluator) and values past a limit all happen here.

import assert from 'node:assert/strict';
import fc from 'fast-check';
import {after, before, test} from 'node:test';
import {compile} from '../src/index.js';
import {memberValues} from '../src/session/memberSink.js';
import type {Validator} from '../src/types.js';
import {byteChunks, random, randomChunks} from './support/chunks.js';
import {drafts, remotes, suiteFiles, suiteFormats, suiteSkips} from './support/suite.js';
import {property} from './support/property.js';

const schemas = remotes();
const encoder = new TextEncoder();
const threshold = memberValues.worthIt;

before(() => {
  memberValues.worthIt = 0;
});
after(() => {
  memberValues.worthIt = threshold;
});

/** A session's result and the index of the chunk whose `write` said false (-1: none). */
function run(validator: Validator, chunks: readonly Uint8Array[], apart: boolean): unknown {
  // A session that assembles the value never judges members apart: the plain evaluator.
  const session = validator.session({parse: !apart});
  let refusedAt = -1;
  chunks.forEach((chunk, index) => {
    if (!session.write(chunk) && refusedAt === -1) refusedAt = index;
  });
  const {value, ...result} = session.end();
  return {...result, refusedAt};
}

test('judging member values apart changes nothing a session reports, on the whole suite', () => {
  const problems: string[] = [];
  let compared = 0;
  for (const draft of drafts) {
    for (const optional of [false, true]) {
      for (const file of suiteFiles(draft, optional)) {
        file.cases.forEach((suiteCase, caseIndex) => {
          const validator = compile(suiteCase.schema, {draft, schemas, ...suiteFormats(optional)});
          suiteCase.tests.forEach((suiteTest, testIndex) => {
            const id = `${draft}/${file.name}/${suiteCase.description}/${suiteTest.description}`;
            if (suiteSkips.has(id) || suiteSkips.has(`${draft}/${file.name}`)) return;
            const bytes = encoder.encode(JSON.stringify(suiteTest.data, null, 1));
            const chunkings = [[bytes], randomChunks(bytes, random(caseIndex * 1000 + testIndex), 24)];
            if (bytes.length <= 400) chunkings.push(byteChunks(bytes));
            for (const chunks of chunkings) {
              compared++;
              const apart = JSON.stringify(run(validator, chunks, true));
              const plain = JSON.stringify(run(validator, chunks, false));
              if (apart !== plain) problems.push(`${id} (${chunks.length} chunks): ${apart} vs ${plain}`);
            }
          });
        });
      }
    }
  }
  console.log(`member values judged apart: ${compared} chunkings compared with the plain evaluator`);
  assert.deepEqual(problems.slice(0, 5), []);
});

test('the items of a large array are judged apart too, and a failing one is replayed', () => {
  memberValues.worthIt = threshold;
  try {
    const schema = {type: 'array', maxItems: 5000, items: {type: 'object', required: ['id'], properties: {id: {type: 'integer'}, tags: {type: 'array', items: {type: 'string'}}}}};
    const validator = compile(schema);
    const items = Array.from({length: 3000}, (_, index) => `{"id": ${index}, "tags": ["a", "b"], "note": "item ${index}"}`);
    const texts = [`[${items.join(',')}]`];
    items[2500] = '{"id": "x"}';
    texts.push(`[${items.join(',')}]`);
    items[2500] = '{"id": 1, "tags": [1]}';
    texts.push(`[${items.join(',')}]`);
    texts.push(`[${Array.from({length: 5001}, () => '{"id": 1}').join(',')}]`);
    for (const text of texts) {
      const bytes = encoder.encode(text);
      for (const size of [65536, 5000, 777]) {
        const chunks: Uint8Array[] = [];
        for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
        assert.deepEqual(run(validator, chunks, true), run(validator, chunks, false), `${text.length} in ${size}`);
      }
    }
  } finally {
    memberValues.worthIt = 0;
  }
});

test('a large document judged apart in 64 KiB chunks reports what the plain evaluator does', () => {
  memberValues.worthIt = threshold;
  try {
    const schema = {
      type: 'object',
      additionalProperties: {type: 'object', required: ['v'], properties: {v: {type: 'integer'}, tags: {type: 'array', items: {type: 'string'}}}},
    };
    const validator = compile(schema);
    const members = Array.from({length: 20_000}, (_, index) => `"k${index}": {"v": ${index}, "tags": ["a", "b"]}`);
    const good = encoder.encode(`{${members.join(', ')}}`);
    members[15_000] = `"k15000": {"v": 1.5, "tags": ["a"]}`;
    const bad = encoder.encode(`{${members.join(', ')}}`);
    members[15_000] = `"k15000": {"v": 1, "tags": ["a", 2]}`;
    const badItem = encoder.encode(`{${members.join(', ')}}`);
    for (const bytes of [good, bad, badItem]) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += 65536) chunks.push(bytes.subarray(at, at + 65536));
      assert.deepEqual(run(validator, chunks, true), run(validator, chunks, false));
    }
    assert.equal((run(validator, [good], true) as {valid: boolean}).valid, true);
    assert.equal((run(validator, [bad], true) as {valid: boolean}).valid, false);
  } finally {
    memberValues.worthIt = 0;
  }
});

test('property: on mutated texts in random chunks, values read ahead change nothing a session reports', () => {
  // Members and items the checker may read ahead, nested, beside values only `true` applies to.
  const validator = compile({
    type: 'object',
    properties: {a: {type: 'object', properties: {b: {type: 'integer'}, c: {items: {type: 'string'}}}}, d: true},
    additionalProperties: {items: {type: 'object', additionalProperties: {type: ['string', 'number', 'array', 'object', 'boolean', 'null']}}},
  }, {limits: {maxDepth: 6, maxStringLength: 40, maxNumberLength: 12}});
  const alphabet = ['"', '\\', 'u', '0', '9', 'e', '-', '.', ',', ':', '[', ']', '{', '}', ' ', '\n', '\u0000', 't', 'n', 'x', '\ud800', '"a"', '"b":', '"a":{"b":1}'];
  const mutation = fc.tuple(fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom('insert', 'replace', 'delete'));
  const documentOf = fc.record({a: fc.record({b: fc.integer(), c: fc.array(fc.string(), {maxLength: 3})}, {requiredKeys: []}), d: fc.jsonValue({maxDepth: 3}), e: fc.array(fc.dictionary(fc.string({maxLength: 4}), fc.jsonValue({maxDepth: 2}), {maxKeys: 3}), {maxLength: 3})}, {requiredKeys: []});
  fc.assert(
    fc.property(documentOf, fc.array(mutation, {maxLength: 2}), fc.boolean(), fc.integer({min: 1, max: 64}), fc.nat(), (document, mutations, indented, size, seed) => {
      let text = JSON.stringify(document, null, indented ? 1 : undefined);
      for (const [at, piece, kind] of mutations) {
        const i = at % (text.length + 1);
        text = kind === 'insert' ? text.slice(0, i) + piece + text.slice(i) : kind === 'replace' ? text.slice(0, i) + piece + text.slice(i + 1) : text.slice(0, i) + text.slice(i + 1);
      }
      const bytes = encoder.encode(text);
      for (const chunks of [[bytes], randomChunks(bytes, random(seed), size)]) {
        assert.deepEqual(run(validator, chunks, true), run(validator, chunks, false), text);
      }
    }),
    property(1500),
  );
});
