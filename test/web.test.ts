// adapters/web.ts: validateRequest on fetch Requests built from strings and from web streams whose
// pulls and cancel the tests count, validationStream and validationSink. What a hostile body does
// to them, and to a Node server with a fetch handler (examples/web-server.ts) on 127.0.0.1, is
// test/conformance/'s.

import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {describe, it} from 'node:test';
import {fileURLToPath} from 'node:url';

import {HttpError, problemResponse, validateRequest, validationSink, validationStream, type RequestOptions} from '../adapters/web.js';
import {compile} from '../src/index.js';
import {orderSchema} from '../examples/web-server.js';
import {SUITE_TIMEOUT, uploadSchema} from './support/http.js';

const encoder = new TextEncoder();
const bytes = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text);

const JSON_HEADERS = {'content-type': 'application/json'};

/** A stream handing out `chunks` one per pull (none ahead of a read), counting pulls and recording its cancel. */
function countedStream(chunks: readonly Uint8Array[]) {
  let cancel!: () => void;
  const seen = {
    pulled: 0,
    cancelled: false,
    reason: undefined as unknown,
    /** Through a pipe (a decoder, a TransformStream) the cancel arrives a few ticks after the refusal. */
    whenCancelled: new Promise<void>((resolve) => (cancel = resolve)),
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled === chunks.length) return controller.close();
        controller.enqueue(chunks[seen.pulled++]!);
      },
      cancel(reason) {
        seen.cancelled = true;
        seen.reason = reason;
        cancel();
      },
    },
    {highWaterMark: 0},
  );
  return {stream, seen};
}

/** Resolves when `seen`'s stream is cancelled; fails after a second. */
async function cancelled(seen: {whenCancelled: Promise<void>}): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the source was not cancelled')), 1000)));
  try {
    await Promise.race([seen.whenCancelled, late]);
  } finally {
    clearTimeout(timer);
  }
}

function post(body: BodyInit | null, headers: Record<string, string> = JSON_HEADERS): Request {
  // Node 20's RequestInit type lacks `duplex`, which a stream body requires.
  const init: RequestInit & {duplex: 'half'} = {method: 'POST', body, headers, duplex: 'half'};
  return new Request('http://127.0.0.1/orders', init);
}

function postChunks(chunks: readonly Uint8Array[], headers: Record<string, string> = JSON_HEADERS) {
  const {stream, seen} = countedStream(chunks);
  return {request: post(stream, headers), seen};
}

/** The refusal validateRequest rejects with, or a failure when it resolves. */
async function refusal(request: Request, schema: unknown = orderSchema, options?: RequestOptions): Promise<HttpError> {
  try {
    const value = await validateRequest(request, schema as object, options);
    assert.fail(`resolved with ${JSON.stringify(value)}`);
  } catch (error) {
    assert.ok(error instanceof HttpError, `rejected with ${String(error)}`);
    return error;
  }
}

async function outcome(request: Request, schema: unknown = orderSchema, options?: RequestOptions): Promise<{status: number; value?: unknown}> {
  try {
    return {status: 200, value: await validateRequest(request, schema as object, options)};
  } catch (error) {
    assert.ok(error instanceof HttpError, `rejected with ${String(error)}`);
    return {status: error.status};
  }
}

const validOrder = {customer: 'ädä 😀', items: [{sku: 'té-01', quantity: 2}]};

