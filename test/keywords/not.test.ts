// src/keywords/not.ts: the subschema must fail; its annotations never count.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('not', () => {
  test('inverts the subschema', () => {
    valid({not: {type: 'string'}}, 1);
    invalid({not: {type: 'string'}}, 'x');
    valid({not: false}, null);
    invalid({not: true}, null);
    invalid({not: {}}, {a: 1});
    valid({not: {not: {type: 'string'}}}, 'x');
    invalid({not: {not: {type: 'string'}}}, 1);
  });

  test('the error is not\'s own; the inner errors are not reported', () => {
    assert.deepEqual(summary(onlyError({properties: {a: {not: {minimum: 0}}}}, {a: 5})), {
      keyword: 'not',
      keywordLocation: '/properties/a/not',
      instanceLocation: '/a',
      // An object even where there is nothing to say, as ajv's `params` is.
      params: {},
      error: 'must NOT be valid',
    });
  });

  test('annotations inside not never count', () => {
    invalid({not: {not: {properties: {a: true}}}, unevaluatedProperties: false}, {a: 1});
  });

  test('streaming: decided when the subschema settles', () => {
    const text = '{"a": 1, "b": 2}';
    assert.equal(refusalByte({not: {required: ['a']}}, text), text.length - 1);
    // The subschema fails early (wrong kind): not passes; nothing refuses.
    assert.equal(refusalByte({not: {type: 'array'}}, text), -1);
    // A passing subschema settles only when its value is complete, so not fails at the close.
    const array = '[1, 2, 3]';
    assert.equal(refusalByte({not: {type: 'array'}}, array), array.length - 1);
  });

  test('compile: a schema', () => {
    assert.equal(schemaError({not: []}).schemaLocation, '/not');
  });
});
