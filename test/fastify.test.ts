// adapters/fastify.ts against real Fastify 5 servers on 127.0.0.1: fetch for the ordinary cases,
// a raw `net` socket where the test must control chunking. The plugin's place in Fastify's
// lifecycle is here; what a hostile body does to it, and to every other door, is
// test/conformance/'s.

import assert from 'node:assert/strict';
import {once} from 'node:events';
import {connect, type AddressInfo, type Socket} from 'node:net';
import {PassThrough} from 'node:stream';
import {after, before, describe, it, type TestContext} from 'node:test';
import {gzipSync} from 'node:zlib';

import Fastify, {type FastifyError, type FastifyInstance, type FastifyServerOptions} from 'fastify';

import streamSchema, {HttpError, type FastifyBodyError, type FastifyBodyOptions} from '../adapters/fastify.js';
import {compile} from '../src/index.js';
import type {Validator} from '../src/types.js';
import {accountSchema, KiB, MiB, orderSchema, rawUpload, sleep, SOCKET_BUFFER, SUITE_TIMEOUT, uploadSchema, type Harness} from './support/http.js';

const validOrder = {customer: 'ada', items: [{sku: 'tea-01', quantity: 2}]};

/** 2020-12 keywords that Fastify's default ajv (draft-07, strict) refuses to compile. */
const pairSchema = {
  type: 'array',
  prefixItems: [{type: 'string'}, {type: 'integer'}],
  items: false,
  minItems: 2,
} as const;

const noteSchema = {type: 'object', properties: {text: {type: 'string', maxLength: 10}}, required: ['text']} as const;

/** Every compiled validator's methods, to make the engine throw for a test (node:test's mock restores them). */
const validatorPrototype = Object.getPrototypeOf(compile(true)) as Validator;

// ---------------------------------------------------------------------------------------------
// Servers and requests

/** What an app saw: the errors its error path got. */
interface Seen {
  errors: FastifyError[];
}

function newSeen(): Seen {
  return {errors: []};
}

function buildApp(seen: Seen, serverOptions: FastifyServerOptions = {}, pluginOptions: FastifyBodyOptions = {}): FastifyInstance {
  const app = Fastify(serverOptions);
  app.register(streamSchema, pluginOptions);
  app.addHook('onError', (_request, _reply, error, done) => {
    seen.errors.push(error);
    done();
  });
  app.addSchema({$id: 'customer', type: 'object', properties: {name: {type: 'string', minLength: 1}}, required: ['name']});
  const echo = async (request: {body: unknown}, reply: {code(status: number): {send(body: unknown): unknown}}) => reply.code(201).send({received: request.body});
  app.post('/orders', {schema: {body: orderSchema}}, echo);
  app.post('/limited', {schema: {body: {}}, bodyLimit: 100 * KiB}, echo);
  // No body schema: the parser asks for well-formed JSON only.
  app.post('/plain', {bodyLimit: 100 * MiB}, echo);
  app.post('/accounts', {schema: {body: accountSchema}}, echo);
  app.post('/pairs', {schema: {body: pairSchema}}, echo);
  app.post('/customers', {schema: {body: {$ref: 'customer#'}}}, echo);
  app.post('/titles', {schema: {body: {type: 'string', maxLength: 5}}}, echo);
  app.post('/attached', {schema: {body: accountSchema}, attachValidation: true}, async (request) => ({
    validationError: request.validationError?.message ?? null,
    body: request.body,
  }));
  app.post(
    '/formatted',
    {schema: {body: accountSchema}, schemaErrorFormatter: (errors, dataVar) => new Error(`${dataVar} refused: ${errors.map((error) => error.keyword).join(', ')}`)},
    echo,
  );
  app.post('/notes', {schema: {body: {content: {'application/json': {schema: noteSchema}, 'text/plain': {schema: {type: 'string', maxLength: 5}}}}}}, echo);
  app.post('/patches', {schema: {body: {content: {'application/merge-patch+json': {schema: accountSchema}}}}}, echo);
  app.get(
    '/orders/:id',
    {
      schema: {
        params: {type: 'object', properties: {id: {type: 'integer'}}, required: ['id']},
        querystring: {type: 'object', properties: {limit: {type: 'integer', maximum: 50}}},
        headers: {type: 'object', properties: {'X-Tenant': {type: 'string', minLength: 3}}, required: ['X-Tenant']},
      },
    },
    async (request) => ({params: request.params, query: request.query}),
  );
  return app;
}

