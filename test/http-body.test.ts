// adapters/http-body.ts on a bare node:http server: the framework-free reading, decoding,
// limits and error shapes that the Express and Koa adapters share.

import assert from 'node:assert/strict';
import {once} from 'node:events';
import {Agent, createServer, request, type IncomingMessage} from 'node:http';
import {connect, type AddressInfo} from 'node:net';
import {describe, it, before, after} from 'node:test';
import {brotliCompressSync, deflateSync, gzipSync} from 'node:zlib';

import {BodyReader, HttpError, NO_BODY, PartsValidator, httpStatusOf, parseLimit, toProblem, type BodyOptions} from '../adapters/http-body.js';
import type {OutputUnit} from '../src/types.js';

const TEST_TIMEOUT = {timeout: 20_000};

const orderSchema = {
  type: 'object',
  properties: {
    id: {type: 'integer'},
    note: {type: 'string'},
    items: {type: 'array', items: {type: 'object'}},
  },
  required: ['id'],
};

interface Outcome {
  error: HttpError | null;
  body?: unknown;
  /** Listeners left on the request once reading ended: must be back to what Node put there. */
  leftover: Record<string, number>;
}

/** A bare server whose only job is to run one BodyReader and report what it produced. */
async function startReaderServer(schema: unknown, options: BodyOptions = {}) {
  const reader = new BodyReader(schema, options);
  const outcomes: Outcome[] = [];
  const waiting: Array<(outcome: Outcome) => void> = [];
  const server = createServer((req, res) => {
    const baseline = listenerCounts(req);
    reader.read(req, res, (error, body) => {
      const leftover = diffCounts(listenerCounts(req), baseline);
      const outcome: Outcome = {error, body, leftover};
      outcomes.push(outcome);
      waiting.shift()?.(outcome);
      if (error !== null) {
        res.writeHead(error.status, {...error.headers, 'content-type': 'application/json'});
        res.end(JSON.stringify({type: error.type}));
        return;
      }
      res.writeHead(200, {'content-type': 'application/json'});
      res.end(JSON.stringify(body === NO_BODY ? {none: true} : {body}));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    /** The next outcome, whether or not it already happened. */
    next(): Promise<Outcome> {
      const done = outcomes.shift();
      if (done !== undefined) return Promise.resolve(done);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}

function listenerCounts(req: IncomingMessage): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of ['data', 'end', 'error', 'close', 'aborted']) counts[event] = req.listenerCount(event);
  return counts;
}

function diffCounts(now: Record<string, number>, baseline: Record<string, number>): Record<string, number> {
  const diff: Record<string, number> = {};
  for (const [event, count] of Object.entries(now)) if (count !== baseline[event]) diff[event] = count - (baseline[event] ?? 0);
  return diff;
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request through node:http, body already complete. */
function post(port: number, body: string | Buffer | undefined, headers: Record<string, string> = {}, method = 'POST', agent: Agent | false = false): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const allHeaders: Record<string, string> = {'content-type': 'application/json', ...headers};
    if (body !== undefined) allHeaders['content-length'] = String(Buffer.byteLength(body));
    const req = request({host: '127.0.0.1', port, method, path: '/', headers: allHeaders, agent}, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8')}));
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('request timed out')));
    req.end(body);
  });
}

