// src/keywords/required.ts: every listed name must be present (null values count); a bit set of
// seen names; the verdict at the object's close.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, run, schemaError, summary, valid, valueOf} from './check.js';

describe('required', () => {
  test('every listed name must be present; a null value is present', () => {
    const schema = {required: ['id', 'name']};
    valid(schema, {id: 1, name: 'x'});
    valid(schema, {name: null, id: null, extra: 1});
    invalid(schema, {id: 1});
    invalid(schema, {});
    valid(schema, ['id', 'name']);
  });

  test('a null member is present to the evaluator too, in value mode and in text mode', () => {
    // A valid document is decided by the checker alone: these fail on another member, so the
    // evaluator judges `required` (at the inner object's close, or with every error wanted).
    const first = run({properties: {o: {required: ['a']}, x: {type: 'string'}}}, valueOf({o: {a: null}, x: 1}));
    assert.deepEqual(first.errors.map((unit) => [unit.keyword, unit.instanceLocation]), [['type', '/x']]);
    const all = run({required: ['a', 'b'], properties: {c: {type: 'string'}}}, valueOf({a: null, c: 1, b: null}), {allErrors: true});
    assert.deepEqual(all.errors.map((unit) => [unit.keyword, unit.instanceLocation]), [['type', '/c']]);
    // Beside a null member, an absent one is still missing.
    const missing = run({required: ['a', 'b'], properties: {c: {type: 'string'}}}, valueOf({a: null, c: 1}), {allErrors: true});
    assert.deepEqual(missing.errors.map((unit) => [unit.keyword, unit.instanceLocation]), [['type', '/c'], ['required', '']]);
  });

  test('nested members do not count', () => {
    invalid({required: ['a']}, {b: {a: 1}});
  });

  test('Object.prototype names must really be present', () => {
    invalid({required: ['constructor']}, {});
    invalid({required: ['toString', 'hasOwnProperty']}, {toString: 1});
    invalid({required: ['__proto__']}, {});
    valid({required: ['__proto__']}, JSON.parse('{"__proto__": null}'));
  });

  test('more than 31 names (past the one-number bit set)', () => {
    const names = Array.from({length: 40}, (_, index) => 'k' + index);
    const all = Object.fromEntries(names.map((name) => [name, 1]));
    valid({required: names}, all);
    for (const missing of ['k0', 'k30', 'k31', 'k39']) {
      const {[missing]: _, ...rest} = all;
      assert.deepEqual(onlyError({required: names}, rest).params, {missingProperty: missing});
    }
  });

  test('the error names the first missing property in list order', () => {
    assert.deepEqual(summary(onlyError({properties: {o: {required: ['a', 'b', 'c']}}}, {o: {b: 1}})), {
      keyword: 'required',
      keywordLocation: '/properties/o/required',
      instanceLocation: '/o',
      params: {missingProperty: 'a'},
      error: 'must have required property "a"',
    });
  });

  test('allErrors: one error per missing name', () => {
    const outcome = run({required: ['a', 'b', 'c']}, JSON.stringify({b: 1}), {allErrors: true});
    assert.deepEqual(outcome.errors.map((unit) => unit.params), [{missingProperty: 'a'}, {missingProperty: 'c'}]);
  });

  test('streaming: at the close of the object', () => {
    const text = '{"a": 1, "b": {"c": 2}}';
    assert.equal(refusalByte({required: ['z']}, text), text.length - 1);
    const nested = '{"o": {"a": 1}, "p": 2}';
    assert.equal(refusalByte({properties: {o: {required: ['b']}}}, nested), nested.indexOf('}'));
  });

  test('an empty list requires nothing; draft 4 forbids it', () => {
    valid({required: []}, {});
    assert.equal(schemaError({required: []}, {draft: 'draft4'}).schemaLocation, '/required');
  });

  test('compile: an array of unique strings', () => {
    assert.equal(schemaError({required: 'id'}).schemaLocation, '/required');
    assert.equal(schemaError({required: ['a', 1]}).schemaLocation, '/required/1');
    assert.equal(schemaError({required: ['a', 'b', 'a']}).schemaLocation, '/required/2');
  });
});
