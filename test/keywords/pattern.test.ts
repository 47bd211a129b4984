// src/keywords/pattern.ts: ECMA-262 regular expressions with the u flag, unanchored, on whole strings.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
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
