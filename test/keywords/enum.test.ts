// src/keywords/enum.ts: `enum` and `const`. Scalars are judged at once; objects and arrays are
// matched against the literals of their kind as they stream, failing at the first differing token.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {MAX_CONTAINER_LITERALS} from '../../src/keywords/enum.js';
import {invalid, onlyError, refusalByte, schemaError, summary, valid, verdictOfText} from './check.js';

describe('enum', () => {
  test('the instance equals one of the values', () => {
    const schema = {enum: ['red', 2, null, true, [1], {a: 1}]};
    for (const value of ['red', 2, null, true, [1], {a: 1}]) valid(schema, value);
    for (const value of ['blue', 3, false, [], [1, 1], {a: 2}, {}, 'null', '2']) invalid(schema, value);
  });

  test('no coercion between kinds', () => {
    invalid({enum: [false]}, 0);
    invalid({enum: [0]}, false);
    invalid({enum: ['']}, null);
    invalid({enum: [null]}, 'null');
    invalid({enum: [1]}, '1');
    invalid({enum: [[]]}, {});
    invalid({enum: [{}]}, []);
  });

  test('numbers by value: 1 == 1.0 == 1e0', () => {
    assert.equal(verdictOfText({enum: [1]}, '1.0'), true);
    assert.equal(verdictOfText({enum: [100]}, '1e2'), true);
    assert.equal(verdictOfText({enum: [0]}, '-0'), true);
    assert.equal(verdictOfText({enum: [[1, {a: 2}]]}, '[1.0, {"a": 2e0}]'), true);
    assert.equal(verdictOfText({enum: [1e308]}, '1e400', {textOnly: true}), false);
  });

  test('objects regardless of key order; several object literals run side by side', () => {
    const schema = {enum: [{a: 1, b: 2}, {a: 1, c: 3}]};
    valid(schema, {b: 2, a: 1});
    valid(schema, {c: 3, a: 1});
    invalid(schema, {a: 1, b: 3});
    invalid(schema, {a: 1});
    invalid(schema, {a: 1, b: 2, c: 3});
  });

  test('an object or array instance with no literal of its kind fails at its opening bracket', () => {
    assert.equal(refusalByte({enum: ['x', 1]}, '{"a": 1}'), 0);
    assert.equal(refusalByte({enum: [{a: 1}]}, '[1]'), 0);
  });

  test('streaming: an object instance fails when the last candidate literal has failed', () => {
    const schema = {enum: [{a: 1, b: 2}, {a: 1, c: 3}]};
    // After "a": 1 both remain; "d" rules out both at its closing quote.
    const text = '{"a": 1, "d": 4}';
    assert.equal(refusalByte(schema, text), text.indexOf('d"') + 1);
    // "b" rules out the second; 3 rules out the first when the number is whole.
    const value = '{"a": 1, "b": 3}';
    assert.equal(refusalByte(schema, value), value.indexOf('}'));
  });

  test('the message does not list the candidates; params do, as ajv\'s allowedValues', () => {
    assert.deepEqual(summary(onlyError({properties: {c: {enum: ['r', 'g']}}}, {c: 'b'})), {
      keyword: 'enum',
      keywordLocation: '/properties/c/enum',
      instanceLocation: '/c',
      params: {allowedValues: ['r', 'g']},
      error: 'must be equal to one of the allowed values',
    });
    assert.deepEqual(summary(onlyError({enum: [{a: [1, 2]}]}, {a: [1, 3]})), {
      keyword: 'enum',
      keywordLocation: '/enum',
      instanceLocation: '',
      params: {allowedValues: [{a: [1, 2]}]},
      error: 'must be equal to one of the allowed values',
    });
  });

  test('an empty enum accepts nothing (2019-09 on; draft 4 and 6 forbid it)', () => {
    invalid({enum: []}, null);
    invalid({enum: []}, {});
    invalid({enum: []}, []);
    assert.equal(schemaError({enum: []}, {draft: 'draft4'}).schemaLocation, '/enum');
    assert.equal(schemaError({enum: []}, {draft: 'draft6'}).schemaLocation, '/enum');
  });

  test('compile: an array of JSON values', () => {
    assert.equal(schemaError({enum: 'red'}).schemaLocation, '/enum');
    assert.equal(schemaError({enum: ['ok', Number.NaN]}).schemaLocation, '/enum/1');
    assert.equal(schemaError({enum: [1, Infinity]}).code, 'schema.keyword.invalid');
  });

  test(
    'compile: non-JSON values nested inside a literal are SchemaErrors too',
    () => {
      assert.equal(schemaError({enum: [[1, Infinity]]}).code, 'schema.keyword.invalid');
      assert.equal(schemaError({const: {a: Number.NaN}}).code, 'schema.keyword.invalid');
    },
  );

  test('compile: more objects and arrays than MAX_CONTAINER_LITERALS is a SchemaError; scalars have no bound', () => {
    const objects = (count: number) => Array.from({length: count}, (_, id) => ({id}));
    valid({enum: objects(MAX_CONTAINER_LITERALS)}, {id: MAX_CONTAINER_LITERALS - 1});
    const error = schemaError({properties: {a: {enum: [...objects(MAX_CONTAINER_LITERALS), [1]]}}});
    assert.equal(error.code, 'schema.enum.tooLarge');
    assert.equal(error.schemaLocation, '/properties/a/enum');
    valid({enum: [...objects(MAX_CONTAINER_LITERALS), ...Array.from({length: 5000}, (_, index) => index)]}, 4999);
  });
});

