// Custom keywords (CompileOptions.keywords, src/keywords/custom.ts): judged on the whole value at
// their location in every mode and door, with errors shaped as a built-in keyword's, and in
// streaming only the value under the keyword assembled.

import assert from 'node:assert/strict';
import {Readable, Writable} from 'node:stream';
import {pipeline} from 'node:stream/promises';
import {describe, test} from 'node:test';
import Ajv from 'ajv';
import fc from 'fast-check';
import {jsonValidator, ndjsonValidator} from '../../adapters/stream.js';
import {SchemaError, compile} from '../../src/index.js';
import {compileSchema} from '../../src/compile/compile.js';
import {FAIL, PASS, TextChecker, UNSURE} from '../../src/engine/checker.js';
import {defaultLimits} from '../../src/json/limits.js';
import {memberValues} from '../../src/session/memberSink.js';
import type {CompileOptions, CustomKeyword, OutputUnit, Result, Validator} from '../../src/types.js';
import {byteChunks, feed, random, randomChunks} from '../support/chunks.js';
import {property} from '../support/property.js';
import {invalid, run, schemaError, summary, valid} from './check.js';

const encoder = new TextEncoder();

/** An array or object of even length; a number that is even. */
const even: CustomKeyword = {
  keyword: 'even',
  type: ['number', 'array', 'object'],
  validate: (_schemaValue: boolean, data: number | object) => (typeof data === 'number' ? data % 2 === 0 : (Array.isArray(data) ? data.length : Object.keys(data).length) % 2 === 0),
};

/** The array has at least `schemaValue` items: minItems written as a custom keyword. */
const atLeast: CustomKeyword = {keyword: 'atLeast', type: 'array', validate: (min: number, data: unknown[]) => data.length >= min};

const keywords = [even, atLeast];

/** `text` fed to a session in two chunks, split at every byte; each verdict and its errors. */
function everySplit(validator: Validator, text: string): Result[] {
  const bytes = encoder.encode(text);
  const results: Result[] = [];
  for (let at = 0; at <= bytes.length; at++) {
    const {refusedAt: _refusedAt, ...result} = feed(validator, [bytes.subarray(0, at), bytes.subarray(at)]);
    results.push(result);
  }
  return results;
}

/** Every mode and every split point agree with validateText, members judged apart or not. */
function agreeEverywhere(validator: Validator, text: string): Result {
  const whole = validator.validateText(text);
  run(validator, text);
  const parsed = validator.parseText(text);
  assert.equal(parsed.valid, whole.valid, `parseText on ${text}`);
  assert.deepEqual(parsed.errors, whole.errors, `parseText's errors on ${text}`);
  const threshold = memberValues.worthIt;
  try {
    for (const worthIt of [threshold, 0]) {
      memberValues.worthIt = worthIt;
      for (const split of everySplit(validator, text)) assert.deepEqual(split, whole, `a split session (worthIt ${worthIt}) on ${text}`);
    }
  } finally {
    memberValues.worthIt = threshold;
  }
  return whole;
}

