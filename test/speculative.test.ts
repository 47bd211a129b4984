// What a speculative run finds counts only if the run comes to count, limits included: a
// `then`/`else` branch once `if` settles, a `dependentSchemas` entry once its trigger arrives.
// Schemas whose subschemas apply themselves at the same instance location (a cycle that never
// descends, limit.recursion), reached through conditionals taken and not taken, get the same
// verdict and errors in value mode, validateText, parseText and sessions in any chunking; and a
// branch that never applies never decides the document (docs/keywords.md, "Cycles").

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import fc from 'fast-check';
import {compile} from '../src/index.js';
import type {Result, Validator} from '../src/types.js';
import {byteChunks, feed, random, randomChunks} from './support/chunks.js';
import {property} from './support/property.js';

type Json = null | boolean | number | string | Json[] | {[key: string]: Json};

const encoder = new TextEncoder();

/** A subschema that applies itself at the same location: any document it is applied to loops. */
const loop = {allOf: [{$ref: '#/$defs/loop'}]};
const loopRef = {$ref: '#/$defs/loop'};
/** No generated document has a property `zz`: this condition fails on every one of them. */
const never = {type: 'object', required: ['zz']};
const always = {not: never};

/** What every mode must agree on: the verdict and each error's kind, code and locations. */
function summary(result: Result): string {
  return JSON.stringify({valid: result.valid, errors: result.errors.map((unit) => [unit.kind, unit.params?.code, unit.keywordLocation, unit.instanceLocation])});
}

/** The results of every mode on `text`, by mode; the text modes' errors keep their positions. */
function everyMode(validator: Validator, text: string, seed: number): Map<string, Result> {
  const next = random(seed);
  const bytes = encoder.encode(text);
  const {value: _parsed, ...parsed} = validator.parseText(text);
  const {refusedAt: _at, ...randomly} = feed(validator, randomChunks(bytes, next, 1 + Math.floor(next() * 9)));
  const {refusedAt: _one, ...byByte} = feed(validator, byteChunks(bytes));
  const {refusedAt: _seven, ...bySeven} = feed(validator, [...text.matchAll(/[^]{1,7}/g)].map(([piece]) => piece));
  return new Map<string, Result>([
    ['validate', validator.validate(JSON.parse(text))],
    ['validateText', validator.validateText(text)],
    ['validateText of bytes', validator.validateText(bytes)],
    ['parseText', parsed],
    ['session, random chunks', randomly],
    ['session, 1-byte chunks', byByte],
    ['session, 7-character chunks', bySeven],
  ]);
}

/** Every mode gives value mode's verdict and errors; the text modes give validateText's positions too. */
function assertModesAgree(validator: Validator, text: string, seed: number, where: string): Result {
  const results = everyMode(validator, text, seed);
  const byValue = results.get('validate')!;
  const byText = results.get('validateText')!;
  for (const [mode, result] of results) {
    assert.equal(summary(result), summary(byValue), `${mode} against value mode, ${where}`);
    if (mode !== 'validate') assert.deepEqual(result, byText, `${mode} against validateText, ${where}`);
  }
  return byValue;
}

const codes = (result: Result): unknown[] => result.errors.map((unit) => unit.params?.code ?? unit.keyword);

// ---- generated schemas and documents ----

const names = ['a', 'b', 'kind'] as const;
const definitions = ['d0', 'd1', 'd2'] as const;

const leaf: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(true, false, {}),
  fc.constantFrom('object', 'array', 'string', 'number', 'null').map((type) => ({type})),
  fc.subarray([...names], {minLength: 1}).map((required) => ({required})),
  fc.constantFrom<Json>('win', 'x', 1).map((value) => ({const: value})),
  fc.integer({min: 0, max: 2}).map((count) => ({minProperties: count})),
);
const reference: fc.Arbitrary<Json> = fc.constantFrom(...definitions).map((name) => ({$ref: `#/$defs/${name}`}));

