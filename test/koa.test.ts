// adapters/koa.ts against a real Koa 3 app with @koa/router on 127.0.0.1, through supertest: the
// middleware's API and its place in Koa. What a hostile body does to it, and to every other door,
// is test/conformance/'s.

import assert from 'node:assert/strict';
import {createHmac} from 'node:crypto';
import {describe, it} from 'node:test';
import {brotliCompressSync, deflateSync, gzipSync} from 'node:zlib';

import Router from '@koa/router';
import Koa from 'koa';
import supertest from 'supertest';

import {HttpError, problemHandler, validate, validateBody} from '../adapters/koa.js';
import {asIs, KiB, MiB, orderSchema, SUITE_TIMEOUT} from './support/http.js';
import {coercionCases, partsMountErrorCases, searchParts} from './support/parts.js';

const validOrder = {customer: 'ada', items: [{sku: 'tea-01', quantity: 2}]};

/** What a body parser (koa-bodyparser, @koa/bodyparser) does: consume the stream, set ctx.request.body. */
const otherBodyParser: Koa.Middleware = async (ctx, next) => {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  (ctx.request as {body?: unknown}).body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  await next();
};

function buildApp(options: {withProblemHandler?: boolean; captured?: unknown[]} = {}): Koa {
  const app = new Koa();
  const captured = options.captured ?? [];
  if (options.withProblemHandler ?? true) app.use(problemHandler({maxErrors: 2}));
  app.use(async (_ctx, next) => {
    try {
      await next();
    } catch (error) {
      captured.push(error);
      throw error;
    }
  });
  const router = new Router();
  router.post('/orders', validateBody(orderSchema), (ctx) => {
    ctx.status = 201;
    ctx.body = {received: ctx.request.body, customer: ctx.request.body.customer};
  });
  router.post('/anything', validateBody({}, {limit: '1mb'}), (ctx) => {
    ctx.body = {received: ctx.request.body};
  });
  router.post('/limited', validateBody({}), (ctx) => {
    ctx.status = 204;
  });
  router.post('/shallow', validateBody({}, {limits: {maxDepth: 4, maxProperties: 5}}), (ctx) => {
    ctx.status = 204;
  });
  router.post('/strict-400', validateBody(orderSchema, {invalidStatus: 400}), (ctx) => {
    ctx.status = 204;
  });
  router.post('/parsed-first', otherBodyParser, validateBody(orderSchema), (ctx) => {
    ctx.body = {received: ctx.request.body};
  });
  router.post(
    '/webhook',
    validateBody(orderSchema, {
      verify: (req, res, body) => {
        // Koa hands over its own req and res, as Express does.
        assert.ok(typeof res.setHeader === 'function');
        if (req.headers['x-signature'] !== createHmac('sha256', 'webhook-secret').update(body).digest('hex')) throw new Error('bad signature');
      },
      reviver: (key, value) => (key === 'quantity' ? String(value) : value),
    }),
    (ctx) => {
      ctx.status = 201;
      ctx.body = {received: ctx.request.body};
    },
  );
  router.get('/orders', validateBody(orderSchema), (ctx) => {
    ctx.body = {body: (ctx.request as {body?: unknown}).body ?? null};
  });
  router.get(
    '/orders/:id',
    validate({
      params: {type: 'object', properties: {id: {type: 'string', pattern: '^[0-9]+$'}}, required: ['id']},
      query: {type: 'object', properties: {expand: {enum: ['items', 'customer']}}, additionalProperties: false},
      headers: {type: 'object', properties: {'x-tenant': {type: 'string', minLength: 3}}, required: ['x-tenant']},
    }),
    (ctx) => {
      ctx.body = {id: ctx.params.id, expand: ctx.query.expand ?? null};
    },
  );
  router.get('/search/:page', validate(searchParts), (ctx) => {
    ctx.body = {page: ctx.params.page, query: ctx.query, count: ctx.headers['x-count']};
  });
  router.get('/search-as-sent', validate({query: searchParts.query}, {coerceTypes: false}), (ctx) => {
    ctx.body = {query: ctx.query};
  });
  app.use(router.routes()).use(router.allowedMethods());
  // Koa logs every error that is not exposed; ours are, so nothing is printed during tests.
  app.silent = true;
  return app;
}

