// Connections after an early refusal, on Express 5 and Koa 3 with each common way of answering
// an error: when validateBody stops reading a body, the unread rest stays on the socket, so that
// response must close the connection whoever writes it. Checked with fetch's keep-alive pool
// (the next requests of the same client must each get their own answer) and with a raw socket
// (the answer says `Connection: close` and the server closes).

import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import Router from '@koa/router';
import express, {type ErrorRequestHandler} from 'express';
import Koa from 'koa';

import * as expressAdapter from '../adapters/express.js';
import * as koaAdapter from '../adapters/koa.js';
import {KiB, MiB, listen, rawUpload, type Harness} from './support/http.js';

const SUITE_TIMEOUT = {timeout: 120_000};

/** A forbidden first key makes the verdict certain at byte ~14, long before the body's end. */
const itemSchema = {type: 'object', properties: {name: {type: 'string'}, forbidden: false}, required: ['name']} as const;

/** `/items` takes 64 KiB; `/uploads` takes 8 MiB, so its refusals come from the content. */
const ITEM_LIMIT = '64kb';
const UPLOAD_LIMIT = '8mb';

/** Big enough that the refusal comes while most of it is still unsent or unread. */
const BIG = MiB;
const SMALL = 4 * KiB;

interface Refusal {
  name: string;
  status: number;
  path: string;
  contentType: string;
  /** Body text: `prefix`, then `x` filler up to `size` bytes, then `suffix`. */
  size: number;
  prefix: string;
  suffix: string;
  /** Sent without Content-Length (Transfer-Encoding: chunked), so the server learns its size only while reading. */
  chunked: boolean;
}

const REFUSALS: readonly Refusal[] = [
  {name: '413 announced by Content-Length', size: BIG, status: 413, path: '/items', contentType: 'application/json', prefix: '{"name": "', suffix: '"}', chunked: false},
  {name: '413 once the limit is crossed', size: BIG, status: 413, path: '/items', contentType: 'application/json', prefix: '{"name": "', suffix: '"}', chunked: true},
  // Refused from its head and small: read and discarded, and the connection kept (SMALL is under DISCARD_LIMIT).
  {name: '415 for another media type, a small body', size: SMALL, status: 415, path: '/items', contentType: 'text/plain', prefix: '{"name": "', suffix: '"}', chunked: false},
  {name: '415 for another media type', size: BIG, status: 415, path: '/items', contentType: 'text/plain', prefix: '{"name": "', suffix: '"}', chunked: false},
  {name: '415 for a non-UTF-8 charset', size: BIG, status: 415, path: '/items', contentType: 'application/json; charset=latin1', prefix: '{"name": "', suffix: '"}', chunked: true},
  {name: '422 midway', size: BIG, status: 422, path: '/uploads', contentType: 'application/json', prefix: '{"forbidden": "', suffix: '"}', chunked: false},
  {name: '422 midway, chunked', size: BIG, status: 422, path: '/uploads', contentType: 'application/json', prefix: '{"forbidden": "', suffix: '"}', chunked: true},
  {name: '400 midway', size: BIG, status: 400, path: '/uploads', contentType: 'application/json', prefix: '{"name" "', suffix: '"}', chunked: false},
  {name: '400 midway, chunked', size: BIG, status: 400, path: '/uploads', contentType: 'application/json', prefix: '{"name" "', suffix: '"}', chunked: true},
];

function bodyOf(refusal: Refusal): Buffer {
  const filler = refusal.size - refusal.prefix.length - refusal.suffix.length;
  return Buffer.concat([Buffer.from(refusal.prefix), Buffer.alloc(filler, 'x'), Buffer.from(refusal.suffix)]);
}

/** A chunked upload: fetch sends a stream without Content-Length. */
function streamOf(bytes: Buffer): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 16 * KiB));
      offset += 16 * KiB;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// The apps: one per framework and way of answering an error.

/** What the routes answer on success: the body as received, so a misread request shows. */
interface Echo {
  received: unknown;
}

function expressApp(handler: 'problemHandler' | 'ordinary' | 'finalhandler'): express.Express {
  const app = express();
  // Express logs errors that reach its default handler unless env is 'test'.
  app.set('env', 'test');
  app.post('/items', expressAdapter.validateBody(itemSchema, {limit: ITEM_LIMIT}), (req, res) => res.status(201).json({received: req.body}));
  app.post('/uploads', expressAdapter.validateBody(itemSchema, {limit: UPLOAD_LIMIT}), (req, res) => res.status(201).json({received: req.body}));
  if (handler === 'problemHandler') app.use(expressAdapter.problemHandler());
  if (handler === 'ordinary') {
    const ordinary: ErrorRequestHandler = (error, _req, res, _next) => {
      res.status(error.status).json({error: error.type});
    };
    app.use(ordinary);
  }
  return app;
}

