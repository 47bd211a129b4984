// A session's text goes to the checker first and to the evaluator only when the checker does not
// pass it (src/session/document.ts, beginText): the session must answer as the evaluator alone
// would, with the same verdict and errors, and say no at the same write, never later. Compared here
// with a session of the evaluator alone, over the suite's documents fed one character at a time
// and cut at every point, and over generated schemas, documents and cuts.

import assert from 'node:assert/strict';
import fc from 'fast-check';
import {test} from 'node:test';
import {compile} from '../src/index.js';
import type {CompileOptions, Result, Session, Validator} from '../src/types.js';
import {chunk, chunkingArbitrary, documentArbitrary, familyCases, schemaCases} from './support/arbitraries.js';
import {evaluatorSession} from './support/evaluatorSession.js';
import {property} from './support/property.js';
import {drafts, remotes, suiteFiles, suiteFormats, suiteSkips} from './support/suite.js';

interface Run {
  result: Result;
  /** The index of the first write that said false (-1: none), and `failed` after each write. */
  refusedAt: number;
  failed: boolean[];
  /** After each write, and after the end. */
  bytesRead: number[];
}

function run(session: Session, pieces: readonly (string | Uint8Array)[]): Run {
  let refusedAt = -1;
  const failed: boolean[] = [];
  const bytesRead: number[] = [];
  pieces.forEach((piece, index) => {
    if (!session.write(piece) && refusedAt === -1) refusedAt = index;
    failed.push(session.failed);
    bytesRead.push(session.bytesRead);
  });
  const result = session.end();
  bytesRead.push(session.bytesRead);
  return {result, refusedAt, failed, bytesRead};
}

function compare(validator: Validator, pieces: readonly (string | Uint8Array)[], name: string): void {
  const reference = run(evaluatorSession(validator), pieces);
  const checked = run(validator.session(), pieces);
  assert.deepEqual(checked, reference, name);
}

/** The session's own (checker first) against the evaluator's, on one text cut into these pieces. */
function cutsOf(text: string): string[][] {
  const cuts: string[][] = [[...text]];
  for (let at = 1; at < text.length; at++) cuts.push([text.slice(0, at), text.slice(at)]);
  return cuts;
}

test('the suite, one character at a time and cut in two at every point: as the evaluator alone answers', () => {
  const schemas = remotes();
  let compared = 0;
  for (const draft of drafts) {
    for (const optional of [false, true]) {
      for (const file of suiteFiles(draft, optional)) {
        if (suiteSkips.has(`${draft}/${file.name}`)) continue;
        for (const suiteCase of file.cases) {
          const options: CompileOptions = {draft, schemas, ...suiteFormats(optional)};
          let validator: Validator;
          try {
            validator = compile(suiteCase.schema, options);
          } catch {
            continue;
          }
          for (const suiteTest of suiteCase.tests) {
            const text = JSON.stringify(suiteTest.data);
            const name = `${draft}/${file.name}/${suiteCase.description}/${suiteTest.description}`;
            for (const pieces of cutsOf(text)) compare(validator, pieces, `${name}: ${JSON.stringify(pieces)}`);
            compared++;
          }
        }
      }
    }
  }
  assert.ok(compared > 6000, `only ${compared} documents compared`);
});

test('generated schemas, documents and cuts: as the evaluator alone answers', () => {
  const cases = familyCases(schemaCases()).chain(({schemaCase, family}) =>
    fc.tuple(fc.constant(schemaCase), fc.array(fc.tuple(documentArbitrary(schemaCase, family), chunkingArbitrary), {minLength: 1, maxLength: 6})),
  );
  fc.assert(
    fc.property(cases, ([{schema, options}, documents]) => {
      const validator = compile(schema, options);
      for (const [document, chunking] of documents) compare(validator, chunk(document.bytes, chunking), `${JSON.stringify(schema)} ${JSON.stringify(chunking)}`);
    }),
    property(400),
  );
});

