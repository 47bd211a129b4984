// src/keywords/pattern.ts: ECMA-262 regular expressions with the u flag, unanchored, on whole strings.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {everyDoor, runsByDoor} from '../support/patternRuns.js';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('pattern', () => {
  test('unanchored: a match anywhere in the string is enough', () => {
    valid({pattern: 'b+'}, 'abbbc');
    invalid({pattern: '^b+$'}, 'abbbc');
    valid({pattern: '^a.*c$'}, 'abbbc');
  });

  test('unicode mode: . matches an astral character, \\p{...} works', () => {
    valid({pattern: '^.$'}, '😀');
    valid({pattern: '^\\p{Lu}+$'}, 'ÀÉÎ');
    invalid({pattern: '^\\p{Lu}+$'}, 'àéî');
  });

  test('non-strings are not judged', () => {
    for (const value of [123, null, true, ['abc'], {abc: 'abc'}]) valid({pattern: '^x$'}, value);
  });

  test('the same expression judges every string (no state kept between tests)', () => {
    const schema = {items: {pattern: 'a'}};
    valid(schema, ['a', 'ba', 'ab', 'aaa']);
    invalid(schema, ['a', 'a', 'b']);
  });

  test('escaped text: the pattern sees the decoded string', () => {
    valid({pattern: '^\\n"$'}, '\n"');
    valid({pattern: '^é$'}, 'é');
  });

  test('the error gives the pattern source', () => {
    assert.deepEqual(summary(onlyError({pattern: '^[0-9]+$'}, 'x1')), {
      keyword: 'pattern',
      keywordLocation: '/pattern',
      instanceLocation: '',
      params: {pattern: '^[0-9]+$'},
      error: 'must match pattern "^[0-9]+$"',
    });
  });

  test('streaming: decided at the closing quote (the string is whole first)', () => {
    const text = '{"a": "xxxxxxxxxxxxxxxxxxxx"}';
    assert.equal(refusalByte({properties: {a: {pattern: '^y'}}}, text), text.lastIndexOf('"'));
  });

  test('compile: a string that is a valid u-mode expression', () => {
    const error = schemaError({pattern: '('});
    assert.equal(error.schemaLocation, '/pattern');
    assert.equal(error.code, 'schema.keyword.invalid');
    assert.match(error.message, /invalid regular expression/);
    // Valid without u, invalid with it: a lone escape of an ordinary letter.
    assert.equal(schemaError({pattern: '\\q'}).schemaLocation, '/pattern');
    assert.equal(schemaError({pattern: 5}).schemaLocation, '/pattern');
  });
});

describe('pattern: each runs once per string it applies to in a document', () => {
  // A backtracking engine can take time exponential in a string's length (docs/security.md):
  // running a failing pattern again for the evaluator's errors multiplied that time.
  const PATTERN = '^x-[a-z]+$';

  test('a failing pattern at the root, decided by the checker and reported by the evaluator', () => {
    assert.deepEqual(runsByDoor({pattern: PATTERN}, '"x-1"', PATTERN), everyDoor('invalid', 1));
  });

  test('a failing pattern of a property value (a leaf the evaluator judges, then reports)', () => {
    const schema = {properties: {a: {pattern: PATTERN}}};
    assert.deepEqual(runsByDoor(schema, '{"a": "x-1"}', PATTERN), everyDoor('invalid', 1));
  });

  test('with every error wanted too', () => {
    const schema = {properties: {a: {pattern: PATTERN}}};
    assert.deepEqual(runsByDoor(schema, '{"a": "x-1"}', PATTERN, {allErrors: true}), everyDoor('invalid', 1));
  });

  test('a failure the checker found long before the document failed is recalled, not run again', () => {
    // The strings between run another pattern: what the document remembers of its last few runs is gone.
    const schema = {properties: {a: {anyOf: [{pattern: PATTERN}, {type: 'string'}]}, list: {items: {pattern: '^y'}}, z: {type: 'number'}}};
    const text = '{"a": "x-1", "list": ["y1", "y2", "y3", "y4", "y5", "y6"], "z": "no"}';
    assert.deepEqual(runsByDoor(schema, text, PATTERN), everyDoor('invalid', 1));
  });

  test('a failing branch of anyOf: the checker decides at the close, the evaluator reads it again', () => {
    const schema = {properties: {a: {anyOf: [{pattern: PATTERN}, {type: 'number'}]}}};
    assert.deepEqual(runsByDoor(schema, '{"a": "x-1"}', PATTERN), everyDoor('invalid', 1));
  });

  test('once per string: the failing string of two, one run; a valid document, one run each', () => {
    const schema = {items: {pattern: PATTERN}};
    // A pass before the failure may be run again (src/engine/patterns.ts): only failures are logged.
    assert.deepEqual(runsByDoor(schema, '["x-a", "x-1"]', PATTERN, undefined, 'x-1'), everyDoor('invalid', 1));
    assert.deepEqual(runsByDoor(schema, '["x-a", "x-b"]', PATTERN), everyDoor('valid', 2));
  });

  test('a member value judged apart as an object, which fails on a string inside it', () => {
    const schema = {properties: {a: {properties: {b: {pattern: PATTERN}}}}};
    assert.deepEqual(runsByDoor(schema, '{"a": {"b": "x-1"}}', PATTERN), everyDoor('invalid', 1));
  });
});
