// src/keywords/propertyCount.ts: maxProperties fails at the key that is one too many;
// minProperties at the close.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, run, schemaError, summary, valid} from './check.js';

describe('minProperties / maxProperties', () => {
  test('bounds are inclusive', () => {
    valid({minProperties: 1, maxProperties: 2}, {a: 1});
    valid({minProperties: 1, maxProperties: 2}, {a: 1, b: 2});
    invalid({minProperties: 1}, {});
    invalid({maxProperties: 2}, {a: 1, b: 2, c: 3});
    valid({maxProperties: 0}, {});
    invalid({maxProperties: 0}, {a: null});
  });

  test('nested members do not count; non-objects are not judged', () => {
    valid({maxProperties: 1}, {a: {b: 1, c: 2, d: 3}});
    for (const value of [[1, 2, 3], 'abc', 1, null]) valid({maxProperties: 0, minProperties: 5}, value);
  });

  test('value mode: a property whose value is undefined is not there (as in JSON.stringify)', () => {
    valid({maxProperties: 1}, {a: 1, b: undefined});
    invalid({minProperties: 2}, {a: 1, b: undefined});
  });

  test('the errors give the limit', () => {
    assert.deepEqual(summary(onlyError({maxProperties: 1}, {a: 1, b: 2})), {keyword: 'maxProperties', keywordLocation: '/maxProperties', instanceLocation: '', params: {limit: 1}, error: 'must NOT have more than 1 properties'});
    assert.deepEqual(summary(onlyError({items: {minProperties: 2}}, [{a: 1, b: 2}, {a: 1}])), {
      keyword: 'minProperties',
      keywordLocation: '/items/minProperties',
      instanceLocation: '/1',
      params: {limit: 2},
      error: 'must NOT have fewer than 2 properties',
    });
  });

  test('streaming: maxProperties at the extra key, minProperties at the close', () => {
    const text = '{"a": 1, "b": 2, "c": 3, "d": 4}';
    assert.equal(refusalByte({maxProperties: 2}, text), text.indexOf('c"') + 1);
    const few = '{"a": {"x": 1, "y": 2}}';
    assert.equal(refusalByte({minProperties: 2}, few), few.length - 1);
  });

  test('compile: non-negative integers', () => {
    assert.equal(schemaError({maxProperties: -1}).schemaLocation, '/maxProperties');
    assert.equal(schemaError({minProperties: 1.5}).schemaLocation, '/minProperties');
    assert.equal(schemaError({minProperties: null}).code, 'schema.keyword.invalid');
  });

  test('allErrors: maxProperties is reported once, not once per extra key', () => {
    const outcome = run({maxProperties: 1}, '{"a": 1, "b": 2, "c": 3, "d": 4}', {allErrors: true});
    assert.deepEqual(outcome.errors.map((unit) => unit.keyword), ['maxProperties']);
  });
});
