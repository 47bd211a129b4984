// src/keywords/itemCount.ts: maxItems fails at the item that is one too many; minItems at the close.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, run, schemaError, summary, valid} from './check.js';

describe('minItems / maxItems', () => {
  test('bounds are inclusive', () => {
    valid({minItems: 1, maxItems: 2}, [1]);
    valid({minItems: 1, maxItems: 2}, [1, 2]);
    invalid({minItems: 1}, []);
    invalid({maxItems: 2}, [1, 2, 3]);
    valid({maxItems: 0}, []);
    invalid({maxItems: 0}, [null]);
    valid({minItems: 0}, []);
  });

  test('nested arrays count as one item each', () => {
    valid({maxItems: 1}, [[1, 2, 3]]);
    invalid({minItems: 2}, [[1, 2, 3]]);
  });

  test('non-arrays are not judged', () => {
    for (const value of [{a: 1, b: 2, c: 3}, 'abc', 3, null]) valid({maxItems: 1, minItems: 2}, value);
  });

  test('the errors give the limit', () => {
    assert.deepEqual(summary(onlyError({maxItems: 1}, [1, 2])), {keyword: 'maxItems', keywordLocation: '/maxItems', instanceLocation: '', params: {limit: 1}, error: 'must NOT have more than 1 items'});
    assert.deepEqual(summary(onlyError({properties: {a: {minItems: 3}}}, {a: [1]})), {
      keyword: 'minItems',
      keywordLocation: '/properties/a/minItems',
      instanceLocation: '/a',
      params: {limit: 3},
      error: 'must NOT have fewer than 3 items',
    });
  });

  test('streaming: maxItems at the offending item, minItems at the close', () => {
    const strings = '["a", "b", "c", "d"]';
    // A string item is announced at its opening quote.
    assert.equal(refusalByte({maxItems: 2}, strings), strings.indexOf('"c"'));
    const containers = '[[1], {"b": 2}, [3]]';
    assert.equal(refusalByte({maxItems: 1}, containers), containers.indexOf('{'));
    const numbers = '[10, 20, 30]';
    assert.equal(refusalByte({maxItems: 1}, numbers), numbers.indexOf(', 30'));
    const short = '[1, 2]';
    assert.equal(refusalByte({minItems: 3}, short), short.length - 1);
  });

  test('compile: non-negative integers', () => {
    assert.equal(schemaError({maxItems: -1}).schemaLocation, '/maxItems');
    assert.equal(schemaError({minItems: 0.5}).schemaLocation, '/minItems');
    assert.equal(schemaError({minItems: '1'}).code, 'schema.keyword.invalid');
    valid({maxItems: 2.0}, [1, 2]);
  });

  test('allErrors: minItems is reported once', () => {
    assert.equal(run({minItems: 3}, '[]', {allErrors: true}).errors.length, 1);
  });

  test('allErrors: maxItems is reported once, not once per extra item', () => {
    const outcome = run({maxItems: 1}, '[1, 2, 3, 4]', {allErrors: true});
    assert.deepEqual(outcome.errors.map((unit) => unit.keyword), ['maxItems']);
  });
});
