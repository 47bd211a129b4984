// `errorMessage` under `errorMessages: true` (src/keywords/errorMessage.ts), against ajv-errors on
// ajv with allErrors, the setting ajv-errors requires: the same verdict, and the same messages
// where the forms overlap.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import Ajv from 'ajv';
import ajvErrors from 'ajv-errors';
import {compile} from '../../src/index.js';
import {memberValues} from '../../src/session/memberSink.js';
import type {OutputUnit, Result, Validator} from '../../src/types.js';
import {byteChunks, feed} from '../support/chunks.js';
import {schemaError} from './check.js';

const encoder = new TextEncoder();

/** Errors without stream positions, the originals in `params.errors` too. */
function positionless(errors: readonly OutputUnit[]): OutputUnit[] {
  return errors.map(({offset: _offset, line: _line, column: _column, ...unit}) =>
    Array.isArray(unit.params?.errors) ? {...unit, params: {...unit.params, errors: positionless(unit.params.errors as OutputUnit[])}} : unit,
  );
}

/** Value mode, validateText, parseText and a session fed byte by byte agree; their verdict. */
function everyMode(validator: Validator, value: unknown): Result {
  const text = JSON.stringify(value);
  const whole = validator.validateText(text);
  const others: Result[] = [validator.validate(value), validator.parseText(text), feed(validator, byteChunks(encoder.encode(text)))];
  // A session whose member values are judged apart replays the failing ones into the evaluator.
  const threshold = memberValues.worthIt;
  memberValues.worthIt = 0;
  try {
    const {refusedAt: _refusedAt, ...apart} = feed(validator, [encoder.encode(text)]);
    others.push(apart);
  } finally {
    memberValues.worthIt = threshold;
  }
  for (const other of others) {
    assert.equal(other.valid, whole.valid, text);
    assert.deepEqual(positionless(other.errors), positionless(whole.errors), text);
  }
  return whole;
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: {errors?: AjvError[]};
}

const object = {
  type: 'object',
  required: ['foo', 'bar'],
  properties: {foo: {type: 'integer', minimum: 2}, bar: {type: 'string', minLength: 2}},
  additionalProperties: false,
};

/** Schemas in the forms both support, and documents that pass and fail them in several ways. */
const cases: {name: string; schema: object; documents: unknown[]}[] = [
  {
    name: 'a string replaces every error of the schema object and below',
    schema: {...object, errorMessage: 'should be an object with an integer foo >= 2 and a string bar'},
    documents: [{foo: 2, bar: 'ab'}, {foo: 'a', bar: 2, baz: 1}, {}, [], 'x', {foo: 1, bar: 'ab'}],
  },
  {
    name: 'messages by keyword take the errors of those keywords of this schema object only',
    schema: {...object, errorMessage: {type: 'should be an object', required: 'should have foo and bar', additionalProperties: 'no other properties'}},
    documents: [{foo: 2, bar: 'ab'}, {foo: 'a', baz: 1}, {}, 3, {foo: 1, bar: 'a', x: 1, y: 2}],
  },
  {
    name: 'messages by required property',
    schema: {...object, errorMessage: {required: {foo: 'foo is missing', bar: 'bar is missing'}}},
    documents: [{}, {foo: 2}, {bar: 'ab'}, {foo: 2, bar: 'ab'}, {foo: 'x'}],
  },
  {
    name: 'messages by property take every error at or below the member',
    schema: {
      type: 'object',
      allOf: [{properties: {foo: {type: 'integer', minimum: 2}, bar: {type: 'string', minLength: 2}}}],
      properties: {deep: {properties: {inner: {type: 'string'}}}},
      errorMessage: {properties: {foo: 'foo should be an integer >= 2', bar: 'bar should be a string of 2 or more', deep: 'deep is wrong'}},
    },
    documents: [{foo: 1, bar: 'a'}, {foo: 'x'}, {deep: {inner: 1}}, {foo: 3, bar: 'abc', deep: {inner: 'x'}}, {foo: 1.5}],
  },
  {
    name: 'messages by item',
    schema: {type: 'array', items: {type: 'integer'}, minItems: 1, errorMessage: {items: ['first should be an integer', 'second should be an integer'], minItems: 'not empty'}},
    documents: [[], [1, 2], ['a', 'b', 'c'], [1, 'b'], [1, 2, 'c']],
  },
  {
    name: '`_` takes what the other messages leave',
    schema: {...object, errorMessage: {type: 'should be an object', properties: {foo: 'bad foo'}, _: 'should have a string bar and nothing else'}},
    documents: [{}, {foo: 1}, {foo: 1, bar: 2, extra: true}, null, {foo: 3, bar: 'ok'}],
  },
  {
    name: "an inner errorMessage's error is not taken again by an outer one",
    schema: {type: 'object', properties: {foo: {type: 'integer', errorMessage: 'foo must be an integer'}, bar: {type: 'string'}}, errorMessage: 'the object is wrong'},
    documents: [{foo: 'x'}, {foo: 'x', bar: 1}, {bar: 1}, {foo: 1, bar: 'b'}],
  },
  {
    name: 'in branches: the message of a branch that fails',
    schema: {anyOf: [{type: 'string', errorMessage: 'not a string'}, {type: 'object', required: ['a'], errorMessage: {required: 'needs a'}}]},
    documents: ['x', {a: 1}, {}, 3],
  },
  {
    name: 'messages by dependency property (draft 7 dependencies)',
    schema: {type: 'object', dependencies: {a: ['b', 'c'], d: ['e']}, errorMessage: {dependencies: {a: 'a needs b and c', d: 'd needs e'}}},
    documents: [{a: 1}, {a: 1, b: 1, c: 1}, {d: 1}, {a: 1, d: 1, b: 1}],
  },
];

