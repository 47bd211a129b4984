// No input ends the process: whatever throws inside the middlewares (validateBody's listeners, the
// engine, JSON.parse, a reviver, an option's predicate, validate's validator, problemHandler
// given another library's error) becomes that request's answer, the error handed to the app's
// error path once, and the server keeps serving. Express 5 and Koa 3, each with problemHandler()
// and with an ordinary handler, on real servers on 127.0.0.1.

import assert from 'node:assert/strict';
import type {IncomingMessage, Server} from 'node:http';
import {after, before, describe, it, type TestContext} from 'node:test';
import {gzipSync} from 'node:zlib';

import Router from '@koa/router';
import express, {type ErrorRequestHandler} from 'express';
import Koa from 'koa';

import * as expressAdapter from '../adapters/express.js';
import type {HttpError} from '../adapters/http-body.js';
import * as koaAdapter from '../adapters/koa.js';
import {compile} from '../src/index.js';
import type {Validator} from '../src/types.js';
import {KiB, listen, slowUpload, type Harness} from './support/http.js';

const SUITE_TIMEOUT = {timeout: 60_000};

const itemSchema = {type: 'object', properties: {name: {type: 'string'}}, required: ['name']} as const;

/** Every compiled validator's methods, to make the engine throw for a test (node:test's mock restores them). */
const validatorPrototype = Object.getPrototypeOf(compile(true)) as Validator;

/** The reviver of `/revived` throws at this key. */
const REVIVER_TRAP = 'trap';

function throwingReviver(key: string, value: unknown): unknown {
  if (key === REVIVER_TRAP) throw new RangeError('the reviver refuses "trap"');
  return value;
}

function typePredicateThatThrows(): boolean {
  throw new TypeError('the type predicate failed');
}

const querySchema = {type: 'object', properties: {page: {type: 'string', pattern: '^[0-9]+$'}}} as const;

/** An http-errors style error from another library, whose `errors` are not the validator's output units. */
function foreignError(): Error {
  return Object.assign(new Error('that name is taken'), {status: 409, expose: true, errors: ['taken', {field: 'name'}, null]});
}

// ---------------------------------------------------------------------------------------------
// What each app records: the errors its error path received, and the listeners validateBody left
// on the request by then (each listener count compared with the count before validateBody ran).

interface Record_ {
  errors: unknown[];
  leftovers: Array<Record<string, number>>;
}

const EVENTS = ['data', 'end', 'error', 'close', 'aborted'] as const;

function listenerCounts(req: IncomingMessage): Record<string, number> {
  return Object.fromEntries(EVENTS.map((event) => [event, req.listenerCount(event)]));
}

function leftover(req: IncomingMessage, baseline: Record<string, number> | undefined): Record<string, number> {
  const now = listenerCounts(req);
  return Object.fromEntries(Object.entries(now).filter(([event, count]) => count !== baseline?.[event]));
}

function expressApp(handler: 'problemHandler' | 'ordinary', record: Record_): express.Express {
  const app = express();
  const baselines = new WeakMap<IncomingMessage, Record<string, number>>();
  app.use((req, _res, next) => {
    baselines.set(req, listenerCounts(req));
    next();
  });
  const echo = (req: express.Request, res: express.Response): void => void res.status(201).json({received: req.body});
  app.post('/items', expressAdapter.validateBody(itemSchema), echo);
  app.post('/revived', expressAdapter.validateBody(itemSchema, {reviver: throwingReviver}), echo);
  app.post('/typed', expressAdapter.validateBody(itemSchema, {type: typePredicateThatThrows}), echo);
  app.get('/pages', expressAdapter.validate({query: querySchema}), (_req, res) => void res.status(204).end());
  app.post('/foreign', (_req, _res, next) => next(foreignError()));
  const capture: ErrorRequestHandler = (error, req, _res, next) => {
    record.errors.push(error);
    record.leftovers.push(leftover(req, baselines.get(req)));
    next(error);
  };
  app.use(capture);
  if (handler === 'problemHandler') app.use(expressAdapter.problemHandler());
  else app.use(((error, _req, res, _next) => void res.status(error.status).json({error: error.type})) as ErrorRequestHandler);
  return app;
}