describe('custom keywords', () => {
  test('a custom keyword judges the whole value at its location, in every mode and at every split point', () => {
    const schema = {type: 'object', properties: {a: {even: true}, list: {type: 'array', items: {even: true}}}};
    for (const allErrors of [false, true]) {
      const validator = compile(schema, {keywords, allErrors});
      const cases: [string, boolean][] = [
        ['{"a":2}', true],
        ['{"a":3}', false],
        ['{"a":[1,2]}', true],
        ['{"a":[1,[2,{"x":3}],3]}', false],
        ['{"a":{"x":[1],"y":{}}}', true],
        ['{"a":{"x":[1]}}', false],
        ['{"a":"odd strings are not its type"}', true],
        ['{"list":[[],[1,2],{"p":1,"q":2},4],"a":[]}', true],
        ['{"list":[[],[1,2],{"p":1},4]}', false],
        ['{"list":[[],[1,2],{"p":[1,2,3],"q":2},3]}', false],
      ];
      for (const [text, verdict] of cases) assert.equal(agreeEverywhere(validator, text).valid, verdict, `${text} (allErrors: ${allErrors})`);
    }
  });

  test("a custom keyword's error has the shape and position of a built-in keyword's at the same place", () => {
    const text = '{"a":[1,2]}';
    const custom = compile({properties: {a: {atLeast: 3}}}, {keywords}).validateText(text).errors;
    const builtIn = compile({properties: {a: {minItems: 3}}}).validateText(text).errors;
    assert.equal(custom.length, 1);
    const rename = ({keyword: _k, keywordLocation, absoluteKeywordLocation, error: _e, params: _p, ...rest}: OutputUnit) => ({
      ...rest,
      keywordLocation: keywordLocation.replace('/minItems', '/atLeast'),
      absoluteKeywordLocation: absoluteKeywordLocation?.replace('/minItems', '/atLeast'),
    });
    assert.deepEqual(rename(custom[0]), rename(builtIn[0]));
    assert.deepEqual(summary(custom[0]), {
      keyword: 'atLeast',
      keywordLocation: '/properties/a/atLeast',
      instanceLocation: '/a',
      params: {keyword: 'atLeast'},
      error: 'must pass "atLeast" keyword validation',
    });
    // At the closing bracket, where the array's length became certain.
    assert.equal(custom[0].offset, text.indexOf(']'));
  });

  test('scalars are judged too, only those of its type; `integer` means whole numbers', () => {
    const whole: CustomKeyword = {keyword: 'small', type: 'integer', validate: (max: number, data: number) => data <= max};
    const options = {keywords: [whole]};
    valid({small: 10}, 5, options);
    valid({small: 10}, 10.5, options);
    valid({small: 10}, 'eleven', options);
    assert.equal(invalid({small: 10}, 11, options).errors[0].keyword, 'small');
    valid({small: 10}, 10.0, options);
    assert.equal(invalid({items: {small: 1}}, [1, 1.5, 2], options).errors[0].instanceLocation, '/2');
  });

  test('the message is the definition\'s string, or its function of the schema value and the data', () => {
    const fixed: CustomKeyword = {...atLeast, message: 'too short'};
    assert.equal(invalid({atLeast: 2}, [1], {keywords: [fixed]}).errors[0].error, 'too short');
    const computed: CustomKeyword = {...atLeast, message: (min: number, data: unknown[]) => `${data.length} items, ${min} wanted`};
    assert.equal(invalid({atLeast: 2}, [1], {keywords: [computed]}).errors[0].error, '1 items, 2 wanted');
    const broken: CustomKeyword = {...atLeast, message: () => { throw new Error('no'); }};
    assert.equal(invalid({atLeast: 2}, [1], {keywords: [broken]}).errors[0].error, 'must pass "atLeast" keyword validation');
  });

  test('a validate that throws, or answers anything but true, fails the value: never a pass', () => {
    const throws: CustomKeyword = {keyword: 'boom', validate: () => { throw new Error('kaput'); }};
    for (const data of [1, 'x', [1], {a: 1}, null]) {
      const [error] = invalid({boom: true}, data, {keywords: [throws]}).errors;
      assert.deepEqual(summary(error), {keyword: 'boom', keywordLocation: '/boom', instanceLocation: '', params: {keyword: 'boom', error: 'kaput'}, error: '"boom" keyword validation threw: kaput'});
    }
    const truthy: CustomKeyword = {keyword: 'truthy', validate: () => 1 as unknown as boolean};
    invalid({truthy: true}, {a: 1}, {keywords: [truthy]});
    invalid({truthy: true}, 1, {keywords: [truthy]});
  });

  test('validate gets the schema value and a copy of the data, which it cannot change for the caller', () => {
    const seen: unknown[] = [];
    const mutates: CustomKeyword = {keyword: 'mutates', validate: (schemaValue, data: Record<string, unknown>) => { seen.push(schemaValue); data.changed = true; return true; }};
    const value = {a: {b: 1}};
    const validator = compile({properties: {a: {mutates: {any: 'value'}}}}, {keywords: [mutates]});
    assert.equal(validator.validate(value).valid, true);
    assert.deepEqual(value, {a: {b: 1}});
    assert.deepEqual(seen, [{any: 'value'}]);
  });

  test('in streaming only the value under the keyword is assembled: a huge sibling is not, nor anything once judged', () => {
    const given: unknown[] = [];
    const spy: CustomKeyword = {keyword: 'spy', validate: (_schemaValue, data) => (given.push(data), true)};
    const big = Array.from({length: 100_000}, (_, index) => index);
    const text = JSON.stringify({before: big, a: [1, {b: 2}], after: {nested: big}});
    // Four values under `a`: a bound of 4 holds it, and would refuse either sibling at once.
    const validator = compile({properties: {a: {spy: true}}}, {keywords: [spy], limits: {maxAssembledValues: 4}});
    for (const result of [validator.validateText(text), validator.validate(JSON.parse(text)), feed(validator, randomChunks(encoder.encode(text), random(7), 4096))]) {
      assert.equal(result.valid, true, JSON.stringify(result.errors));
    }
    assert.deepEqual(given, [[1, {b: 2}], [1, {b: 2}], [1, {b: 2}]]);
    // One value more than the bound is refused as input past a limit, where it arrived.
    const [error] = compile({properties: {a: {spy: true}}}, {keywords: [spy], limits: {maxAssembledValues: 3}}).validateText(text).errors;
    assert.equal(error.kind, 'limit');
    assert.equal(error.params?.code, 'limit.assembled');
    assert.equal(error.instanceLocation, '/a');
  });

  test('a value whose keyword has settled is no longer assembled', () => {
    // The first branch fails at the second item; without the `spy` keyword's run, the rest of the
    // array must not be assembled (a bound of 4 values would refuse it).
    const spy: CustomKeyword = {keyword: 'spy', validate: () => true};
    const validator = compile({anyOf: [{maxItems: 1, spy: true}, {type: 'array'}]}, {keywords: [spy], limits: {maxAssembledValues: 4}});
    const text = JSON.stringify(Array.from({length: 100}, (_, index) => index));
    assert.equal(agreeEverywhere(validator, text).valid, true);
  });

  test('values under the keyword at several depths at once are each assembled whole, also through references and property names', () => {
    const given: unknown[] = [];
    const spy: CustomKeyword = {keyword: 'spy', type: 'array', validate: (_schemaValue, data) => (given.push(data), true)};
    const validator = compile({$defs: {node: {spy: true, items: {$ref: '#/$defs/node'}}}, $ref: '#/$defs/node'}, {keywords: [spy]});
    assert.equal(validator.validateText('[[1,[2]],[]]').valid, true);
    assert.deepEqual(given, [[2], [1, [2]], [], [[1, [2]], []]]);
    const short: CustomKeyword = {keyword: 'short', type: 'string', validate: (max: number, data: string) => data.length <= max};
    const names = compile({propertyNames: {short: 2}}, {keywords: [short]});
    assert.equal(agreeEverywhere(names, '{"ab":1,"c":2}').valid, true);
    assert.equal(agreeEverywhere(names, '{"ab":1,"abc":2}').valid, false);
  });

  test('a document that breaks off inside an assembled value leaves nothing for the next one', () => {
    const given: unknown[] = [];
    const spy: CustomKeyword = {keyword: 'spy', validate: (_schemaValue, data) => (given.push(data), true)};
    const validator = compile({properties: {a: {spy: true}}}, {keywords: [spy]});
    for (const broken of ['{"a":[1,{"b":', '{"a":[1,2,]}', '{"a":{"x":1,"x":2}}']) assert.equal(validator.validateText(broken).valid, false);
    assert.deepEqual(given, []);
    assert.equal(validator.validateText('{"a":[3]}').valid, true);
    assert.deepEqual(given, [[3]]);
    // Value mode is bounded too.
    const bounded = compile({spy: true}, {keywords: [spy], limits: {maxAssembledValues: 2}});
    assert.equal(bounded.validate([1, 2, 3]).errors[0].params?.code, 'limit.assembled');
  });

  test('the text checker never passes a container a custom keyword rejects: it leaves it to the evaluator', () => {
    const validator = compile({items: {even: true}}, {keywords});
    // Large enough for a session to judge member values apart (memberValues.worthIt).
    const items = Array.from({length: 600}, () => [1, 2]);
    items.push([1]);
    const text = JSON.stringify(items);
    const result = agreeEverywhere(validator, text);
    assert.equal(result.valid, false);
    assert.equal(result.errors[0].instanceLocation, '/600');
  });

  test('the text checker decides scalars by the keyword, and leaves only the containers under it to the evaluator', () => {
    const checker = new TextChecker(compileSchema({properties: {a: {even: true}, b: {type: 'array'}}}, {keywords}).root, defaultLimits);
    assert.equal(checker.check('{"a":2,"b":[[1]]}'), PASS);
    assert.equal(checker.check('{"a":3,"b":[]}'), FAIL);
    assert.equal(checker.check('{"b":[],"a":[1,2]}'), UNSURE);
    assert.equal(checker.unsureOf, 'keyword');
    assert.equal(checker.usable, true);
    assert.equal(checker.checkValue({a: 4, b: [{}]}), PASS);
    assert.equal(checker.checkValue({a: {}}), UNSURE);
  });

  test('the NDJSON and stream doors judge by it too', async () => {
    const records: Result[] = [];
    const sink = new Writable({objectMode: true, write: (record: Result, _encoding, callback) => (records.push(record), callback())});
    await pipeline(Readable.from(['{"a":[1,2]}\n{"a":[1', ']}\n{"a":4}\n']), ndjsonValidator(compile({properties: {a: {even: true}}}, {keywords})), sink);
    assert.deepEqual(records.map((record) => record.valid), [true, false, true]);
    for (const [chunks, verdict] of [[['[1,', '2,3]'], false], [['{"p":', '1,"q":[2]}'], true]] as const) {
      const stream = jsonValidator(compile({even: true}, {keywords}));
      await pipeline(Readable.from(chunks), stream);
      assert.equal((await stream.result).valid, verdict);
    }
  });

  test('the value options apply first: the keyword judges the coerced value, with defaults filled in', () => {
    const options: CompileOptions = {keywords, coerceTypes: true, useDefaults: true};
    valid({properties: {n: {type: 'integer', even: true}}}, {n: '4'}, options);
    invalid({properties: {n: {type: 'integer', even: true}}}, {n: '3'}, options);
    valid({properties: {o: {even: true, properties: {x: {default: 1}}}}}, {o: {y: 2}}, options);
    invalid({properties: {o: {even: true, properties: {x: {default: 1}}}}}, {o: {}}, options);
  });

  test('registered custom keywords are no unknown keywords, even under strict', () => {
    assert.deepEqual(compile({even: true}, {keywords, strict: true}).warnings, []);
    assert.equal(compile({evn: true}, {keywords}).warnings[0]?.keyword, 'evn');
  });

  test('an invalid definition is a SchemaError schema.option.keywords that names the entry and why', () => {
    const refused = (keywordsOption: unknown, pattern: RegExp) => {
      const error = schemaError({}, {keywords: keywordsOption as CustomKeyword[]});
      assert.equal(error.code, 'schema.option.keywords');
      assert.match(error.message, pattern);
    };
    refused({even}, /must be an array/);
    refused([null], /options\.keywords\[0\] must be an object/);
    refused([{validate: () => true}], /options\.keywords\[0\]\.keyword must be a non-empty string/);
    refused([even, {...even}], /options\.keywords\[1\]: "even" is defined twice/);
    refused([{keyword: 'minimum', validate: () => true}], /"minimum" is a keyword of JSON Schema already/);
    refused([{keyword: 'dependencies', validate: () => true}], /"dependencies" is a keyword of JSON Schema already/);
    refused([{keyword: 'x', validate: true}], /"x"\): validate must be a function/);
    refused([{keyword: 'x', validate: () => true, type: 'int'}], /type "int" is not one of/);
    refused([{keyword: 'x', validate: () => true, type: 'constructor'}], /type "constructor" is not one of/);
    refused([{keyword: 'x', validate: () => true, type: []}], /at least one JSON type/);
    refused([{keyword: 'x', validate: () => true, message: 3}], /message must be a string or a function/);
    assert.throws(() => compile({}, {keywords: [{keyword: 'errorMessage', validate: () => true}], errorMessages: true}), SchemaError);
  });
});

