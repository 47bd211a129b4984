import assert from 'node:assert/strict';
import { createReadStream, readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, it } from 'node:test';
import { InvalidRecordError, jsonValidator, ndjsonValidator, WorkerOptionsError, type NdjsonRecord } from '../adapters/stream.js';
import { compile } from '../src/index.js';
import { fixtureBytes, SHARD_SCHEMA } from './support/ndjsonShards.js';
import type { Result } from '../src/types.js';

const TEST_TIMEOUT = { timeout: 20_000 };

const SCHEMA = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1 } },
};

/** An object-mode sink that keeps what it is given. */
function collector<T>(into: T[]): Writable {
  return new Writable({
    objectMode: true,
    write(record: T, _encoding, callback) {
      into.push(record);
      callback();
    },
  });
}

function verdicts(records: NdjsonRecord[]): [number, boolean][] {
  return records.map((record) => [record.line, record.valid]);
}

const encoder = new TextEncoder();

describe('ndjsonValidator', () => {
  it('validates the example event log in a pipeline, one record per line', TEST_TIMEOUT, async () => {
    const schema = JSON.parse(readFileSync('examples/event.schema.json', 'utf8'));
    const records: NdjsonRecord[] = [];
    await pipeline(createReadStream('examples/events.ndjson', { highWaterMark: 4096 }), ndjsonValidator(schema), collector(records));
    assert.equal(records.length, 299);
    assert.deepEqual(
      records.filter((record) => !record.valid).map((record) => record.line),
      [37, 88, 121, 164, 203, 246, 279],
    );
  });

  it('splits bytes chunked anywhere: BOM, CRLF, blank lines, a character across chunks, no final LF', TEST_TIMEOUT, async () => {
    const bytes = encoder.encode('\uFEFF{"id":1,"n":"é😀"}\r\n\r\n{"id":0}\r\n{"id":\r\n{"id":5}');
    const chunks = [bytes.subarray(0, 1), bytes.subarray(1, 16), bytes.subarray(16, 18), bytes.subarray(18, 30), bytes.subarray(30)];
    const records: NdjsonRecord[] = [];
    await pipeline(Readable.from(chunks), ndjsonValidator(SCHEMA, { parse: true }), collector(records));
    assert.deepEqual(verdicts(records), [[1, true], [3, false], [4, false], [5, true]]);
    assert.deepEqual(records[0].value, { id: 1, n: 'é😀' });
    assert.equal(records[1].errors[0].kind, 'validation');
    assert.equal(records[2].errors[0].kind, 'syntax');
    assert.equal(records[2].errors[0].line, 4);
  });

  it('accepts string chunks', TEST_TIMEOUT, async () => {
    const records: NdjsonRecord[] = [];
    await pipeline(Readable.from(['{"id":1}\n{"i', 'd":2}\n']), ndjsonValidator(SCHEMA), collector(records));
    assert.deepEqual(verdicts(records), [[1, true], [2, true]]);
  });

  it("drops invalid records with onInvalid 'skip'", TEST_TIMEOUT, async () => {
    const records: NdjsonRecord[] = [];
    await pipeline(Readable.from(['{"id":1}\n{"id":0}\n{"id":\n{"id":4}\n']), ndjsonValidator(SCHEMA, { onInvalid: 'skip' }), collector(records));
    assert.deepEqual(verdicts(records), [[1, true], [4, true]]);
  });

  it("fails the pipeline with the first invalid record's line under onInvalid 'error'", TEST_TIMEOUT, async () => {
    const records: NdjsonRecord[] = [];
    const done = pipeline(Readable.from(['{"id":1}\n\n{"id":"x"}\n{"id":3}\n']), ndjsonValidator(SCHEMA, { onInvalid: 'error' }), collector(records));
    await assert.rejects(done, (error: unknown) => {
      assert.ok(error instanceof InvalidRecordError);
      assert.equal(error.line, 3);
      assert.equal(error.code, 'ndjson.invalidRecord');
      return true;
    });
    assert.deepEqual(verdicts(records), [[1, true]]);
  });

  it('reports a line over maxLineLength as a limit error and goes on', TEST_TIMEOUT, async () => {
    const records: NdjsonRecord[] = [];
    const long = `{"id":1,"pad":"${'x'.repeat(10_000)}"}\n`;
    await pipeline(Readable.from([long, '{"id":2}\n']), ndjsonValidator(SCHEMA, { maxLineLength: 1000 }), collector(records));
    assert.deepEqual(verdicts(records), [[1, false], [2, true]]);
    assert.equal(records[0].errors[0].kind, 'limit');
  });

  it('holds the writable side back while records are not read (backpressure)', TEST_TIMEOUT, async () => {
    const transform = ndjsonValidator(SCHEMA, { highWaterMark: 4 });
    const chunk = '{"id":1}\n'.repeat(10);
    let accepted = 0;
    while (transform.write(chunk)) accepted++;
    await new Promise((resolve) => setImmediate(resolve));
    // Only the first chunk was validated: its 10 records wait to be read, its write callback is
    // held, and the later chunks wait unvalidated until write() said "stop".
    assert.equal(transform.readableLength, 10);
    assert.equal(transform.writableLength, (accepted + 1) * chunk.length);
    assert.ok(transform.writableLength <= transform.writableHighWaterMark + chunk.length);
    transform.destroy();
  });

  it('keeps at most one chunk of records above the high-water mark in a pipeline with a slow sink', TEST_TIMEOUT, async () => {
    const transform = ndjsonValidator(SCHEMA, { highWaterMark: 4 });
    const chunk = '{"id":1}\n'.repeat(10);
    let sourceDone = false;
    async function* source(): AsyncGenerator<string> {
      for (let index = 0; index < 1000; index++) yield chunk;
      sourceDone = true;
    }
    let count = 0;
    let largestBuffer = 0;
    const slowSink = new Writable({
      objectMode: true,
      highWaterMark: 1,
      write(_record: NdjsonRecord, _encoding, callback) {
        count++;
        // Once the source has ended, Node's Transform flushes what was already written.
        if (!sourceDone) largestBuffer = Math.max(largestBuffer, transform.readableLength);
        setImmediate(callback);
      },
    });
    await pipeline(source, transform, slowSink);
    assert.equal(count, 10_000);
    assert.ok(largestBuffer <= 4 + 10, `at most one chunk's records above the high-water mark, saw ${largestBuffer}`);
    assert.equal(transform.linesRead, 10_000);
  });

  it('can be destroyed part-way without an error', TEST_TIMEOUT, async () => {
    const transform = ndjsonValidator(SCHEMA);
    const records: NdjsonRecord[] = [];
    transform.on('data', (record: NdjsonRecord) => {
      records.push(record);
      transform.destroy();
    });
    transform.write('{"id":1}\n{"id":2}\n{"id":3}\n');
    await new Promise((resolve) => transform.on('close', resolve));
    assert.equal(records.length, 1);
  });
});