describe('validateRequest on fetch Requests', SUITE_TIMEOUT, () => {
  it('resolves to the parsed body', async () => {
    assert.deepEqual(await validateRequest(post(JSON.stringify(validOrder)), orderSchema), validOrder);
  });

  it('the value equals JSON.parse for unusual valid bodies', async () => {
    const bodies = [
      '{"__proto__": {"admin": true}, "constructor": {"prototype": 1}}',
      '[1, 2.5e3, -0.0, 123456789012345678901234567890, 1e-320]',
      '{"s": "\\u0000\\ud83d\\ude00 é \\"quoted\\" \\\\", "nested": {"a": [[], {}, null, true, false]}}',
      ' \r\n\t{"spaces": "around"} \n',
    ];
    for (const text of bodies) {
      const value = await validateRequest(post(text), {});
      assert.equal(JSON.stringify(value), JSON.stringify(JSON.parse(text)), text);
      assert.equal(Object.getPrototypeOf(value), Object.getPrototypeOf(JSON.parse(text)));
    }
  });

  it('a body announced by Content-Length and read in one chunk is judged whole', async () => {
    const text = JSON.stringify(validOrder);
    const {request} = postChunks([bytes(text)], {...JSON_HEADERS, 'content-length': String(bytes(text).length)});
    assert.deepEqual(await validateRequest(request, orderSchema), validOrder);
    const bad = '{"customer": "", "items": []}';
    const {request: refused} = postChunks([bytes(bad)], {...JSON_HEADERS, 'content-length': String(bad.length)});
    const error = await refusal(refused);
    assert.equal(error.status, 422);
    assert.equal(error.headers, undefined, 'the whole body was read: the connection may carry the next request');
  });

  it('malformed JSON: 400 entity.parse.failed, with where', async () => {
    const error = await refusal(post('{"customer": "SECRET", '));
    assert.equal(error.status, 400);
    assert.equal(error.type, 'entity.parse.failed');
    assert.match(error.message, /line 1, column/);
    assert.ok(!JSON.stringify(error).includes('SECRET'));
  });

  it('schema violation: 422 entity.validation.failed with the errors; invalidStatus 400', async () => {
    const error = await refusal(post('{"customer": "", "items": []}'));
    assert.equal(error.status, 422);
    assert.equal(error.statusCode, 422);
    assert.equal(error.expose, true);
    assert.equal(error.type, 'entity.validation.failed');
    assert.equal(error.errors[0]?.instanceLocation, '/customer');
    assert.equal((await refusal(post('{"customer": ""}'), orderSchema, {invalidStatus: 400})).status, 400);
  });

  it('strict: a top-level scalar is 400, unless strict is false', async () => {
    assert.equal((await refusal(post('"text"'), {})).type, 'entity.parse.failed');
    assert.equal(await validateRequest(post('"text"'), {}, {strict: false}), 'text');
  });

  it('a request without a body is 400', async () => {
    assert.equal((await refusal(post(null))).status, 400);
    assert.equal((await refusal(post('', {...JSON_HEADERS, 'content-length': '0'}))).status, 400);
  });

  it('another media type, a missing one, a non-UTF-8 charset: 415, before a byte is pulled', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{'content-type': 'text/plain'}, 'entity.type.unsupported'],
      [{}, 'entity.type.unsupported'],
      [{'content-type': 'application/json; charset=utf-16'}, 'charset.unsupported'],
      [{'content-type': 'application/json', 'content-encoding': 'zstd'}, 'encoding.unsupported'],
    ];
    for (const [headers, type] of cases) {
      const {request, seen} = postChunks([bytes('{}')], headers);
      const error = await refusal(request, {});
      assert.equal(error.status, 415);
      assert.equal(error.type, type);
      assert.equal(seen.pulled, 0);
      assert.ok(seen.cancelled, 'the body stream is cancelled');
      assert.equal(error.headers?.Connection, 'close');
    }
  });

  it('type takes patterns, shorthands and a predicate on the Request', async () => {
    const vendor = {'content-type': 'application/vnd.api+json'};
    assert.deepEqual(await validateRequest(post('{}', vendor), {}), {});
    assert.equal((await refusal(post('{}', vendor), {}, {type: 'json'})).status, 415);
    const byHeader = (request: Request): boolean => request.headers.get('x-json') === 'yes';
    assert.deepEqual(await validateRequest(post('{}', {'x-json': 'yes'}), {}, {type: byHeader}), {});
  });

  it('gzip and deflate bodies are decompressed with DecompressionStream', async () => {
    for (const format of ['gzip', 'deflate'] as const) {
      const body = new Blob([JSON.stringify(validOrder)]).stream().pipeThrough(new CompressionStream(format));
      const value = await validateRequest(post(body, {...JSON_HEADERS, 'content-encoding': format}), orderSchema);
      assert.deepEqual(value, validOrder, format);
    }
  });

  it('br is taken where the runtime decompresses it, and is otherwise 415 encoding.unsupported', async () => {
    let brotli = true;
    try {
      new DecompressionStream('brotli' as CompressionFormat);
    } catch {
      brotli = false;
    }
    const request = post('{}', {...JSON_HEADERS, 'content-encoding': 'br'});
    if (brotli) return void (await refusal(request, {})); // '{}' is no brotli stream: refused as undecodable
    assert.equal((await refusal(request, {})).type, 'encoding.unsupported');
  });

  it('inflate: false refuses a compressed body: 415', async () => {
    const body = new Blob(['{}']).stream().pipeThrough(new CompressionStream('gzip'));
    const error = await refusal(post(body, {...JSON_HEADERS, 'content-encoding': 'gzip'}), {}, {inflate: false});
    assert.equal(error.type, 'encoding.unsupported');
  });

  it('a corrupt gzip body is 400: the body could not be decoded', async () => {
    const error = await refusal(post(new Uint8Array([0x1f, 0x8b, 0x08, 0, 1, 2, 3, 4, 5, 6, 7, 8]), {...JSON_HEADERS, 'content-encoding': 'gzip'}), {});
    assert.equal(error.status, 400);
    assert.match(error.errors[0]?.error ?? '', /could not be decoded/);
  });

  it('413 at the chunk holding the first byte past the limit; no chunk after it is pulled', async () => {
    const text = bytes(`{"data": "${'x'.repeat(200)}"}`);
    const chunks = Array.from({length: Math.ceil(text.length / 10)}, (_, index) => text.subarray(index * 10, index * 10 + 10));
    const {request, seen} = postChunks(chunks);
    const error = await refusal(request, {}, {limit: 55});
    assert.equal(error.status, 413);
    assert.equal(error.limit, 55);
    assert.equal(error.length, 60, 'the 6th chunk holds byte 56');
    assert.equal(seen.pulled, 6);
    assert.ok(seen.cancelled);
    assert.equal(seen.reason, error);
    assert.equal(error.headers?.Connection, 'close');
  });

  it('a number JSON.parse would make ±Infinity or 0 is 400 entity.number.inexact, unless allowed', async () => {
    for (const text of ['{"n": 1e400}', '{"n": -1e-400}']) {
      const error = await refusal(post(text), {});
      assert.equal(error.status, 400);
      assert.equal(error.type, 'entity.number.inexact');
    }
    assert.deepEqual(await validateRequest(post('{"n": 1e400}'), {}, {inexactNumbers: 'allow'}), {n: Infinity});
  });

  it('at the first certain error the body stream is cancelled and nothing more is pulled', async () => {
    const chunks = [bytes('{"forbidden": "'), ...Array.from({length: 100}, () => bytes('x'.repeat(1000))), bytes('"}')];
    const {request, seen} = postChunks(chunks);
    const error = await refusal(request, uploadSchema, {limit: '1mb'});
    assert.equal(error.status, 422);
    assert.equal(seen.pulled, 1);
    assert.ok(seen.cancelled);
    assert.equal(seen.reason, error);
    assert.equal(error.headers?.Connection, 'close');
  });

  it('timeout: a body that stalls or takes too long is 408 request.timeout, and its stream cancelled', async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('{"name": '));
      },
    });
    const idle = await refusal(post(stalled), {}, {timeout: {idle: 50}});
    assert.equal(idle.status, 408);
    assert.equal(idle.type, 'request.timeout');
    assert.equal(idle.timeout, 50);
    assert.equal(idle.length, 9);
    assert.equal(idle.headers?.Connection, 'close');
    let sent = 0;
    let cancelled = false;
    const trickle = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          controller.enqueue(bytes(sent++ === 0 ? '[' : '1,'));
        },
        cancel: () => void (cancelled = true),
      },
      {highWaterMark: 0},
    );
    const total = await refusal(post(trickle), {}, {timeout: {idle: 1000, total: 150}});
    assert.equal(total.type, 'request.timeout');
    assert.ok(sent >= 3 && sent <= 9, `sent ${sent}`);
    assert.ok(cancelled);
  });

  it('allErrors reads on to the end and reports every error', async () => {
    const {request, seen} = postChunks([bytes('{"customer": "", '), bytes('"items": [{"sku": 1, "quantity": 0}]}')]);
    const error = await refusal(request, orderSchema, {allErrors: true});
    assert.equal(seen.pulled, 2);
    assert.ok(error.errors.length >= 3, JSON.stringify(error.errors));
  });

  it('reviver shapes the value; the schema judges the body as sent', async () => {
    const doubled = {reviver: (_key: string, value: unknown) => (typeof value === 'number' ? value * 2 : value)};
    const schema = {type: 'object', properties: {n: {maximum: 10}}};
    assert.deepEqual(await validateRequest(post('{"n": 8, "list": [1]}'), schema, doubled), {n: 16, list: [2]});
    assert.equal((await refusal(post('{"n": 11}'), schema, doubled)).status, 422);
  });
});