/** Raw HTTP/1.1 over a socket, the body sent as the given chunked-encoding chunks, a pause between each. */
function sendChunked(port: number, chunks: Buffer[], pauseMs: number, contentType = 'application/json'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    const timer = setTimeout(() => socket.destroy(new Error('raw request timed out')), 15_000);
    let response = '';
    socket.on('data', (data: Buffer) => (response += data.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(response);
    });
    socket.on('error', (error) => (response === '' ? reject(error) : undefined));
    socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`);
    let index = 0;
    const writeNext = (): void => {
      if (socket.destroyed) return;
      if (index === chunks.length) {
        socket.write('0\r\n\r\n');
        return;
      }
      const chunk = chunks[index++]!;
      socket.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
      setTimeout(writeNext, pauseMs);
    };
    writeNext();
  });
}

describe('parseLimit', () => {
  it('reads sizes as the bytes package does (binary units)', () => {
    assert.equal(parseLimit('100kb'), 102_400);
    assert.equal(parseLimit('1mb'), 1_048_576);
    assert.equal(parseLimit('1.5KB'), 1536);
    assert.equal(parseLimit('512'), 512);
    assert.equal(parseLimit('10 b'), 10);
    assert.equal(parseLimit(2048), 2048);
  });

  it('refuses what is not a size', () => {
    assert.throws(() => parseLimit('lots'), TypeError);
    assert.throws(() => parseLimit(-1), TypeError);
  });
});

describe('toProblem (RFC 9457)', () => {
  const unit = (instanceLocation: string, error: string): OutputUnit => ({
    valid: false,
    kind: 'validation',
    keyword: 'type',
    keywordLocation: '/properties/x/type',
    instanceLocation,
    error,
  });

  it('renders type, title, status, detail, code and errors with fragment pointers', () => {
    const error = new HttpError(422, 'entity.validation.failed', 'request body does not match the schema', [unit('/a b/0', 'must be integer')]);
    assert.deepEqual(toProblem(error, 422), {
      type: 'about:blank',
      title: 'Unprocessable Entity',
      status: 422,
      detail: 'request body does not match the schema',
      code: 'entity.validation.failed',
      errors: [{pointer: '#/a%20b/0', detail: 'must be integer', keyword: 'type'}],
    });
  });

  it('caps errors at maxErrors', () => {
    const units = Array.from({length: 30}, (_, index) => unit(`/${index}`, 'must be integer'));
    const error = new HttpError(422, 'entity.validation.failed', 'invalid', units);
    assert.equal(toProblem(error, 422).errors?.length, 10);
    assert.equal(toProblem(error, 422, {maxErrors: 3}).errors?.length, 3);
    assert.equal(toProblem(error, 422, {maxErrors: 0}).errors?.length, 0);
  });

  it('truncates a long detail so a huge value is never repeated back', () => {
    const error = new HttpError(422, 'entity.validation.failed', 'invalid', [unit('', 'x'.repeat(10_000))]);
    assert.ok(toProblem(error, 422).errors![0]!.detail.length <= 200);
  });

  it('does not expose a 5xx message', () => {
    const problem = toProblem(Object.assign(new Error('database password is hunter2'), {status: 500}), 500);
    assert.deepEqual(problem, {type: 'about:blank', title: 'Internal Server Error', status: 500});
  });

  it('recognises http-errors shaped errors by status or statusCode', () => {
    assert.equal(httpStatusOf({status: 404}), 404);
    assert.equal(httpStatusOf({statusCode: 413}), 413);
    assert.equal(httpStatusOf({status: 200}), undefined);
    assert.equal(httpStatusOf(new Error('plain')), undefined);
    assert.equal(httpStatusOf(null), undefined);
  });
});

describe('HttpError', () => {
  it('has the http-errors fields', () => {
    const error = new HttpError(413, 'entity.too.large', 'request entity too large');
    assert.equal(error.status, 413);
    assert.equal(error.statusCode, 413);
    assert.equal(error.expose, true);
    assert.equal(error.type, 'entity.too.large');
    assert.deepEqual(error.errors, []);
    assert.equal(error.name, 'PayloadTooLargeError');
    assert.ok(error instanceof Error);
  });

  it('captures no stack for a 4xx, keeps one for a 5xx, and leaves Error.stackTraceLimit as it was', () => {
    const limit = Error.stackTraceLimit;
    assert.equal(new HttpError(422, 'entity.validation.failed', 'invalid').stack, 'UnprocessableEntityError: invalid');
    assert.match(new HttpError(500, 'internal', 'broken').stack ?? '', /^InternalServerErrorError: broken\n\s+at /);
    assert.equal(Error.stackTraceLimit, limit);
  });
});

describe('BodyReader over node:http', TEST_TIMEOUT, () => {
  let harness: Awaited<ReturnType<typeof startReaderServer>>;
  before(async () => {
    harness = await startReaderServer(orderSchema, {limit: '16kb', limits: {maxDepth: 8, maxProperties: 20}});
  });
  after(() => harness.server.close());

  it('returns the parsed body, equal to JSON.parse', async () => {
    const text = '{"id": 7, "note": "caf\\u00e9 ☕", "items": [{"sku": "a", "qty": 1e2}]}';
    const reply = await post(harness.port, text);
    const outcome = await harness.next();
    assert.equal(reply.status, 200);
    assert.deepEqual(outcome.body, JSON.parse(text));
    assert.deepEqual(outcome.leftover, {});
  });

  it('keeps __proto__ an own property, never the prototype', async () => {
    await post(harness.port, '{"id": 1, "__proto__": {"polluted": true}}');
    const {body} = await harness.next();
    const value = body as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.ok(Object.hasOwn(value, '__proto__'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(value, JSON.parse('{"id": 1, "__proto__": {"polluted": true}}'));
  });

  // 1e400 and 1e-400 are refused by default, and read as JSON.parse does with inexactNumbers: 'allow' (test/inexact-numbers.test.ts).
  it('reads big numbers exactly as JSON.parse does', async () => {
    const text = '{"id": 1, "items": [{"big": 123456789012345678901234567890, "precise": 1.00000000000000001, "negzero": -0}]}';
    await post(harness.port, text);
    const {body} = await harness.next();
    assert.deepEqual(body, JSON.parse(text));
    assert.ok(Object.is(((body as {items: Array<{negzero: number}>}).items[0]!).negzero, -0));
  });

  it('decodes unicode split across chunks', async () => {
    const text = Buffer.from('{"id": 3, "note": "a😀b€c"}', 'utf8');
    const split = text.indexOf(0xf0) + 2; // inside the 4-byte emoji
    const euro = text.indexOf(0xe2) + 1; // inside the 3-byte euro sign
    const chunks = [text.subarray(0, split), text.subarray(split, euro), text.subarray(euro)];
    const response = await sendChunked(harness.port, chunks, 20);
    const {body} = await harness.next();
    assert.match(response, /^HTTP\/1.1 200/);
    assert.deepEqual(body, {id: 3, note: 'a😀b€c'});
  });

  it('accepts a UTF-8 byte order mark, even split, as body-parser does', async () => {
    const text = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"id": 4}')]);
    await sendChunked(harness.port, [text.subarray(0, 1), text.subarray(1, 2), text.subarray(2)], 15);
    const {body, error} = await harness.next();
    assert.equal(error, null);
    assert.deepEqual(body, {id: 4});
  });

  it('a body that is only the start of a byte order mark is malformed JSON, not an empty body', async () => {
    await sendChunked(harness.port, [Buffer.from([0xef]), Buffer.from([0xbb])], 15);
    const {error} = await harness.next();
    assert.equal(error?.status, 400);
    assert.equal(error?.type, 'entity.parse.failed');
    // The held bytes reach the tokenizer (as U+FFFD), rather than the body reading as empty.
    assert.equal(error?.errors[0]?.params?.code, 'syntax.unexpected');
  });

  it('rejects a repeated key with 400, so validator and body never disagree', async () => {
    const reply = await post(harness.port, '{"id": 1, "id": "one"}');
    const {error} = await harness.next();
    assert.equal(reply.status, 400);
    assert.equal(error?.type, 'entity.parse.failed');
    assert.equal(error?.errors[0]?.kind, 'syntax');
  });

  it('rejects malformed JSON with 400 entity.parse.failed, without echoing the body', async () => {
    const secret = 'SECRET-TOKEN-42';
    await post(harness.port, `{"id": 1, "note": "${secret}", oops}`);
    const {error} = await harness.next();
    assert.equal(error?.status, 400);
    assert.equal(error?.type, 'entity.parse.failed');
    assert.ok(!JSON.stringify({...error, message: error?.message}).includes(secret));
  });

  it('rejects a schema violation with 422 entity.validation.failed', async () => {
    const reply = await post(harness.port, '{"id": "seven"}');
    const {error} = await harness.next();
    assert.equal(reply.status, 422);
    assert.equal(error?.type, 'entity.validation.failed');
    assert.equal(error?.errors[0]?.kind, 'validation');
    assert.equal(error?.errors[0]?.instanceLocation, '/id');
  });

  it('strict: refuses a top-level scalar, as body-parser', async () => {
    const reply = await post(harness.port, '  "just a string"');
    const {error} = await harness.next();
    assert.equal(reply.status, 400);
    assert.equal(error?.type, 'entity.parse.failed');
  });

  it('refuses a body nested deeper than limits.maxDepth with 413', async () => {
    const reply = await post(harness.port, `{"id": 1, "extra": [${'['.repeat(20)}${']'.repeat(20)}]}`);
    const {error} = await harness.next();
    assert.equal(reply.status, 413);
    assert.equal(error?.type, 'entity.too.large');
    assert.equal(error?.errors[0]?.kind, 'limit');
  });

  it('refuses an object with more than limits.maxProperties keys with 413', async () => {
    const keys = Array.from({length: 30}, (_, index) => `"k${index}": ${index}`).join(', ');
    const reply = await post(harness.port, `{"id": 1, ${keys}}`);
    const {error} = await harness.next();
    assert.equal(reply.status, 413);
    assert.equal(error?.errors[0]?.kind, 'limit');
  });

  it('a small body over limit is refused, discarded, and the connection kept', async () => {
    const agent = new Agent({keepAlive: true, maxSockets: 1});
    try {
      const reply = await post(harness.port, `{"id": 1, "note": "${'x'.repeat(20_000)}"}`, {}, 'POST', agent);
      const {error} = await harness.next();
      assert.equal(reply.status, 413);
      assert.equal(error?.type, 'entity.too.large');
      assert.equal(reply.headers.connection, 'keep-alive');
      // The same connection carries the next request.
      assert.equal((await post(harness.port, '{"id": 2}', {}, 'POST', agent)).status, 200);
      await harness.next();
    } finally {
      agent.destroy();
    }
  });

  it('refuses a body over limit from its Content-Length, before reading it', async () => {
    const reply = await post(harness.port, `{"id": 1, "note": "${'x'.repeat(200_000)}"}`);
    const {error} = await harness.next();
    assert.equal(reply.status, 413);
    assert.equal(error?.type, 'entity.too.large');
    assert.equal(error?.limit, 16_384);
    assert.equal(reply.headers.connection, 'close');
  });

  it('refuses a chunked body once it crosses limit', async () => {
    const big = Buffer.from(`{"id": 1, "note": "${'x'.repeat(40_000)}"}`);
    const chunks = [big.subarray(0, 10_000), big.subarray(10_000, 20_000), big.subarray(20_000)];
    const response = await sendChunked(harness.port, chunks, 5);
    const {error} = await harness.next();
    assert.match(response, /^HTTP\/1.1 413/);
    assert.equal(error?.type, 'entity.too.large');
  });

  it('an offending byte before the limit wins over the limit, even in the chunk that crosses it', async () => {
    const big = Buffer.from(`{"id": "not an integer", "note": "${'x'.repeat(40_000)}"}`);
    const response = await sendChunked(harness.port, [big], 0);
    const {error} = await harness.next();
    assert.match(response, /^HTTP\/1.1 422/);
    assert.equal(error?.errors[0]?.instanceLocation, '/id');
  });

  for (const [encoding, compress] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const) {
    it(`inflates Content-Encoding: ${encoding}`, async () => {
      const text = JSON.stringify({id: 9, note: 'compressed '.repeat(50)});
      const reply = await post(harness.port, compress(text), {'content-encoding': encoding});
      const {body} = await harness.next();
      assert.equal(reply.status, 200);
      assert.deepEqual(body, JSON.parse(text));
    });
  }

  it('stops a decompression bomb at limit, counted after decoding', async () => {
    const bomb = gzipSync(`{"id": 1, "note": "${'0'.repeat(5_000_000)}"}`);
    assert.ok(bomb.length < 16_384);
    const reply = await post(harness.port, bomb, {'content-encoding': 'gzip'});
    const {error} = await harness.next();
    assert.equal(reply.status, 413);
    assert.equal(error?.type, 'entity.too.large');
    assert.ok((error?.length ?? Infinity) < 100_000);
  });

  it('answers 400 for a corrupt gzip body', async () => {
    const reply = await post(harness.port, Buffer.from('this is not gzip at all'), {'content-encoding': 'gzip'});
    const {error} = await harness.next();
    assert.equal(reply.status, 400);
    assert.equal(error?.type, 'entity.parse.failed');
  });

  it('refuses an unknown Content-Encoding with 415 encoding.unsupported', async () => {
    const reply = await post(harness.port, '{"id": 1}', {'content-encoding': 'compress'});
    const {error} = await harness.next();
    assert.equal(reply.status, 415);
    assert.equal(error?.type, 'encoding.unsupported');
  });

  it('refuses another media type with 415', async () => {
    const reply = await post(harness.port, 'id=1', {'content-type': 'application/x-www-form-urlencoded'});
    const {error} = await harness.next();
    assert.equal(reply.status, 415);
    assert.equal(error?.type, 'entity.type.unsupported');
  });

  it('takes application/*+json and charset=utf-8', async () => {
    const reply = await post(harness.port, '{"id": 1}', {'content-type': 'application/merge-patch+json; charset="UTF-8"'});
    await harness.next();
    assert.equal(reply.status, 200);
  });

  it('refuses a charset other than UTF-8 with 415 charset.unsupported', async () => {
    const reply = await post(harness.port, '{"id": 1}', {'content-type': 'application/json; charset=latin1'});
    const {error} = await harness.next();
    assert.equal(reply.status, 415);
    assert.equal(error?.type, 'charset.unsupported');
    assert.equal(error?.charset, 'latin1');
  });

  it('lets a GET without a body through', async () => {
    const reply = await post(harness.port, undefined, {}, 'GET');
    const {error, body} = await harness.next();
    assert.equal(error, null);
    assert.equal(body, NO_BODY);
    assert.equal(reply.status, 200);
  });

  it('refuses a POST without a body with 400 instead of passing no body on', async () => {
    const reply = await post(harness.port, '', {});
    const {error} = await harness.next();
    assert.equal(reply.status, 400);
    assert.equal(error?.type, 'entity.parse.failed');
  });

  it('cleans up after an aborted request: an error, no leaked listener, no crash', async () => {
    const socket = connect(harness.port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"id": 1, "note": "');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const {error, leftover} = await harness.next();
    assert.equal(error?.type, 'request.aborted');
    assert.equal(error?.status, 400);
    assert.deepEqual(leftover, {});
  });

  it('cleans up after an aborted compressed request', async () => {
    const socket = connect(harness.port, '127.0.0.1');
    await once(socket, 'connect');
    const partial = gzipSync('{"id": 1, "note": "' + 'z'.repeat(1000) + '"}').subarray(0, 20);
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 500\r\n\r\n`);
    socket.write(partial);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const {error, leftover} = await harness.next();
    assert.equal(error?.type, 'request.aborted');
    assert.deepEqual(leftover, {});
  });
});

