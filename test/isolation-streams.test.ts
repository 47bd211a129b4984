// Isolation in the streaming front doors that keep a validator for many documents: text-stream's
// validators (one per schema object, from a cache) and stream-json's tokenValidator (one compiled
// validator, a fresh evaluation per document). Documents written alternately, and ones that broke
// off (deltas of a cut-off document, tokens of an unfinished one, a repeated key), must not change
// what the others are told: every outcome equals that of a validator that never saw the others.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import fc from 'fast-check';
import {textStreamValidator} from '../adapters/text-stream.js';
import {compile, tokenValidator, type StreamJsonToken} from '../src/index.js';
import type {Result, SchemaOrValidator, Validator} from '../src/types.js';
import {chunk, chunkingArbitrary, copySchema, Document, documentArbitrary, familyCases, positionArbitrary, treeArbitrary, type Chunking, type JsonTree, type SchemaCase} from './support/arbitraries.js';
import {defaultLimits} from '../src/json/limits.js';
import {property} from './support/property.js';

/** What one document's writer sees: each write's answer, then the verdict (none when it was abandoned). */
interface Outcome {
  writes: boolean[];
  result?: Result;
}

/** Something written piece by piece, then ended (or abandoned). */
interface Writer<Piece> {
  write(piece: Piece): boolean;
  end(): Result;
}

/**
 * Writes each document's pieces to its own writer, alternately as `interleaving` says; a document
 * with `abandon` set is never ended. Returns each document's outcome.
 */
function writeAlternately<Piece>(writers: Writer<Piece>[], pieces: Piece[][], abandon: boolean[], interleaving: number[]): Outcome[] {
  const outcomes: Outcome[] = writers.map(() => ({writes: []}));
  const written = writers.map(() => 0);
  for (let turn = 0; ; turn++) {
    const open = writers.map((_, index) => index).filter((index) => written[index]! < pieces[index]!.length + (abandon[index] ? 0 : 1));
    if (open.length === 0) return outcomes;
    const index = open[interleaving[turn % interleaving.length]! % open.length]!;
    const at = written[index]++;
    if (at < pieces[index]!.length) outcomes[index]!.writes.push(writers[index]!.write(pieces[index]![at]!));
    else outcomes[index]!.result = writers[index]!.end();
  }
}

/** Text-stream documents written alternately, each against what a validator of a copy of the schema tells it alone. */
interface TextStreamScenario {
  schemaCase: SchemaCase;
  /** The document, how it is cut, whether it is abandoned, whether its value is parsed. */
  documents: [Document, Chunking, boolean, boolean][];
  interleaving: number[];
}

function textStreamAlternately({schemaCase, documents, interleaving}: TextStreamScenario): void {
  const pieces = documents.map(([document, chunking]) => chunk(document.bytes, chunking));
  const abandon = documents.map(([, , abandoned]) => abandoned);
  const writer = (schema: SchemaOrValidator, parse: boolean): Writer<string | Uint8Array> => textStreamValidator(schema, {...schemaCase.options, parse});
  const outcomes = writeAlternately(documents.map(([, , , parse]) => writer(schemaCase.schema, parse)), pieces, abandon, interleaving);
  documents.forEach(([document, , abandoned, parse], index) => {
    const [alone] = writeAlternately([writer(copySchema(schemaCase.schema), parse)], [pieces[index]!], [abandoned], [0]);
    assert.deepStrictEqual(outcomes[index], alone, `document ${index}: ${document[fc.toStringMethod]()}`);
  });
}

describe('text-stream: validators of one schema object, written alternately', () => {
  test('each document gets what a validator of its own gets, after cut-off and malformed ones', () => {
    const scenarios = familyCases().chain(({schemaCase, family}) =>
      fc.record({schemaCase: fc.constant(schemaCase), documents: fc.array(fc.tuple(documentArbitrary(schemaCase, family), chunkingArbitrary, fc.boolean(), fc.boolean()), {minLength: 2, maxLength: 6}), interleaving: fc.array(fc.nat(), {minLength: 1, maxLength: 20})}),
    );
    fc.assert(fc.property(scenarios, textStreamAlternately), property(40));
  });

  test('a const object with a null prototype: the copy the oracle compiles keeps it (a fuzz finding)', () => {
    // structuredClone made the copy's literal an ordinary object, which the error's params showed.
    const whole: Chunking = {cuts: [], every: 0, afterHighBytes: false, singleBytes: false, strings: false};
    const json = new Document('json', new TextEncoder().encode('{"a":0}'));
    textStreamAlternately({
      schemaCase: {schema: {properties: {a: {const: Object.create(null) as object}}}, options: {allErrors: true}, limits: defaultLimits},
      documents: [[json, whole, false, false], [json, whole, false, false]],
      interleaving: [0],
    });
  });
});