// ---------------------------------------------------------------------------------------------
// ajv differential: the same keywords added to ajv with `validate`, the same documents.

type Json = null | boolean | number | string | Json[] | {[key: string]: Json};

/** Pure predicates, each defined once and handed to both validators. */
const differentialKeywords: CustomKeyword[] = [
  {keyword: 'sizeNotMultiple', validate: (modulus: number, data: Json) => JSON.stringify(data).length % modulus !== 0},
  {keyword: 'shallow', type: ['object', 'array'], validate: (max: number, data: Json) => depthOf(data) <= max},
  {keyword: 'hasVowel', type: 'string', validate: (_schemaValue: boolean, data: string) => /[aeiou]/.test(data)},
  {keyword: 'evenInteger', type: 'integer', validate: (_schemaValue: boolean, data: number) => data % 2 === 0},
];

function depthOf(value: Json): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

const schemaArbitrary: fc.Arbitrary<Record<string, unknown>> = fc.record({
  root: fc.record({sizeNotMultiple: fc.integer({min: 2, max: 7})}, {requiredKeys: []}),
  a: fc.record({shallow: fc.integer({min: 0, max: 3}), sizeNotMultiple: fc.integer({min: 2, max: 5})}, {requiredKeys: []}),
  items: fc.record({hasVowel: fc.constant(true), evenInteger: fc.constant(true), shallow: fc.integer({min: 0, max: 2})}, {requiredKeys: []}),
  rest: fc.record({evenInteger: fc.constant(true), hasVowel: fc.constant(true)}, {requiredKeys: []}),
}).map(({root, a, items, rest}) => ({...root, properties: {a, list: {items}}, additionalProperties: rest}));

