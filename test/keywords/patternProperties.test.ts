// src/keywords/patternProperties.ts: each property whose name matches a pattern (ECMA-262, u flag,
// unanchored) validates against that pattern's schema; several patterns may match one name.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {everyDoor, runsByDoor} from '../support/patternRuns.js';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('patternProperties', () => {
  test('matching names validate; others are not judged', () => {
    const schema = {patternProperties: {'^x-': {type: 'string'}}};
    valid(schema, {'x-a': 'ok', y: 1});
    invalid(schema, {'x-a': 1});
    valid(schema, 'x-a');
  });

  test('unanchored: a match anywhere in the name', () => {
    invalid({patternProperties: {id: {type: 'integer'}}}, {user_id_x: 'no'});
    valid({patternProperties: {'^id$': {type: 'integer'}}}, {user_id_x: 'no'});
  });

  test('every matching pattern applies', () => {
    const schema = {patternProperties: {'^a': {type: 'integer'}, 'b$': {minimum: 3}}};
    valid(schema, {ab: 3});
    invalid(schema, {ab: 2});
    invalid(schema, {ab: 3.5});
  });

  test('unicode: \\p{...} classes and astral characters in names', () => {
    valid({patternProperties: {'^\\p{L}+$': {type: 'integer'}}}, {'ünï': 1});
    invalid({patternProperties: {'^\\p{L}+$': {type: 'integer'}}}, {'ünï': 'x'});
    invalid({patternProperties: {'^.$': false}}, {'😀': 1});
  });

  test('the same name in many objects gives the same answer (the classification is cached per name)', () => {
    const schema = {items: {patternProperties: {'^n': {type: 'number'}}}};
    valid(schema, [{n: 1}, {n: 2}, {m: 'x'}, {n: 3}]);
    invalid(schema, [{n: 1}, {n: 2}, {m: 'x'}, {n: 'x'}]);
  });

  test('the error points into the pattern schema, pattern escaped as a pointer token', () => {
    assert.deepEqual(summary(onlyError({patternProperties: {'^a/b': {type: 'string'}}}, {'a/bc': 1})), {
      keyword: 'type',
      keywordLocation: '/patternProperties/^a~1b/type',
      instanceLocation: '/a~1bc',
      params: {type: 'string'},
      error: 'must be string',
    });
  });

  test('streaming: decided at the value; false at the key', () => {
    const text = '{"ok": 1, "x-1": 2, "x-2": 3}';
    assert.equal(refusalByte({patternProperties: {'^x-': false}}, text), text.indexOf('x-1"') + 3);
  });

  test('compile: names are valid u-mode expressions, values are schemas', () => {
    assert.equal(schemaError({patternProperties: {'(': {}}}).schemaLocation, '/patternProperties/(');
    assert.equal(schemaError({patternProperties: {'^a': 'x'}}).schemaLocation, '/patternProperties/^a');
    assert.equal(schemaError({patternProperties: []}).schemaLocation, '/patternProperties');
  });
});

describe('patternProperties: each pattern runs once per name in a document', () => {
  const PATTERN = '^x-[a-z]+$';
  // additionalProperties asks the same patterns of the same names.
  const schema = {patternProperties: {[PATTERN]: {type: 'string'}}, additionalProperties: {type: 'number'}};

  test('a matching name whose value fails', () => {
    assert.deepEqual(runsByDoor(schema, '{"x-a": 1}', PATTERN), everyDoor('invalid', 1));
  });

  test('a name that does not match, whose value fails additionalProperties', () => {
    assert.deepEqual(runsByDoor(schema, '{"y": "s"}', PATTERN), everyDoor('invalid', 1));
  });

  test('two names, one run each; with every error wanted too', () => {
    assert.deepEqual(runsByDoor(schema, '{"x-a": "s", "y": "s"}', PATTERN), everyDoor('invalid', 2));
    assert.deepEqual(runsByDoor(schema, '{"x-a": 1, "y": "s"}', PATTERN, {allErrors: true}), everyDoor('invalid', 2));
  });

  test('beside unevaluatedProperties, which asks what the names select', () => {
    const beside = {patternProperties: {[PATTERN]: {type: 'string'}}, unevaluatedProperties: false};
    assert.deepEqual(runsByDoor(beside, '{"x-a": 1}', PATTERN), everyDoor('invalid', 1));
    assert.deepEqual(runsByDoor(beside, '{"y": 1}', PATTERN), everyDoor('invalid', 1));
  });
});