function koaApp(handler: 'problemHandler' | 'onerror' | 'try/catch'): Koa {
  const app = new Koa();
  app.silent = true;
  if (handler === 'problemHandler') app.use(koaAdapter.problemHandler());
  if (handler === 'try/catch') {
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        const {status, type} = error as {status: number; type: string};
        ctx.status = status;
        ctx.body = {error: type};
      }
    });
  }
  const router = new Router();
  const echo = (ctx: Koa.Context): void => {
    ctx.status = 201;
    ctx.body = {received: (ctx.request as {body?: unknown}).body} satisfies Echo;
  };
  router.post('/items', koaAdapter.validateBody(itemSchema, {limit: ITEM_LIMIT}), echo);
  router.post('/uploads', koaAdapter.validateBody(itemSchema, {limit: UPLOAD_LIMIT}), echo);
  app.use(router.routes());
  return app;
}

const SERVERS: ReadonlyArray<{name: string; app: () => {listen(port: number, host: string): import('node:http').Server}}> = [
  {name: 'Express, problemHandler()', app: () => expressApp('problemHandler')},
  {name: 'Express, an ordinary (err, req, res, next) handler', app: () => expressApp('ordinary')},
  {name: "Express, Express's own final handler", app: () => expressApp('finalhandler')},
  {name: 'Koa, problemHandler()', app: () => koaApp('problemHandler')},
  {name: "Koa, Koa's default ctx.onerror", app: () => koaApp('onerror')},
  {name: 'Koa, a try/catch that sets ctx.status and ctx.body', app: () => koaApp('try/catch')},
];

// ---------------------------------------------------------------------------------------------

/** The requests the same client sends after a refusal, each with the status it must get. */
function followUps(label: string): Array<{text: string; status: number}> {
  return [
    {text: JSON.stringify({name: `${label} 1`}), status: 201},
    {text: '{"name": 5}', status: 422},
    {text: '{"name": ', status: 400},
    {text: JSON.stringify({forbidden: 1, name: 'x'}), status: 422},
    {text: JSON.stringify({name: `${label} 2`}), status: 201},
  ];
}

async function post(origin: string, path: string, text: string): Promise<{status: number; text: string}> {
  const response = await fetch(origin + path, {method: 'POST', headers: {'content-type': 'application/json'}, body: text});
  return {status: response.status, text: await response.text()};
}

for (const server of SERVERS) {
  describe(`after an early refusal, ${server.name}`, SUITE_TIMEOUT, () => {
    let harness: Harness;
    let origin: string;
    before(async () => {
      harness = await listen(server.app());
      origin = `http://127.0.0.1:${harness.port}`;
    });
    after(() => {
      harness.server.closeAllConnections();
      harness.server.close();
    });

    for (const refusal of REFUSALS) {
      it(`${refusal.name}: the same fetch client's next requests each get their own answer`, async () => {
        // A request first, so the refused one goes out on a pooled, already-used connection.
        const warm = await post(origin, '/items', JSON.stringify({name: 'warm-up'}));
        assert.equal(warm.status, 201);
        const body = bodyOf(refusal);
        // Node 20's RequestInit type lacks `duplex`, which a stream body requires.
        const init: RequestInit & {duplex: 'half'} = {
          method: 'POST',
          headers: {'content-type': refusal.contentType},
          body: refusal.chunked ? streamOf(body) : new Uint8Array(body),
          duplex: 'half',
        };
        const response = await fetch(origin + refusal.path, init);
        assert.equal(response.status, refusal.status);
        assert.equal(response.headers.get('connection'), refusal.size === BIG ? 'close' : 'keep-alive');
        await response.arrayBuffer();
        for (const followUp of followUps(refusal.name)) {
          const reply = await post(origin, '/items', followUp.text);
          assert.equal(reply.status, followUp.status, `${followUp.text} answered ${reply.status}: ${reply.text}`);
          if (followUp.status === 201) assert.deepEqual((JSON.parse(reply.text) as Echo).received, JSON.parse(followUp.text));
        }
      });

      if (refusal.size !== BIG) continue;
      it(`${refusal.name}: over a raw socket, the answer says Connection: close and the server closes`, async () => {
        const outcome = await rawUpload(harness.port, refusal.path, {
          total: refusal.size,
          prefix: refusal.prefix,
          suffix: refusal.suffix,
          contentLength: !refusal.chunked,
          contentType: refusal.contentType,
        });
        assert.equal(outcome.status, refusal.status);
        assert.match(outcome.head, /\r\nconnection: close\r\n/i);
        assert.ok(outcome.closedByServer, 'the server closed the connection');
      });
    }
  });
}
