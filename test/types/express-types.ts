// Type-level test, compiled by `tsc -p tsconfig.types-test.json` (test/express.test.ts runs it).
// Nothing here runs: each line either type-checks or is marked @ts-expect-error.

import Router from '@koa/router';
import express from 'express';
import Koa from 'koa';

import {problemHandler, validate, validateBody} from '../../adapters/express.js';
import * as koaAdapter from '../../adapters/koa.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): T | void {}

const app = express();

const userSchema = {
  type: 'object',
  properties: {
    name: {type: 'string'},
    age: {type: 'integer', minimum: 0},
    role: {enum: ['admin', 'member']},
    tags: {type: 'array', items: {type: 'string'}},
  },
  required: ['name', 'role'],
  additionalProperties: false,
} as const;

app.post('/users', validateBody(userSchema), (req, res) => {
  const name: string = req.body.name;
  const role: 'admin' | 'member' = req.body.role;
  const age: number | undefined = req.body.age;
  const tags: string[] | undefined = req.body.tags;
  expectType<Equal<typeof req.body, {name: string; role: 'admin' | 'member'; age?: number; tags?: string[]}>>();
  // @ts-expect-error age may be absent
  const mustHaveAge: number = req.body.age;
  // @ts-expect-error no such property in the schema (additionalProperties: false)
  req.body.email;
  res.json({name, role, age, tags, mustHaveAge});
});

// Route parameters keep their type next to the typed body.
app.put('/users/:id', validateBody(userSchema, {limit: '10kb'}), (req, res) => {
  const id: string = req.params.id;
  const name: string = req.body.name;
  res.json({id, name});
});

// A recursive, deeply nested schema: the deferred FromSchema form must not hit TS2589.
const orderSchema = {
  type: 'object',
  properties: {
    customer: {
      type: 'object',
      properties: {
        name: {type: 'string'},
        address: {
          type: 'object',
          properties: {street: {type: 'string'}, city: {type: 'string'}, geo: {type: 'array', items: {type: 'number'}, minItems: 2, maxItems: 2}},
          required: ['city'],
        },
      },
      required: ['name'],
    },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: {sku: {type: 'string'}, quantity: {type: 'integer'}, options: {type: 'object', additionalProperties: {type: 'string'}}},
        required: ['sku', 'quantity'],
      },
    },
    payment: {
      oneOf: [
        {type: 'object', properties: {card: {type: 'string'}}, required: ['card']},
        {type: 'object', properties: {iban: {type: 'string'}}, required: ['iban']},
      ],
    },
  },
  required: ['customer', 'lines'],
} as const;

app.post('/orders', validateBody(orderSchema), (req, res) => {
  const city: string | undefined = req.body.customer.address?.city;
  const quantity: number | undefined = req.body.lines[0]?.quantity;
  res.json({city, quantity});
});

// A schema that is not `as const` (e.g. loaded from a file) still works; the body is unknown.
const loaded: object = JSON.parse('{"type": "object"}');
app.post('/loaded', validateBody(loaded), (req, res) => {
  // @ts-expect-error unknown until narrowed
  req.body.anything;
  res.json(req.body);
});

// validate() types params and query from their schemas.
app.get(
  '/users/:id',
  validate({
    params: {type: 'object', properties: {id: {type: 'string'}}, required: ['id']},
    query: {type: 'object', properties: {expand: {enum: ['groups']}}},
  } as const),
  (req, res) => {
    const id: string = req.params.id;
    const expand: 'groups' | undefined = req.query.expand;
    res.json({id, expand});
  },
);

// Only a query schema: the route's own parameter types stay.
app.get('/teams/:teamId/users', validate({query: {type: 'object', properties: {page: {type: 'string'}}}} as const), (req, res) => {
  const teamId: string = req.params.teamId;
  const page: string | undefined = req.query.page;
  // @ts-expect-error not a route parameter
  req.params.userId;
  res.json({teamId, page});
});

// Params and query as coerced by default: the handler sees the declared types, not the strings sent.
app.get(
  '/search/:page',
  validate({
    params: {type: 'object', properties: {page: {type: 'integer'}}, required: ['page']},
    query: {type: 'object', properties: {n: {type: 'integer'}, tags: {type: 'array', items: {type: 'string'}}, flag: {type: 'boolean'}}},
  } as const),
  (req, res) => {
    const page: number = req.params.page;
    const n: number | undefined = req.query.n;
    const tags: string[] | undefined = req.query.tags;
    const flag: boolean | undefined = req.query.flag;
    // @ts-expect-error coerced: a number, not the string sent
    const asSent: string | undefined = req.query.n;
    res.json({page, n, tags, flag, asSent});
  },
);

// Several middlewares on one route: the body type still comes through.
app.post('/teams/:teamId/users', validate({headers: {type: 'object', required: ['x-tenant']}}), validateBody(userSchema), (req, res) => {
  const teamId: string = req.params.teamId;
  const name: string = req.body.name;
  res.json({teamId, name});
});

// express.Router() too.
const router = express.Router();
router.post('/users', validateBody(userSchema), (req, res) => {
  const role: 'admin' | 'member' = req.body.role;
  res.json({role});
});
app.use('/v2', router);

app.use(problemHandler({maxErrors: 5}));

// The Koa adapter shares the typing: ctx.request.body from the schema, ctx.params from the router.
// (Kept in this file so one tsc run covers both adapters.)

const koa = new Koa();
const koaRouter = new Router();
koa.use(koaAdapter.problemHandler());
koaRouter.post('/users/:id', koaAdapter.validateBody(userSchema), (ctx) => {
  const id: string = ctx.params.id;
  const role: 'admin' | 'member' = ctx.request.body.role;
  // @ts-expect-error no such property in the schema
  ctx.request.body.email;
  ctx.body = {id, role};
});
// With other middlewares before it (Koa's own Middleware type, e.g. an auth check, or validate()).
const requireTenant: Koa.Middleware = async (ctx, next) => {
  if (ctx.get('x-tenant') === '') ctx.throw(400, 'x-tenant is required');
  await next();
};
koaRouter.put('/users/:id', requireTenant, koaAdapter.validate({params: {type: 'object'}}), koaAdapter.validateBody(userSchema), (ctx) => {
  const id: string = ctx.params.id;
  const name: string = ctx.request.body.name;
  ctx.body = {id, name};
});
koa.use(koaRouter.routes());

// body-parser's verify and reviver: a verify written for Express's Request and Response fits, as
// it does with express.json({verify}).
const rawBodies = new WeakMap<express.Request, Buffer>();
app.post(
  '/webhooks',
  validateBody(userSchema, {
    verify: (req: express.Request, _res: express.Response, body: Buffer, encoding: string) => {
      rawBodies.set(req, body);
      expectType<Equal<typeof encoding, string>>();
    },
    reviver: (key, value) => (key === 'age' && typeof value === 'number' ? BigInt(value) : value),
  }),
  (req, res) => {
    const name: string = req.body.name;
    res.json({name, raw: rawBodies.get(req)?.length});
  },
);
koaAdapter.validateBody(userSchema, {verify: (_req, _res, body) => void body.length});
// @ts-expect-error verify gets the body as a Buffer, not a string
validateBody(userSchema, {verify: (_req: unknown, _res: unknown, body: string) => void body});
