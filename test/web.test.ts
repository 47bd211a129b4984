// adapters/web.ts: validateRequest on fetch Requests built from strings and from web streams whose
// pulls and cancel the tests count, validationStream and validationSink, and a real Node server
// built on a Request/Response handler (examples/web-server.ts) on 127.0.0.1: early rejection over
// a raw socket and the same client's next requests after a refusal.

import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {after, before, describe, it} from 'node:test';
import {fileURLToPath} from 'node:url';
import {gzipSync} from 'node:zlib';

import {HttpError, problemResponse, validateRequest, validationSink, validationStream, type RequestOptions} from '../adapters/web.js';
import {compile} from '../src/index.js';
import {orderSchema, serve} from '../examples/web-server.js';
import {abandonUpload, KiB, listen, MiB, rawUpload, slowUpload, SOCKET_BUFFER, SUITE_TIMEOUT, uploadSchema, type Harness} from './support/http.js';

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

/** The body of an HTTP/1.1 response with chunked transfer coding, unframed. */
function unchunked(response: string): string {
  let rest = response.slice(response.indexOf('\r\n\r\n') + 4);
  let body = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return body;
    body += Buffer.from(rest.slice(lineEnd + 2), 'utf8').subarray(0, size).toString('utf8');
    rest = Buffer.from(rest.slice(lineEnd + 2), 'utf8').subarray(size + 2).toString('utf8');
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

  it('a body cut in two at every byte gets the verdict and value of the whole', async () => {
    const texts = [
      JSON.stringify(validOrder),
      '{"customer": "ada", "items": [{"sku": "x\\u00e9", "quantity": 0}]}',
      '{"customer": "ada" "items": []}',
      '\uFEFF{"customer": "ada", "items": []}',
    ];
    for (const text of texts) {
      const whole = bytes(text);
      const expected = await outcome(post(text));
      for (let cut = 0; cut <= whole.length; cut++) {
        const {request} = postChunks([whole.subarray(0, cut), whole.subarray(cut)]);
        assert.deepEqual(await outcome(request), expected, `${text} cut at ${cut}`);
      }
      const {request} = postChunks(Array.from(whole, (_, index) => whole.subarray(index, index + 1)));
      assert.deepEqual(await outcome(request), expected, `${text} in 1-byte chunks`);
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

  it('a decompression bomb is stopped by limit, and its source cancelled', async () => {
    // Compressed fast and loosely, so that the compressed body is larger than a decoder buffers.
    const compressed = gzipSync(`{"data": "${'0'.repeat(16 * MiB)}"}`, {level: 1});
    const chunks = Array.from({length: Math.ceil(compressed.length / 256)}, (_, index) => compressed.subarray(index * 256, index * 256 + 256));
    const {request, seen} = postChunks(chunks, {...JSON_HEADERS, 'content-encoding': 'gzip'});
    const error = await refusal(request, {});
    assert.equal(error.status, 413);
    assert.equal(error.type, 'entity.too.large');
    assert.equal(error.limit, 100 * KiB);
    await cancelled(seen);
    assert.ok(seen.pulled < chunks.length, `pulled ${seen.pulled} of ${chunks.length}`);
  });

  it('limit bounds the compressed bytes read too: empty gzip members are 413 once past it', async () => {
    // Each member decodes to nothing, so only the bytes read can stop the upload.
    const member = gzipSync('');
    const chunks = Array.from({length: 4000}, () => member);
    const {request, seen} = postChunks(chunks, {...JSON_HEADERS, 'content-encoding': 'gzip'});
    const error = await refusal(request, {}, {limit: 16 * KiB});
    assert.equal(error.status, 413);
    assert.equal(error.type, 'entity.too.large');
    await cancelled(seen);
    assert.ok(seen.pulled * member.length <= 16 * KiB + 2 * member.length, `pulled ${seen.pulled} members of ${member.length} bytes`);
  });

  it('Content-Length over limit: 413 before a byte is pulled', async () => {
    const {request, seen} = postChunks([bytes('{}')], {...JSON_HEADERS, 'content-length': String(200 * KiB)});
    const error = await refusal(request, {});
    assert.equal(error.status, 413);
    assert.equal(error.length, 200 * KiB);
    assert.equal(seen.pulled, 0);
    assert.ok(seen.cancelled);
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

  it('a bad byte before the limit in the chunk that crosses it is the answer', async () => {
    const {request} = postChunks([bytes('{"data": "xx'), bytes('x", "forbidden": 1, "more": "yyyyyyyyyyyyyyyyyyyyy"}')]);
    assert.equal((await refusal(request, uploadSchema, {limit: 40})).status, 422);
  });

  it('limits: too deep or too many keys is 413', async () => {
    const shallow = {limits: {maxDepth: 4, maxProperties: 5}};
    const deep = await refusal(post('[[[[[[[[1]]]]]]]]'), {}, shallow);
    assert.equal(deep.status, 413);
    assert.equal(deep.errors[0]?.keyword, 'limit');
    assert.equal((await refusal(post(JSON.stringify({a: 1, b: 2, c: 3, d: 4, e: 5, f: 6})), {}, shallow)).status, 413);
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

describe('hostile bodies through one compiled validator', SUITE_TIMEOUT, () => {
  const validator = compile(orderSchema);

  it('a trailing 0xFF in a chunk of its own is refused', async () => {
    const {request} = postChunks([bytes('{"customer": "ada", "items": []}'), new Uint8Array([0xff])]);
    assert.equal((await refusal(request, validator)).status, 400);
    const {request: alone} = postChunks([bytes('{"customer": "ada", "items": []}'), new Uint8Array([0xff])], {...JSON_HEADERS, 'content-length': '33'});
    assert.equal((await refusal(alone, validator)).status, 400);
  });

  it('a truncated nested body, then an invalid one, then a valid one: each gets its own verdict', async () => {
    const truncated = postChunks([bytes('{"customer": "ada", "items": [{"sku": "x", '), bytes('"quantity": 1')]).request;
    assert.equal((await refusal(truncated, validator)).status, 400);
    const invalid = postChunks([bytes('{"customer": "ada", '), bytes('"items": [{"sku": 5, "quantity": 1}]}')]).request;
    assert.equal((await refusal(invalid, validator)).status, 422);
    const valid = postChunks([bytes('{"customer": "ada", '), bytes('"items": [{"sku": "5", "quantity": 1}]}')]).request;
    assert.deepEqual(await validateRequest(valid, validator), {customer: 'ada', items: [{sku: '5', quantity: 1}]});
  });

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

  it('a document cut short errors at its end; limit errors once crossed', async () => {
    const cut = await collect(countedStream([bytes('{"data": "o')]).stream.pipeThrough(validationStream(uploadSchema)));
    assert.equal((cut.error as HttpError).type, 'entity.parse.failed');
    const long = await collect(countedStream([bytes('{"data": "'), bytes('x'.repeat(100)), bytes('"}')]).stream.pipeThrough(validationStream(uploadSchema, {limit: 50})));
    assert.equal((long.error as HttpError).status, 413);
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

// ---------------------------------------------------------------------------------------------
// A real server: Node's http server, a fetch handler, validateRequest

/** Routes as a fetch handler would have them, answering refusals with problemResponse. */
async function routes(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  try {
    if (path === '/items') return Response.json({received: await validateRequest(request, itemSchema, {limit: '64kb'})}, {status: 201});
    if (path === '/uploads') return Response.json({received: await validateRequest(request, itemSchema, {limit: '100mb'})}, {status: 201});
    if (path === '/limited') return Response.json({received: await validateRequest(request, {})}, {status: 201});
    if (path === '/orders') return Response.json({received: await validateRequest(request, orderSchema)}, {status: 201});
    return new Response(null, {status: 404});
  } catch (error) {
    return problemResponse(error);
  }
}

const itemSchema = {type: 'object', properties: {name: {type: 'string'}, forbidden: false}, required: ['name']} as const;

describe('early rejection over a raw socket, a Node server with a fetch handler', SUITE_TIMEOUT, () => {
  let harness: Harness;
  before(async () => {
    harness = await listen(serve(routes));
  });
  after(() => {
    harness.server.closeAllConnections();
    harness.server.close();
  });

  const serverBytesRead = (): number => harness.sockets.at(-1)?.bytesRead ?? -1;

  for (const contentLength of [true, false]) {
    it(`a 50 MB body whose first key is forbidden is answered early${contentLength ? '' : ', chunked'}`, async (t) => {
      const outcome = await rawUpload(harness.port, '/uploads', {total: 50 * MiB, prefix: '{"forbidden": "', suffix: '"}', contentLength});
      t.diagnostic(`client sent ${outcome.sentBeforeResponse} bytes before the response; server read ${serverBytesRead()}`);
      assert.equal(outcome.status, 422);
      assert.match(outcome.head, /\r\nconnection: close/i);
      assert.ok(outcome.sentBeforeResponse >= 0 && outcome.sentBeforeResponse <= 64 * KiB + SOCKET_BUFFER, `sent ${outcome.sentBeforeResponse}`);
      assert.ok(serverBytesRead() <= 2 * 64 * KiB + KiB, `server read ${serverBytesRead()}`);
      assert.ok(outcome.closedByServer, 'the server closed the connection');
    });
  }

  it('over limit with Content-Length: 413 before the body is read', async (t) => {
    const outcome = await rawUpload(harness.port, '/limited', {total: 50 * MiB, prefix: '{"data": "', suffix: '"}', contentLength: true});
    t.diagnostic(`client sent ${outcome.sentBeforeResponse}; server read ${serverBytesRead()}`);
    assert.equal(outcome.status, 413);
    assert.ok(outcome.sentBeforeResponse <= 64 * KiB + SOCKET_BUFFER);
    assert.ok(serverBytesRead() <= 2 * 64 * KiB + KiB);
    assert.ok(outcome.closedByServer);
  });

  it('over limit without Content-Length: 413 once the limit is crossed', async (t) => {
    const outcome = await rawUpload(harness.port, '/limited', {total: 50 * MiB, prefix: '{"data": "', suffix: '"}', contentLength: false});
    t.diagnostic(`client sent ${outcome.sentBeforeResponse}; server read ${serverBytesRead()}`);
    assert.equal(outcome.status, 413);
    assert.ok(outcome.sentBeforeResponse <= 100 * KiB + 64 * KiB + SOCKET_BUFFER);
    assert.ok(serverBytesRead() <= 100 * KiB + 2 * 64 * KiB + KiB);
    assert.ok(outcome.closedByServer);
  });

  it('a slow upload is rejected as soon as its first key arrives', async () => {
    const text = Buffer.from(JSON.stringify({forbidden: 'y'.repeat(4000)}));
    const started = Date.now();
    const response = await slowUpload(harness.port, '/uploads', text, 5, 5);
    assert.match(response, /^HTTP\/1\.1 422/);
    // 800 chunks 5 ms apart would take 4 s; the answer comes after the first few.
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
  });

  it('a slow upload in many small chunks is read and validated', async () => {
    const text = Buffer.from(JSON.stringify({...validOrder, customer: 'slow 😀 upload '.repeat(20)}));
    const response = await slowUpload(harness.port, '/orders', text, 7, 1);
    assert.match(response, /^HTTP\/1\.1 201/);
    const json = JSON.parse(unchunked(response)) as {received: unknown};
    assert.deepEqual(json.received, JSON.parse(text.toString('utf8')));
  });

  it('an abandoned upload leaves the server serving', async () => {
    await abandonUpload(harness.port, 'POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"customer": "ada", "items": [');
    const response = await fetch(`http://127.0.0.1:${harness.port}/orders`, {method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(validOrder)});
    assert.equal(response.status, 201);
  });
});

describe('after an early refusal, the same fetch client, a Node server with a fetch handler', SUITE_TIMEOUT, () => {
  let harness: Harness;
  let origin: string;
  before(async () => {
    harness = await listen(serve(routes));
    origin = `http://127.0.0.1:${harness.port}`;
  });
  after(() => {
    harness.server.closeAllConnections();
    harness.server.close();
  });

  const send = async (path: string, text: string): Promise<{status: number; text: string}> => {
    const response = await fetch(origin + path, {method: 'POST', headers: JSON_HEADERS, body: text});
    return {status: response.status, text: await response.text()};
  };

  /** A body much larger than what is read before the refusal. */
  const big = (prefix: string): Uint8Array<ArrayBuffer> => bytes(prefix + 'x'.repeat(MiB) + '"}');
  const streamOf = (whole: Uint8Array): ReadableStream<Uint8Array> => {
    let offset = 0;
    return new ReadableStream({
      pull(controller) {
        if (offset >= whole.length) return controller.close();
        controller.enqueue(whole.subarray(offset, offset + 16 * KiB));
        offset += 16 * KiB;
      },
    });
  };

  const refusals = [
    {name: '413 announced by Content-Length', path: '/items', body: big('{"name": "'), status: 413, contentType: 'application/json', chunked: false},
    {name: '413 once the limit is crossed', path: '/items', body: big('{"name": "'), status: 413, contentType: 'application/json', chunked: true},
    {name: '415 for another media type', path: '/items', body: big('{"name": "'), status: 415, contentType: 'text/plain', chunked: false},
    {name: '422 midway', path: '/uploads', body: big('{"forbidden": "'), status: 422, contentType: 'application/json', chunked: false},
    {name: '422 midway, chunked', path: '/uploads', body: big('{"forbidden": "'), status: 422, contentType: 'application/json', chunked: true},
    {name: '400 midway, chunked', path: '/uploads', body: big('{"name" "'), status: 400, contentType: 'application/json', chunked: true},
  ];

  for (const refused of refusals) {
    it(`${refused.name}: the next requests each get their own answer`, async () => {
      assert.equal((await send('/items', JSON.stringify({name: 'warm-up'}))).status, 201);
      const init: RequestInit & {duplex: 'half'} = {
        method: 'POST',
        headers: {'content-type': refused.contentType},
        body: refused.chunked ? streamOf(refused.body) : refused.body,
        duplex: 'half',
      };
      const response = await fetch(origin + refused.path, init);
      assert.equal(response.status, refused.status);
      assert.equal(response.headers.get('connection'), 'close');
      await response.arrayBuffer();
      const followUps = [
        {text: JSON.stringify({name: `${refused.name} 1`}), status: 201},
        {text: '{"name": 5}', status: 422},
        {text: '{"name": ', status: 400},
        {text: JSON.stringify({forbidden: 1, name: 'x'}), status: 422},
        {text: JSON.stringify({name: `${refused.name} 2`}), status: 201},
      ];
      for (const followUp of followUps) {
        const reply = await send('/items', followUp.text);
        assert.equal(reply.status, followUp.status, `${followUp.text} answered ${reply.status}: ${reply.text}`);
        if (followUp.status === 201) assert.deepEqual((JSON.parse(reply.text) as {received: unknown}).received, JSON.parse(followUp.text));
      }
    });
  }

  it('a refusal of a body read whole keeps the connection', async () => {
    const response = await fetch(origin + '/items', {method: 'POST', headers: JSON_HEADERS, body: '{"name": 1}'});
    assert.equal(response.status, 422);
    assert.equal(response.headers.get('connection'), 'keep-alive');
    await response.arrayBuffer();
  });
});