describe('ndjsonValidator with workers', () => {
  const WORKER_TIMEOUT = { timeout: 60_000 };
  const bytes = fixtureBytes();
  /** The fixture in chunks of 50 bytes, cut anywhere. */
  const chunks = Array.from({ length: Math.ceil(bytes.length / 50) }, (_, index) => bytes.subarray(index * 50, index * 50 + 50));

  async function records(options: Parameters<typeof ndjsonValidator>[1], input: Iterable<unknown> = chunks): Promise<NdjsonRecord[]> {
    const into: NdjsonRecord[] = [];
    await pipeline(Readable.from(input), ndjsonValidator(SHARD_SCHEMA, options), collector(into));
    return into;
  }

  it('gives the records, values and lines of one thread, in order, from bytes and from strings', WORKER_TIMEOUT, async () => {
    const expected = await records({ parse: true });
    assert.ok(expected.some((record) => 'value' in record) && expected.some((record) => !record.valid));
    assert.deepEqual(await records({ parse: true, workers: 2, batchSize: 64 }), expected);
    const lines = new TextDecoder().decode(bytes).split(/(?<=\n)/);
    assert.deepEqual(await records({ workers: 2, batchSize: 64 }, lines), await records({}, lines));
  });

  it("fails the pipeline with the first invalid record's line under onInvalid 'error'", WORKER_TIMEOUT, async () => {
    const into: NdjsonRecord[] = [];
    const input = '{"id":1}\n'.repeat(100) + '{"id":"x"}\n' + '{"id":1}\n'.repeat(100);
    const done = pipeline(Readable.from([input]), ndjsonValidator(SCHEMA, { onInvalid: 'error', workers: 2, batchSize: 100 }), collector(into));
    await assert.rejects(done, (error: unknown) => error instanceof InvalidRecordError && error.line === 101);
    assert.deepEqual(verdicts(into), Array.from({ length: 100 }, (_, index) => [index + 1, true]));
  });

  it('refuses what cannot be sent to a worker thread: a compiled validator, a function among customFormats', () => {
    assert.throws(() => ndjsonValidator(compile(SCHEMA), { workers: 2 }), WorkerOptionsError);
    assert.throws(() => ndjsonValidator({ format: 'tag' }, { workers: 2, formats: 'assert', customFormats: { tag: () => true } }), WorkerOptionsError);
    assert.doesNotThrow(() => ndjsonValidator({ format: 'tag' }, { workers: 2, formats: 'assert', customFormats: { tag: /^a/ } }).destroy());
  });

  it('keeps memory bounded with a slow sink: a few batches per worker, not the input', WORKER_TIMEOUT, async () => {
    const transform = ndjsonValidator(SCHEMA, { highWaterMark: 4, workers: 2, batchSize: 100 });
    const line = '{"id":1}\n';
    const chunk = line.repeat(10);
    let pulled = 0;
    async function* source(): AsyncGenerator<string> {
      for (; pulled < 300; pulled++) yield chunk;
    }
    let count = 0;
    let largestInside = 0;
    // Slower than the workers: a millisecond a record.
    const slowSink = new Writable({
      objectMode: true,
      highWaterMark: 1,
      write(_record: NdjsonRecord, _encoding, callback) {
        count++;
        // Records taken from the source, not yet at the sink, nor waiting in the writable side's
        // buffer: in the batches being cut, validated, waiting for an earlier one, or read.
        if (pulled < 300) largestInside = Math.max(largestInside, pulled * 10 - count - transform.writableLength / line.length);
        setTimeout(callback, 1);
      },
    });
    await pipeline(source, transform, slowSink);
    assert.equal(count, 3000);
    // 2 workers x 4 batches of ~12 records, twice (those being read, those being validated): not 3,000.
    assert.ok(largestInside <= 2 * (2 * 4 * 12) + 4 + 12, `records inside: ${largestInside}`);
    assert.equal(transform.linesRead, 3000);
  });

  it('stops its workers when destroyed part-way', WORKER_TIMEOUT, async () => {
    const transform = ndjsonValidator(SCHEMA, { workers: 2, batchSize: 100 });
    const into: NdjsonRecord[] = [];
    transform.on('data', (record: NdjsonRecord) => {
      into.push(record);
      transform.destroy();
    });
    transform.write('{"id":1}\n'.repeat(1000));
    await new Promise((resolve) => transform.on('close', resolve));
    assert.equal(into.length, 1);
  });
});

