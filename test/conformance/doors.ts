// The rows of the hostile conformance suite: one per front door that takes a body. The cases
// (cases.ts) are data; hostile.test.ts runs every case against every row. A row is a thin
// harness, in the manner of Bowtie's per-implementation harnesses: "given this schema (or
// compiled validator) and these bytes, cut like this, from a sender that behaves like this, what
// did the door say, what did the handler get, and what did it leave behind".
//
// Adding a door: write one more Door below and list it in DOORS.
//   - `open(mounts)` sets the door up once for every Mount the cases use (an HTTP door: one route
//     per mount, on one server; an in-process door has nothing to set up) and returns an Opened
//     whose `judge(mount, body, source)` feeds the body's chunks exactly as `source.next()` hands
//     them out, stops pulling once the door has its verdict, and reports it as a Verdict
//     (harness.ts has the helpers that turn a Result, an HttpError or an HTTP answer into one).
//     An HTTP door returns a ServedDoor (wire.ts), which also serves the connection cases.
//   - A mount option the door cannot honour (`mediaType`, `changeBody`...) makes `open` throw:
//     `refuseOptions` below. Never ignore one silently.
//   - `mountError(value, options)` mounts a value alone (with options, if given) and returns what that threw.
//   - `skip` names each case the door does not run, with the reason beside it. The runner prints
//     every skip, and fails on a skip without a reason or naming no case. A skip states what the
//     door cannot be asked (it has no Content-Encoding, no server, no such hook), never that it
//     answers wrongly: a wrong answer is a failing case.

import {once} from 'node:events';
import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import type {Server} from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

import Router from '@koa/router';
import express, {type ErrorRequestHandler} from 'express';
import Fastify, {type FastifyInstance, type FastifyServerOptions} from 'fastify';
import Koa from 'koa';
import {from} from 'rxjs';
import chain from 'stream-chain';
import {parser} from 'stream-json';

import * as expressAdapter from '../../adapters/express.js';
import streamSchema, {type FastifyBodyOptions} from '../../adapters/fastify.js';
import * as koaAdapter from '../../adapters/koa.js';
import {validateNdjson, type NdjsonRecord} from '../../adapters/rxjs.js';
import {jsonValidator, ndjsonValidator} from '../../adapters/stream.js';
import {tokenConsumer} from '../../adapters/stream-json.js';
import {validateTextStream} from '../../adapters/text-stream.js';
import {validatorFor} from '../../adapters/validator-cache.js';
import {problemResponse, validateRequest, validationSink, validationStream, type StreamOptions} from '../../adapters/web.js';
import {serve} from '../../examples/web-server.js';
import {isValidator} from '../../src/index.js';
import type {OutputUnit, Result, SchemaOrValidator} from '../../src/types.js';
import {
  newRecord,
  Source,
  tell,
  unitDetail,
  verdictOfRejection,
  verdictOfResult,
  type AppRecord,
  type BodySpec,
  type Door,
  type Mount,
  type Opened,
  type Refusal,
  type Verdict,
} from './harness.js';
import {MIDDLEWARE_STATUSES, ServedDoor, type ServedApp} from './wire.js';
import {buildPackage, runNode, type Run} from '../support/cliRun.js';

// ---------------------------------------------------------------------------------------------
// Skip reasons several rows share

const NO_SERVER = 'no HTTP server: the door is called in process, so there is no connection to close or keep';
const NO_HEADERS = 'no request headers: the door is given bytes, with no Content-Type, Content-Encoding or Content-Length to read';
const NO_VALUE = 'it hands on no value (the bytes as sent, or a verdict alone): a number is judged as written, as validateText judges it';
const ROUNDED = 'a number JSON.parse rounds is judged as the double handed on';
const NO_STATUS = 'no HTTP status: its refusals are errors to its own caller, not answers to a client';
const NO_ANSWER = "no answer to a client: the errors go to the door's own caller, who gave it the document";
const NO_TIMEOUT = 'no timeout option: how long to wait for the next chunk is the caller of this door to decide';
const NO_LIMIT = 'no byte limit option: the caller bounds what it writes (the validator limits still apply)';
const FASTIFY_ONLY = 'no such framework feature: Fastify alone has per-media-type body schemas, preValidation hooks and onProtoPoisoning';
const NDJSON_RECORD_AT_LINE_END =
  "an NDJSON record's verdict comes at its line's end; the rest of a failed line is skipped, not kept, but read, since the next record starts after it";

/** The same reason for each of `cases`. */
function skipping(reason: string, cases: readonly string[]): Record<string, string> {
  return Object.fromEntries(cases.map((name) => [name, reason]));
}

