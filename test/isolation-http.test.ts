// Isolation of request bodies in the Express, Koa, Fastify and web adapters: a route compiles its
// schema once and judges every body with that validator, whole bodies by parseText and chunked
// ones by a session. Over one keep-alive connection, after bodies that were malformed, cut off,
// past a limit or not UTF-8, each body must get the answer (status and body) that a validator
// made for that request alone gives.

import assert from 'node:assert/strict';
import {once} from 'node:events';
import {Agent, request, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {describe, test} from 'node:test';
import Router from '@koa/router';
import express from 'express';
import fc from 'fast-check';
import Fastify, {type FastifyReply, type FastifyRequest} from 'fastify';
import Koa from 'koa';
import * as expressAdapter from '../adapters/express.js';
import {streamSchema} from '../adapters/fastify.js';
import type {BodyOptions} from '../adapters/http-body.js';
import * as koaAdapter from '../adapters/koa.js';
import * as web from '../adapters/web.js';
import type {Result} from '../src/types.js';
import {chunk, chunkingArbitrary, copySchema, describeBytes, documentArbitrary, familyCases, type Chunking, type SchemaCase} from './support/arbitraries.js';
import {property} from './support/property.js';

const TIMEOUT = {timeout: 120_000};

/**
 * An app with the route under test, `/shared`, whose one validator judges every body, and routes
 * that judge each body as if it were the first: Express and Koa make a validateBody per request on
 * `/fresh`; Fastify, whose routes are fixed once it listens, has one route per body
 * (`/fresh/<index>`). Each fresh one is given its own copy of the schema, so that no cache keyed
 * by the schema object hands it an already-used validator.
 */
type AppFactory = (schema: unknown, options: BodyOptions, bodies: number) => Promise<Server>;

async function listening(server: Server): Promise<Server> {
  if (!server.listening) await once(server, 'listening');
  return server;
}

async function expressApp(schema: unknown, options: BodyOptions): Promise<Server> {
  const app = express();
  app.set('env', 'test');
  const echo: express.RequestHandler = (req, res) => void res.type('json').send(JSON.stringify({body: req.body}));
  app.post('/shared', expressAdapter.validateBody(schema as object, options), echo);
  app.post('/fresh/:index', (req, res, next) => expressAdapter.validateBody(copySchema(schema) as object, options)(req, res, next), echo);
  app.use(expressAdapter.problemHandler());
  return listening(app.listen(0, '127.0.0.1'));
}

async function koaApp(schema: unknown, options: BodyOptions): Promise<Server> {
  const app = new Koa();
  app.silent = true;
  app.use(koaAdapter.problemHandler());
  const echo = (ctx: Koa.Context): void => {
    ctx.type = 'json';
    ctx.body = JSON.stringify({body: (ctx.request as {body?: unknown}).body});
  };
  const router = new Router();
  router.post('/shared', koaAdapter.validateBody(schema as object, options), echo);
  // The context as validateBody names it (its `request.body` is what it sets).
  router.post('/fresh/:index', (ctx, next) => koaAdapter.validateBody(copySchema(schema) as object, options)(ctx as never, next), echo);
  app.use(router.routes());
  return listening(app.listen(0, '127.0.0.1'));
}

async function fastifyApp(schema: unknown, options: BodyOptions, bodies: number): Promise<Server> {
  const app = Fastify();
  const {type: _type, invalidStatus: _invalidStatus, ...pluginOptions} = options;
  app.register(streamSchema, pluginOptions);
  const echo = async (request: FastifyRequest, reply: FastifyReply): Promise<string> => reply.type('application/json').send(JSON.stringify({body: request.body}));
  app.post('/shared', {schema: {body: schema}}, echo);
  for (let index = 0; index < bodies; index++) app.post(`/fresh/${index}`, {schema: {body: copySchema(schema)}}, echo);
  await app.listen({port: 0, host: '127.0.0.1'});
  return app.server;
}

const frameworks: [string, AppFactory][] = [
  ['Express', expressApp],
  ['Koa', koaApp],
  ['Fastify', fastifyApp],
];

/** A running app and a client that sends everything over one keep-alive connection (while the server keeps it). */
interface Client {
  post(path: string, body: Uint8Array, framing: Framing): Promise<Answer>;
  close(): Promise<void>;
  /** Connections the server accepted. */
  readonly connections: number;
}

interface Answer {
  status: number;
  body: string;
}

/** A whole body with its Content-Length (parseText), or chunked pieces (a session). */
type Framing = {contentLength: true} | {contentLength: false; chunking: Chunking};

async function start(server: Server): Promise<Client> {
  let connections = 0;
  server.on('connection', () => connections++);
  const {port} = server.address() as AddressInfo;
  const agent = new Agent({keepAlive: true, maxSockets: 1});
  return {
    get connections() {
      return connections;
    },
    post: (path, body, framing) => send(agent, port, path, body, framing),
    async close() {
      agent.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A request the server leaves unanswered this long is a failure, not a hang. */
const ANSWER_TIMEOUT_MS = 5000;

function send(agent: Agent, port: number, path: string, body: Uint8Array, framing: Framing): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {'content-type': 'application/json'};
    if (framing.contentLength) headers['content-length'] = body.length;
    const outgoing = request({agent, port, host: '127.0.0.1', method: 'POST', path, headers, timeout: ANSWER_TIMEOUT_MS}, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (piece: string) => (text += piece));
      response.on('end', () => resolve({status: response.statusCode!, body: text}));
      response.on('error', reject);
    });
    // A server that answers before the body's end may close before the last bytes are written.
    outgoing.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    outgoing.on('timeout', () => {
      reject(new Error(`no answer to ${describeBytes(body)} within ${ANSWER_TIMEOUT_MS} ms`));
      outgoing.destroy();
    });
    if (framing.contentLength) outgoing.end(body);
    else {
      for (const piece of chunk(body, framing.chunking)) outgoing.write(piece);
      outgoing.end();
    }
  });
}

