// Standard Schema V1 (https://standardschema.dev): every compiled validator carries `~standard`,
// and a consumer that knows only the standard gets our verdicts through it.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import {compile} from '../src/index.js';
import type {StandardSchemaV1} from '../src/types.js';

/**
 * What a library that takes any Standard Schema does with it (tRPC, TanStack Form, Hono's
 * validator): call `~standard.validate`, await nothing it does not have to, read `issues`.
 */
function standardParse<Output>(schema: StandardSchemaV1<unknown, Output>, value: unknown): {ok: true; value: Output} | {ok: false; issues: string[]} {
  const standard = schema['~standard'];
  assert.equal(standard.version, 1);
  const result = standard.validate(value);
  assert.ok(!(result instanceof Promise), 'a synchronous result');
  if (result.issues === undefined) return {ok: true, value: result.value};
  return {ok: false, issues: result.issues.map((issue) => `${(issue.path ?? []).map(String).join('.')}: ${issue.message}`)};
}

const orderSchema = {
  type: 'object',
  properties: {
    customer: {type: 'string', minLength: 1},
    lines: {type: 'array', items: {type: 'object', properties: {sku: {type: 'string'}, quantity: {type: 'integer', minimum: 1}}, required: ['sku', 'quantity']}},
  },
  required: ['customer', 'lines'],
} as const;

describe('~standard', () => {
  const orders = compile(orderSchema);

  test('version 1, vendor stream-schema, a validate function; types are for the type checker only', () => {
    const standard = orders['~standard'];
    assert.equal(standard.version, 1);
    assert.equal(standard.vendor, 'stream-schema');
    assert.equal(typeof standard.validate, 'function');
    assert.equal(standard.types, undefined);
  });

  test('a valid value comes back as the value itself', () => {
    const order = {customer: 'Ada', lines: [{sku: 'a', quantity: 2}]};
    const result = orders['~standard'].validate(order);
    assert.equal(result.issues, undefined);
    assert.equal((result as {value: unknown}).value, order);
  });

  test('an invalid value gives an issue per error, its path the keys down to the value, indices as numbers', () => {
    const everyError = compile(orderSchema, {allErrors: true});
    const result = everyError['~standard'].validate({customer: '', lines: [{sku: 'a', quantity: 2}, {sku: 'b', quantity: 0}, {quantity: 1}]});
    assert.ok(result.issues !== undefined);
    assert.deepEqual(
      result.issues.map((issue) => ({message: issue.message, path: issue.path})),
      [
        {message: 'must NOT have fewer than 1 characters', path: ['customer']},
        {message: 'must be >= 1', path: ['lines', 1, 'quantity']},
        {message: 'must have required property "sku"', path: ['lines', 2]},
      ],
    );
  });

  test('a key that looks like an index stays a string; an escaped key is unescaped', () => {
    const validator = compile({additionalProperties: {type: 'integer'}});
    const result = validator['~standard'].validate({'0': 'x', 'a/b~c': 'y'});
    assert.ok(result.issues !== undefined);
    assert.deepEqual(
      result.issues.map((issue) => issue.path),
      [['0']],
    );
    const all = compile({additionalProperties: {type: 'integer'}}, {allErrors: true})['~standard'].validate({'0': 'x', 'a/b~c': 'y'});
    assert.deepEqual(all.issues?.map((issue) => issue.path), [['0'], ['a/b~c']]);
  });

  test('the root is the empty path', () => {
    const result = compile({type: 'string'})['~standard'].validate(1);
    assert.deepEqual(result.issues, [{message: 'must be string', path: []}]);
  });

  test('validate may be called detached from its object, as consumers hold it', () => {
    const {validate} = orders['~standard'];
    assert.equal(validate({customer: 'Ada', lines: []}).issues, undefined);
  });

  test('a value JSON cannot hold is an issue, never a throw', () => {
    const orders = compile(orderSchema);
    for (const value of [undefined, () => 1, 10n, {customer: new Date(0), lines: []}, {customer: 'Ada', lines: [, 3]}]) {
      const result = orders['~standard'].validate(value);
      assert.ok(result.issues !== undefined && result.issues.length > 0, `issues for ${String(value)}`);
    }
  });
});

describe('a generic Standard Schema consumer', () => {
  test('takes a compiled validator as it is', () => {
    const orders = compile(orderSchema);
    const good = standardParse(orders, {customer: 'Ada', lines: [{sku: 'a', quantity: 1}]});
    assert.deepEqual(good, {ok: true, value: {customer: 'Ada', lines: [{sku: 'a', quantity: 1}]}});
    if (good.ok) {
      // The standard's output type is the schema's.
      const customer: string = good.value.customer;
      assert.equal(customer, 'Ada');
    }
    assert.deepEqual(standardParse(orders, {customer: 'Ada', lines: [{sku: 'a', quantity: 0}]}), {ok: false, issues: ['lines.0.quantity: must be >= 1']});
  });
});