test('a long document: the checker hands over past what it reads ahead, and the answers stay the same', () => {
  const validator = compile({type: 'array', items: {type: 'object', properties: {n: {type: 'integer'}}, additionalProperties: false}, maxItems: 5000});
  const items = Array.from({length: 3000}, (_, i) => `{"n":${i}}`);
  const valid = `[${items.join(',')}]`;
  const invalid = `[${items.slice(0, 2500).join(',')},{"n":1.5},${items.slice(2500).join(',')}]`;
  const late = `[${items.slice(0, 2900).join(',')},{"m":1}]`;
  for (const text of [valid, invalid, late]) {
    for (const size of [7, 1000, 4096, 20000]) {
      const pieces: string[] = [];
      for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
      compare(validator, pieces, `${text.length} characters in pieces of ${size}`);
    }
  }
});

// Found on the first version: the evaluator's start made a new decoder, and the bytes of a
// character cut by the write before the hand-over were lost.
test('a long document in bytes, a character cut where the evaluator takes over: its bytes are kept', () => {
  const validator = compile({type: 'array', items: {type: 'string', maxLength: 40}});
  const text = JSON.stringify(Array.from({length: 2000}, (_, i) => `é€${i}`));
  const bytes = new TextEncoder().encode(text);
  for (const size of [999, 1000, 1001, 4097]) {
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
    compare(validator, pieces, `${bytes.length} bytes in pieces of ${size}`);
  }
});

// Found by an outside attack on the first version, each a session answering later than the
// evaluator alone, or differently (the writes are the attack's).
const attackCases: [string, unknown, (string | Uint8Array)[], CompileOptions?][] = [
  ['a character cut where the checker gives up mid-document', {anyOf: [{properties: {a: false}}, {type: 'object'}], properties: {b: {const: 'é'}}}, [Uint8Array.from(Buffer.from('{"a":1,"b":"\xc3', 'latin1')), Uint8Array.from([0xa9, 0x22, 0x7d])]],
  ['bytesRead after the checker passed the document', {type: 'array'}, ['[1,2]']],
  ['the dead branch of `if: false`', {items: {type: 'number'}, if: false, then: {items: {const: 'user'}}}, ['["', 'b"]']],
  ['the dead branch of `if: true`', {items: {type: 'number'}, if: true, else: {items: {const: 'user'}}}, ['["', 'b"]']],
  ['`contains: true` counts an object or array item as it starts', {contains: true, maxContains: 0}, ['[', '[', ']']],
  ['`contains: {}` with maxContains 2', {contains: {}, maxContains: 2}, [...'[{},{},{}]']],
  ['a failed branch no longer bounds a string', {anyOf: [{type: 'string', unevaluatedProperties: {maxLength: 1}}, {}], properties: {c: {type: 'object'}}}, ['{"c":"', 'ab"}']],
  ['unevaluatedItems where only a `contains` under `not` could evaluate', {unevaluatedItems: {type: 'number'}, not: {contains: {type: 'string'}}}, ['["', 'ab"]']],
  ['unevaluatedProperties of a string member nothing evaluates', {unevaluatedProperties: {type: 'number'}, not: {properties: {a: true}}}, ['{"a":"', 'b"}']],
  ['an object member nothing evaluates, of the wrong kind for unevaluatedProperties', {unevaluatedProperties: {type: 'string'}, anyOf: [{properties: {c: true}, type: 'object'}]}, [...'{"a":{"a":"x"},"b":"ab"}']],
  ['an array item nothing evaluates, failing unevaluatedItems inside it', {unevaluatedItems: {items: false}, not: {contains: true}}, [...'[1,[1,2]]']],
  ['a `true` tally counts a string item at its opening quote, under `oneOf`', {items: {maxLength: 1}, oneOf: [{contains: {}, minContains: 0, maxContains: 0}]}, [...'["a","a"]']],
  ['a `$dynamicRef` applied to an item', {$dynamicAnchor: 'n', contains: {type: 'string'}, maxContains: 0, not: {items: {$dynamicRef: '#n'}}}, ['[1,"']],
];

