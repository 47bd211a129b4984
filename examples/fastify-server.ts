// The example shop API (as examples/express-server.ts) on Fastify 5: each route's `schema.body` is
// checked while the body streams in; querystring and params stay with Fastify's ajv (coerced).
//
//   node --import tsx examples/fastify-server.ts      (PORT=8080 to pick the port)
//
// A bad body is answered at its first offending byte with Fastify's own error shape
// (`FST_ERR_VALIDATION` and its `validation` array for a schema violation). As with Fastify's own
// validation, a body is coerced, given its defaults and stripped of properties
// `additionalProperties: false` does not allow, and the handler gets it so changed.

import Fastify from 'fastify';
import type {FromSchema} from 'json-schema-to-ts';

import streamSchema from '../adapters/fastify.js';

const signupSchema = {
  type: 'object',
  properties: {
    email: {type: 'string', format: 'email', maxLength: 254},
    name: {type: 'string', minLength: 1, maxLength: 100},
    password: {type: 'string', minLength: 12, maxLength: 200},
  },
  required: ['email', 'name', 'password'],
  additionalProperties: false,
} as const;

const item = {type: 'object', properties: {sku: {type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$'}, quantity: {type: 'integer', minimum: 1, maximum: 100}}, required: ['sku', 'quantity'], additionalProperties: false} as const;
const orderSchema = {
  type: 'object',
  properties: {customerId: {type: 'string', pattern: '^cus_[a-z0-9]{6,}$'}, items: {type: 'array', minItems: 1, maxItems: 50, items: item}, coupon: {type: 'string', maxLength: 32}},
  required: ['customerId', 'items'],
  additionalProperties: false,
} as const;
/** RFC 7396 merge patch of an order: only these fields may change. */
const orderPatchSchema = {type: 'object', properties: {status: {enum: ['cancelled']}, coupon: {type: ['string', 'null'], maxLength: 32}}, additionalProperties: false, minProperties: 1} as const;
const eventsSchema = {type: 'array', maxItems: 10_000, items: {type: 'object', properties: {name: {type: 'string', pattern: '^[a-z][a-z0-9_.]*$'}, at: {type: 'string', format: 'date-time'}}, required: ['name', 'at']}} as const;

const orderParams = {type: 'object', properties: {id: {type: 'string', pattern: '^ord_[0-9]+$'}}, required: ['id']} as const;
const listQuery = {type: 'object', properties: {status: {enum: ['placed', 'cancelled']}, limit: {type: 'integer', minimum: 1, maximum: 100, default: 20}}, additionalProperties: false} as const;

type Order = Omit<FromSchema<typeof orderSchema>, 'coupon'> & {id: string; status: 'placed' | 'cancelled'; coupon?: string | null};

/** The newest orders, in memory: at most MAX_ORDERS, so the demo does not grow under load (benchmarks/load.ts). */
const orders = new Map<string, Order>();
const MAX_ORDERS = 1000;
let nextOrder = 1000;
let eventsReceived = 0;

const app = Fastify({bodyLimit: 64 * 1024});
await app.register(streamSchema);

app.get('/health', async () => ({status: 'ok', orders: orders.size, eventsReceived}));

app.post<{Body: FromSchema<typeof signupSchema>}>('/api/users', {schema: {body: signupSchema}, bodyLimit: 4096}, async (request, reply) => {
  const {email, name} = request.body;
  return reply.code(201).send({id: `usr_${Date.now().toString(36)}`, email, name});
});

app.post<{Body: FromSchema<typeof orderSchema>}>('/api/orders', {schema: {body: orderSchema}}, async (request, reply) => {
  const order: Order = {id: `ord_${nextOrder++}`, status: 'placed', ...request.body};
  orders.set(order.id, order);
  if (orders.size > MAX_ORDERS) orders.delete(orders.keys().next().value!);
  return reply.code(201).header('location', `/api/orders/${order.id}`).send(order);
});

app.get<{Querystring: FromSchema<typeof listQuery>}>('/api/orders', {schema: {querystring: listQuery}}, async (request) => {
  const {status, limit = 20} = request.query;
  return {orders: [...orders.values()].filter((order) => status === undefined || order.status === status).slice(0, limit)};
});

app.get<{Params: FromSchema<typeof orderParams>}>('/api/orders/:id', {schema: {params: orderParams}}, async (request, reply) => {
  return orders.get(request.params.id) ?? reply.code(404).send({statusCode: 404, error: 'Not Found', message: 'no such order'});
});

app.patch<{Params: FromSchema<typeof orderParams>; Body: FromSchema<typeof orderPatchSchema>}>(
  '/api/orders/:id',
  // Fastify has no parser for application/*+json: the plugin reads it where a route lists it.
  {schema: {params: orderParams, body: {content: {'application/merge-patch+json': {schema: orderPatchSchema}}}}},
  async (request, reply) => {
    const order = orders.get(request.params.id);
    if (order === undefined) return reply.code(404).send({statusCode: 404, error: 'Not Found', message: 'no such order'});
    if (request.body.status !== undefined) order.status = request.body.status;
    if (request.body.coupon !== undefined) order.coupon = request.body.coupon;
    return order;
  },
);

// Bulk telemetry: large, often gzipped. The limit counts decompressed bytes.
app.post<{Body: FromSchema<typeof eventsSchema>}>('/api/events', {schema: {body: eventsSchema}, bodyLimit: 5 * 1024 * 1024}, async (request, reply) => {
  eventsReceived += request.body.length;
  return reply.code(202).send({accepted: request.body.length});
});

const port = Number(process.env['PORT'] ?? 3000);
const address = await app.listen({port, host: '127.0.0.1'});
const json = "-H 'content-type: application/json'";
console.log(
  [
    `Shop API (Fastify) listening on ${address}`,
    '',
    'Try it:',
    `  curl -s ${json} -d '{"email":"ada@example.com","name":"Ada","password":"correct horse battery"}' ${address}/api/users`,
    `  curl -s ${json} -d '{"email":"ada@example.com","name":"Ada","password":"short"}' ${address}/api/users          # 400 FST_ERR_VALIDATION`,
    `  curl -s ${json} -d '{"customerId":"cus_abc123","items":[{"sku":"TEA-0001","quantity":2}]}' ${address}/api/orders`,
    `  curl -s '${address}/api/orders?status=placed&limit=10'`,
    `  curl -s -X PATCH -H 'content-type: application/merge-patch+json' -d '{"status":"cancelled"}' ${address}/api/orders/ord_1000`,
    `  curl -s ${json} -d '{"customerId" "cus_abc123"}' ${address}/api/orders                                        # 400 FST_ERR_CTP_INVALID_JSON_BODY`,
    `  echo '[{"name":"page.view","at":"2026-01-01T00:00:00Z"}]' | gzip | curl -s ${json} -H 'content-encoding: gzip' --data-binary @- ${address}/api/events`,
    `  head -c 50000000 /dev/zero | tr '\\0' 'x' | (printf '{"email":{"'; cat) | curl -s -X POST -T - ${json} ${address}/api/users   # 50 MB upload, 400 at byte 9`,
  ].join('\n'),
);
const stop = (): void => void app.close();
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