const {schema} = fc.letrec<{schema: Json; inPlace: Json; member: Json}>((tie) => ({
  schema: fc.oneof({depthSize: 'small', maxDepth: 4}, leaf, reference, tie('inPlace'), tie('member')),
  // Applicators at the same location: where a reference can come back to its own definition.
  inPlace: fc.oneof(
    fc.array(tie('schema'), {minLength: 1, maxLength: 3}).map((branches) => ({allOf: branches})),
    fc.array(tie('schema'), {minLength: 1, maxLength: 3}).map((branches) => ({anyOf: branches})),
    fc.array(tie('schema'), {minLength: 1, maxLength: 3}).map((branches) => ({oneOf: branches})),
    tie('schema').map((negated) => ({not: negated})),
    fc.record({if: tie('schema'), then: tie('schema'), else: tie('schema')}, {requiredKeys: ['if']}),
    fc.dictionary(fc.constantFrom(...names), tie('schema'), {minKeys: 1, maxKeys: 2}).map((entries) => ({dependentSchemas: entries})),
  ),
  // Applicators to members: recursion there descends into the document, and ends.
  member: fc.oneof(
    fc.dictionary(fc.constantFrom(...names), tie('schema'), {minKeys: 1, maxKeys: 2}).map((properties) => ({properties})),
    tie('schema').map((items) => ({items})),
    tie('schema').map((additional) => ({additionalProperties: additional})),
  ),
}));

/** A definition that applies itself in place only under a conditional, as the catalog's did. */
const selfUnderConditional: fc.Arbitrary<(name: string) => Json> = fc.constantFrom(
  (name: string) => ({if: {properties: {kind: {const: 'win'}}}, then: {$ref: `#/$defs/${name}`}}),
  (name: string) => ({if: {required: ['a']}, else: {allOf: [{$ref: `#/$defs/${name}`}]}}),
  (name: string) => ({dependentSchemas: {b: {$ref: `#/$defs/${name}`}}}),
  (name: string) => ({type: 'object', if: {properties: {kind: {const: 'win'}}}, then: {$ref: `#/$defs/${name}`}, else: {$ref: `#/$defs/${name}`}}),
);

const generatedSchema: fc.Arbitrary<{[key: string]: Json}> = fc
  .record({d0: schema, d1: schema, d2: selfUnderConditional, root: schema})
  .map(({d0, d1, d2, root}) => ({$schema: 'https://json-schema.org/draft/2020-12/schema', $defs: {d0, d1, d2: d2('d2')}, allOf: [root]}));

const {document} = fc.letrec<{document: Json}>((tie) => ({
  document: fc.oneof(
    {depthSize: 'small', maxDepth: 3},
    fc.constantFrom<Json>('win', 'x', 1, 2.5, null, true),
    fc.array(tie('document'), {maxLength: 3}),
    fc.dictionary(fc.constantFrom(...names), tie('document'), {maxKeys: 3}),
  ),
}));