/** The cases only Fastify can be asked. */
const FASTIFY_CASES = skipping(FASTIFY_ONLY, [
  'a media type the route schema.body.content does not list is 415',
  'a body a preValidation hook changed is judged as changed',
  "a body onProtoPoisoning 'remove' stripped is judged as stripped",
]);

/** The cases about an HTTP connection. */
const CONNECTION_CASES = skipping(NO_SERVER, [
  'early refusal over the wire: answered after a bounded prefix, the connection closed',
  'a refusal that leaves the body unread closes the connection, whoever answers it',
  'a body of a media type the route does not take is refused unread, and the connection closed',
  'a schema violation in a body read whole keeps the connection for the next request',
  'a refusal of a body read whole or discarded keeps the connection for the next request',
  'requests written at once on one connection: a cut-off body carries no state into the next, and no handler runs',
  "after a refusal, the same fetch client's next requests each get their own answer",
]);

/** What every door without request headers cannot be asked. */
const HEADER_CASES = skipping(NO_HEADERS, [
  'a gzip bomb is refused by the limit, having read a few KiB',
  'empty gzip members are refused once the bytes sent pass the limit',
  'a compressed body within the limit is decoded and judged',
  'a Content-Encoding named like an Object.prototype member is 415, never 500',
  'a body longer than its Content-Length is not judged by its first chunk alone',
  'a body announced over the limit is refused before a byte of it is read',
  'a type option that is not a media type, a list of them or a function is a TypeError when mounted',
]);

/** What every door that answers no HTTP client cannot be asked. */
const STATUS_CASES = skipping(NO_STATUS, ['an invalidStatus other than 400 or 422 is a TypeError when mounted']);

const TIMEOUT_CASES = skipping(NO_TIMEOUT, [
  'a sender that stalls is refused at the idle timeout',
  'a sender that trickles past the total timeout is refused',
  'a body trickled within both timeouts is accepted',
]);

const LIMIT_CASES = skipping(NO_LIMIT, [
  'a body over the byte limit is refused',
  'a bad byte before the limit in the chunk that crosses it is the answer',
  'endless whitespace is refused by the byte limit',
]);

/** Throws for a mount option this door has no way to honour. */
function refuseOptions(door: string, mount: Mount, options: ReadonlyArray<keyof Mount>): void {
  for (const option of options) {
    if (mount[option] !== undefined) throw new Error(`${door} cannot be mounted with ${option}: skip the case with a reason`);
  }
}

/** The middleware for `mount`, or undefined with what mounting threw kept in `failures`. */
function mounted<Middleware>(failures: Map<Mount, unknown>, mount: Mount, mounting: () => Middleware): Middleware | undefined {
  try {
    return mounting();
  } catch (thrown) {
    failures.set(mount, thrown);
    return undefined;
  }
}

