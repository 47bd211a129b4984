// src/keywords/expect.ts: the shape checks keyword compilers share.
// Called directly with a context whose `fail` records where and why.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
  compilePattern,
  expectNonNegativeInteger,
  expectNumber,
  expectSchema,
  expectSchemaArray,
  expectSchemaMap,
  expectUniqueStrings,
  isObject,
  isSchema,
} from '../../../src/keywords/rules/expect.js';
import type {KeywordContext} from '../../../src/schema/node.js';

class Failure extends Error {
  constructor(
    readonly reason: string,
    readonly path: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

const context = {
  options: {},
  regExp: (source: string) => new RegExp(source, 'u'),
  fail(reason: string, relativePath = ''): never {
    throw new Failure(reason, relativePath);
  },
} as unknown as KeywordContext;

function failure(check: () => unknown): Failure {
  try {
    check();
  } catch (error) {
    assert.ok(error instanceof Failure, String(error));
    return error;
  }
  assert.fail('the check accepted the value');
}

describe('shapes', () => {
  test('isObject / isSchema', () => {
    assert.equal(isObject({}), true);
    assert.equal(isObject(Object.create(null)), true);
    for (const value of [null, [], 'x', 1, true, undefined]) assert.equal(isObject(value), false, String(value));
    assert.equal(isSchema(true), true);
    assert.equal(isSchema(false), true);
    assert.equal(isSchema({}), true);
    for (const value of [null, [], 'x', 0]) assert.equal(isSchema(value), false, String(value));
  });

  test('expectSchema / expectSchemaMap', () => {
    expectSchema(false, context);
    expectSchema({}, context);
    assert.match(failure(() => expectSchema([], context)).reason, /must be a schema/);
    expectSchemaMap({}, context);
    assert.match(failure(() => expectSchemaMap([], context)).reason, /object whose values are schemas/);
    failure(() => expectSchemaMap(null, context));
  });

  test('expectSchemaArray: non-empty, every entry a schema, located at the entry', () => {
    expectSchemaArray([true, {}], context);
    assert.match(failure(() => expectSchemaArray([], context)).reason, /non-empty/);
    assert.equal(failure(() => expectSchemaArray({}, context)).path, '');
    assert.equal(failure(() => expectSchemaArray([{}, {}, 3], context)).path, '/2');
  });

  test('expectNonNegativeInteger: 0, 1.0, large integers; not -1, 1.5, strings, Infinity', () => {
    assert.equal(expectNonNegativeInteger(0, context), 0);
    assert.equal(expectNonNegativeInteger(1.0, context), 1);
    assert.equal(expectNonNegativeInteger(2 ** 53, context), 2 ** 53);
    for (const value of [-1, 1.5, '1', Infinity, Number.NaN, null]) {
      assert.match(failure(() => expectNonNegativeInteger(value, context)).reason, /non-negative integer/, String(value));
    }
  });

  test('expectNumber: finite numbers only', () => {
    assert.equal(expectNumber(-1.5, context), -1.5);
    for (const value of [Infinity, -Infinity, Number.NaN, '1', null]) failure(() => expectNumber(value, context));
  });

  test('expectUniqueStrings: located at the first offending entry', () => {
    assert.deepEqual(expectUniqueStrings([], context), []);
    assert.deepEqual(expectUniqueStrings(['a', 'b'], context), ['a', 'b']);
    assert.equal(failure(() => expectUniqueStrings('a', context)).path, '');
    assert.equal(failure(() => expectUniqueStrings(['a', 1], context)).path, '/1');
    const repeated = failure(() => expectUniqueStrings(['a', 'b', 'a'], context));
    assert.equal(repeated.path, '/2');
    assert.match(repeated.reason, /"a" is repeated/);
  });

  test('compilePattern: u flag, unanchored; errors at the given path', () => {
    const pattern = compilePattern('b+', context);
    assert.equal(pattern.flags, 'u');
    assert.equal(pattern.test('abbbc'), true);
    assert.equal(compilePattern('^.$', context).test('😀'), true);
    assert.equal(failure(() => compilePattern('(', context, '/x')).path, '/x');
    assert.match(failure(() => compilePattern('\\q', context)).reason, /invalid regular expression/);
    assert.match(failure(() => compilePattern(1, context)).reason, /must be a string/);
  });

  test('compilePattern: a global or sticky flag would carry lastIndex between tests; there is none', () => {
    const pattern = compilePattern('a', context);
    assert.equal(pattern.test('a'), true);
    assert.equal(pattern.test('a'), true);
  });
});