function koaApp(handler: 'problemHandler' | 'ordinary', record: Record_): Koa {
  const app = new Koa();
  app.silent = true;
  if (handler === 'problemHandler') app.use(koaAdapter.problemHandler());
  else {
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        const {status, type} = error as HttpError;
        ctx.status = status;
        ctx.body = {error: type};
      }
    });
  }
  app.use(async (ctx, next) => {
    const baseline = listenerCounts(ctx.req);
    try {
      await next();
    } catch (error) {
      record.errors.push(error);
      record.leftovers.push(leftover(ctx.req, baseline));
      throw error;
    }
  });
  const router = new Router();
  const echo = (ctx: Koa.Context): void => {
    ctx.status = 201;
    ctx.body = {received: (ctx.request as {body?: unknown}).body};
  };
  router.post('/items', koaAdapter.validateBody(itemSchema), echo);
  router.post('/revived', koaAdapter.validateBody(itemSchema, {reviver: throwingReviver}), echo);
  router.post('/typed', koaAdapter.validateBody(itemSchema, {type: typePredicateThatThrows}), echo);
  router.get('/pages', koaAdapter.validate({query: querySchema}), (ctx) => {
    ctx.status = 204;
  });
  router.post('/foreign', () => {
    throw foreignError();
  });
  app.use(router.routes());
  return app;
}

const SERVERS: ReadonlyArray<{name: string; app: (record: Record_) => {listen(port: number, host: string): Server}}> = [
  {name: 'Express, problemHandler()', app: (record) => expressApp('problemHandler', record)},
  {name: 'Express, an ordinary (err, req, res, next) handler', app: (record) => expressApp('ordinary', record)},
  {name: 'Koa, problemHandler()', app: (record) => koaApp('problemHandler', record)},
  {name: 'Koa, a try/catch that sets ctx.status and ctx.body', app: (record) => koaApp('ordinary', record)},
];

// ---------------------------------------------------------------------------------------------

interface Reply {
  status: number;
  connection: string | null;
  text: string;
}

async function post(origin: string, path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> {
  return reply(await fetch(origin + path, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body: typeof body === 'string' ? body : new Uint8Array(body)}));
}

async function get(origin: string, path: string): Promise<Reply> {
  return reply(await fetch(origin + path));
}

async function reply(response: Response): Promise<Reply> {
  return {status: response.status, connection: response.headers.get('connection'), text: await response.text()};
}

/** The body sent without Content-Length, in chunks of `size` bytes, over a raw socket. */
async function postChunked(port: number, path: string, body: Buffer, size = body.length): Promise<Reply> {
  const response = await slowUpload(port, path, body, size, 1);
  const head = response.slice(0, response.indexOf('\r\n\r\n'));
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0),
    connection: /\r\nconnection: ([^\r]*)/i.exec(head)?.[1] ?? null,
    text: response.slice(head.length + 4),
  };
}

/** Each framing of one body: Content-Length (read whole, through parseText), and chunked (through a session). */
function framings(harness: Harness, origin: string): Array<{name: string; send: (path: string, body: Buffer) => Promise<Reply>}> {
  return [
    {name: 'with Content-Length', send: (path, body) => post(origin, path, body)},
    {name: 'chunked', send: (path, body) => postChunked(harness.port, path, body, 7)},
  ];
}