interface Server extends Harness {
  app: FastifyInstance;
  origin: string;
}

/** Starts `app` on an ephemeral port of 127.0.0.1, keeping every connection's socket to count the bytes the server read. */
async function start(app: FastifyInstance): Promise<Server> {
  const sockets: Socket[] = [];
  app.server.on('connection', (socket: Socket) => sockets.push(socket));
  await app.listen({port: 0, host: '127.0.0.1'});
  const port = (app.server.address() as AddressInfo).port;
  return {app, server: app.server, port, sockets, origin: `http://127.0.0.1:${port}`};
}

/** buildApp(seen), started before the suite's tests and stopped after them: the object is filled in once it listens. */
function serve(seen: Seen): Server {
  const server = {} as Server;
  // Read as 2020-12 (the plugin's default is draft-07, as Fastify's ajv), for /pairs.
  before(async () => void Object.assign(server, await start(buildApp(seen, {}, {draft: 'draft2020-12'}))));
  after(() => stop(server));
  return server;
}

async function stop(server: Server): Promise<void> {
  server.server.closeAllConnections();
  await server.app.close();
}

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The answer parsed as JSON, or undefined. */
  json: Record<string, unknown> | undefined;
}

async function post(origin: string, path: string, body: string | Uint8Array, headers: Record<string, string> = {}): Promise<Reply> {
  const bytes = typeof body === 'string' ? body : new Uint8Array(body);
  const response = await fetch(origin + path, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body: bytes});
  return reply(response);
}

async function get(origin: string, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return reply(await fetch(origin + path, {headers}));
}

async function reply(response: Response): Promise<Reply> {
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return {status: response.status, headers: response.headers, text, json};
}

/** Fastify's error answer: `{statusCode, code, error, message}`. */
function assertFastifyError(answer: Reply, status: number, code: string): void {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.json?.['statusCode'], status);
  assert.equal(answer.json?.['code'], code);
  assert.equal(typeof answer.json?.['error'], 'string');
  assert.equal(typeof answer.json?.['message'], 'string');
}

/** Writes `requests` (whole HTTP/1.1 messages) on one connection at once, and reads until the server closes it. */
async function pipeline(port: number, requests: Buffer[]): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
  socket.on('error', () => {});
  const closed = once(socket, 'close');
  socket.write(Buffer.concat(requests));
  await Promise.race([closed, sleep(5000)]);
  socket.destroy();
  return answer;
}

