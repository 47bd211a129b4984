// src/json/inPlace.ts: under the value options, validate changes the caller's value in place to
// equal the amended copy, keeping what stays what it was.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compile} from '../src/index.js';
import {assignInPlace} from '../src/json/inPlace.js';

describe('assignInPlace', () => {
  test('objects and arrays stay the same objects; members change, go, or come after the ones there', () => {
    const inner = {keep: 1};
    const target = {b: '5', gone: true, inner, list: ['1', 2]};
    const result = assignInPlace(target, {b: 5, inner: {keep: 1, added: 'x'}, list: [1, 2, 3], added: null});
    assert.equal(result, target);
    assert.equal(target.inner, inner);
    assert.deepEqual(target, {b: 5, inner: {keep: 1, added: 'x'}, list: [1, 2, 3], added: null});
    assert.deepEqual(Object.keys(target), ['b', 'inner', 'list', 'added']);
  });

  test('a value that changed kind is the new one, in its place', () => {
    const target = {n: ['5'], s: 5};
    assignInPlace(target, {n: 5, s: [5]});
    assert.deepEqual(target, {n: 5, s: [5]});
    assert.equal(assignInPlace('5', 5), 5);
    assert.equal(assignInPlace([1], 1), 1);
  });

  test('a property whose value is undefined, which no JSON member is, stays where it is', () => {
    const target = {a: undefined, b: 1};
    assignInPlace(target, {b: 1});
    assert.ok('a' in target);
  });

  test('"__proto__" is an own property like any other, and no prototype is read or changed', () => {
    const source = JSON.parse('{"__proto__": {"x": 1}}') as object;
    const target = {};
    assignInPlace(target, source);
    assert.deepEqual(Object.getOwnPropertyDescriptor(target, '__proto__')?.value, {x: 1});
    assert.equal(Object.getPrototypeOf(target), Object.prototype);
    assert.equal(({} as {x?: unknown}).x, undefined);
  });

  test('equal numbers stay as they were (-0 is not rewritten to 0)', () => {
    const target = {z: -0};
    assignInPlace(target, {z: 0});
    assert.ok(Object.is(target.z, -0));
  });
});

// An outside attack: validate() with a value option on a frozen object threw the runtime's own
// TypeError, from ~standard.validate and is() too, after changing what it had reached.
describe('a value the options would change where it cannot change', () => {
  const defaults = compile({type: 'object', properties: {a: {default: 1}, b: {type: 'object', properties: {c: {default: 2}}}}}, {useDefaults: true});

  test('is refused unchanged, with the place and a code, by validate, is and ~standard.validate', () => {
    const cases: Array<[unknown, string]> = [
      [Object.freeze({}), '/a'],
      [{b: Object.freeze({})}, '/b/c'],
      [Object.seal({b: {}}), '/a'],
      [Object.preventExtensions({b: {}}), '/a'],
    ];
    for (const [value, at] of cases) {
      const before = JSON.stringify(value);
      const result = defaults.validate(value);
      assert.equal(result.valid, false, before);
      assert.equal(result.errors[0]?.instanceLocation, at, before);
      assert.equal(result.errors[0]?.params?.['code'], 'value.unchangeable', before);
      // Nothing half-applied: the root's default was not added where the inner one could not be.
      assert.equal(JSON.stringify(value), before);
      assert.equal(defaults.is(value), false);
      const standard = defaults['~standard'].validate(value) as {issues?: Array<{path?: unknown}>};
      assert.deepEqual(standard.issues?.[0]?.path, at.split('/').slice(1));
    }
  });

  test('a frozen value the options leave as it is passes', () => {
    assert.equal(defaults.validate(Object.freeze({a: 5, b: Object.freeze({c: 3})})).valid, true);
    assert.equal(compile({type: 'array', items: {type: 'number'}}, {coerceTypes: true}).validate(Object.freeze([1, 2])).valid, true);
  });

  test('coercion into a frozen array and removal from a sealed object are refused where they would be', () => {
    const coerced = compile({type: 'array', items: {type: 'number'}}, {coerceTypes: true}).validate(Object.freeze(['1', 2]));
    assert.equal(coerced.errors[0]?.instanceLocation, '/0');
    const removing = compile({type: 'object', additionalProperties: false, properties: {a: {}}}, {removeAdditional: true});
    const sealed = Object.seal({a: 1, x: 2});
    assert.equal(removing.validate(sealed).errors[0]?.instanceLocation, '/x');
    assert.deepEqual(sealed, {a: 1, x: 2});
    const readOnly = Object.defineProperty({}, 'n', {value: '5', enumerable: true, writable: false, configurable: true});
    assert.equal(compile({properties: {n: {type: 'number'}}}, {coerceTypes: true}).validate(readOnly).errors[0]?.instanceLocation, '/n');
  });
});