const leaf = fc.oneof(fc.integer({min: -5, max: 9}), fc.double({min: -4, max: 4, noNaN: true, noDefaultInfinity: true}), fc.constantFrom('', 'x', 'ae', 'zz', 'hello'), fc.boolean(), fc.constant(null));
const valueArbitrary: fc.Arbitrary<Json> = fc.letrec<{value: Json}>((tie) => ({
  value: fc.oneof({depthSize: 'small', withCrossShrink: true}, leaf, fc.array(tie('value'), {maxLength: 4}), fc.dictionary(fc.constantFrom('p', 'q', 'r'), tie('value'), {maxKeys: 3})),
})).value;
const documentArbitrary = fc.oneof(
  fc.record({a: valueArbitrary, list: fc.array(valueArbitrary, {maxLength: 4}), b: valueArbitrary, c: valueArbitrary}, {requiredKeys: []}),
  valueArbitrary,
);

/** The custom keywords' errors as ajv names them: where, which keyword, what message. */
function customErrors(errors: readonly {instanceLocation?: string; instancePath?: string; keyword: string; error?: string; message?: string}[]): string[] {
  const names = new Set(differentialKeywords.map(({keyword}) => keyword));
  return errors
    .filter((error) => names.has(error.keyword))
    .map((error) => `${error.instanceLocation ?? error.instancePath} ${error.keyword} ${error.error ?? error.message}`)
    .sort();
}

