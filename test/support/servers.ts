// The apps of the connection tests: the same routes on Express 5 and Koa 3, under each common way
// of answering an error (a refusal must reach the client and close the connection whichever
// writes the answer), and the requests a keep-alive client sends after a refusal.

import assert from 'node:assert/strict';
import type {Server} from 'node:http';
import {after, before} from 'node:test';

import Router from '@koa/router';
import express, {type ErrorRequestHandler} from 'express';
import Koa from 'koa';

import * as expressAdapter from '../../adapters/express.js';
import type {BodyOptions} from '../../adapters/http-body.js';
import * as koaAdapter from '../../adapters/koa.js';
import {KiB, listen, type Harness} from './http.js';

/** A forbidden first key makes the verdict certain at byte ~14, long before the body's end. */
export const itemSchema = {type: 'object', properties: {name: {type: 'string'}, forbidden: false}, required: ['name']} as const;

/** A validateBody route; each answers 201 with the body as received, so a misread request shows. */
export interface Route {
  path: string;
  schema: unknown;
  options: BodyOptions;
}

/** What the routes answer on success. */
export interface Echo {
  received: unknown;
}

/** `/items` takes a small item: the route of the requests that follow a refusal. */
export const ITEMS_ROUTE: Route = {path: '/items', schema: itemSchema, options: {limit: '64kb'}};

type App = {listen(port: number, host: string): Server};

function expressApp(handler: 'problemHandler' | 'ordinary' | 'finalhandler', routes: readonly Route[]): express.Express {
  const app = express();
  // Express logs errors that reach its default handler unless env is 'test'.
  app.set('env', 'test');
  for (const route of routes) {
    app.post(route.path, expressAdapter.validateBody(route.schema as object, route.options), (req, res) => res.status(201).json({received: req.body}));
  }
  if (handler === 'problemHandler') app.use(expressAdapter.problemHandler());
  if (handler === 'ordinary') {
    const ordinary: ErrorRequestHandler = (error, _req, res, _next) => {
      res.status(error.status).json({error: error.type});
    };
    app.use(ordinary);
  }
  return app;
}

function koaApp(handler: 'problemHandler' | 'onerror' | 'try/catch', routes: readonly Route[]): Koa {
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
  for (const route of routes) router.post(route.path, koaAdapter.validateBody(route.schema as object, route.options), echo);
  app.use(router.routes());
  return app;
}

/**
 * Serves `app()` on 127.0.0.1 for the tests of the enclosing describe, and closes it, keep-alive
 * connections included, after them. Read `harness` and `origin` inside the tests.
 */
export function serving(app: () => App): {readonly harness: Harness; readonly origin: string} {
  let started: Harness | undefined;
  before(async () => {
    started = await listen(app());
  });
  after(() => {
    started?.server.closeAllConnections();
    started?.server.close();
  });
  return {
    get harness(): Harness {
      return started!;
    },
    get origin(): string {
      return `http://127.0.0.1:${started!.port}`;
    },
  };
}

/** One app per framework and way of answering an error, each serving `routes`. */
export function errorStyles(routes: readonly Route[]): ReadonlyArray<{name: string; app: () => App}> {
  return [
    {name: 'Express, problemHandler()', app: () => expressApp('problemHandler', routes)},
    {name: 'Express, an ordinary (err, req, res, next) handler', app: () => expressApp('ordinary', routes)},
    {name: "Express, Express's own final handler", app: () => expressApp('finalhandler', routes)},
    {name: 'Koa, problemHandler()', app: () => koaApp('problemHandler', routes)},
    {name: "Koa, Koa's default ctx.onerror", app: () => koaApp('onerror', routes)},
    {name: 'Koa, a try/catch that sets ctx.status and ctx.body', app: () => koaApp('try/catch', routes)},
  ];
}

export async function post(origin: string, path: string, text: string): Promise<{status: number; text: string}> {
  const response = await fetch(origin + path, {method: 'POST', headers: {'content-type': 'application/json'}, body: text});
  return {status: response.status, text: await response.text()};
}

/** The requests the same client sends to ITEMS_ROUTE after a refusal, each with the status it must get. */
function followUps(label: string): Array<{text: string; status: number}> {
  return [
    {text: JSON.stringify({name: `${label} 1`}), status: 201},
    {text: '{"name": 5}', status: 422},
    {text: '{"name": ', status: 400},
    {text: JSON.stringify({forbidden: 1, name: 'x'}), status: 422},
    {text: JSON.stringify({name: `${label} 2`}), status: 201},
  ];
}

/** The same fetch client's next requests after a refusal each get their own answer. */
export async function assertFollowUpsAnswered(origin: string, label: string): Promise<void> {
  for (const followUp of followUps(label)) {
    const reply = await post(origin, ITEMS_ROUTE.path, followUp.text);
    assert.equal(reply.status, followUp.status, `${followUp.text} answered ${reply.status}: ${reply.text}`);
    if (followUp.status === 201) assert.deepEqual((JSON.parse(reply.text) as Echo).received, JSON.parse(followUp.text));
  }
}

/** A request first, so the one under test goes out on a pooled, already-used connection. */
export async function warmUp(origin: string): Promise<void> {
  const warm = await post(origin, ITEMS_ROUTE.path, JSON.stringify({name: 'warm-up'}));
  assert.equal(warm.status, 201);
}

/** A chunked upload: fetch sends a stream without Content-Length. */
export function streamOf(bytes: Buffer): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 16 * KiB));
      offset += 16 * KiB;
    },
  });
}

/** A streamed upload for fetch (Node 20's RequestInit type lacks `duplex`, which a stream body requires). */
export function streamedInit(body: RequestInit['body'], headers: Record<string, string>): RequestInit & {duplex: 'half'} {
  return {method: 'POST', headers, body, duplex: 'half'};
}