describe('const', () => {
  test('the instance equals the value', () => {
    valid({const: 'x'}, 'x');
    invalid({const: 'x'}, 'y');
    valid({const: null}, null);
    invalid({const: null}, false);
    valid({const: false}, false);
    invalid({const: false}, 0);
    valid({const: {a: [1, {b: null}]}}, {a: [1, {b: null}]});
    invalid({const: {a: [1, {b: null}]}}, {a: [1, {b: false}]});
  });

  test('numbers by value', () => {
    assert.equal(verdictOfText({const: 1}, '1.0'), true);
    assert.equal(verdictOfText({const: 1}, '1e0'), true);
    assert.equal(verdictOfText({const: 1}, '1.5'), false);
    assert.equal(verdictOfText({const: 0.1}, '1e-1'), true);
  });

  test(
    'a number that differs from the literal below double precision is not equal to it',
    () => {
      // maximum/minimum (numbers.ts compareTiedNumberText) and uniqueItems judge 1.0000000000000000001 ≠ 1.
      assert.equal(verdictOfText({minimum: 1, maximum: 1}, '1.0000000000000000001', {textOnly: true}), false);
      assert.equal(verdictOfText({const: 1}, '1.0000000000000000001', {textOnly: true}), false);
      // 1e-400 is the double 0; maximum: 0 and uniqueItems already tell it from 0.
      assert.equal(verdictOfText({maximum: 0}, '1e-400', {textOnly: true}), false);
      assert.equal(verdictOfText({const: 0}, '1e-400', {textOnly: true}), false);
      assert.equal(verdictOfText({enum: [0, 'x']}, '1e-400', {textOnly: true}), false);
    },
  );

  test('draft 4 has no const: it is ignored', () => {
    valid({const: 1}, 2, {draft: 'draft4'});
    invalid({const: 1}, 2, {draft: 'draft6'});
  });

  test('the error', () => {
    assert.deepEqual(summary(onlyError({items: {const: 'a'}}, ['a', 'b'])), {
      keyword: 'const',
      keywordLocation: '/items/const',
      instanceLocation: '/1',
      params: {allowedValue: 'a'},
      error: 'must be equal to the constant',
    });
  });

  test('streaming: an object fails at the first differing token', () => {
    const schema = {const: {a: 1, b: {c: [true, 'x']}}};
    const extraKey = '{"a": 1, "z": 2}';
    assert.equal(refusalByte(schema, extraKey), extraKey.indexOf('z"') + 1);
    const wrongScalar = '{"b": {"c": [false, "x"]}, "a": 1}';
    // A literal, like a number, is whole when the character after it arrives.
    assert.equal(refusalByte(schema, wrongScalar), wrongScalar.indexOf('false') + 5);
    const longer = '{"b": {"c": [true, "x", 0]}, "a": 1}';
    assert.equal(refusalByte(schema, longer), longer.indexOf(']'));
    const missing = '{"b": {"c": [true, "x"]}}';
    assert.equal(refusalByte(schema, missing), missing.length - 1);
  });
});
