// A compiled validator handed unchanged to Hono's @hono/standard-validator, which knows only the
// Standard Schema interface: its verdicts, its issues, and the handler's types come through.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import {flattenErrors, sValidator} from '@hono/standard-validator';
import {Hono} from 'hono';

import {compile} from '../src/index.js';

const orderSchema = {
  type: 'object',
  properties: {
    customer: {type: 'string', minLength: 1},
    lines: {
      type: 'array',
      items: {type: 'object', properties: {sku: {type: 'string'}, quantity: {type: 'integer', minimum: 1}}, required: ['sku', 'quantity'], additionalProperties: false},
      minItems: 1,
    },
  },
  required: ['customer', 'lines'],
  additionalProperties: false,
} as const;

const querySchema = {type: 'object', properties: {page: {type: 'string', pattern: '^[0-9]+$'}}, additionalProperties: false} as const;

function app(): Hono {
  const hono = new Hono();
  hono.post('/orders', sValidator('json', compile(orderSchema, {allErrors: true})), (c) => {
    const order = c.req.valid('json');
    // The handler's type is the schema's.
    const customer: string = order.customer;
    const quantity: number | undefined = order.lines[0]?.quantity;
    // @ts-expect-error no such property in the schema
    void order.note;
    return c.json({customer, quantity}, 201);
  });
  hono.get('/orders', sValidator('query', compile(querySchema)), (c) => c.json({page: c.req.valid('query').page ?? '1'}));
  return hono;
}

function post(body: string): Promise<Response> {
  return Promise.resolve(app().request('/orders', {method: 'POST', headers: {'content-type': 'application/json'}, body}));
}

describe('Hono with @hono/standard-validator', () => {
  test('a valid body reaches the handler', async () => {
    const response = await post(JSON.stringify({customer: 'Ada', lines: [{sku: 'a', quantity: 2}]}));
    assert.equal(response.status, 201);
    assert.deepEqual(await response.json(), {customer: 'Ada', quantity: 2});
  });

  test('an invalid body is a 400 with our issues, each with its path', async () => {
    const response = await post(JSON.stringify({customer: '', lines: [{sku: 'a', quantity: 0}, {sku: 'b', quantity: 1, note: 'x'}]}));
    assert.equal(response.status, 400);
    const answer = (await response.json()) as {success: boolean; error: {message: string; path: (string | number)[]}[]};
    assert.equal(answer.success, false);
    assert.deepEqual(answer.error, [
      {message: 'must NOT have fewer than 1 characters', path: ['customer']},
      {message: 'must be >= 1', path: ['lines', 0, 'quantity']},
      {message: 'must NOT have additional property "note"', path: ['lines', 1, 'note']},
    ]);
    assert.deepEqual(flattenErrors(answer.error as never).fieldErrors, {
      customer: ['must NOT have fewer than 1 characters'],
      lines: ['must be >= 1', 'must NOT have additional property "note"'],
    });
  });

  test('the query string too', async () => {
    assert.deepEqual(await (await app().request('/orders?page=3')).json(), {page: '3'});
    assert.equal((await app().request('/orders?page=three')).status, 400);
    assert.equal((await app().request('/orders?size=3')).status, 400);
  });
});