/** Options a route is given: the schema case's, and `strict: false` so that a scalar body is judged by the validator too. */
function bodyOptions(schemaCase: SchemaCase): BodyOptions {
  return {...schemaCase.options, strict: false} as BodyOptions;
}

// ---------------------------------------------------------------------------------------------

interface HttpScenario {
  schemaCase: SchemaCase;
  bodies: {bytes: Uint8Array; framing: Framing; shown: string}[];
}

function scenarioArbitrary(): fc.Arbitrary<HttpScenario> {
  return familyCases().chain(({schemaCase, family}) => {
    // Most bodies come whole with their Content-Length (parseText); the others chunked (a session).
    const framing = fc.oneof({weight: 3, arbitrary: fc.constant<Framing>({contentLength: true})}, {weight: 1, arbitrary: chunkingArbitrary.map((chunking): Framing => ({contentLength: false, chunking}))});
    const body = fc.tuple(documentArbitrary(schemaCase, family), framing).map(([document, framing]) => {
      // An empty body is no body at all (a 400 of the adapter's own, not the validator's).
      const bytes = document.bytes.length === 0 ? Uint8Array.of(0x20) : document.bytes;
      return {bytes, framing, shown: `${document.kind} ${describeBytes(bytes)}${framing.contentLength ? '' : ', chunked'}`};
    });
    return fc.record({schemaCase: fc.constant(schemaCase), bodies: fc.array(body, {minLength: 2, maxLength: 12})});
  });
}