/** A chunked request whose body is `chunks`, each its own HTTP chunk. */
function chunkedRequest(path: string, chunks: Buffer[], extraHeaders = ''): Buffer {
  const framed = chunks.flatMap((chunk) => [Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
  const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n${extraHeaders}\r\n`;
  return Buffer.concat([Buffer.from(head), ...framed, Buffer.from('0\r\n\r\n')]);
}

function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
}

// ---------------------------------------------------------------------------------------------

describe('streamSchema plugin with Fastify 5', SUITE_TIMEOUT, () => {
  const seen = newSeen();
  const server = serve(seen);

  it('request.body is the parsed body', async () => {
    const answer = await post(server.origin, '/orders', JSON.stringify(validOrder));
    assert.equal(answer.status, 201);
    assert.deepEqual(answer.json, {received: validOrder});
  });

  it('request.body equals JSON.parse for unusual valid bodies', async () => {
    const bodies = [
      '[1, 2.5e3, -0.0, 123456789012345678901234567890, 1e-320]',
      '{"s": "\\u0000\\ud83d\\ude00 é \\"quoted\\" \\\\", "nested": {"a": [[], {}, null, true, false]}}',
      ' \r\n\t{"spaces": "around"} \n',
      // Fastify's own JSON parser takes any JSON value at the top level; so does the plugin by default.
      '"a string"',
      'null',
    ];
    for (const text of bodies) {
      const answer = await post(server.origin, '/plain', text);
      assert.equal(answer.status, 201, text);
      assert.equal(JSON.stringify(answer.json?.['received']), JSON.stringify(JSON.parse(text)), text);
    }
  });

  it("a schema violation is Fastify's 400 FST_ERR_VALIDATION, with the validation array and validationContext", async () => {
    const since = seen.errors.length;
    const answer = await post(server.origin, '/accounts', JSON.stringify({name: 'x', role: 'admin'}));
    assertFastifyError(answer, 400, 'FST_ERR_VALIDATION');
    assert.equal(answer.json?.['error'], 'Bad Request');
    assert.equal(answer.json?.['message'], 'body/role must be equal to one of the allowed values');
    const error = seen.errors.slice(since)[0] as FastifyError & {validation: unknown[]; validationContext: string};
    assert.equal(error.validationContext, 'body');
    assert.equal(error.statusCode, 400);
    assert.deepEqual(error.validation, [
      {
        keyword: 'enum',
        instancePath: '/role',
        schemaPath: '#/properties/role/enum',
        params: (error.validation[0] as {params: unknown}).params,
        message: 'must be equal to one of the allowed values',
      },
    ]);
    assert.equal(typeof (error.validation[0] as {params: unknown}).params, 'object');
  });

  it("a body the parser found valid is not judged again by Fastify's validation step", async (t: TestContext) => {
    const validate = t.mock.method(validatorPrototype, 'validate');
    assert.equal((await post(server.origin, '/orders', JSON.stringify(validOrder))).status, 201);
    const chunked = await pipeline(server.port, [chunkedRequest('/orders', [Buffer.from('{"customer": "ada", '), Buffer.from('"items": [{"sku": "a", "quantity": 1}]}')])]);
    assert.equal(statusOf(chunked), 201);
    assert.equal(validate.mock.callCount(), 0);
    // A body another parser (Fastify's text/plain one) made is judged in value mode.
    assert.equal((await post(server.origin, '/titles', 'abc', {'content-type': 'text/plain'})).status, 201);
    assert.equal(validate.mock.callCount(), 1);
    assertFastifyError(await post(server.origin, '/titles', 'abcdefgh', {'content-type': 'text/plain'}), 400, 'FST_ERR_VALIDATION');
    t.mock.restoreAll();
  });

  // The shared hostile suite judges schemas as written (test/conformance/doors.ts); this is the
  // early refusal under the defaults, where the value options change the tokens the engines see.
  it("under Fastify's value options a body certainly bad is still refused at its first offending byte", async () => {
    // Unannounced, so that only the stream can refuse it before the server's 1 MiB bodyLimit would.
    const outcome = await rawUpload(server.port, '/orders', {total: 50 * MiB, prefix: '{"items":{"', suffix: '":1}}', contentLength: false});
    assert.equal(outcome.status, 400, outcome.head);
    assert.ok(outcome.sentBeforeResponse < SOCKET_BUFFER + 256 * KiB, `the client sent ${outcome.sentBeforeResponse} bytes before the answer`);
    assert.ok(outcome.closedByServer);
  });

  it("with draft: 'draft2020-12', bodies are read as 2020-12: keywords Fastify's ajv cannot compile", async () => {
    assert.equal((await post(server.origin, '/pairs', '["a", 1]')).status, 201);
    const second = await post(server.origin, '/pairs', '["a", "b"]');
    assertFastifyError(second, 400, 'FST_ERR_VALIDATION');
    assert.equal(second.json?.['message'], 'body/1 must be integer');
    assertFastifyError(await post(server.origin, '/pairs', '["a", 1, 2]'), 400, 'FST_ERR_VALIDATION');
  });

  it("querystring, params and headers stay with Fastify's ajv: coerced, header names lowercased", async () => {
    const ok = await get(server.origin, '/orders/42?limit=5', {'x-tenant': 'acme'});
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.json, {params: {id: 42}, query: {limit: 5}});
    const header = await get(server.origin, '/orders/42');
    assertFastifyError(header, 400, 'FST_ERR_VALIDATION');
    assert.match(String(header.json?.['message']), /^headers must have required property 'x-tenant'/);
    const query = await get(server.origin, '/orders/42?limit=500', {'x-tenant': 'acme'});
    assert.match(String(query.json?.['message']), /^querystring\/limit/);
  });

  it("attachValidation hands the schema violation to the handler; the route's schemaErrorFormatter formats it", async () => {
    const attached = await post(server.origin, '/attached', JSON.stringify({role: 'admin', name: 'x'}));
    assert.equal(attached.status, 200);
    assert.equal(attached.json?.['validationError'], 'body/role must be equal to one of the allowed values');
    // A refused body may have stopped before its end: the handler gets an empty stand-in, never half a body.
    assert.deepEqual(attached.json?.['body'], {});
    const missing = await post(server.origin, '/attached', JSON.stringify({role: 'user'}));
    assert.equal(missing.json?.['validationError'], 'body must have required property "name"');
    assert.deepEqual(missing.json?.['body'], {});
    const formatted = await post(server.origin, '/formatted', JSON.stringify({name: 'x', role: 'admin'}));
    assert.equal(formatted.status, 400);
    assert.equal(formatted.json?.['message'], 'body refused: enum');
  });

  it('a $ref to a schema added with addSchema resolves', async () => {
    assert.equal((await post(server.origin, '/customers', '{"name": "ada"}')).status, 201);
    const answer = await post(server.origin, '/customers', '{"name": ""}');
    assertFastifyError(answer, 400, 'FST_ERR_VALIDATION');
  });

  it("schema.body.content: the JSON entry is the plugin's, another media type keeps Fastify's parser and ajv", async () => {
    assert.equal((await post(server.origin, '/notes', '{"text": "short"}')).status, 201);
    assertFastifyError(await post(server.origin, '/notes', '{"text": "far too long a note"}'), 400, 'FST_ERR_VALIDATION');
    const text = await post(server.origin, '/notes', 'abc', {'content-type': 'text/plain'});
    assert.equal(text.status, 201);
    assert.deepEqual(text.json, {received: 'abc'});
    assertFastifyError(await post(server.origin, '/notes', 'abcdefgh', {'content-type': 'text/plain'}), 400, 'FST_ERR_VALIDATION');
  });

  it('malformed JSON: 400 FST_ERR_CTP_INVALID_JSON_BODY with where, the body not echoed', async () => {
    const since = seen.errors.length;
    const answer = await post(server.origin, '/orders', '{"customer": "SECRET-VALUE", ');
    assertFastifyError(answer, 400, 'FST_ERR_CTP_INVALID_JSON_BODY');
    assert.ok(!answer.text.includes('SECRET-VALUE'));
    const error = seen.errors.slice(since)[0] as unknown as FastifyBodyError;
    assert.ok(error instanceof HttpError);
    assert.equal(error.type, 'entity.parse.failed');
    assert.equal(error.errors[0]?.kind, 'syntax');
    assert.equal(error.errors[0]?.line, 1);
  });

  it('a repeated key is 400, never a body that disagrees with the verdict', async () => {
    const answer = await post(server.origin, '/orders', '{"customer": "ada", "items": [{"sku": "a", "quantity": 1}], "customer": 5}');
    assertFastifyError(answer, 400, 'FST_ERR_CTP_INVALID_JSON_BODY');
  });

  it('an empty body with a JSON Content-Type: 400 FST_ERR_CTP_EMPTY_JSON_BODY', async () => {
    assertFastifyError(await post(server.origin, '/orders', ''), 400, 'FST_ERR_CTP_EMPTY_JSON_BODY');
  });

  it("over the route's bodyLimit: 413 FST_ERR_CTP_BODY_TOO_LARGE, the connection closed", async () => {
    const answer = await post(server.origin, '/limited', JSON.stringify({data: 'x'.repeat(200 * KiB)}));
    assertFastifyError(answer, 413, 'FST_ERR_CTP_BODY_TOO_LARGE');
    assert.equal(answer.headers.get('connection'), 'close');
  });

  it('too deep: 413, not a stack overflow', async () => {
    assertFastifyError(await post(server.origin, '/plain', '['.repeat(100_000)), 413, 'FST_ERR_CTP_BODY_TOO_LARGE');
  });

  it('a non-UTF-8 charset or an unknown Content-Encoding: 415 FST_ERR_CTP_INVALID_MEDIA_TYPE', async () => {
    const charset = await post(server.origin, '/orders', JSON.stringify(validOrder), {'content-type': 'application/json; charset=utf-16'});
    assertFastifyError(charset, 415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
    assert.equal((seen.errors.at(-1) as unknown as FastifyBodyError).type, 'charset.unsupported');
    const encoding = await post(server.origin, '/orders', JSON.stringify(validOrder), {'content-encoding': 'zstd'});
    assertFastifyError(encoding, 415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
    assert.equal((seen.errors.at(-1) as unknown as FastifyBodyError).type, 'encoding.unsupported');
  });

  it("a media type no parser takes is Fastify's own 415", async () => {
    assertFastifyError(await post(server.origin, '/orders', '<order/>', {'content-type': 'application/xml'}), 415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
  });

  it('an application/*+json body is read and validated where schema.body.content lists its type', async () => {
    const type = {'content-type': 'application/merge-patch+json; charset=utf-8'};
    assert.equal((await post(server.origin, '/patches', JSON.stringify({name: 'x', role: 'user'}), type)).status, 201);
    assertFastifyError(await post(server.origin, '/patches', JSON.stringify({name: 'x', role: 'root'}), type), 400, 'FST_ERR_VALIDATION');
  });

  it("an application/*+json body elsewhere is Fastify's own 415: Fastify has no parser for it", async () => {
    const type = {'content-type': 'application/merge-patch+json'};
    assertFastifyError(await post(server.origin, '/accounts', JSON.stringify({name: 'x', role: 'user'}), type), 415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
    assertFastifyError(await post(server.origin, '/plain', '{}', type), 415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
  });

  it('a gzip body is inflated, and a decompression bomb is stopped by the limit', async () => {
    const zipped = await post(server.origin, '/orders', gzipSync(JSON.stringify(validOrder)), {'content-encoding': 'gzip'});
    assert.equal(zipped.status, 201);
    assert.deepEqual(zipped.json, {received: validOrder});
    const bomb = gzipSync(JSON.stringify({data: '0'.repeat(50 * MiB)}));
    assertFastifyError(await post(server.origin, '/limited', bomb, {'content-encoding': 'gzip'}), 413, 'FST_ERR_CTP_BODY_TOO_LARGE');
  });

  it("a __proto__ key or constructor.prototype is refused, as Fastify's JSON parser does by default", async () => {
    assertFastifyError(await post(server.origin, '/plain', '{"a": [{"__proto__": {"admin": true}}]}'), 400, 'FST_ERR_CTP_INVALID_JSON_BODY');
    assertFastifyError(await post(server.origin, '/plain', '{"constructor": {"prototype": {"admin": true}}}'), 400, 'FST_ERR_CTP_INVALID_JSON_BODY');
    assert.equal((await post(server.origin, '/plain', '{"constructor": "a plain string is harmless"}')).status, 201);
  });

  it('a throw inside the engine while the body streams in answers 500 once, closes the connection, and the server serves on', async (t: TestContext) => {
    const failure = new TypeError("the engine's session failed");
    t.mock.method(validatorPrototype, 'session', () => {
      throw failure;
    });
    const since = seen.errors.length;
    const answer = await pipeline(server.port, [chunkedRequest('/orders', [Buffer.from('{"customer": '), Buffer.from('"ada"}')])]);
    t.mock.restoreAll();
    assert.equal(statusOf(answer), 500);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    const errors = seen.errors.slice(since);
    assert.equal(errors.length, 1);
    assert.equal((errors[0] as unknown as FastifyBodyError).type, 'internal.error');
    assert.equal(errors[0]?.cause, failure);
    assert.equal((await post(server.origin, '/orders', JSON.stringify(validOrder))).status, 201);
  });
});

describe('options and setup', SUITE_TIMEOUT, () => {
  it("the plugin's limit and Fastify's bodyLimit both apply: the smaller wins", async () => {
    const app = Fastify({bodyLimit: 4 * KiB});
    app.register(streamSchema, {limit: '2kb'});
    app.post('/small', {bodyLimit: 1 * KiB}, async () => 'ok');
    app.post('/large', {bodyLimit: 64 * KiB}, async () => 'ok');
    app.post('/server', async () => 'ok');
    const server = await start(app);
    try {
      const body = (size: number): string => JSON.stringify({data: 'x'.repeat(size - 11)});
      assert.equal((await post(server.origin, '/small', body(900))).status, 200);
      assert.equal((await post(server.origin, '/small', body(1500))).status, 413);
      assert.equal((await post(server.origin, '/large', body(1500))).status, 200);
      assert.equal((await post(server.origin, '/large', body(3000))).status, 413);
      assert.equal((await post(server.origin, '/server', body(3000))).status, 413);
      const unlimited = Fastify({bodyLimit: 4 * KiB});
      unlimited.register(streamSchema);
      unlimited.post('/server', async () => 'ok');
      const other = await start(unlimited);
      assert.equal((await post(other.origin, '/server', body(3000))).status, 200);
      assert.equal((await post(other.origin, '/server', body(5000))).status, 413);
      await stop(other);
    } finally {
      await stop(server);
    }
  });

  it("onProtoPoisoning: 'remove' strips the key, 'ignore' keeps it; strict: true takes only objects and arrays", async () => {
    const removing = await start(buildApp(newSeen(), {onProtoPoisoning: 'remove', onConstructorPoisoning: 'remove'}, {strict: true, draft: 'draft2020-12'}));
    const ignoring = await start(buildApp(newSeen(), {onProtoPoisoning: 'ignore', onConstructorPoisoning: 'ignore'}, {draft: 'draft2020-12'}));
    try {
      const poisoned = '{"a": {"__proto__": {"admin": true}, "b": 1}, "constructor": {"prototype": {}}}';
      const removed = await post(removing.origin, '/plain', poisoned);
      assert.equal(removed.status, 201);
      assert.equal(JSON.stringify(removed.json), '{"received":{"a":{"b":1}}}');
      const kept = await post(ignoring.origin, '/plain', poisoned);
      assert.equal(kept.status, 201);
      assert.equal(JSON.stringify(kept.json), JSON.stringify({received: JSON.parse(poisoned)}));
      assertFastifyError(await post(removing.origin, '/plain', '"a string"'), 400, 'FST_ERR_CTP_INVALID_JSON_BODY');
    } finally {
      await stop(removing);
      await stop(ignoring);
    }
  });

  it('a body schema that does not compile fails ready() with FST_ERR_SCH_VALIDATION_BUILD', async () => {
    const app = Fastify();
    app.register(streamSchema);
    app.post('/broken', {schema: {body: {type: 'object', properties: {n: {minimum: 'five'}}}}}, async () => 'never');
    await assert.rejects(async () => void (await app.ready()), (error: FastifyError) => {
      assert.equal(error.code, 'FST_ERR_SCH_VALIDATION_BUILD');
      assert.match(error.message, /minimum/);
      return true;
    });
  });

  it("a route with its own validatorCompiler keeps its body validation; the plugin reads the body as well-formed JSON only", async () => {
    const judged: unknown[] = [];
    const app = Fastify();
    app.register(streamSchema);
    const ownCompiler = () => (data: unknown) => {
      judged.push(data);
      return true;
    };
    app.post('/own', {schema: {body: uploadSchema}, validatorCompiler: ownCompiler}, async (request) => ({received: request.body}));
    const server = await start(app);
    try {
      const answer = await post(server.origin, '/own', '{"forbidden": 1}');
      assert.equal(answer.status, 200);
      assert.deepEqual(judged, [{forbidden: 1}]);
      assertFastifyError(await post(server.origin, '/own', '{"forbidden" 1}'), 400, 'FST_ERR_CTP_INVALID_JSON_BODY');
    } finally {
      await stop(server);
    }
  });

  it('a preParsing hook that replaces the payload stream: 500, never the wrong bytes validated', async () => {
    const app = Fastify();
    app.register(streamSchema);
    app.addHook('preParsing', async (_request, _reply, payload) => payload.pipe(new PassThrough()));
    app.post('/orders', {schema: {body: orderSchema}}, async () => 'never');
    const server = await start(app);
    try {
      const answer = await post(server.origin, '/orders', JSON.stringify(validOrder));
      assert.equal(answer.status, 500);
    } finally {
      await stop(server);
    }
  });
});