async function thrownBy(mounting: () => unknown): Promise<unknown> {
  try {
    await mounting();
  } catch (thrown) {
    return thrown;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Express and Koa

/**
 * A mount's options as every door names them (`limit`, `timeout`, `limits`, body-parser's `strict`),
 * only those it sets, so that a validator gets no compile option; each door takes what it has.
 */
function optionsOf(mount: Mount): {limit?: number; timeout?: Mount['timeout']; limits?: Mount['limits']; strict?: boolean} {
  const options: ReturnType<typeof optionsOf> = {};
  const limit = mount.limit ?? mount.bodyRoom;
  if (limit !== undefined) options.limit = limit;
  if (mount.timeout !== undefined) options.timeout = mount.timeout;
  if (mount.limits !== undefined) options.limits = mount.limits;
  if (mount.scalars === true) options.strict = false;
  return options;
}

const NOT_FASTIFY: ReadonlyArray<keyof Mount> = ['mediaType', 'changeBody', 'protoPoisoning'];

/** An http.Server started on 127.0.0.1, closed with its connections. */
async function served(server: Server): Promise<ServedApp> {
  if (!server.listening) await once(server, 'listening');
  return {
    server,
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const expressDoor: Door = {
  name: 'Express validateBody',
  styles: ['problemHandler()', 'an error handler of its own', "Express's final handler"],
  skip: {
    ...FASTIFY_CASES,
  },
  async open(mounts) {
    const record = newRecord();
    const app = express();
    // Express logs errors that reach its final handler unless env is 'test'.
    app.set('env', 'test');
    const own: ErrorRequestHandler = (error, _req, res, _next) => void res.status(error.status ?? 500).json({error: error.type});
    const told: ErrorRequestHandler = (error, _req, _res, next) => {
      tell(record, error);
      next(error);
    };
    const paths = new Map<Mount, string>();
    const failures = new Map<Mount, unknown>();
    mounts.forEach((mount, index) => {
      refuseOptions('Express', mount, NOT_FASTIFY);
      const validate = mounted(failures, mount, () => expressAdapter.validateBody(mount.schema as SchemaOrValidator, optionsOf(mount)));
      if (validate === undefined) return;
      const router = express.Router();
      router.post('/', validate, (req, res) => {
        record.handled++;
        res.status(200).json({received: req.body});
      });
      router.use(told);
      if ((mount.style ?? 0) === 0) router.use(expressAdapter.problemHandler());
      if (mount.style === 1) router.use(own);
      // Each route under its own path, so that an error reaches its own route's handler only.
      paths.set(mount, `/m/${index}`);
      app.use(`/m/${index}`, router);
    });
    return new ServedDoor(await served(app.listen(0, '127.0.0.1')), paths, MIDDLEWARE_STATUSES, record, failures);
  },
  mountError: (schema, options) => thrownBy(() => expressAdapter.validateBody(schema as SchemaOrValidator, options as never)),
};

const koaDoor: Door = {
  name: 'Koa validateBody',
  styles: ['problemHandler()', "Koa's own ctx.onerror", 'a try/catch that answers itself', 'a middleware that rethrows a new error'],
  skip: {
    ...FASTIFY_CASES,
  },
  async open(mounts) {
    const record = newRecord();
    const app = new Koa();
    app.silent = true;
    const router = new Router();
    const answers: Koa.Middleware = async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        const {status, type} = error as {status?: number; type?: string};
        ctx.status = status ?? 500;
        ctx.body = {error: type};
      }
    };
    // Koa's ctx.onerror answers the new error after removing every header the response had.
    const rethrows: Koa.Middleware = async (_ctx, next) => {
      try {
        await next();
      } catch (error) {
        throw Object.assign(new Error('wrapped'), {status: (error as {status?: number}).status});
      }
    };
    const told: Koa.Middleware = async (_ctx, next) => {
      try {
        await next();
      } catch (error) {
        tell(record, error);
        throw error;
      }
    };
    const styles: Koa.Middleware[][] = [[koaAdapter.problemHandler()], [], [answers], [rethrows]];
    const paths = new Map<Mount, string>();
    const failures = new Map<Mount, unknown>();
    mounts.forEach((mount, index) => {
      refuseOptions('Koa', mount, NOT_FASTIFY);
      const validate = mounted(failures, mount, () => koaAdapter.validateBody(mount.schema as SchemaOrValidator, optionsOf(mount)) as unknown as Koa.Middleware);
      if (validate === undefined) return;
      paths.set(mount, `/m/${index}`);
      router.post(`/m/${index}`, ...styles[mount.style ?? 0]!, told, validate, (ctx) => {
        record.handled++;
        ctx.status = 200;
        ctx.body = {received: (ctx.request as {body?: unknown}).body};
      });
    });
    app.use(router.routes());
    return new ServedDoor(await served(app.listen(0, '127.0.0.1')), paths, MIDDLEWARE_STATUSES, record, failures);
  },
  mountError: (schema, options) => thrownBy(() => koaAdapter.validateBody(schema as SchemaOrValidator, options as never)),
};

// ---------------------------------------------------------------------------------------------
// Fastify

/** Fastify answers a schema violation from its own validation step: 400. */
const FASTIFY_STATUSES: Readonly<Record<Refusal, number>> = {...MIDDLEWARE_STATUSES, validation: 400};

/**
 * The plugin's options: Fastify's route `bodyLimit` is the byte limit, and Fastify takes any JSON
 * value. A schema is judged as written, as at every other door: the plugin's defaults, Fastify's
 * value options, are test/fastify-parity.test.ts's (a compiled validator keeps its own).
 */
function pluginOptions(mount: Mount): FastifyBodyOptions {
  const {limit: _limit, strict: _strict, ...options} = optionsOf(mount);
  return isValidator(mount.schema) ? options : {...options, ...AS_WRITTEN};
}

const AS_WRITTEN: FastifyBodyOptions = {coerceTypes: false, useDefaults: false, removeAdditional: false};

/** One route per mount, each in a scope of its own with the plugin registered for that mount's options. */
function fastifyRoutes(app: FastifyInstance, mounts: readonly Mount[], paths: Map<Mount, string>, record: AppRecord): void {
  for (const mount of mounts) {
    const path = paths.get(mount)!;
    app.register(async (scope) => {
      await scope.register(streamSchema, pluginOptions(mount));
      scope.addHook('onError', async (_request, _reply, error) => tell(record, error));
      if (mount.style === 1) {
        scope.setErrorHandler((error: {statusCode?: number; code?: string}, _request, reply) => reply.code(error.statusCode ?? 500).send({error: error.code}));
      }
      const changeBody = mount.changeBody;
      if (changeBody !== undefined) {
        scope.addHook('preValidation', async (request) => {
          request.body = changeBody(request.body);
        });
      }
      const body = mount.mediaType === undefined ? mount.schema : {content: {[mount.mediaType]: {schema: mount.schema}}};
      const bodyLimit = mount.limit ?? mount.bodyRoom;
      scope.post(path, {schema: {body}, ...(bodyLimit === undefined ? {} : {bodyLimit})}, async (request, reply) => {
        record.handled++;
        return reply.code(200).send({received: request.body});
      });
    });
  }
}

const fastifyDoor: Door = {
  name: 'Fastify streamSchema plugin',
  styles: ["Fastify's own error reply", 'an error handler of its own'],
  skip: {
    'a body of a media type the route does not take is refused unread, and the connection closed':
      'Fastify answers a media type no parser takes itself (lib/handle-request.js), before the plugin sees the request; Node then reads and discards the rest to keep the connection',
    'a refusal of a body read whole or discarded keeps the connection for the next request':
      "Fastify closes the connection after any content-type parser error, as plain Fastify does (lib/content-type-parser.js: 'the client may send more data')",
    'null options are a TypeError when mounted': 'Fastify gives every plugin registered with null options an empty object (avvio), so the plugin never sees null',
  },
  async open(mounts) {
    const record = newRecord();
    const paths = new Map<Mount, string>(mounts.map((mount, index) => [mount, `/m/${index}`]));
    // A route Fastify cannot build fails the whole app's ready(): the mounts of a compiled
    // validator get an app of their own, so that such a failure fails their cases alone; and
    // onProtoPoisoning is a server option.
    const validators = mounts.filter((mount) => isValidator(mount.schema) && mount.protoPoisoning === undefined);
    const removing = mounts.filter((mount) => mount.protoPoisoning === 'remove');
    const main = await startFastify({}, mounts.filter((mount) => !validators.includes(mount) && !removing.includes(mount)), paths, record);
    if (main instanceof Error) throw main;
    const others = new Map<Mount, ServedDoor>();
    const failures = new Map<Mount, unknown>();
    for (const [options, group] of [[{}, validators], [{onProtoPoisoning: 'remove'}, removing]] as const) {
      if (group.length === 0) continue;
      const started = await startFastify(options, group, paths, record);
      for (const mount of group) {
        if (started instanceof Error) failures.set(mount, started);
        else others.set(mount, started);
      }
    }
    return {
      judge: async (mount, body, source) => {
        if (failures.has(mount)) throw failures.get(mount);
        return (others.get(mount) ?? main).judge(mount, body, source);
      },
      server: main.server,
      close: async () => {
        await Promise.all([main, ...new Set(others.values())].map((door) => door.close()));
      },
    };
  },
  async mountError(schema, options) {
    const app = Fastify();
    app.register(streamSchema, options as never);
    app.post('/', {schema: {body: schema}}, async () => null);
    const thrown = await thrownBy(() => app.ready());
    await closeFastify(app);
    return asFastifyTypeError(thrown, schema);
  },
};

/** A Fastify app serving `mounts`, listening; or what its ready() failed with. */
async function startFastify(options: FastifyServerOptions, mounts: readonly Mount[], paths: Map<Mount, string>, record: AppRecord): Promise<ServedDoor | Error> {
  const app = Fastify(options);
  fastifyRoutes(app, mounts, paths, record);
  try {
    await app.listen({port: 0, host: '127.0.0.1'});
  } catch (error) {
    await app.close().catch(() => undefined);
    return error as Error;
  }
  return new ServedDoor({server: app.server, close: () => closeFastify(app)}, paths, FASTIFY_STATUSES, record);
}

async function closeFastify(app: FastifyInstance): Promise<void> {
  app.server.closeAllConnections();
  await app.close();
}

/**
 * Fastify keeps only the message of what a validator compiler threw (FST_ERR_SCH_VALIDATION_BUILD,
 * lib/route.js), so the class is recovered by that message: the TypeError the shared
 * `validatorFor` throws for the same value.
 */
function asFastifyTypeError(thrown: unknown, schema: unknown): unknown {
  if ((thrown as {code?: unknown} | undefined)?.code !== 'FST_ERR_SCH_VALIDATION_BUILD') return thrown;
  let reference: unknown;
  try {
    validatorFor(schema as SchemaOrValidator);
  } catch (error) {
    reference = error;
  }
  if (reference instanceof TypeError && (thrown as Error).message.includes(reference.message)) return Object.assign(new TypeError((thrown as Error).message), {cause: thrown});
  return thrown;
}

// ---------------------------------------------------------------------------------------------
// Web

/** validationStream's and validationSink's options: they have a byte limit, and take any JSON value. */
function streamOptions(mount: Mount): StreamOptions {
  const {limit, limits} = optionsOf(mount);
  return {...(limit === undefined ? {} : {limit}), ...(limits === undefined ? {} : {limits})};
}

/** A fetch Request carrying `source`, its headers as the body says. */
function requestOf(body: BodySpec, source: Source): Request {
  const headers: Record<string, string> = {'content-type': 'application/json', ...body.headers};
  if (body.announced === true && body.length !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')) {
    headers['content-length'] = String(body.length);
  }
  // Node 20's RequestInit type lacks `duplex`, which a stream body requires.
  const init: RequestInit & {duplex: 'half'} = {method: 'POST', headers, body: source.stream(), duplex: 'half'};
  return new Request('http://127.0.0.1/', init);
}

const webRequestDoor: Door = {
  name: 'web validateRequest',
  styles: ['problemResponse()', 'a Response of its own'],
  skip: {
    ...FASTIFY_CASES,
    'a refusal of a body read whole or discarded keeps the connection for the next request':
      "a fetch handler's server (examples/web-server.ts) closes the connection whenever the handler answers before the body's end, and validateRequest refuses a small body from its head without reading it: only the Node middleware discards a small body to keep the connection",
  },
  async open(mounts) {
    for (const mount of mounts) refuseOptions('validateRequest', mount, NOT_FASTIFY);
    // The connection cases: Node's http server with a fetch handler (examples/web-server.ts).
    const record = newRecord();
    const paths = new Map<Mount, string>(mounts.map((mount, index) => [mount, `/m/${index}`]));
    const byPath = new Map([...paths].map(([mount, path]) => [path, mount]));
    const server = serve(async (request) => {
      const mount = byPath.get(new URL(request.url).pathname);
      if (mount === undefined) return new Response(null, {status: 404});
      try {
        const received = await validateRequest(request, mount.schema as SchemaOrValidator, optionsOf(mount));
        record.handled++;
        return Response.json({received});
      } catch (error) {
        tell(record, error);
        if ((mount.style ?? 0) === 0) return problemResponse(error);
        const {status, type} = error as {status?: number; type?: string};
        return Response.json({error: type}, {status: status ?? 500});
      }
    });
    server.listen(0, '127.0.0.1');
    const wire = new ServedDoor(await served(server), paths, MIDDLEWARE_STATUSES, record);
    return {
      server: wire.server,
      close: () => wire.close(),
      async judge(mount, body, source) {
        try {
          const value = await validateRequest(requestOf(body, source), mount.schema as SchemaOrValidator, optionsOf(mount));
          return {accepted: true, value, detail: {}, consumed: source.pulled};
        } catch (error) {
          return {...verdictOfRejection(error, source.pulled), answer: await problemResponse(error).text()};
        }
      },
    };
  },
  mountError: (schema, options) => thrownBy(() => validateRequest(new Request('http://127.0.0.1/', {method: 'POST', body: '{}', headers: {'content-type': 'application/json'}}), schema as SchemaOrValidator, options as never)),
};

/** Bytes a door passed on, as the value the next stage would read from them. */
function valueOfBytes(bytes: Uint8Array): unknown {
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    return {passedOnBytesThatAreNotJson: text};
  }
}

/** An in-process door: nothing to set up but a check of the mounts' options; `judge` does the work. */
function inProcess(door: string, refused: ReadonlyArray<keyof Mount>, judge: Opened['judge']): Door['open'] {
  return async (mounts) => {
    for (const mount of mounts) refuseOptions(door, mount, refused);
    return {judge, close: async () => {}};
  };
}

/** The verdict of a door that resolves to a Result, or rejects. */
async function verdictOf(work: Promise<Result>, source: Source, givesValue: boolean): Promise<Verdict> {
  try {
    return verdictOfResult(await work, source.pulled, givesValue);
  } catch (error) {
    return verdictOfRejection(error, source.pulled);
  }
}

const webStreamDoor: Door = {
  name: 'web validationStream',
  skip: {
    [ROUNDED]: NO_VALUE,
    ...FASTIFY_CASES,
    ...CONNECTION_CASES,
    ...HEADER_CASES,
    ...TIMEOUT_CASES,
    'a key of 5,000 characters is never echoed in the answer': NO_ANSWER,
    'under the value options the value handed on is the value judged': 'it hands on the bytes as sent, so a validator that changes values is a TypeError when mounted (test/web.test.ts)',
  },
  open: inProcess('validationStream', [...NOT_FASTIFY, 'timeout'], async (mount, _body, source) => {
    const passed: Uint8Array[] = [];
    try {
      for await (const chunk of source.stream().pipeThrough(validationStream(mount.schema as SchemaOrValidator, streamOptions(mount)))) passed.push(chunk);
    } catch (error) {
      return verdictOfRejection(error, source.pulled);
    }
    return {accepted: true, value: valueOfBytes(Buffer.concat(passed)), detail: {}, consumed: source.pulled};
  }),
  mountError: (schema, options) => thrownBy(() => validationStream(schema as SchemaOrValidator, options as never)),
};

const webSinkDoor: Door = {
  name: 'web validationSink',
  skip: webStreamDoor.skip,
  open: inProcess('validationSink', [...NOT_FASTIFY, 'timeout'], async (mount, _body, source) => {
    const sink = validationSink(mount.schema as SchemaOrValidator, streamOptions(mount));
    // A refusal errors the pipe; the verdict is the sink's result either way.
    await source.stream().pipeTo(sink).catch(() => undefined);
    return verdictOf(sink.result, source, false);
  }),
  mountError: (schema, options) => thrownBy(() => validationSink(schema as SchemaOrValidator, options as never)),
};

// ---------------------------------------------------------------------------------------------
// text-stream, stream, rxjs

const textStreamDoor: Door = {
  name: 'text-stream validateTextStream',
  skip: {
    ...FASTIFY_CASES,
    ...CONNECTION_CASES,
    ...HEADER_CASES,
    ...STATUS_CASES,
    'a key of 5,000 characters is never echoed in the answer': NO_ANSWER,
  },
  open: inProcess('validateTextStream', NOT_FASTIFY, (mount, _body, source) => {
    // Any JSON value is a document to it: there is no `strict` to turn off.
    const {strict: _strict, ...options} = optionsOf(mount);
    return verdictOf(validateTextStream(source.iterable(), mount.schema as SchemaOrValidator, {parse: true, ...options}), source, true);
  }),
  mountError: (schema, options) => thrownBy(() => validateTextStream((async function* () {})(), schema as SchemaOrValidator, options as never)),
};

/** Writes `source` into a Node Writable, chunk by chunk, until `done()` says the verdict is in; a failing source destroys it. */
async function writeInto(stream: NodeJS.WritableStream & {destroy(error?: Error): unknown}, source: Source, done: () => boolean): Promise<void> {
  try {
    for (;;) {
      if (done()) return source.stop();
      const chunk = await source.next();
      if (chunk === undefined) return void stream.end();
      await new Promise<void>((resolve) => stream.write(chunk, () => resolve()));
    }
  } catch (error) {
    stream.destroy(error as Error);
  }
}

/** What the stream and RxJS doors have no option for: a byte limit, a timeout. */
const NOT_HTTP: ReadonlyArray<keyof Mount> = [...NOT_FASTIFY, 'limit', 'timeout'];

/** The compile options of a stream or RxJS door: the validator limits alone (its documents may be any JSON value). */
function limitsOf(mount: Mount): {parse: true; limits?: Mount['limits']} {
  return mount.limits === undefined ? {parse: true} : {parse: true, limits: mount.limits};
}

const STREAM_SKIPS = {
  ...FASTIFY_CASES,
  ...CONNECTION_CASES,
  ...HEADER_CASES,
  ...STATUS_CASES,
  ...TIMEOUT_CASES,
  ...LIMIT_CASES,
  'a key of 5,000 characters is never echoed in the answer': NO_ANSWER,
};

const jsonValidatorDoor: Door = {
  name: 'stream jsonValidator',
  skip: STREAM_SKIPS,
  open: inProcess('jsonValidator', NOT_HTTP, async (mount, _body, source) => {
    const validator = jsonValidator(mount.schema as SchemaOrValidator, limitsOf(mount));
    validator.on('error', () => undefined);
    let concluded = false;
    validator.once('result', () => (concluded = true));
    await writeInto(validator, source, () => concluded);
    return verdictOf(validator.result, source, true);
  }),
  mountError: (schema, options) => thrownBy(() => jsonValidator(schema as SchemaOrValidator, options as never)),
};

/** One document through an NDJSON door: its one record's verdict, or what the door failed with. */
function verdictOfRecords(records: readonly NdjsonRecord[], failure: unknown, source: Source): Verdict {
  if (failure !== undefined) return verdictOfRejection(failure, source.pulled);
  if (records.length !== 1) return {accepted: false, refusal: 'no document', detail: {records: records.map((record) => record.errors.map(unitDetail))}, consumed: source.pulled};
  return verdictOfResult(records[0]!, source.pulled, true);
}

const NDJSON_SKIPS = {
  ...STREAM_SKIPS,
  'an empty body is refused': 'an empty NDJSON stream holds no record: there is nothing to refuse',
  'a long body made invalid early (a forbidden first key, a string past its maxLength) is refused having read a bounded prefix': NDJSON_RECORD_AT_LINE_END,
};

const ndjsonValidatorDoor: Door = {
  name: 'stream ndjsonValidator',
  skip: NDJSON_SKIPS,
  open: inProcess('ndjsonValidator', NOT_HTTP, async (mount, _body, source) => {
    const transform = ndjsonValidator(mount.schema as SchemaOrValidator, limitsOf(mount));
    const records: NdjsonRecord[] = [];
    transform.on('data', (record: NdjsonRecord) => records.push(record));
    const finished = new Promise<unknown>((resolve) => {
      transform.on('end', () => resolve(undefined));
      transform.on('error', resolve);
    });
    await writeInto(transform, source, () => false);
    return verdictOfRecords(records, await finished, source);
  }),
  mountError: (schema, options) => thrownBy(() => ndjsonValidator(schema as SchemaOrValidator, options as never)),
};

const rxjsDoor: Door = {
  name: 'rxjs validateNdjson',
  skip: NDJSON_SKIPS,
  open: inProcess('validateNdjson', NOT_HTTP, async (mount, _body, source) => {
    const records: NdjsonRecord[] = [];
    const failure = await new Promise<unknown>((resolve) => {
      from(source.iterable())
        .pipe(validateNdjson(mount.schema as SchemaOrValidator, limitsOf(mount)))
        .subscribe({next: (record) => records.push(record), error: resolve, complete: () => resolve(undefined)});
    });
    return verdictOfRecords(records, failure, source);
  }),
  mountError: (schema, options) => thrownBy(() => validateNdjson(schema as SchemaOrValidator, options as never)),
};

/**
 * stream-json's parser in a stream-chain pipeline, into `tokenConsumer`: the door takes tokens, and
 * malformed text is the parser's to refuse, with an Error of its own (a `syntax` refusal here).
 */
const streamJsonDoor: Door = {
  name: 'stream-json tokenConsumer',
  skip: {
    [ROUNDED]: NO_VALUE,
    ...STREAM_SKIPS,
    'a number past maxNumberLength is refused there, before a malformed character further on': "stream-json's parser refuses the malformed number before its token reaches the validator",
  },
  open: inProcess('tokenConsumer', NOT_HTTP, async (mount, _body, source) => {
    const results: Result[] = [];
    const pipeline = chain([parser(), tokenConsumer(mount.schema as SchemaOrValidator, mount.limits === undefined ? {} : {limits: mount.limits})]);
    pipeline.on('data', (result: Result) => results.push(result));
    const finished = new Promise<unknown>((resolve) => {
      pipeline.on('end', () => resolve(undefined));
      pipeline.on('error', resolve);
    });
    await writeInto(pipeline, source, () => results.length > 0);
    const failure = results.length > 0 ? undefined : await finished;
    if (results.length > 0) {
      // Tokens carry no bytes: this door tells an error's code, not its offset.
      const verdict = verdictOfResult(results[0]!, source.pulled, false);
      if (verdict.firstError !== undefined) verdict.firstError = {code: verdict.firstError.code};
      return verdict;
    }
    const message = failure instanceof Error ? failure.message : String(failure);
    if (failure !== undefined && message.startsWith('Parser ')) return {accepted: false, refusal: 'syntax', detail: {parser: message}, consumed: source.pulled};
    return verdictOfRejection(failure ?? new Error('the pipeline ended with no result'), source.pulled);
  }),
  mountError: (schema, options) => thrownBy(() => tokenConsumer(schema as SchemaOrValidator, options as never)),
};

// ---------------------------------------------------------------------------------------------
// The command line

const ROOT = new URL('../..', import.meta.url).pathname;
const NO_SPLIT = 'the CLI reads a file in 64 KiB reads, so a small document arrives in one: there is no split point to choose';
const NO_SENDER = 'the CLI reads files: a file neither stalls nor goes away midway';

/** `file` run by Node from the project root, stdin empty. */
function run(file: string, args: string[]): Promise<Run> {
  return runNode([file, ...args], undefined, process.env, 60_000);
}

/** The bytes of a body that simply ends; the CLI has no other kind. */
function wholeBytes(body: BodySpec): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const step of body.steps()) {
    if (!(step instanceof Uint8Array)) throw new Error(`the CLI takes files, not a sender that pauses, stalls or goes away (${body.shown})`);
    chunks.push(step);
  }
  return Buffer.concat(chunks);
}

