// src/keywords/propertyNames.ts: every key, as a string, validates against the schema; decided
// when the key arrives, before its value.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('propertyNames', () => {
  test('each name is validated as a string instance', () => {
    const schema = {propertyNames: {pattern: '^[a-z]+$', maxLength: 3}};
    valid(schema, {abc: 1, x: 2});
    invalid(schema, {abcd: 1});
    invalid(schema, {A: 1});
    valid(schema, {});
    valid(schema, ['ABCDE']);
  });

  test('a name is a string, never a number or other kind', () => {
    valid({propertyNames: {type: 'string'}}, {1: 1});
    invalid({propertyNames: {type: 'integer'}}, {1: 1});
    valid({propertyNames: {maximum: 0}}, {5: 1});
    valid({propertyNames: {const: '1'}}, {1: 1});
  });

  test('false forbids every property; true allows all', () => {
    valid({propertyNames: false}, {});
    invalid({propertyNames: false}, {a: 1});
    valid({propertyNames: true}, {a: 1});
  });

  test('code points for lengths; Object.prototype names are names', () => {
    valid({propertyNames: {maxLength: 1}}, {'😀': 1});
    invalid({propertyNames: {not: {const: '__proto__'}}}, JSON.parse('{"__proto__": 1}'));
  });

  test('the error names the property, located at the object', () => {
    assert.deepEqual(summary(onlyError({properties: {o: {propertyNames: {maxLength: 2}}}}, {o: {'a/bc': 1}})), {
      keyword: 'propertyNames',
      keywordLocation: '/properties/o/propertyNames',
      instanceLocation: '/o',
      params: {propertyName: 'a/bc'},
      error: 'property name "a/bc" is invalid',
    });
  });

  test('streaming: at the closing quote of the bad key, whatever its value', () => {
    const text = '{"ok": 1, "averyverylongname": {"big": [1, 2, 3]}}';
    assert.equal(refusalByte({propertyNames: {maxLength: 8}}, text), text.indexOf('averyverylongname') + 'averyverylongname'.length);
  });

  test('draft 4 has no propertyNames', () => {
    valid({propertyNames: false}, {a: 1}, {draft: 'draft4'});
    invalid({propertyNames: false}, {a: 1}, {draft: 'draft6'});
  });

  test('compile: a schema', () => {
    assert.equal(schemaError({propertyNames: []}).schemaLocation, '/propertyNames');
    assert.equal(schemaError({propertyNames: {minLength: -1}}).schemaLocation, '/propertyNames/minLength');
  });
});
