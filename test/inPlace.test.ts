// src/json/inPlace.ts: under the value options, validate changes the caller's value in place to
// equal the amended copy, keeping what stays what it was.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
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
