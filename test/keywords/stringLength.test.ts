// src/keywords/stringLength.ts: minLength / maxLength count Unicode code points, not UTF-16 units.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('minLength / maxLength', () => {
  test('bounds are inclusive', () => {
    valid({minLength: 2, maxLength: 3}, 'ab');
    valid({minLength: 2, maxLength: 3}, 'abc');
    invalid({minLength: 2}, 'a');
    invalid({maxLength: 3}, 'abcd');
    valid({maxLength: 0}, '');
    invalid({maxLength: 0}, ' ');
  });

  test('an astral character is one code point (two UTF-16 units)', () => {
    valid({maxLength: 1}, '😀');
    invalid({minLength: 2}, '😀');
    valid({maxLength: 2, minLength: 2}, 'a😀');
    valid({maxLength: 3}, '😀😀😀');
    invalid({maxLength: 2}, '😀😀😀');
  });

  test('a combining sequence is several code points', () => {
    // "é" as e + U+0301 is two code points.
    invalid({maxLength: 1}, 'e\u0301');
    valid({maxLength: 1}, '\u00e9');
  });

  test('a lone surrogate counts as one code point', () => {
    valid({maxLength: 1}, '\ud83d');
    invalid({minLength: 2}, '\udc00');
    // A low surrogate before a high one is two lone surrogates.
    valid({minLength: 2, maxLength: 2}, '\ude00\ud83d');
  });

  test('non-strings are not judged', () => {
    for (const value of [12345, null, ['a', 'b', 'c'], {abc: 1}]) {
      valid({maxLength: 1, minLength: 10}, value);
    }
  });

  test('the error gives the limit', () => {
    assert.deepEqual(summary(onlyError({maxLength: 2}, 'abc')), {keyword: 'maxLength', keywordLocation: '/maxLength', instanceLocation: '', params: {limit: 2}, error: 'must NOT have more than 2 characters'});
    assert.deepEqual(summary(onlyError({properties: {s: {minLength: 2}}}, {s: '😀'})), {
      keyword: 'minLength',
      keywordLocation: '/properties/s/minLength',
      instanceLocation: '/s',
      params: {limit: 2},
      error: 'must NOT have fewer than 2 characters',
    });
  });

  test('streaming: decided as the string grows past the limit, before its closing quote', () => {
    // A code point is at most two code units: "too long" is certainly past 3 at its 7th unit.
    const text = '["ok", "too long", "x"]';
    assert.equal(refusalByte({items: {maxLength: 3}}, text), text.indexOf('too long') + 2 * 3);
  });

  test('compile: a non-negative integer (1.0 counts as an integer)', () => {
    valid({maxLength: 1.0}, 'a');
    assert.equal(schemaError({maxLength: -1}).schemaLocation, '/maxLength');
    assert.equal(schemaError({minLength: 1.5}).schemaLocation, '/minLength');
    assert.equal(schemaError({minLength: '1'}).code, 'schema.keyword.invalid');
  });
});