for (const server of SERVERS) {
  describe(`errors inside the middlewares, ${server.name}`, SUITE_TIMEOUT, () => {
    const record: Record_ = {errors: [], leftovers: []};
    let harness: Harness;
    let origin: string;
    before(async () => {
      harness = await listen(server.app(record));
      origin = `http://127.0.0.1:${harness.port}`;
    });
    after(() => {
      harness.server.closeAllConnections();
      harness.server.close();
    });

    /** The one error the app's error path received since `since`, and that validateBody had removed its listeners by then. */
    function onlyErrorSince(since: number): HttpError {
      assert.equal(record.errors.length - since, 1, 'the error path ran once');
      assert.deepEqual(record.leftovers.at(-1), {}, 'no listener left behind');
      return record.errors.at(-1) as HttpError;
    }

    async function assertStillServing(): Promise<void> {
      const reply = await post(origin, '/items', JSON.stringify({name: 'still here'}));
      assert.equal(reply.status, 201);
      assert.deepEqual(JSON.parse(reply.text), {received: {name: 'still here'}});
    }

    it('a chunked body with a trailing 0xFF byte answers 400 and the server stays up', async () => {
      const since = record.errors.length;
      const body = Buffer.concat([Buffer.from('{"name":"x"}'), Buffer.from([0xff])]);
      const reply = await postChunked(harness.port, '/items', body);
      assert.equal(reply.status, 400);
      const error = onlyErrorSince(since);
      assert.equal(error.type, 'entity.parse.failed');
      // The validator's own verdict, where the byte is: not JSON.parse refusing what it accepted.
      assert.equal(error.errors[0]?.params?.code, 'syntax.trailing');
      assert.equal(error.errors[0]?.offset, 12);
      await assertStillServing();
    });

    it('JSON.parse refusing a body the validator accepted answers 400 entity.parse.failed, not the body echoed', async (t: TestContext) => {
      const parse = JSON.parse;
      const marker = 'made-to-disagree';
      // V8's own messages quote the text they refuse (`Unexpected token 'x', "{"a": x}" is not valid JSON`).
      t.mock.method(JSON, 'parse', (text: string, reviver?: (key: string, value: unknown) => unknown) => {
        if (text.includes(marker)) throw new SyntaxError(`Unexpected token, "${text}" is not valid JSON`);
        return parse(text, reviver);
      });
      for (const framing of framings(harness, origin)) {
        const since = record.errors.length;
        const reply = await framing.send('/items', Buffer.from(JSON.stringify({name: marker})));
        assert.equal(reply.status, 400, framing.name);
        assert.ok(!reply.text.includes(marker), `${framing.name}: the body is not echoed`);
        const error = onlyErrorSince(since);
        assert.equal(error.type, 'entity.parse.failed');
        assert.equal(error.expose, true);
        assert.equal(error.errors[0]?.params?.code, 'syntax.parse');
        assert.ok(!JSON.stringify({...error, message: error.message}).includes(marker), `${framing.name}: the error exposes none of the body`);
      }
      t.mock.restoreAll();
      await assertStillServing();
    });

    it('a reviver that throws answers 400 entity.parse.failed, as body-parser does', async () => {
      for (const framing of framings(harness, origin)) {
        const since = record.errors.length;
        const reply = await framing.send('/revived', Buffer.from(JSON.stringify({name: 'x', [REVIVER_TRAP]: 1})));
        assert.equal(reply.status, 400, framing.name);
        const error = onlyErrorSince(since);
        assert.equal(error.type, 'entity.parse.failed');
        assert.ok(error.cause instanceof RangeError);
      }
      const revived = await post(origin, '/revived', JSON.stringify({name: 'no trap'}));
      assert.equal(revived.status, 201);
      await assertStillServing();
    });

    /** Makes the engine's `method` throw for one request; that request must be answered 500, and the next served. */
    async function answers500When(t: TestContext, method: 'session' | 'parseText' | 'validate', send: () => Promise<Reply>): Promise<Reply> {
      const failure = new TypeError(`the engine's ${method} failed`);
      t.mock.method(validatorPrototype, method, () => {
        throw failure;
      });
      const since = record.errors.length;
      const reply = await send();
      assert.equal(reply.status, 500);
      assert.ok(!reply.text.includes(failure.message), 'a 500 exposes nothing');
      assertInternalError(onlyErrorSince(since), failure);
      t.mock.restoreAll();
      await assertStillServing();
      return reply;
    }

    it('a throw while the body streams in answers 500 once, closes the connection, and leaves no listener', async (t: TestContext) => {
      // The first 7-byte chunk already fails: the rest of the 64 KiB is never read.
      const body = Buffer.from(JSON.stringify({name: 'x'.repeat(64 * KiB)}));
      const reply = await answers500When(t, 'session', () => postChunked(harness.port, '/items', body, 7));
      assert.equal(reply.connection?.toLowerCase(), 'close');
    });

    it("a throw inside a decoder's data event answers 500", async (t: TestContext) => {
      await answers500When(t, 'session', () => post(origin, '/items', gzipSync(JSON.stringify({name: 'zipped'})), {'content-encoding': 'gzip'}));
    });

    it("a throw at the body's end answers 500", async (t: TestContext) => {
      await answers500When(t, 'parseText', () => post(origin, '/items', JSON.stringify({name: 'whole'})));
    });

    it('validate({query}) whose validator throws answers 500', async (t: TestContext) => {
      await answers500When(t, 'validate', () => get(origin, '/pages?page=2'));
      assert.equal((await get(origin, '/pages?page=2')).status, 204);
    });

    it('a throw before the body is read (the type predicate) answers 500', async () => {
      const since = record.errors.length;
      const reply = await post(origin, '/typed', JSON.stringify({name: 'x'}));
      assert.equal(reply.status, 500);
      const error = onlyErrorSince(since);
      assert.equal(error.type, 'internal.error');
      assert.ok(error.cause instanceof TypeError);
      await assertStillServing();
    });

    it("an error whose `errors` are another library's is answered with its own status", async () => {
      const reply = await post(origin, '/foreign', '{}');
      assert.equal(reply.status, 409);
      const answer = JSON.parse(reply.text) as {errors?: unknown};
      assert.equal(answer.errors, undefined, 'entries that are not output units are left out');
      await assertStillServing();
    });
  });
}

function assertInternalError(error: HttpError, cause: Error): void {
  assert.equal(error.status, 500);
  assert.equal(error.statusCode, 500);
  assert.equal(error.expose, false);
  assert.equal(error.type, 'internal.error');
  assert.equal(error.cause, cause);
}