test('custom keywords agree with ajv.addKeyword({validate}) on generated schemas and documents', () => {
  const ajv = new Ajv.default({allErrors: true, strict: false});
  for (const definition of differentialKeywords) ajv.addKeyword({keyword: definition.keyword, type: definition.type as never, validate: definition.validate, errors: false});
  const compiled = new Map<string, [Validator, (data: unknown) => boolean, Validator]>();
  fc.assert(
    fc.property(schemaArbitrary, documentArbitrary, fc.integer({min: 1, max: 64}), (schema, document, chunkSize) => {
      const key = JSON.stringify(schema);
      let entry = compiled.get(key);
      if (entry === undefined) compiled.set(key, (entry = [compile(schema, {keywords: differentialKeywords, allErrors: true}), ajv.compile(schema), compile(schema, {keywords: differentialKeywords})]));
      const [ours, theirs, firstError] = entry;
      const text = JSON.stringify(document);
      const expected = theirs(document);
      const expectedErrors = customErrors((theirs as unknown as {errors?: {instancePath: string; keyword: string; message: string}[]}).errors ?? []);
      for (const result of [ours.validate(JSON.parse(text)), ours.validateText(text), feed(ours, randomChunks(encoder.encode(text), random(chunkSize), chunkSize))]) {
        assert.equal(result.valid, expected, `${key} on ${text}`);
        assert.deepEqual(customErrors(result.errors), expectedErrors, `${key} on ${text}`);
      }
      assert.equal(firstError.validateText(text).valid, expected);
      assert.equal(feed(firstError, byteChunks(encoder.encode(text))).valid, expected);
    }),
    property(300),
  );
});