const cliDoor: Door = {
  name: 'CLI validate',
  skip: {
    [ROUNDED]: NO_VALUE,
    ...FASTIFY_CASES,
    ...CONNECTION_CASES,
    ...HEADER_CASES,
    ...STATUS_CASES,
    ...TIMEOUT_CASES,
    ...LIMIT_CASES,
    'a compiled validator is judged as its schema': 'a command line takes a schema file: there is no compiled validator to give it',
    'under the value options the value handed on is the value judged': 'a command line takes a schema file: there is no compiled validator to give it, and it hands no value on',
    'a value that is neither a schema nor a validator is a TypeError when mounted': 'a schema file holds JSON: it cannot hold a function, a class instance or a Map',
    'options that are not an object are a TypeError when mounted': 'its options are flags, each checked as it is parsed (a UsageError)',
    'null options are a TypeError when mounted': 'its options are flags, each checked as it is parsed (a UsageError)',
    'a key of 5,000 characters is never echoed in the answer': 'its output goes to whoever ran it on their own file',
    'every split point gives the verdict of the whole': NO_SPLIT,
    'a UTF-8 sequence split across chunks is decoded whole': NO_SPLIT,
    'nesting deeper than maxDepth, strings and keys longer than their limits are refused': 'no option for the validator limits; the defaults are a case of their own',
    'a number past maxNumberLength is refused there, before a malformed character further on': 'no option for the validator limits; the defaults are a case of their own',
    'a sender that goes away mid-body is refused, leaves nothing behind, and the next body is judged': NO_SENDER,
    'a long body made invalid early (a forbidden first key, a string past its maxLength) is refused having read a bounded prefix':
      'the CLI reads a document on past its first schema violation by design, to report a syntax error after it too (adapters/cli.ts)',
    'two bodies fed alternately through one mount get the verdicts each gets alone': 'a process judges its files one after another: there is nothing to interleave',
    'two bodies fed alternately through one compiled validator get the verdicts each gets alone': 'a command line takes a schema file: there is no compiled validator to give it',
    'sequences of bodies through one compiled validator get the verdicts of fresh ones': 'a command line takes a schema file: there is no compiled validator to give it',
  },
  async open(mounts) {
    const {cli, build} = await buildPackage();
    const directory = mkdtempSync(join(tmpdir(), 'stream-schema-conformance-'));
    const schemaFiles = new Map<Mount, string>();
    try {
      mounts.forEach((mount, index) => {
        refuseOptions('the CLI', mount, NOT_HTTP);
        refuseOptions('the CLI', mount, ['limits']);
        const file = join(directory, `schema-${index}.json`);
        writeFileSync(file, JSON.stringify(mount.schema));
        schemaFiles.set(mount, file);
      });
    } catch (error) {
      // A mount this door cannot take (a case missing from its skips): the build is not left in the project.
      rmSync(directory, {recursive: true, force: true});
      rmSync(build, {recursive: true, force: true});
      throw error;
    }
    let batches = 0;
    const judgeAll = async (mount: Mount, bodies: readonly BodySpec[]): Promise<Verdict[]> => {
      const batch = batches++;
      const files = bodies.map((body, index) => {
        const file = join(directory, `batch-${batch}-body-${index}.json`);
        writeFileSync(file, wholeBytes(body));
        return file;
      });
      const {code, stdout, stderr} = await run(cli, ['validate', '--schema', schemaFiles.get(mount)!, '--format', 'json', '--errors-only', ...files]);
      if (code !== 0 && code !== 1) throw new Error(`the CLI exited ${code}: ${stderr}`);
      const units = stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as OutputUnit & {file: string});
      return files.map((file, index) => {
        const errors = units.filter((unit) => unit.file === file);
        const result: Result = {valid: errors.length === 0, errors};
        return verdictOfResult(result, wholeBytes(bodies[index]!).length, false);
      });
    };
    return {
      judgeAll,
      judge: async (mount, body) => (await judgeAll(mount, [body]))[0]!,
      close: async () => {
        rmSync(directory, {recursive: true, force: true});
        rmSync(build, {recursive: true, force: true});
      },
    };
  },
  mountError: async () => undefined,
};

/** Every row. A door that takes a body joins the suite here. */
export const DOORS: readonly Door[] = [
  expressDoor,
  koaDoor,
  fastifyDoor,
  webRequestDoor,
  webStreamDoor,
  webSinkDoor,
  textStreamDoor,
  jsonValidatorDoor,
  ndjsonValidatorDoor,
  rxjsDoor,
  streamJsonDoor,
  cliDoor,
];
