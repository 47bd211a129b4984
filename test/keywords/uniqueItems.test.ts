// src/keywords/uniqueItems.ts: no two items equal (numbers by value, objects regardless of key
// order); one fingerprint kept per item, up to limits.maxUniqueItems; a duplicate fails at the
// item that repeats.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compile} from '../../src/index.js';
import {invalid, onlyError, refusalByte, run, schemaError, summary, valid, verdictOfText} from './check.js';

const unique = {uniqueItems: true};

describe('uniqueItems', () => {
  test('distinct items pass; any repeat fails', () => {
    valid(unique, [1, 2, 3]);
    valid(unique, []);
    valid(unique, [{}]);
    invalid(unique, [1, 2, 1]);
    invalid(unique, ['a', 'b', 'a']);
    invalid(unique, [null, null]);
    invalid(unique, [[1, [2]], [1, [2]]]);
  });

  test('items of different kinds are different, whatever they print as', () => {
    valid(unique, ['1', 1, true, 'true', null, 'null', false, 0, '', {}, [], [[]], [{}], {'': null}]);
  });

  test('numbers by value: 1 == 1.0 == 1e0, 0 == -0', () => {
    assert.equal(verdictOfText(unique, '[1, 1.0]'), false);
    assert.equal(verdictOfText(unique, '[100, 1e2]'), false);
    assert.equal(verdictOfText(unique, '[0, -0]'), false);
    assert.equal(verdictOfText(unique, '[[1], [1.0]]'), false);
    assert.equal(verdictOfText(unique, '[1, 1.0000000000000000001]', {textOnly: true}), true);
    assert.equal(verdictOfText(unique, '[12345678901234567890, 12345678901234567891]', {textOnly: true}), true);
    assert.equal(verdictOfText(unique, '[1e400, 10e399]', {textOnly: true}), false);
  });

  test('objects regardless of key order; arrays in order', () => {
    invalid(unique, [{a: 1, b: 2}, {b: 2, a: 1}]);
    valid(unique, [{a: 1, b: 2}, {a: 2, b: 1}]);
    valid(unique, [[1, 2], [2, 1]]);
    valid(unique, [{a: 1}, {a: 1, b: null}]);
    invalid(unique, [{a: {x: [1, {y: 2, z: 3}]}}, {a: {x: [1, {z: 3, y: 2}]}}]);
    invalid(unique, [JSON.parse('{"__proto__": 1}'), JSON.parse('{"__proto__": 1}')]);
    valid(unique, [JSON.parse('{"__proto__": 1}'), JSON.parse('{"__proto__": 2}')]);
  });

  test('uniqueItems: false and non-arrays are not judged', () => {
    valid({uniqueItems: false}, [1, 1]);
    valid(unique, {a: 1, b: 1});
    valid(unique, 'aa');
  });

  test('the error names the two items', () => {
    assert.deepEqual(summary(onlyError({properties: {t: unique}}, {t: ['x', 'y', 'z', 'y']})), {
      keyword: 'uniqueItems',
      keywordLocation: '/properties/t/uniqueItems',
      instanceLocation: '/t',
      params: {i: 3, j: 1},
      error: 'must NOT have duplicate items (items 1 and 3 are identical)',
    });
  });

  test('streaming: fails when the repeated item is whole', () => {
    const strings = '["a", "b", "a", "c"]';
    assert.equal(refusalByte(unique, strings), strings.indexOf('a", "c"') + 1);
    const objects = '[{"a": 1, "b": 2}, {"b": 2, "a": 1}, 3]';
    assert.equal(refusalByte(unique, objects), objects.indexOf('}, 3'));
  });

  test('nested arrays each under uniqueItems: every level judges its own items', () => {
    const nested = {uniqueItems: true, items: {$ref: '#'}};
    valid(nested, [[[1, 2], [2, 1]], [[1, 2]]]);
    invalid(nested, [[[1, 1]]]);
    invalid(nested, [[[1], [1]]]);
    invalid(nested, [[[1], [2]], [[1], [2]]]);
    valid(nested, [[[1], [2]], [[2], [1]]]);
    // Two keywords at one location ask for the same items' fingerprints.
    const twice = {allOf: [{uniqueItems: true}, {items: {uniqueItems: true}}], uniqueItems: true};
    valid(twice, [[1, 2], [2, 1]]);
    assert.deepEqual(
      invalid(twice, [[1, 2], [1, 2]], {allErrors: true}).errors.map((unit) => unit.keywordLocation),
      ['/uniqueItems', '/allOf/0/uniqueItems'],
    );
    assert.deepEqual(
      invalid(twice, [[1, 1], [2]], {allErrors: true}).errors.map((unit) => unit.keywordLocation),
      ['/allOf/1/items/uniqueItems'],
    );
  });

  test('an item that never ended leaves no fingerprint request for the next document', () => {
    const shared = compile({items: {uniqueItems: true}});
    // Item 1 of the inner array starts, and reading its first item throws: the document ends there.
    const unreadable: unknown[] = [];
    Object.defineProperty(unreadable, 0, {
      enumerable: true,
      get(): never {
        throw new Error('boom');
      },
    });
    assert.equal(shared.validate([[1, unreadable]]).errors[0]?.params?.code, 'value.unreadable');
    // The last document's inner array saw 1 first: hearing 1 again, it would fail and stop this one.
    assert.deepEqual(shared.validate([[1], [2, 2]]), compile({items: {uniqueItems: true}}).validate([[1], [2, 2]]));
  });

  test('with allErrors, every repeat names its earliest item, after other repeats too', () => {
    const {errors} = invalid(unique, ['x', 'y', 'x', 'z', 'y', 'x'], {allErrors: true});
    assert.deepEqual(
      errors.map((unit) => unit.params),
      [
        {i: 2, j: 0},
        {i: 4, j: 1},
        {i: 5, j: 0},
      ],
    );
  });

  test('long arrays: a repeat is found at its earliest item, numbers by value and strings alike', () => {
    const count = 5000;
    for (const repeated of [0, 7, 8, 4095, 4096, count - 1]) {
      const numbers = Array.from({length: count}, (_, i) => String(i * 3));
      const strings = numbers.map((number) => JSON.stringify(`item ${number}`));
      const cases: Array<[string, string]> = [
        [numbers.join(','), `${repeated * 3}.0`],
        [strings.join(','), strings[repeated]!],
      ];
      for (const [items, again] of cases) {
        const outcome = run(unique, `[${items},${again}]`);
        assert.deepEqual(outcome.errors[0]?.params, {i: count, j: repeated}, `item ${repeated} again`);
      }
    }
    valid(unique, Array.from({length: count}, (_, i) => i));
  });

  test('limits.maxUniqueItems: the item past it is a limit.uniqueItems error in every mode; up to it, items are judged', () => {
    const options = {limits: {maxUniqueItems: 3}};
    const nested = {properties: {a: unique}};
    const past = run(nested, '{"a": [1, 2, 3, 4]}', options);
    assert.deepEqual(summary(past.errors[0]!), {
      keyword: 'limit',
      keywordLocation: '',
      instanceLocation: '/a',
      params: {code: 'limit.uniqueItems'},
      error: 'More than maxUniqueItems (3) items in one array under uniqueItems',
    });
    assert.equal(past.streamed[0]!.kind, 'limit');
    assert.equal(past.streamed[0]!.offset, '{"a": [1, 2, 3, 4'.length - 1);
    assert.equal(run(nested, '{"a": [1, 2, 3]}', options).valid, true);
    // A repeat within the limit fails first, as a schema violation.
    assert.equal(run(nested, '{"a": [1, 1, 2, 3, 4]}', options).errors[0]!.keyword, 'uniqueItems');
    // Arrays without uniqueItems are not counted.
    assert.equal(run({properties: {b: {type: 'array'}}}, '{"b": [1, 2, 3, 4, 5]}', options).valid, true);
  });

  test('compile: a boolean', () => {
    assert.equal(schemaError({uniqueItems: 1}).schemaLocation, '/uniqueItems');
    assert.equal(schemaError({uniqueItems: 'true'}).code, 'schema.keyword.invalid');
  });
});