// ---------------------------------------------------------------------------------------------
// stream-json tokens

/** The tokens a stream-json parser gives for `tree`: packed values, or streamed ones in pieces. */
function tokensOf(tree: JsonTree, streamed: boolean): StreamJsonToken[] {
  const tokens: StreamJsonToken[] = [];
  const text = (start: string, chunkName: string, end: string, packed: string, value: string): void => {
    if (!streamed) return void tokens.push({name: packed, value});
    const half = value.length >> 1;
    tokens.push({name: start}, ...[value.slice(0, half), value.slice(half)].filter((piece) => piece !== '').map((piece) => ({name: chunkName, value: piece})), {name: end});
  };
  const visit = (node: JsonTree): void => {
    if ('items' in node) {
      tokens.push({name: 'startArray'});
      node.items.forEach(visit);
      tokens.push({name: 'endArray'});
    } else if ('members' in node) {
      tokens.push({name: 'startObject'});
      for (const [key, value] of node.members) {
        text('startKey', 'stringChunk', 'endKey', 'keyValue', key);
        visit(value);
      }
      tokens.push({name: 'endObject'});
    } else {
      const value: unknown = JSON.parse(node.scalar);
      if (typeof value === 'string') text('startString', 'stringChunk', 'endString', 'stringValue', value);
      else if (typeof value === 'number') text('startNumber', 'numberChunk', 'endNumber', 'numberValue', node.scalar);
      else tokens.push({name: value === null ? 'nullValue' : value ? 'trueValue' : 'falseValue'});
    }
  };
  visit(tree);
  return tokens;
}

/** Tokens as a document may end: all of them, cut after any token (the stream ended early), or with a key repeated. */
function tokenDocumentArbitrary(schemaCase: SchemaCase, family: readonly JsonTree[]): fc.Arbitrary<{tokens: StreamJsonToken[]; shown: string}> {
  return fc.tuple(treeArbitrary(schemaCase.schema, family), fc.boolean(), fc.constantFrom('whole', 'cut', 'repeated key'), positionArbitrary).map(([tree, streamed, how, at]) => {
    const tokens = tokensOf(tree, streamed);
    if (how === 'cut') return {tokens: tokens.slice(0, at % tokens.length), shown: `cut after ${at % tokens.length} tokens of ${JSON.stringify(tokens)}`};
    const opening = tokens.findIndex((token) => token.name === 'startObject');
    if (how === 'repeated key' && opening >= 0 && tokens[opening + 1]?.name !== 'endObject') {
      // The object's first key once more, before the rest of its members: keyValue (or its pieces), then null.
      const keyEnd = tokens.findIndex((token, index) => index > opening && (token.name === 'keyValue' || token.name === 'endKey'));
      const repeated = [...tokens.slice(opening + 1, keyEnd + 1), {name: 'nullValue'}];
      const withRepeat = [...tokens.slice(0, opening + 1), ...repeated, ...tokens.slice(opening + 1)];
      return {tokens: withRepeat, shown: JSON.stringify(withRepeat)};
    }
    return {tokens, shown: JSON.stringify(tokens)};
  });
}

describe('stream-json: tokenValidator documents of one compiled validator', () => {
  test('each document gets what a validator of its own gets, after unfinished ones and repeated keys, written alternately', () => {
    const scenarios = familyCases().chain(({schemaCase, family}) =>
      fc.record({schemaCase: fc.constant(schemaCase), documents: fc.array(fc.tuple(tokenDocumentArbitrary(schemaCase, family), fc.boolean()), {minLength: 2, maxLength: 6}), interleaving: fc.array(fc.nat(), {minLength: 1, maxLength: 20})}),
    );
    fc.assert(
      fc.property(scenarios, ({schemaCase, documents, interleaving}) => {
        const shared = compile(schemaCase.schema, schemaCase.options);
        const writer = (validator: Validator): Writer<StreamJsonToken> => {
          const document = tokenValidator(validator);
          return {write: (token) => document.push(token), end: () => document.end()};
        };
        const pieces = documents.map(([{tokens}]) => tokens);
        const abandon = documents.map(([, abandoned]) => abandoned);
        const outcomes = writeAlternately(documents.map(() => writer(shared)), pieces, abandon, interleaving);
        documents.forEach(([{shown}, abandoned], index) => {
          const [alone] = writeAlternately([writer(compile(schemaCase.schema, schemaCase.options))], [pieces[index]!], [abandoned], [0]);
          assert.deepStrictEqual(outcomes[index], alone, `document ${index}: ${shown}`);
        });
      }),
      property(40),
    );
  });
});