// Found by a second outside attack: a string item or value cut by a write, judged later than the
// evaluator judges it. The last item's flags counted for this one, or a subschema the evaluator no
// longer applies set how long the string must grow before it is judged.
const stringBoundCases: [string, unknown, (string | Uint8Array)[], CompileOptions?][] = [
  ['the last item failed `contains`: not this one', {contains: {minLength: 1}, maxContains: 0}, ['["","', 'a', '"]']],
  ['the last item failed `unevaluatedItems`: not this one', {anyOf: [{prefixItems: [true]}], unevaluatedItems: {maxLength: 1}}, ['["abc","', 'abcdef', '"]']],
  ['a `contains` of a branch that failed at a key', {anyOf: [{additionalProperties: {items: {type: 'number'}}}, {propertyNames: false, additionalProperties: {contains: {pattern: 'a'}}}]}, ['{"a":["', 'x"]}']],
  ['a `contains` of a branch that failed at an earlier item', {anyOf: [{items: {items: {type: 'number'}}}, {prefixItems: [{type: 'object'}], items: {contains: {pattern: 'a'}}}]}, ['[[1],["', 'x"]]']],
  ['the `pattern` of the `then` of a failed `if`', {if: {prefixItems: [{type: 'string'}]}, then: {items: {pattern: 'x'}}, items: {type: 'number'}}, ['[1,"', 'zz"]']],
  ['the `maxLength` of the `then` of a failed `if`', {if: {prefixItems: [{type: 'string'}]}, then: {items: {maxLength: 5}}, items: {type: 'number'}}, ['[1,"', 'zz"]']],
  ['the `then` of a failed `if` on an object', {if: {propertyNames: {const: 'a'}}, then: {additionalProperties: {pattern: 'x'}}, additionalProperties: {type: 'number'}}, ['{"b":"', 'zzz"}']],
  ['`dependentSchemas` on an array', {dependentSchemas: {z: {items: {pattern: 'x'}}}, items: {type: 'number'}}, ['["', 'zz"]']],
  ['`dependentSchemas` with a length on an array', {dependentSchemas: {z: {items: {maxLength: 5}}}, items: {type: 'number'}}, ['["', 'zz"]']],
  ['draft-07 `dependencies` on an array', {dependencies: {z: {items: {pattern: 'x'}}}, items: {type: 'number'}}, ['["', 'zz"]'], {draft: 'draft7'}],
];

// The checker looks for what the evaluator would refuse as each piece ends (StreamChecker.pieceEnded):
// what a member or item that ended earlier in the piece left must still tell.
const pieceEndCases: [string, unknown, (string | Uint8Array)[], CompileOptions?][] = [
  ['a member nothing evaluates failed `unevaluatedProperties`, and another key came in the same piece', {unevaluatedProperties: {type: 'number'}, not: {properties: {a: true}}}, ['{"a":"b","c":1', '}']],
  ['an item nothing evaluates failed `unevaluatedItems`, and another item came in the same piece', {unevaluatedItems: {type: 'number'}, not: {contains: {type: 'string'}}}, ['["a",1', ']']],
  ['an ended item took a `contains` past its most, and another item came in the same piece', {contains: {type: 'string'}, maxContains: 1}, ['["a","b",1', ']']],
  ['a branch failed in a member that ended, the piece ending in the next', {anyOf: [{properties: {a: {type: 'number'}}}, {properties: {a: {type: 'null'}}}]}, ['{"a":"x","b":{', '}}']],
];

for (const [name, schema, writes, options] of [...attackCases, ...stringBoundCases, ...pieceEndCases]) {
  test(`attack: ${name}`, () => {
    compare(compile(schema, options), writes, name);
  });
}

test('maxApplications: a session the checker passes is not refused by it, as validateText is not', () => {
  // The one difference from the evaluator alone (docs/decisions.md, "A session reads with the checker first").
  const validator = compile({items: {allOf: [{type: 'number'}, {type: 'number'}, {type: 'number'}]}}, {limits: {maxApplications: 1}});
  const text = JSON.stringify(Array(100).fill(1));
  const session = validator.session();
  session.write(text);
  assert.deepEqual(session.end(), validator.validateText(text));
  assert.equal(validator.validateText(text).valid, true);
  const alone = evaluatorSession(validator);
  alone.write(text);
  assert.equal(alone.end().errors[0]?.params?.code, 'limit.applications');
});
