// adapters/express.ts against a real Express 5 app on 127.0.0.1, through supertest: the
// middleware's API and its place in Express. What a hostile body does to it, and to every other
// door, is test/conformance/'s.

import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import type {IncomingMessage} from 'node:http';
import {after, before, describe, it} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createHmac} from 'node:crypto';
import {gzipSync} from 'node:zlib';

import express, {type ErrorRequestHandler} from 'express';
import supertest from 'supertest';

import {HttpError, problemHandler, validate, validateBody} from '../adapters/express.js';
import {compile} from '../src/index.js';
import {asIs, KiB, listen, MiB, orderSchema as sharedOrderSchema, slowUpload, SUITE_TIMEOUT, uploadSchema, type Harness} from './support/http.js';
import {coercionCases, partsMountErrorCases, searchParts} from './support/parts.js';

/** The shared order, with a note: the echo tests show a member beyond the required ones arriving. */
const orderSchema = {...sharedOrderSchema, properties: {...sharedOrderSchema.properties, note: {type: 'string'}}} as const;

const validOrder = {customer: 'ada', items: [{sku: 'tea-01', quantity: 2}], note: 'ring twice'};

function buildApp(options: {withProblemHandler?: boolean; captured?: unknown[]} = {}) {
  const app = express();
  const captured = options.captured ?? [];
  app.post('/orders', validateBody(orderSchema), (req, res) => {
    res.status(201).json({received: req.body, prototype: Object.getPrototypeOf(req.body) === Object.prototype});
  });
  app.post('/anything', validateBody({}, {limit: '1mb'}), (req, res) => res.json({received: req.body}));
  app.post('/limited', validateBody({}), (_req, res) => res.status(204).end());
  app.post('/shallow', validateBody({}, {limits: {maxDepth: 4, maxProperties: 5}}), (_req, res) => res.status(204).end());
  app.post('/strict-400', validateBody(orderSchema, {invalidStatus: 400}), (_req, res) => res.status(204).end());
  app.post('/then-json', validateBody(orderSchema), express.json(), (req, res) => res.json({received: req.body}));
  app.post('/parsed-first', express.json(), validateBody(orderSchema), (req, res) => res.json({received: req.body}));
  app.get('/orders', validateBody(orderSchema), (req, res) => res.json({body: req.body ?? null}));
  app.get(
    '/orders/:id',
    validate({
      params: {type: 'object', properties: {id: {type: 'string', pattern: '^[0-9]+$'}}, required: ['id']},
      query: {type: 'object', properties: {expand: {enum: ['items', 'customer']}}, additionalProperties: false},
      headers: {type: 'object', properties: {'x-tenant': {type: 'string', minLength: 3}}, required: ['x-tenant']},
    }),
    (req, res) => res.json({id: req.params.id, expand: req.query.expand ?? null}),
  );
  app.get('/search/:page', validate(searchParts), (req, res) => res.json({page: req.params.page, query: req.query, count: req.headers['x-count']}));
  app.get('/search-as-sent', validate({query: searchParts.query}, {coerceTypes: false}), (req, res) => res.json({query: req.query}));
  const capture: ErrorRequestHandler = (error, _req, _res, next) => {
    captured.push(error);
    next(error);
  };
  app.use(capture);
  if (options.withProblemHandler ?? true) app.use(problemHandler({maxErrors: 2}));
  return app;
}