describe('validateBody with Koa 3 and @koa/router', SUITE_TIMEOUT, () => {
  const captured: unknown[] = [];
  const server = buildApp({captured}).callback();
  const agent = supertest(server);

  it('sets ctx.request.body to the parsed body', async () => {
    const response = await agent.post('/orders').send(validOrder).expect(201);
    assert.deepEqual(response.body, {received: validOrder, customer: 'ada'});
  });

  it('ctx.request.body equals JSON.parse for unusual valid bodies', async () => {
    const bodies = [
      '{"__proto__": {"admin": true}, "constructor": {"prototype": 1}}',
      '[1, 2.5e3, -0.0, 123456789012345678901234567890, 1e-320]',
      '{"s": "\\u0000\\ud83d\\ude00 é \\"quoted\\" \\\\", "nested": {"a": [[], {}, null, true, false]}}',
    ];
    for (const text of bodies) {
      const response = await agent.post('/anything').set('content-type', 'application/json').send(text).expect(200);
      assert.equal(JSON.stringify(response.body.received), JSON.stringify(JSON.parse(text)), text);
    }
  });

  it('malformed JSON: 400 entity.parse.failed as problem+json, the body not echoed', async () => {
    const response = await agent.post('/orders').set('content-type', 'application/json').send('{"customer": "SECRET-VALUE" "').expect(400);
    assert.match(response.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.equal(response.body.code, 'entity.parse.failed');
    assert.equal(response.body.status, 400);
    assert.ok(!response.text.includes('SECRET-VALUE'));
  });

  it('schema violation: 422 with errors capped at maxErrors', async () => {
    const response = await agent.post('/orders').send({customer: '', items: [{sku: 1, quantity: 0}]}).expect(422);
    assert.equal(response.body.code, 'entity.validation.failed');
    assert.equal(response.body.title, 'Unprocessable Entity');
    assert.ok(response.body.errors.length >= 1 && response.body.errors.length <= 2);
    assert.match(response.body.errors[0].pointer, /^#/);
  });

  it('throws an http-errors compatible error', async () => {
    captured.length = 0;
    await agent.post('/orders').send({customer: 'ada'}).expect(422);
    const error = captured[0] as HttpError;
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 422);
    assert.equal(error.statusCode, 422);
    assert.equal(error.expose, true);
    assert.equal(error.type, 'entity.validation.failed');
    assert.ok(error.errors.length > 0);
  });

  it('invalidStatus: 400', async () => {
    await agent.post('/strict-400').send({customer: 'ada'}).expect(400);
  });

  it('over limit: 413 entity.too.large with Connection: close', async () => {
    const response = await agent.post('/limited').send({data: 'x'.repeat(200 * KiB)}).expect(413);
    assert.equal(response.body.code, 'entity.too.large');
    assert.equal(response.headers.connection, 'close');
  });

  it('too deep or too many keys: 413', async () => {
    assert.equal((await agent.post('/shallow').set('content-type', 'application/json').send('[[[[[[[[1]]]]]]]]').expect(413)).body.code, 'entity.too.large');
    assert.equal((await agent.post('/shallow').send({a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7}).expect(413)).body.code, 'entity.too.large');
  });

  it('415 for another media type, a non-UTF-8 charset, an unknown encoding', async () => {
    assert.equal((await agent.post('/orders').set('content-type', 'text/plain').send('{}').expect(415)).body.code, 'entity.type.unsupported');
    assert.equal((await agent.post('/orders').set('content-type', 'application/json; charset=iso-8859-1').send('{}').expect(415)).body.code, 'charset.unsupported');
    assert.equal((await agent.post('/orders').set('content-type', 'application/json').set('content-encoding', 'lzma').send('{}').expect(415)).body.code, 'encoding.unsupported');
  });

  for (const [encoding, compress] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const) {
    it(`inflates ${encoding}`, async () => {
      const response = await agent
        .post('/orders')
        .set('content-type', 'application/json')
        .set('content-encoding', encoding)
        .serialize(asIs)
        .send(compress(JSON.stringify(validOrder)))
        .expect(201);
      assert.deepEqual(response.body.received, validOrder);
    });
  }

  it('a decompression bomb is stopped by limit', async () => {
    const bomb = brotliCompressSync(JSON.stringify({data: '0'.repeat(50 * MiB)}));
    const response = await agent.post('/limited').set('content-type', 'application/json').set('content-encoding', 'br').serialize(asIs).send(bomb).expect(413);
    assert.equal(response.body.code, 'entity.too.large');
  });

  it('a repeated key is 400', async () => {
    const response = await agent.post('/anything').set('content-type', 'application/json').send('{"a": 1, "a": 2}').expect(400);
    assert.equal(response.body.code, 'entity.parse.failed');
  });

  it("verify and reviver as body-parser's: 403 entity.verify.failed for a bad signature, revived ctx.request.body", async () => {
    const text = JSON.stringify(validOrder);
    const signature = createHmac('sha256', 'webhook-secret').update(text).digest('hex');
    const response = await agent.post('/webhook').set('content-type', 'application/json').set('x-signature', signature).send(text).expect(201);
    assert.deepEqual(response.body.received, {customer: 'ada', items: [{sku: 'tea-01', quantity: '2'}]});
    const forged = await agent.post('/webhook').set('content-type', 'application/json').set('x-signature', 'forged').send(text).expect(403);
    assert.equal(forged.body.code, 'entity.verify.failed');
  });

  it('a GET without a body passes through', async () => {
    assert.deepEqual((await agent.get('/orders').expect(200)).body, {body: null});
  });

  it('after another body parser, ctx.request.body is validated in value mode', async () => {
    assert.deepEqual((await agent.post('/parsed-first').send(validOrder).expect(200)).body, {received: validOrder});
    assert.equal((await agent.post('/parsed-first').send({customer: 'ada'}).expect(422)).body.code, 'entity.validation.failed');
  });

  it("without problemHandler, Koa's own onerror answers with the status", async () => {
    const response = await supertest(buildApp({withProblemHandler: false}).callback()).post('/orders').send({customer: 'ada'}).expect(422);
    assert.equal(response.text, 'request body does not match the schema');
  });
});

describe('validate({query, params, headers}) with Koa 3', SUITE_TIMEOUT, () => {
  const agent = supertest(buildApp().callback());

  it('passes valid parts', async () => {
    const response = await agent.get('/orders/42?expand=items').set('x-tenant', 'acme').expect(200);
    assert.deepEqual(response.body, {id: '42', expand: 'items'});
  });

  it('rejects bad params, query and headers with 400 and prefixed pointers', async () => {
    assert.equal((await agent.get('/orders/abc').set('x-tenant', 'acme').expect(400)).body.errors[0].pointer, '#/params/id');
    assert.match((await agent.get('/orders/42?expand=all').set('x-tenant', 'acme').expect(400)).body.errors[0].pointer, /^#\/query/);
    const headers = await agent.get('/orders/42').expect(400);
    assert.equal(headers.body.code, 'request.validation.failed');
    assert.match(headers.body.errors[0].pointer, /^#\/headers/);
  });

  coercionCases(agent);
  partsMountErrorCases(validate);
});