/** What an error says where the two libraries name things alike. */
function said(errors: readonly (OutputUnit | AjvError)[]): string[] {
  return errors
    .map((error) => {
      const nested = (error.params?.errors as (OutputUnit | AjvError)[] | undefined)?.map((inner) => inner.keyword).sort() ?? [];
      if (error.keyword !== 'errorMessage') return `${error.keyword}`;
      const at = 'instancePath' in error ? error.instancePath : error.instanceLocation;
      const message = 'message' in error ? error.message : (error as OutputUnit).error;
      return `errorMessage ${at} "${message}" [${nested.join(',')}]`;
    })
    .sort();
}

describe('errorMessage', () => {
  const ajv = new Ajv.default({allErrors: true, strict: false});
  ajvErrors.default(ajv);
  for (const {name, schema, documents} of cases) {
    test(`as ajv-errors: ${name}`, () => {
      const theirs = ajv.compile(schema);
      const ours = compile(schema, {draft: 'draft7', allErrors: true, errorMessages: true});
      for (const document of documents) {
        const expected = theirs(document);
        // Every mode agrees (value mode, validateText, a session fed byte by byte).
        const outcome = everyMode(ours, document);
        assert.equal(outcome.valid, expected, JSON.stringify(document));
        assert.deepEqual(said(outcome.errors), said((theirs.errors ?? []) as AjvError[]), JSON.stringify(document));
      }
    });
  }

  test('in the first-error mode every mode restates alike, member values judged apart included', () => {
    for (const {schema, documents} of cases) {
      const validator = compile({type: 'object', properties: {wrapped: schema, list: {items: schema}}}, {draft: 'draft7', errorMessages: true});
      for (const document of documents) everyMode(validator, {wrapped: document, list: [document, document]});
    }
  });

  test('the string form: one error of keyword errorMessage at the schema object, with the originals in params.errors', () => {
    const validator = compile({properties: {n: {type: 'integer', minimum: 1, errorMessage: 'n must be a positive integer'}}}, {errorMessages: true, allErrors: true});
    const [error] = validator.validateText('{"n":-1.5}').errors;
    assert.equal(error.keyword, 'errorMessage');
    assert.equal(error.keywordLocation, '/properties/n/errorMessage');
    assert.equal(error.absoluteKeywordLocation, 'stream-schema:///root.json#/properties/n/errorMessage');
    assert.equal(error.instanceLocation, '/n');
    assert.equal(error.error, 'n must be a positive integer');
    assert.deepEqual((error.params?.errors as OutputUnit[]).map((unit) => unit.keyword), ['type', 'minimum']);
    assert.equal(error.offset, '{"n":'.length + 3);
    // The first-error mode restates its one error.
    assert.deepEqual((compile({minimum: 1, errorMessage: 'positive'}, {errorMessages: true}).validate(0).errors[0].params?.errors as OutputUnit[]).length, 1);
  });

  test('without errorMessages: true, errorMessage is an unknown keyword that changes nothing', () => {
    const validator = compile({type: 'integer', errorMessage: 'an integer, please'});
    assert.equal(validator.validate('x').errors[0].keyword, 'type');
    assert.deepEqual(validator.warnings.map((warning) => warning.keyword), ['errorMessage']);
    assert.deepEqual(compile({type: 'integer', errorMessage: 'x'}, {errorMessages: true}).warnings, []);
  });

  test('input errors and limits are never restated', () => {
    const validator = compile({errorMessage: 'wrong'}, {errorMessages: true});
    const result = validator.validateText('{"a":');
    assert.equal(result.errors[0].kind, 'syntax');
  });

  test('templates, which would quote the value, and values of the wrong shape are SchemaErrors', () => {
    assert.match(schemaError({errorMessage: 'value ${/x} is wrong'}, {errorMessages: true}).message, /templates/);
    assert.equal(schemaError({errorMessage: 3}, {errorMessages: true}).schemaLocation, '/errorMessage');
    assert.equal(schemaError({errorMessage: {required: 3}}, {errorMessages: true}).schemaLocation, '/errorMessage/required');
    assert.equal(schemaError({errorMessage: {properties: {a: 1}}}, {errorMessages: true}).schemaLocation, '/errorMessage/properties/a');
    assert.equal(schemaError({errorMessage: {items: 'x'}}, {errorMessages: true}).schemaLocation, '/errorMessage/items');
    assert.equal(schemaError({}, {errorMessages: 'yes' as never}).code, 'schema.option.errorMessages');
  });
});
