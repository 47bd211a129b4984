// src/keywords/allOf.ts: every subschema applies at this location; the first to fail fails the
// keyword, at once, with that subschema's errors.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('allOf', () => {
  test('every subschema must pass', () => {
    const schema = {allOf: [{type: 'integer'}, {minimum: 2}, {maximum: 4}]};
    valid(schema, 3);
    invalid(schema, 1);
    invalid(schema, 5);
    invalid(schema, 3.5);
    valid({allOf: [true, {}]}, null);
    invalid({allOf: [true, false]}, null);
  });

  test('the error is the failing subschema error, through its index', () => {
    assert.deepEqual(summary(onlyError({allOf: [{type: 'object'}, {required: ['a']}]}, {b: 1})), {
      keyword: 'required',
      keywordLocation: '/allOf/1/required',
      instanceLocation: '',
      params: {missingProperty: 'a'},
      error: 'must have required property "a"',
    });
  });

  test('streaming: fails as soon as one subschema fails', () => {
    const wrongKind = '[1, 2]';
    assert.equal(refusalByte({allOf: [{type: 'object'}, {required: ['a']}]}, wrongKind), 0);
    const member = '{"a": 1, "b": 2, "c": 3}';
    assert.equal(refusalByte({allOf: [{required: ['z']}, {properties: {a: {type: 'string'}}}]}, member), member.indexOf(', "b"'));
  });

  test('annotations of its subschemas reach unevaluatedProperties', () => {
    valid({allOf: [{properties: {a: true}}, {properties: {b: true}}], unevaluatedProperties: false}, {a: 1, b: 2});
  });

  test('compile: a non-empty array of schemas', () => {
    assert.equal(schemaError({allOf: []}).schemaLocation, '/allOf');
    assert.equal(schemaError({allOf: {}}).schemaLocation, '/allOf');
    assert.equal(schemaError({allOf: [{}, 1]}).schemaLocation, '/allOf/1');
  });
});