describe('validateBody with Express 5', SUITE_TIMEOUT, () => {
  const captured: unknown[] = [];
  const app = buildApp({captured});
  const agent = supertest(app);

  it('sets req.body to the parsed body', async () => {
    const response = await agent.post('/orders').send(validOrder).expect(201);
    assert.deepEqual(response.body, {received: validOrder, prototype: true});
  });

  it('req.body equals JSON.parse for unusual valid bodies', async () => {
    const bodies = [
      '{"__proto__": {"admin": true}, "constructor": {"prototype": 1}}',
      '[1, 2.5e3, -0.0, 123456789012345678901234567890, 1e-320]',
      '{"s": "\\u0000\\ud83d\\ude00 é \\"quoted\\" \\\\", "nested": {"a": [[], {}, null, true, false]}}',
      ' \r\n\t{"spaces": "around"} \n',
    ];
    for (const text of bodies) {
      const response = await agent.post('/anything').set('content-type', 'application/json').send(text).expect(200);
      assert.equal(JSON.stringify(response.body.received), JSON.stringify(JSON.parse(text)), text);
    }
  });

  it('malformed JSON: 400 entity.parse.failed as problem+json, the body not echoed', async () => {
    const response = await agent.post('/orders').set('content-type', 'application/json').send('{"customer": "SECRET-VALUE", ').expect(400);
    assert.match(response.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.equal(response.body.status, 400);
    assert.equal(response.body.code, 'entity.parse.failed');
    assert.equal(response.body.type, 'about:blank');
    assert.equal(response.body.title, 'Bad Request');
    assert.ok(!response.text.includes('SECRET-VALUE'));
  });

  it('schema violation: 422 entity.validation.failed with pointers, capped at maxErrors', async () => {
    const response = await agent.post('/orders').send({customer: '', items: [{sku: 1, quantity: 0}]}).expect(422);
    assert.equal(response.body.code, 'entity.validation.failed');
    assert.equal(response.body.title, 'Unprocessable Entity');
    assert.ok(response.body.errors.length >= 1 && response.body.errors.length <= 2);
    for (const item of response.body.errors) {
      assert.equal(typeof item.detail, 'string');
      assert.equal(typeof item.keyword, 'string');
      assert.match(item.pointer, /^#/);
    }
  });

  it('passes an http-errors compatible error to next(err)', async () => {
    captured.length = 0;
    await agent.post('/orders').send({customer: 'ada'}).expect(422);
    const error = captured[0] as HttpError;
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 422);
    assert.equal(error.statusCode, 422);
    assert.equal(error.expose, true);
    assert.equal(error.type, 'entity.validation.failed');
    assert.equal(error.errors[0]?.kind, 'validation');
    assert.equal((error as unknown as {body?: unknown}).body, undefined, 'body-parser puts the raw body on err.body; we never do');
  });

  it('invalidStatus: 400', async () => {
    const response = await agent.post('/strict-400').send({customer: 'ada'}).expect(400);
    assert.equal(response.body.code, 'entity.validation.failed');
  });

  it('over limit: 413 entity.too.large', async () => {
    const response = await agent.post('/limited').send({data: 'x'.repeat(200 * KiB)}).expect(413);
    assert.equal(response.body.code, 'entity.too.large');
    assert.equal(response.headers.connection, 'close');
  });

  it('too deep or too many keys: 413', async () => {
    const deep = await agent.post('/shallow').set('content-type', 'application/json').send('[[[[[[[[1]]]]]]]]').expect(413);
    assert.equal(deep.body.code, 'entity.too.large');
    assert.equal(deep.body.errors[0].keyword, 'limit');
    const wide = await agent.post('/shallow').send({a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7}).expect(413);
    assert.equal(wide.body.code, 'entity.too.large');
  });

  it('unsupported Content-Type: 415', async () => {
    const response = await agent.post('/orders').set('content-type', 'text/plain').send('{}').expect(415);
    assert.equal(response.body.code, 'entity.type.unsupported');
  });

  it('non-UTF-8 charset: 415 charset.unsupported', async () => {
    const response = await agent.post('/orders').set('content-type', 'application/json; charset=utf-16').send('{}').expect(415);
    assert.equal(response.body.code, 'charset.unsupported');
  });

  it('unknown Content-Encoding: 415 encoding.unsupported', async () => {
    const response = await agent.post('/orders').set('content-type', 'application/json').set('content-encoding', 'zstd').send('{}').expect(415);
    assert.equal(response.body.code, 'encoding.unsupported');
  });

  it('gzip body is inflated', async () => {
    const response = await agent
      .post('/orders')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .serialize(asIs)
      .send(gzipSync(JSON.stringify(validOrder)))
      .expect(201);
    assert.deepEqual(response.body.received, validOrder);
  });

  it('a decompression bomb is stopped by limit', async () => {
    const bomb = gzipSync(JSON.stringify({data: '0'.repeat(50 * MiB)}));
    const response = await agent.post('/limited').set('content-type', 'application/json').set('content-encoding', 'gzip').serialize(asIs).send(bomb).expect(413);
    assert.equal(response.body.code, 'entity.too.large');
  });

  it('a repeated key is 400, never a body that disagrees with the verdict', async () => {
    const response = await agent.post('/orders').set('content-type', 'application/json').send(`{"customer": "ada", "items": [{"sku": "a", "quantity": 1}], "customer": 5}`).expect(400);
    assert.equal(response.body.code, 'entity.parse.failed');
  });

  it('a GET without a body passes through', async () => {
    const response = await agent.get('/orders').expect(200);
    assert.deepEqual(response.body, {body: null});
  });

  it('a later express.json() does not read the body again', async () => {
    const response = await agent.post('/then-json').send(validOrder).expect(200);
    assert.deepEqual(response.body.received, validOrder);
  });

  it('after express.json() the parsed body is validated in value mode', async () => {
    await agent.post('/parsed-first').send(validOrder).expect(200);
    const response = await agent.post('/parsed-first').send({customer: 'ada'}).expect(422);
    assert.equal(response.body.code, 'entity.validation.failed');
  });

  it('without problemHandler, Express answers with the error status', async () => {
    const app = buildApp({withProblemHandler: false});
    // Express's final handler logs every error to stderr unless env is 'test'.
    app.set('env', 'test');
    await supertest(app).post('/orders').send({customer: 'ada'}).expect(422);
  });
});

describe('validate({query, params, headers}) with Express 5', SUITE_TIMEOUT, () => {
  const agent = supertest(buildApp());

  it('passes valid parts', async () => {
    const response = await agent.get('/orders/42?expand=items').set('x-tenant', 'acme').expect(200);
    assert.deepEqual(response.body, {id: '42', expand: 'items'});
  });

  it('rejects bad params, query and headers with 400 and prefixed pointers', async () => {
    const params = await agent.get('/orders/abc').set('x-tenant', 'acme').expect(400);
    assert.equal(params.body.code, 'request.validation.failed');
    assert.equal(params.body.errors[0].pointer, '#/params/id');
    const query = await agent.get('/orders/42?expand=everything').set('x-tenant', 'acme').expect(400);
    assert.match(query.body.errors[0].pointer, /^#\/query/);
    const headers = await agent.get('/orders/42').expect(400);
    assert.match(headers.body.errors[0].pointer, /^#\/headers/);
  });

  coercionCases(agent);
  partsMountErrorCases(validate);

  it('a part given as a compiled validator keeps the options it was compiled with', async () => {
    const app = express();
    app.get('/search', validate({query: compile(searchParts.query)}), (req, res) => res.json({query: req.query}));
    app.use(problemHandler());
    assert.equal((await supertest(app).get('/search?n=5').expect(400)).body.errors[0].pointer, '#/query/n');
  });
});

describe("body-parser's verify and reviver, Express 5", SUITE_TIMEOUT, () => {
  const secret = 'webhook-secret';
  const sign = (bytes: Buffer | string): string => createHmac('sha256', secret).update(bytes).digest('hex');
  let verified: Buffer[] = [];
  const app = express();
  const checkSignature = (req: IncomingMessage, _res: unknown, body: Buffer, encoding: string): void => {
    assert.equal(encoding, 'utf-8');
    verified.push(body);
    if (req.headers['x-signature'] !== sign(body)) throw new Error('bad signature');
  };
  app.post('/webhook', validateBody(orderSchema, {verify: checkSignature}), (req, res) => res.status(201).json({received: req.body}));
  app.post('/guarded', validateBody(uploadSchema, {limit: '1mb', verify: checkSignature}), (_req, res) => res.status(204).end());
  app.post(
    '/revived',
    validateBody({type: 'object', properties: {n: {maximum: 10}}}, {reviver: (_key, value) => (typeof value === 'number' ? value * 2 : value)}),
    (req, res) => res.json({received: req.body}),
  );
  app.use(problemHandler());
  const agent = supertest(app);
  let harness: Harness;
  before(async () => {
    harness = await listen(app);
  });
  after(() => harness.server.close());

  it('verify gets the whole body and lets a good one through', async () => {
    verified = [];
    const text = JSON.stringify(validOrder);
    const response = await agent.post('/webhook').set('content-type', 'application/json').set('x-signature', sign(text)).send(text).expect(201);
    assert.deepEqual(response.body, {received: validOrder});
    assert.deepEqual(verified.map(String), [text]);
  });

  it('verify throwing refuses the body: 403 entity.verify.failed', async () => {
    const response = await agent.post('/webhook').set('content-type', 'application/json').set('x-signature', 'forged').send(validOrder).expect(403);
    assert.equal(response.body.code, 'entity.verify.failed');
    assert.equal(response.body.detail, 'bad signature');
  });

  it("a thrown error's own status and type are kept", async () => {
    const teapot = express();
    const thrown = Object.assign(new Error('no tea today'), {status: 418, type: 'tea.refused'});
    const refuse = (): never => {
      throw thrown;
    };
    teapot.post('/', validateBody({}, {verify: refuse}), (_req, res) => res.status(204).end());
    const captured: unknown[] = [];
    teapot.use(((error, _req, res, _next) => {
      captured.push(error);
      res.status(error.status).end();
    }) as ErrorRequestHandler);
    await supertest(teapot).post('/').send({}).expect(418);
    const error = captured[0] as HttpError;
    assert.ok(error instanceof HttpError);
    assert.equal(error.type, 'tea.refused');
    assert.equal(error.cause, thrown);
  });

  it('verify sees the bytes as sent: a byte order mark, and gzip decoded', async () => {
    verified = [];
    const text = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(validOrder))]);
    await agent.post('/webhook').set('content-type', 'application/json').set('x-signature', sign(text)).serialize(asIs).send(text).expect(201);
    const gzipped = gzipSync(text);
    await agent
      .post('/webhook')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .set('x-signature', sign(text))
      .serialize(asIs)
      .send(gzipped)
      .expect(201);
    assert.deepEqual(verified, [text, text]);
  });

  it('a body that arrives in many chunks is verified whole', async () => {
    verified = [];
    const text = Buffer.from(JSON.stringify({...validOrder, note: 'slow 😀 upload '.repeat(20)}));
    const response = await slowUpload(harness.port, '/webhook', text, 7, 1, {'x-signature': sign(text)});
    assert.match(response, /^HTTP\/1\.1 201/);
    assert.deepEqual(verified, [text]);
  });

  it('a body refused before its end is never verified', async () => {
    verified = [];
    const text = Buffer.from(JSON.stringify({forbidden: 'y'.repeat(4000)}));
    const response = await slowUpload(harness.port, '/guarded', text, 5, 1, {'x-signature': sign(text)});
    assert.match(response, /^HTTP\/1\.1 422/);
    assert.deepEqual(verified, []);
  });

  it('reviver shapes req.body; the schema judges the body as sent', async () => {
    const response = await agent.post('/revived').set('content-type', 'application/json').send('{"n": 8, "list": [1, 2]}').expect(200);
    assert.deepEqual(response.body, {received: {n: 16, list: [2, 4]}});
    await agent.post('/revived').set('content-type', 'application/json').send('{"n": 11}').expect(422);
    const text = Buffer.from(JSON.stringify({n: 5, pad: 'x'.repeat(300)}));
    const slow = await slowUpload(harness.port, '/revived', text, 9, 1);
    assert.match(slow, /^HTTP\/1\.1 200/);
    assert.equal((JSON.parse(slow.slice(slow.indexOf('\r\n\r\n') + 4)) as {received: {n: number}}).received.n, 10);
  });
});

describe('types: validateBody(schema) types req.body from an as-const schema', SUITE_TIMEOUT, () => {
  it('test/types/express-types.ts compiles with tsc', async () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const output = await new Promise<string>((resolve, reject) => {
      execFile('npx', ['tsc', '-p', 'tsconfig.types-test.json'], {cwd: root, timeout: 50_000}, (error, stdout, stderr) => {
        if (error !== null && (error as {killed?: boolean}).killed === true) return reject(error);
        resolve(stdout + stderr);
      });
    });
    // The program includes the engine (src/), whose own checks are not this test's business.
    const ours = output.split('\n').filter((line) => /^(test\/types\/|adapters\/(express|koa|http-body)\.ts|error TS)/.test(line));
    assert.deepEqual(ours, []);
  });
});
