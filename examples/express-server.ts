// A small shop API on Express 5 whose request bodies are validated while they stream in.
//
//   npm start                 (PORT=8080 npm start to pick the port)
//
// Each route that takes a body uses `validateBody(schema)` instead of `express.json()`: a bad
// body is answered at its first offending byte with application/problem+json, and `req.body` is
// typed from the schema.

import {createHmac, timingSafeEqual} from 'node:crypto';
import type {IncomingMessage} from 'node:http';

import express, {type Response} from 'express';

import {problemHandler, validate, validateBody} from '../adapters/express.js';

const signupSchema = {
  type: 'object',
  properties: {
    email: {type: 'string', format: 'email', maxLength: 254},
    name: {type: 'string', minLength: 1, maxLength: 100},
    password: {type: 'string', minLength: 12, maxLength: 200},
    marketingOptIn: {type: 'boolean', default: false},
  },
  required: ['email', 'name', 'password'],
  additionalProperties: false,
} as const;

const addressSchema = {
  type: 'object',
  properties: {
    name: {type: 'string', minLength: 1},
    street: {type: 'string', minLength: 1},
    city: {type: 'string', minLength: 1},
    postalCode: {type: 'string', pattern: '^[A-Za-z0-9 -]{3,10}$'},
    country: {type: 'string', pattern: '^[A-Z]{2}$'},
  },
  required: ['name', 'street', 'city', 'postalCode', 'country'],
  additionalProperties: false,
} as const;

const orderSchema = {
  type: 'object',
  properties: {
    customerId: {type: 'string', pattern: '^cus_[a-z0-9]{6,}$'},
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        properties: {
          sku: {type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$'},
          quantity: {type: 'integer', minimum: 1, maximum: 100},
        },
        required: ['sku', 'quantity'],
        additionalProperties: false,
      },
    },
    shipping: addressSchema,
    coupon: {type: 'string', maxLength: 32},
  },
  required: ['customerId', 'items', 'shipping'],
  additionalProperties: false,
} as const;

/** RFC 7396 merge patch of an order: only these fields may change. */
const orderPatchSchema = {
  type: 'object',
  properties: {
    status: {enum: ['cancelled']},
    shipping: addressSchema,
    coupon: {type: ['string', 'null'], maxLength: 32},
  },
  additionalProperties: false,
  minProperties: 1,
} as const;

const eventsSchema = {
  type: 'array',
  maxItems: 10_000,
  items: {
    type: 'object',
    properties: {
      name: {type: 'string', pattern: '^[a-z][a-z0-9_.]*$'},
      at: {type: 'string', format: 'date-time'},
      properties: {type: 'object', maxProperties: 50},
    },
    required: ['name', 'at'],
  },
} as const;

interface Order {
  id: string;
  status: 'placed' | 'cancelled';
  customerId: string;
  items: Array<{sku: string; quantity: number}>;
  shipping: Record<string, string>;
  coupon?: string | null;
}

/** The newest orders, in memory: at most MAX_ORDERS, so the demo does not grow under load (benchmarks/load.ts). */
const orders = new Map<string, Order>();
const MAX_ORDERS = 1000;
let nextOrder = 1000;
let eventsReceived = 0;

function notFound(res: Response): void {
  res.status(404).type('application/problem+json').send(JSON.stringify({type: 'about:blank', title: 'Not Found', status: 404}));
}

const app = express();
app.disable('x-powered-by');

app.get('/health', (_req, res) => {
  res.json({status: 'ok', orders: orders.size, eventsReceived, payments: payments.length});
});

app.post('/api/users', validateBody(signupSchema, {limit: '4kb', formats: 'assert'}), (req, res) => {
  // req.body is {email: string; name: string; password: string; marketingOptIn?: boolean}.
  const {email, name, marketingOptIn = false} = req.body;
  res.status(201).json({id: `usr_${Date.now().toString(36)}`, email, name, marketingOptIn});
});

app.post('/api/orders', validateBody(orderSchema, {limit: '64kb'}), (req, res) => {
  const id = `ord_${nextOrder++}`;
  const order: Order = {id, status: 'placed', ...req.body};
  orders.set(id, order);
  if (orders.size > MAX_ORDERS) orders.delete(orders.keys().next().value!);
  res.status(201).location(`/api/orders/${id}`).json(order);
});

app.get(
  '/api/orders',
  validate({
    query: {
      type: 'object',
      // A query string's values are strings: validate() coerces `limit` to the integer it states.
      properties: {status: {enum: ['placed', 'cancelled']}, limit: {type: 'integer', minimum: 1, maximum: 100}},
      additionalProperties: false,
    },
  } as const),
  (req, res) => {
    const limit = req.query.limit ?? 20;
    const matching = [...orders.values()].filter((order) => req.query.status === undefined || order.status === req.query.status);
    res.json({orders: matching.slice(0, limit)});
  },
);

const orderIdParams = {type: 'object', properties: {id: {type: 'string', pattern: '^ord_[0-9]+$'}}, required: ['id']} as const;