describe('speculative runs and limit.recursion', () => {
  it('the issue\'s schema: an if that fails never applies the looping then, in any mode', () => {
    const validator = compile({
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: {loop: {type: 'object', allOf: [{$ref: '#/definitions/loop'}]}},
      properties: {type: {type: 'string'}, properties: {type: 'object'}},
      allOf: [{if: {properties: {type: {const: 'win'}}}, then: {properties: {properties: {$ref: '#/definitions/loop'}}}}],
    });
    for (const text of ['{"properties":{"a":1},"type":"linux"}', '{"type":"linux","properties":{"a":1}}']) {
      assert.equal(assertModesAgree(validator, text, 1, text).valid, true, text);
    }
    for (const text of ['{"properties":{"a":1},"type":"win"}', '{"type":"win","properties":{"a":1}}']) {
      const result = assertModesAgree(validator, text, 1, text);
      assert.deepEqual(codes(result), ['limit.recursion'], text);
      assert.equal(result.errors[0]!.instanceLocation, '/properties');
      assert.equal(result.errors[0]!.absoluteKeywordLocation, 'stream-schema:///root.json#/definitions/loop');
    }
  });

  it('a branch that applies and loops is limit.recursion, whatever its keyword makes of a failure', () => {
    const cases: [string, Json][] = [
      ['not', {not: loopRef}],
      ['an anyOf with a passing branch', {anyOf: [true, loopRef]}],
      ['an anyOf whose passing branch comes first and settles late', {anyOf: [{type: ['object', 'number', 'string']}, loopRef]}],
      ['a oneOf', {oneOf: [{type: 'string'}, loopRef]}],
      ['if', {if: loopRef, then: true}],
      ['a then taken', {if: always, then: loopRef}],
      ['an else taken', {if: never, else: loopRef}],
    ];
    for (const [name, applied] of cases) {
      for (const allErrors of [false, true]) {
        const validator = compile({$defs: {loop}, ...(applied as object)}, {allErrors});
        for (const text of ['1', '"s"', '{"a":{}}', '[1]']) {
          const result = assertModesAgree(validator, text, 2, `${name}, ${text}`);
          assert.equal(result.valid, false, `${name}, ${text}`);
          assert.ok(codes(result).includes('limit.recursion'), `${name}, ${text}: ${JSON.stringify(codes(result))}`);
        }
      }
    }
  });

  it('a dependentSchemas entry loops only once its trigger arrives, before or after the other keys', () => {
    const validator = compile({$defs: {loop}, dependentSchemas: {a: loopRef}, properties: {b: {type: 'string'}}});
    for (const text of ['{"b":"x"}', '{}', '[]', '1']) assert.equal(assertModesAgree(validator, text, 3, text).valid, true, text);
    for (const text of ['{"a":1}', '{"b":"x","a":1}', '{"a":1,"b":"x"}']) assert.deepEqual(codes(assertModesAgree(validator, text, 3, text)), ['limit.recursion'], text);
  });

  it('draft 7 dependencies: the same', () => {
    const validator = compile({$schema: 'http://json-schema.org/draft-07/schema#', definitions: {loop: {allOf: [{$ref: '#/definitions/loop'}]}}, dependencies: {a: {$ref: '#/definitions/loop'}}});
    assert.equal(assertModesAgree(validator, '{"b":1}', 4, 'no trigger').valid, true);
    assert.deepEqual(codes(assertModesAgree(validator, '{"b":1,"a":2}', 4, 'trigger last')), ['limit.recursion']);
  });

  it('an unevaluatedProperties candidate that loops counts only for a property nobody else evaluated', () => {
    const validator = compile({$defs: {loop}, anyOf: [{properties: {a: true}}, true], unevaluatedProperties: loopRef});
    assert.equal(assertModesAgree(validator, '{"a":{}}', 5, 'evaluated').valid, true);
    assert.deepEqual(codes(assertModesAgree(validator, '{"a":{},"b":{}}', 5, 'unevaluated')), ['limit.recursion']);
  });

  it('a cycle whose nodes each branch twice is found at once, not after exponentially many runs', () => {
    const twoWays = {$defs: {node: {if: {required: ['a']}, then: {$ref: '#/$defs/node'}, else: {$ref: '#/$defs/node'}}}, $ref: '#/$defs/node'};
    const validator = compile(twoWays);
    for (const text of ['{}', '1', '[[]]']) assert.deepEqual(codes(assertModesAgree(validator, text, 6, text)), ['limit.recursion'], text);
  });

  it('generated schemas with self-references under conditionals: every mode agrees, with allErrors too', () => {
    fc.assert(
      fc.property(generatedSchema, fc.array(document, {minLength: 1, maxLength: 4}), fc.nat(), (generated, documents, seed) => {
        const validator = compile(generated);
        const everyError = compile(generated, {allErrors: true});
        for (const value of documents) {
          const text = JSON.stringify(value);
          const where = `${JSON.stringify(generated)} on ${text}`;
          const result = assertModesAgree(validator, text, seed, where);
          const withEveryError = assertModesAgree(everyError, text, seed, `allErrors, ${where}`);
          // Runs go on after a failure with allErrors, so it may reach a cycle the first-error
          // mode never starts; a verdict can change only that way.
          if (withEveryError.valid !== result.valid) {
            assert.ok(result.valid && codes(withEveryError).includes('limit.recursion'), `allErrors, ${where}`);
          }
        }
      }),
      property(120),
    );
  });

  it('a looping branch that never applies leaves every verdict and error as it was; one that applies is limit.recursion', () => {
    const notTaken: Json[] = [
      {if: never, then: loopRef},
      {if: always, else: loopRef},
      {dependentSchemas: {zz: loopRef}},
      {properties: {a: {if: never, then: loopRef}}, items: {if: always, then: true, else: loopRef}},
    ];
    const taken: Json[] = [{if: always, then: loopRef}, {if: never, then: true, else: loopRef}];
    fc.assert(
      fc.property(generatedSchema, document, fc.constantFrom(...notTaken), fc.constantFrom(...taken), (generated, value, dormant, active) => {
        const $defs = {...(generated.$defs as object), loop};
        const text = JSON.stringify(value);
        const alone = compile({...generated, $defs});
        const where = (branch: Json): string => `${JSON.stringify(generated)} with ${JSON.stringify(branch)} on ${text}`;
        const expected = alone.validate(value);
        const withDormant = compile({...generated, $defs, allOf: [...(generated.allOf as Json[]), dormant]});
        for (const [mode, result] of everyMode(withDormant, text, 7)) assert.equal(summary(result), summary(expected), `${mode}, ${where(dormant)}`);
        const withActive = compile({...generated, $defs, allOf: [...(generated.allOf as Json[]), active]});
        const result = assertModesAgree(withActive, text, 7, where(active));
        assert.equal(result.valid, false, where(active));
        if (expected.valid) assert.deepEqual(codes(result), ['limit.recursion'], where(active));
      }),
      property(120),
    );
  });
});