describe('a route tells every body on a keep-alive connection what a fresh validator tells it', () => {
  for (const [name, app] of frameworks) {
    test(`${name}: malformed, cut-off, over-limit and non-UTF-8 bodies before valid and invalid ones`, TIMEOUT, async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArbitrary(), async ({schemaCase, bodies}) => {
          const shared = await start(await app(schemaCase.schema, bodyOptions(schemaCase), bodies.length));
          const fresh = await start(await app(schemaCase.schema, bodyOptions(schemaCase), bodies.length));
          try {
            for (const [index, {bytes, framing, shown}] of bodies.entries()) {
              const expected = await fresh.post(`/fresh/${index}`, bytes, framing);
              const actual = await shared.post('/shared', bytes, framing);
              const before = bodies.slice(0, index).map((body) => body.shown);
              assert.deepEqual(actual, expected, `body ${index} (${shown}) after ${JSON.stringify(before)}`);
            }
          } finally {
            await Promise.all([shared.close(), fresh.close()]);
          }
        }),
        property(16),
      );
    });
  }
});

// ---------------------------------------------------------------------------------------------
// The web adapter: validateRequest and validationSink keep one validator per schema object (and
// options), so every Request or stream given the same schema object shares it.

/** A Request's outcome as its caller sees it: the value, or the refusal as problemResponse answers it. */
async function requestOutcome(work: () => Promise<unknown>): Promise<{value: string} | {status: number; body: string}> {
  try {
    return {value: JSON.stringify(await work())};
  } catch (error) {
    const response = web.problemResponse(error);
    return {status: response.status, body: await response.text()};
  }
}

function webRequest(bytes: Uint8Array, framing: Framing): Request {
  const headers: Record<string, string> = {'content-type': 'application/json'};
  if (framing.contentLength) return new Request('http://localhost/', {method: 'POST', headers: {...headers, 'content-length': String(bytes.length)}, body: bytes.slice()});
  const pieces = chunk(bytes, framing.chunking).map((piece) => (typeof piece === 'string' ? new TextEncoder().encode(piece) : piece));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces.shift();
      if (piece === undefined) controller.close();
      else controller.enqueue(piece);
    },
  });
  return new Request('http://localhost/', {method: 'POST', headers, body, duplex: 'half'} as RequestInit);
}

async function sinkOutcome(sink: WritableStream<Uint8Array> & {readonly result: Promise<Result>}, pieces: Uint8Array[]): Promise<Result> {
  const writer = sink.getWriter();
  // A sink refuses at the first certainly bad byte: the writes after it reject, as does close().
  for (const piece of pieces) await writer.write(piece).catch(() => undefined);
  await writer.close().catch(() => undefined);
  return sink.result;
}

describe('the web adapter tells every body what a fresh validator tells it', () => {
  test('validateRequest: Requests with one schema object, after malformed, cut-off and over-limit ones', TIMEOUT, async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary(), async ({schemaCase, bodies}) => {
        const options = bodyOptions(schemaCase) as web.RequestOptions;
        for (const [index, {bytes, framing, shown}] of bodies.entries()) {
          const expected = await requestOutcome(() => web.validateRequest(webRequest(bytes, framing), copySchema(schemaCase.schema), options));
          const actual = await requestOutcome(() => web.validateRequest(webRequest(bytes, framing), schemaCase.schema, options));
          assert.deepEqual(actual, expected, `body ${index} (${shown}) after ${JSON.stringify(bodies.slice(0, index).map((body) => body.shown))}`);
        }
      }),
      property(25),
    );
  });

  test('validationSink: documents written to sinks of one schema object, one after another', TIMEOUT, async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary(), async ({schemaCase, bodies}) => {
        for (const [index, {bytes, framing, shown}] of bodies.entries()) {
          const pieces = chunk(bytes, framing.contentLength ? {cuts: [], every: 0, afterHighBytes: false, singleBytes: false, strings: false} : framing.chunking).map((piece) =>
            typeof piece === 'string' ? new TextEncoder().encode(piece) : piece,
          );
          const expected = await sinkOutcome(web.validationSink(copySchema(schemaCase.schema), schemaCase.options), pieces);
          const actual = await sinkOutcome(web.validationSink(schemaCase.schema, schemaCase.options), pieces);
          assert.deepStrictEqual(actual, expected, `document ${index} (${shown}) after ${JSON.stringify(bodies.slice(0, index).map((body) => body.shown))}`);
        }
      }),
      property(20),
    );
  });
});