describe('validateRequest with a compiled validator', SUITE_TIMEOUT, () => {
  const validator = compile(orderSchema);

  it('a compiled validator takes no compile options', async () => {
    await assert.rejects(validateRequest(post('{}'), validator, {limits: {maxDepth: 2}}), TypeError);
    // Nor inexactNumbers, which would otherwise be silently ignored: the validator's limits decide.
    await assert.rejects(validateRequest(post('{}'), validator, {inexactNumbers: 'reject'}), TypeError);
  });
});

describe('problemResponse and getResponse', SUITE_TIMEOUT, () => {
  it('answers a refusal as application/problem+json with its status, closing when the body was left unread', async () => {
    const {request} = postChunks([bytes('{"forbidden": 1'), bytes(', "data": "x"}')]);
    const error = await refusal(request, uploadSchema);
    const response = problemResponse(error, {maxErrors: 1});
    assert.equal(response.status, 422);
    assert.equal(response.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal(response.headers.get('connection'), 'close');
    const problem = (await response.json()) as {title: string; code: string; errors: unknown[]};
    assert.equal(problem.title, 'Unprocessable Entity');
    assert.equal(problem.code, 'entity.validation.failed');
    assert.equal(problem.errors.length, 1);
  });

  it("getResponse() is the same answer, for Hono's default error handler", async () => {
    const error = await refusal(post('{"customer" 1'));
    const viaMethod = error.getResponse();
    const viaHelper = problemResponse(error);
    assert.equal(viaMethod.status, 400);
    assert.deepEqual([...viaMethod.headers], [...viaHelper.headers]);
    assert.equal(await viaMethod.text(), await viaHelper.text());
  });

  it('anything else is a 500 that says nothing of it', async () => {
    const response = problemResponse(new Error('database password is hunter2'));
    assert.equal(response.status, 500);
    assert.ok(!(await response.text()).includes('hunter2'));
  });
});

describe('validationStream and validationSink', SUITE_TIMEOUT, () => {
  it('validationStream refuses a validator that changes values: it would pass on bytes another document was judged for', () => {
    const coercing = compile({type: 'object', properties: {n: {type: 'integer'}}}, {coerceTypes: true});
    assert.throws(() => validationStream(coercing), /passes the bytes on as sent/);
    assert.throws(() => validationStream({type: 'object'}, {useDefaults: true}), TypeError);
    assert.doesNotThrow(() => validationSink(coercing));
  });

  const collect = async (stream: ReadableStream<Uint8Array>): Promise<{bytes: number[]; error?: unknown}> => {
    const passed: number[] = [];
    try {
      for await (const chunk of stream) passed.push(...chunk);
    } catch (error) {
      return {bytes: passed, error};
    }
    return {bytes: passed};
  };

  it('passes the bytes of a valid document through unchanged', async () => {
    const text = bytes(JSON.stringify(validOrder));
    const {stream} = countedStream([text.subarray(0, 7), text.subarray(7)]);
    const {bytes: passed, error} = await collect(stream.pipeThrough(validationStream(orderSchema)));
    assert.equal(error, undefined);
    assert.deepEqual(passed, [...text]);
  });

  it('errors at the first bad chunk, which is not passed on, and cancels the source', async () => {
    const chunks = [bytes('{"data": "ok", '), bytes('"forbidden": '), ...Array.from({length: 50}, () => bytes(' '))];
    const {stream, seen} = countedStream(chunks);
    const {bytes: passed, error} = await collect(stream.pipeThrough(validationStream(uploadSchema)));
    assert.ok(error instanceof HttpError);
    assert.equal(error.type, 'entity.validation.failed');
    assert.deepEqual(passed, [...chunks[0]!]);
    await cancelled(seen);
    assert.ok(seen.pulled <= 3, `pulled ${seen.pulled}`);
  });

  it("the sink's result is the verdict; a refusal stops the pipe and cancels the source", async () => {
    const valid = validationSink(orderSchema);
    await countedStream([bytes(JSON.stringify(validOrder))]).stream.pipeTo(valid);
    assert.deepEqual(await valid.result, {valid: true, errors: []});

    const refused = validationSink(uploadSchema);
    const {stream, seen} = countedStream([bytes('{"forbidden": '), ...Array.from({length: 50}, () => bytes(' '))]);
    await assert.rejects(stream.pipeTo(refused), HttpError);
    const result = await refused.result;
    assert.equal(result.valid, false);
    assert.equal(result.errors[0]?.keyword, 'false');
    assert.ok(seen.cancelled);
    assert.equal(seen.pulled, 1);
  });

  it("an aborted sink's result rejects with the reason", async () => {
    const sink = validationSink({});
    const reason = new Error('upstream gave up');
    await sink.abort(reason);
    await assert.rejects(sink.result, (error) => error === reason);
  });
});

describe('the web entry runs without Node APIs', () => {
  // The engine (src/) is judged apart: see its own imports.
  it("adapters/web.ts and adapters/text-stream.ts import no node: module, nor do the adapter modules they import", () => {
    for (const entry of ['adapters/web.ts', 'adapters/text-stream.ts']) {
      for (const [file, specifier] of imports(entry)) {
        assert.ok(!specifier.startsWith('node:') && !NODE_BUILTINS.has(specifier), `${file} imports ${specifier}`);
      }
    }
  });
});

const NODE_BUILTINS = new Set(['http', 'https', 'net', 'stream', 'zlib', 'buffer', 'events', 'fs', 'path', 'url', 'util', 'crypto']);

/** Every [file, specifier] of the runtime imports reachable from `entry` through relative imports within adapters/. */
function imports(entry: string): Array<[string, string]> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const found: Array<[string, string]> = [];
  const visited = new Set<string>();
  const visit = (file: string): void => {
    if (visited.has(file) || !file.startsWith('adapters/')) return;
    visited.add(file);
    const source = readFileSync(root + file, 'utf8');
    // `import type` is erased at compile time, so it costs nothing at run time.
    for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)) {
      const specifier = match[1]!;
      if (!specifier.startsWith('.')) {
        found.push([file, specifier]);
        continue;
      }
      visit(new URL(specifier.replace(/\.js$/, '.ts'), `file:///${file}`).pathname.slice(1));
    }
  };
  visit(entry);
  return found;
}