app.get('/api/orders/:id', validate({params: orderIdParams}), (req, res) => {
  const order = orders.get(req.params.id);
  if (order === undefined) return notFound(res);
  res.json(order);
});

app.patch(
  '/api/orders/:id',
  validate({params: orderIdParams}),
  validateBody(orderPatchSchema, {type: 'application/merge-patch+json'}),
  (req, res) => {
    const order = orders.get(req.params.id);
    if (order === undefined) return notFound(res);
    if (req.body.status !== undefined) order.status = req.body.status;
    if (req.body.shipping !== undefined) order.shipping = {...req.body.shipping};
    if (req.body.coupon !== undefined) order.coupon = req.body.coupon;
    res.json(order);
  },
);

// Bulk telemetry: large, often gzipped. The limit counts decompressed bytes.
app.post('/api/events', validateBody(eventsSchema, {limit: '5mb', formats: 'assert'}), (req, res) => {
  eventsReceived += req.body.length;
  res.status(202).json({accepted: req.body.length});
});

// A payment provider's webhook, signed with HMAC-SHA256 over the raw bytes: `verify` (as in
// body-parser) sees the whole body as sent, before its verdict; a bad signature is a 403.
const WEBHOOK_SECRET = process.env['WEBHOOK_SECRET'] ?? 'whsec_demo';

const paymentEventSchema = {
  type: 'object',
  properties: {
    id: {type: 'string', pattern: '^evt_[A-Za-z0-9]+$'},
    type: {enum: ['payment.succeeded', 'payment.failed']},
    data: {
      type: 'object',
      properties: {orderId: {type: 'string', pattern: '^ord_[0-9]+$'}, amount: {type: 'integer', minimum: 1}},
      required: ['orderId', 'amount'],
    },
  },
  required: ['id', 'type', 'data'],
} as const;

function signature(body: Buffer | string): string {
  return 'sha256=' + createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex');
}

function checkSignature(req: IncomingMessage, _res: unknown, body: Buffer): void {
  const expected = Buffer.from(signature(body));
  const given = Buffer.from(String(req.headers['x-signature'] ?? ''));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('the signature does not match the body');
}

const payments: string[] = [];

app.post('/api/webhooks/payments', validateBody(paymentEventSchema, {limit: '16kb', verify: checkSignature}), (req, res) => {
  payments.push(`${req.body.type} ${req.body.data.orderId}`);
  res.status(204).end();
});

// Every error with a 4xx/5xx status (ours and others') becomes application/problem+json.
app.use(problemHandler({maxErrors: 10}));

function curlExamples(base: string): string {
  const json = "-H 'content-type: application/json'";
  const payment = '{"id":"evt_1","type":"payment.succeeded","data":{"orderId":"ord_1000","amount":1299}}';
  return [
    `Shop API listening on ${base}`,
    '',
    'Try it:',
    `  curl -s ${base}/health`,
    `  curl -s ${json} -d '{"email":"ada@example.com","name":"Ada","password":"correct horse battery"}' ${base}/api/users`,
    `  curl -s ${json} -d '{"email":"ada@example.com","name":"Ada","password":"short"}' ${base}/api/users          # 422`,
    `  curl -s ${json} -d '{"customerId":"cus_abc123","items":[{"sku":"TEA-0001","quantity":2}],"shipping":{"name":"Ada","street":"1 Loop Rd","city":"Leeds","postalCode":"LS1 4AP","country":"GB"}}' ${base}/api/orders`,
    `  curl -s '${base}/api/orders?status=placed&limit=10'`,
    `  curl -s -X PATCH -H 'content-type: application/merge-patch+json' -d '{"status":"cancelled"}' ${base}/api/orders/ord_1000`,
    `  curl -s ${json} -d '{"customerId" "cus_abc123"}' ${base}/api/orders                                            # 400 malformed`,
    `  echo '[{"name":"page.view","at":"2026-01-01T00:00:00Z"}]' | gzip | curl -s ${json} -H 'content-encoding: gzip' --data-binary @- ${base}/api/events`,
    `  curl -s ${json} -H 'x-signature: ${signature(payment)}' -d '${payment}' ${base}/api/webhooks/payments   # 204, signed`,
    `  curl -s ${json} -H 'x-signature: sha256=forged' -d '${payment}' ${base}/api/webhooks/payments          # 403 entity.verify.failed`,
    `  head -c 50000000 /dev/zero | tr '\\0' 'x' | (printf '{"admin":"'; cat) | curl -s -X POST -T - ${json} ${base}/api/users   # 50 MB upload, 422 at byte 9`,
  ].join('\n');
}

const port = Number(process.env['PORT'] ?? 3000);
// Loopback only: an example is for trying on this machine, not for the network.
const server = app.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  console.log(curlExamples(`http://127.0.0.1:${actualPort}`));
});
const stop = (): void => {
  server.close();
  server.closeAllConnections();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
