// src/keywords/oneOf.ts: exactly one subschema must pass. A second passing branch fails the keyword
// at once; no passing branch fails it when the last branch settles.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, run, schemaError, summary, valid} from './check.js';

describe('oneOf', () => {
  const schema = {oneOf: [{type: 'integer'}, {minimum: 10}]};

  test('exactly one branch must pass', () => {
    valid(schema, 3);
    valid(schema, 10.5);
    invalid(schema, 12);
    invalid(schema, 2.5);
    valid({oneOf: [true, false]}, 1);
    invalid({oneOf: [true, true]}, 1);
  });

  test('two passing branches: one error naming them (ajv\'s passingSchemas)', () => {
    assert.deepEqual(summary(onlyError(schema, 12)), {
      keyword: 'oneOf',
      keywordLocation: '/oneOf',
      instanceLocation: '',
      params: {passingSchemas: [0, 1]},
      error: 'must match exactly one schema in oneOf',
    });
  });

  test('no passing branch: every branch error, then oneOf with passingSchemas null', () => {
    const outcome = run({oneOf: [{type: 'string'}, {type: 'integer'}]}, 'null');
    assert.deepEqual(outcome.errors.map(summary), [
      {keyword: 'type', keywordLocation: '/oneOf/0/type', instanceLocation: '', params: {type: 'string'}, error: 'must be string'},
      {keyword: 'type', keywordLocation: '/oneOf/1/type', instanceLocation: '', params: {type: 'integer'}, error: 'must be integer'},
      {keyword: 'oneOf', keywordLocation: '/oneOf', instanceLocation: '', params: {passingSchemas: null}, error: 'must match exactly one schema in oneOf'},
    ]);
  });

  test('streaming: the second passing branch fails the keyword when it passes', () => {
    const text = '{"a": 1, "b": 2, "c": 3}';
    // Both branches can only pass at the close.
    assert.equal(refusalByte({oneOf: [{properties: {a: {type: 'integer'}}}, {properties: {b: {type: 'integer'}}}]}, text), text.length - 1);
    // Both branches fail on "b", a string, at its opening quote: no branch left.
    const none = '{"b": "x", "c": [1, 2]}';
    assert.equal(refusalByte({oneOf: [{properties: {b: {type: 'integer'}}}, {properties: {b: {type: 'boolean'}}}]}, none), none.indexOf('"x"'));
  });

  test('the passing branch contributes annotations', () => {
    const closed = {oneOf: [{properties: {a: true}, required: ['a']}, {properties: {b: true}, required: ['b']}], unevaluatedProperties: false};
    valid(closed, {a: 1});
    invalid(closed, {a: 1, c: 1});
  });

  test('compile: a non-empty array of schemas', () => {
    assert.equal(schemaError({oneOf: []}).schemaLocation, '/oneOf');
    assert.equal(schemaError({oneOf: [1]}).schemaLocation, '/oneOf/0');
  });

  test('allErrors: too many passing branches is reported once', () => {
    const outcome = run({oneOf: [true, true, true]}, '1', {allErrors: true});
    assert.equal(outcome.errors.length, 1);
  });
});