describe('BodyReader options', TEST_TIMEOUT, () => {
  it('type: a custom list and a predicate', async () => {
    const listed = await startReaderServer({}, {type: ['text/plain', '+json']});
    const predicate = await startReaderServer({}, {type: (req) => req.headers['x-json'] === 'yes'});
    try {
      assert.equal((await post(listed.port, '{}', {'content-type': 'text/plain'})).status, 200);
      assert.equal((await post(listed.port, '{}', {'content-type': 'application/vnd.api+json'})).status, 200);
      assert.equal((await post(listed.port, '{}', {'content-type': 'application/json'})).status, 415);
      assert.equal((await post(predicate.port, '{}', {'content-type': 'whatever/thing', 'x-json': 'yes'})).status, 200);
      assert.equal((await post(predicate.port, '{}', {'content-type': 'application/json'})).status, 415);
    } finally {
      listed.server.close();
      predicate.server.close();
    }
  });

  it('strict: false lets a top-level scalar through', async () => {
    const harness = await startReaderServer({type: 'number'}, {strict: false});
    try {
      const reply = await post(harness.port, ' 42 ');
      assert.equal(reply.status, 200);
      assert.equal((await harness.next()).body, 42);
    } finally {
      harness.server.close();
    }
  });

  it('inflate: false refuses a compressed body with 415', async () => {
    const harness = await startReaderServer({}, {inflate: false});
    try {
      const reply = await post(harness.port, gzipSync('{}'), {'content-encoding': 'gzip'});
      assert.equal(reply.status, 415);
      assert.equal((await harness.next()).error?.type, 'encoding.unsupported');
    } finally {
      harness.server.close();
    }
  });

  it('invalidStatus: 400', async () => {
    const harness = await startReaderServer({type: 'array'}, {invalidStatus: 400});
    try {
      const reply = await post(harness.port, '{}');
      assert.equal(reply.status, 400);
      assert.equal((await harness.next()).error?.type, 'entity.validation.failed');
    } finally {
      harness.server.close();
    }
  });

  it('allErrors: reads on and reports every error', async () => {
    const schema = {type: 'object', properties: {a: {type: 'integer'}, b: {type: 'integer'}, c: {type: 'integer'}}};
    const harness = await startReaderServer(schema, {allErrors: true});
    try {
      assert.equal((await post(harness.port, '{"a": "x", "b": 2, "c": "z"}')).status, 422);
      const {error} = await harness.next();
      assert.deepEqual(error?.errors.map((unit) => unit.instanceLocation), ['/a', '/c']);
    } finally {
      harness.server.close();
    }
  });

  it('schemas and draft reach the validator', async () => {
    const schemas = {'https://example.test/money': {type: 'object', required: ['cents'], properties: {cents: {type: 'integer'}}}};
    const harness = await startReaderServer({$ref: 'https://example.test/money'}, {schemas, draft: 'draft2020-12'});
    try {
      assert.equal((await post(harness.port, '{"cents": 5}')).status, 200);
      await harness.next();
      assert.equal((await post(harness.port, '{"cents": 5.5}')).status, 422);
      await harness.next();
    } finally {
      harness.server.close();
    }
  });

  it('a schema that does not compile throws when the reader is made', () => {
    assert.throws(() => new BodyReader({type: 'no-such-type'}), (error: Error) => error.name === 'SchemaError');
  });

  it('baseUri reaches the validator: relative references resolve against it', () => {
    const schemas = {'https://example.test/api/money.json': {type: 'object'}};
    assert.throws(() => new BodyReader({$ref: 'money.json'}, {schemas}), (error: Error) => error.name === 'SchemaError');
    assert.doesNotThrow(() => new BodyReader({$ref: 'money.json'}, {schemas, baseUri: 'https://example.test/api/order.json'}));
  });
});

describe('PartsValidator', () => {
  it('checks params, query and headers in value mode and prefixes pointers', () => {
    const parts = new PartsValidator({
      query: {type: 'object', properties: {limit: {type: 'string', pattern: '^[0-9]+$'}}},
      headers: {type: 'object', required: ['x-api-key']},
    });
    assert.equal(parts.check({query: {limit: '10'}, params: {}, headers: {'x-api-key': 'k'}}), undefined);
    const error = parts.check({query: {limit: 'ten'}, params: {}, headers: {'x-api-key': 'k'}});
    assert.equal(error?.status, 400);
    assert.equal(error?.type, 'request.validation.failed');
    assert.equal(error?.errors[0]?.instanceLocation, '/query/limit');
    assert.equal(parts.check({query: {}, params: {}, headers: {}})?.errors[0]?.instanceLocation, '/headers');
  });
});