describe('jsonValidator', () => {
  it('validates one document written in chunks and gives the result as a promise and an event', TEST_TIMEOUT, async () => {
    const validator = jsonValidator(SCHEMA, { parse: true });
    const events: Result[] = [];
    validator.on('result', (result) => events.push(result));
    await pipeline(Readable.from([encoder.encode('{"id"'), encoder.encode(': 7, "name": "Zoë"}')]), validator);
    const result = await validator.result;
    assert.deepEqual(result, { valid: true, errors: [], value: { id: 7, name: 'Zoë' } });
    assert.deepEqual(events, [result]);
    assert.equal(validator.bytesRead, Buffer.byteLength('{"id": 7, "name": "Zoë"}'));
  });

  it('gives an invalid verdict as soon as it is certain, and still drains the rest', TEST_TIMEOUT, async () => {
    const validator = jsonValidator(SCHEMA);
    validator.write('{"id": -1, ');
    const result = await validator.result;
    assert.equal(result.valid, false);
    assert.equal(result.errors[0].keyword, 'minimum');
    assert.equal(result.errors[0].instanceLocation, '/id');
    validator.write('"more": "ignored"}');
    validator.end();
    await new Promise((resolve) => validator.on('finish', resolve));
  });

  it('reports malformed JSON as a syntax error with a position', TEST_TIMEOUT, async () => {
    const validator = jsonValidator(SCHEMA);
    await pipeline(Readable.from(['{"id": 1,\n "x": tru }']), validator);
    const result = await validator.result;
    assert.equal(result.valid, false);
    assert.equal(result.errors[0].kind, 'syntax');
    assert.equal(result.errors[0].line, 2);
  });

  it('reports a document that ends too early as a syntax error', TEST_TIMEOUT, async () => {
    const validator = jsonValidator(SCHEMA);
    validator.end('{"id": 1');
    const result = await validator.result;
    assert.equal(result.valid, false);
    assert.equal(result.errors[0].kind, 'syntax');
  });

  it('rejects the result when destroyed with an error before the verdict', TEST_TIMEOUT, async () => {
    const validator = jsonValidator(SCHEMA);
    validator.on('error', () => undefined);
    validator.write('{"id": 1');
    validator.destroy(new Error('client went away'));
    await assert.rejects(validator.result, /client went away/);
  });

  describe('behind a real HTTP server on 127.0.0.1', () => {
    let server: Server;
    let port = 0;

    before(async () => {
      server = createServer((req, res) => {
        const validator = jsonValidator(SCHEMA);
        req.pipe(validator);
        validator.result.then(
          (result) => {
            res.writeHead(result.valid ? 200 : 400, { 'content-type': 'application/json', connection: 'close' });
            res.end(JSON.stringify({ valid: result.valid, errors: result.errors.map((error) => error.keyword) }));
          },
          () => res.destroy(),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });

    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    function post(chunks: string[]): Promise<{ status: number; body: string }> {
      return new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-type': 'application/json' } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (text: string) => (body += text));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        for (const chunk of chunks) req.write(chunk);
        req.end();
      });
    }

    it('answers 200 for a valid body and 400 for an invalid one', TEST_TIMEOUT, async () => {
      assert.deepEqual(await post(['{"id":', ' 42}']), { status: 200, body: '{"valid":true,"errors":[]}' });
      assert.deepEqual(await post(['{"id":', ' "42"}']), { status: 400, body: '{"valid":false,"errors":["type"]}' });
    });
  });
});
