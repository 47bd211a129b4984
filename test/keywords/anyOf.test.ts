// src/keywords/anyOf.ts: at least one subschema must pass. Branches run side by side; the keyword
// fails when the last of them has failed, reporting every branch's errors.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, refusalByte, schemaError, summary, valid, run} from './check.js';

describe('anyOf', () => {
  test('one passing branch is enough', () => {
    const schema = {anyOf: [{type: 'string'}, {type: 'integer', minimum: 10}]};
    valid(schema, 'x');
    valid(schema, 12);
    invalid(schema, 5);
    invalid(schema, null);
    valid({anyOf: [false, true]}, 1);
    invalid({anyOf: [false]}, 1);
  });

  test('the errors: every branch, then anyOf itself', () => {
    const outcome = run({anyOf: [{type: 'string'}, {type: 'integer'}]}, '1.5');
    assert.equal(outcome.valid, false);
    assert.deepEqual(outcome.errors.map(summary), [
      {keyword: 'type', keywordLocation: '/anyOf/0/type', instanceLocation: '', params: {type: 'string'}, error: 'must be string'},
      {keyword: 'type', keywordLocation: '/anyOf/1/type', instanceLocation: '', params: {type: 'integer'}, error: 'must be integer'},
      {keyword: 'anyOf', keywordLocation: '/anyOf', instanceLocation: '', params: {passingSchemas: null}, error: 'must match a schema in anyOf'},
    ]);
  });

  test('streaming: fails when the last branch fails, not before', () => {
    const schema = {anyOf: [{required: ['a']}, {maxProperties: 1}]};
    // maxProperties fails at "c"; required can only fail at the close.
    const text = '{"b": 1, "c": 2, "d": 3}';
    assert.equal(refusalByte(schema, text), text.length - 1);
    const both = '{"a": 1, "b": {"x": 1}}';
    const early = {anyOf: [{properties: {a: {type: 'string'}}}, {properties: {a: {type: 'boolean'}}}]};
    assert.equal(refusalByte(early, both), both.indexOf(', "b"'));
  });

  test('every passing branch contributes annotations', () => {
    const schema = {anyOf: [{properties: {a: true}}, {properties: {b: true}}, {properties: {c: {type: 'string'}}}], unevaluatedProperties: false};
    valid(schema, {a: 1, b: 2});
    valid(schema, {c: 'x', a: 1});
    invalid(schema, {c: 1, a: 1});
  });

  test('compile: a non-empty array of schemas', () => {
    assert.equal(schemaError({anyOf: []}).schemaLocation, '/anyOf');
    assert.equal(schemaError({anyOf: [{}, 'x']}).schemaLocation, '/anyOf/1');
    assert.equal(schemaError({anyOf: [{minimum: 'x'}]}).schemaLocation, '/anyOf/0/minimum');
  });
});
