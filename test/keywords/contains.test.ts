// src/keywords/contains.ts: `contains` with `minContains` / `maxContains` (2019-09 on). Too many
// matches fail at the extra match; too few only at the close. Matches are annotations in 2020-12.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, run, schemaError, summary, valid} from './check.js';

const strings = {type: 'string'};

describe('contains', () => {
  test('at least one item must match', () => {
    valid({contains: strings}, [1, 'a']);
    invalid({contains: strings}, [1, 2]);
    invalid({contains: strings}, []);
    valid({contains: strings}, {a: 1});
  });

  test('minContains / maxContains bound the number of matches (2019-09 and 2020-12)', () => {
    for (const draft of ['draft2019-09', 'draft2020-12'] as const) {
      valid({contains: strings, minContains: 2}, ['a', 1, 'b'], {draft});
      invalid({contains: strings, minContains: 2}, ['a', 1], {draft});
      valid({contains: strings, maxContains: 1}, ['a', 1, 2], {draft});
      invalid({contains: strings, maxContains: 1}, ['a', 'b'], {draft});
      valid({contains: strings, minContains: 0}, [], {draft});
      valid({contains: strings, minContains: 0, maxContains: 0}, [1], {draft});
      invalid({contains: strings, minContains: 0, maxContains: 0}, ['a'], {draft});
    }
  });

  test('before 2019-09, minContains / maxContains do not exist', () => {
    for (const draft of ['draft6', 'draft7'] as const) {
      valid({contains: strings, maxContains: 1}, ['a', 'b'], {draft});
      invalid({contains: strings, minContains: 0}, [], {draft});
    }
    valid({contains: false}, [], {draft: 'draft4'});
  });

  test('without contains, minContains / maxContains do nothing', () => {
    valid({minContains: 2}, []);
    valid({maxContains: 0}, [1, 2]);
  });

  test('the errors give the bound', () => {
    assert.deepEqual(summary(onlyError({contains: strings}, [1])), {
      keyword: 'contains',
      keywordLocation: '/contains',
      instanceLocation: '',
      params: {minContains: 1},
      error: 'must contain at least 1 valid item(s)',
    });
    assert.deepEqual(summary(onlyError({items: {contains: strings, maxContains: 1}}, [['a', 'b']])), {
      keyword: 'contains',
      keywordLocation: '/items/contains',
      instanceLocation: '/0',
      params: {minContains: 1, maxContains: 1},
      error: 'must contain at most 1 valid item(s)',
    });
  });

  test('streaming: contains / minContains at the close, maxContains at the extra match', () => {
    const none = '[1, 2, 3]';
    assert.equal(refusalByte({contains: strings}, none), none.length - 1);
    const few = '["a", 1, 2]';
    assert.equal(refusalByte({contains: strings, minContains: 2}, few), few.length - 1);
    const many = '["a", 1, "b", 2, "c"]';
    // The extra match is a string: announced, and judged by its kind, at its opening quote.
    assert.equal(refusalByte({contains: strings, maxContains: 1}, many), many.indexOf('"b"'));
  });

  test('2020-12: matched items are evaluated for unevaluatedItems; 2019-09: they are not', () => {
    const schema = {contains: strings, unevaluatedItems: false};
    valid(schema, ['a', 'b'], {draft: 'draft2020-12'});
    invalid(schema, ['a', 1], {draft: 'draft2020-12'});
    invalid(schema, ['a'], {draft: 'draft2019-09'});
  });

  test('compile: contains is a schema; minContains / maxContains are non-negative integers', () => {
    assert.equal(schemaError({contains: 3}).schemaLocation, '/contains');
    assert.equal(schemaError({minContains: -1}).schemaLocation, '/minContains');
    assert.equal(schemaError({maxContains: 'x'}).schemaLocation, '/maxContains');
  });

  test('compile: a bad minContains beside contains is reported at /minContains', () => {
    assert.equal(schemaError({contains: {}, minContains: 1.5}).schemaLocation, '/minContains');
    assert.equal(schemaError({contains: {}, maxContains: -1}).schemaLocation, '/maxContains');
  });

  test('allErrors: maxContains is reported once, not once per extra match', () => {
    const outcome = run({contains: strings, maxContains: 1}, '["a", "b", "c", "d"]', {allErrors: true});
    assert.deepEqual(outcome.errors.map((unit) => unit.params), [{minContains: 1, maxContains: 1}]);
  });
});
