import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { compile } from '../src/index.js';
import type { Validator } from '../src/types.js';
import { NdjsonRecordReader, RecordThrewError, type NdjsonRecord } from '../adapters/ndjson-lines.js';
import {
  BatchCutter,
  checkedRecipe,
  countLineFeeds,
  MOST_BATCH_LINES,
  NdjsonWorkerError,
  ParallelNdjsonReader,
  WorkerOptionsError,
  type Batch,
  type WorkerRecipe,
} from '../adapters/ndjson-workers.js';
import { property } from './support/property.js';
import { fixtureBytes, ndjsonInput, SHARD_SCHEMA } from './support/ndjsonShards.js';
import { random, randomChunks } from './support/chunks.js';

const TEST_TIMEOUT = { timeout: 60_000 };
const validator = compile(SHARD_SCHEMA);

function recipe(overrides: Partial<WorkerRecipe> = {}): WorkerRecipe {
  return { schema: SHARD_SCHEMA, options: {}, syntaxPass: false, readerOptions: {}, report: 'every', ...overrides };
}

/** Records as one NdjsonRecordReader in this thread gives them, the reference. */
function recordsInOneThread(bytes: Uint8Array, chunks: readonly Uint8Array[] = [bytes]): NdjsonRecord[] {
  const records: NdjsonRecord[] = [];
  const reader = new NdjsonRecordReader(validator, {}, (record) => records.push(record));
  for (const chunk of chunks) reader.write(chunk);
  reader.end();
  return records;
}

/** `flushAfter(index)`: flush() after the chunk at `index`, not awaited, as the CLI's timer does not await it. */
async function recordsOnWorkers(chunks: readonly Uint8Array[], batchSize: number, workers = 2, given: WorkerRecipe = recipe(), checker: Validator = validator, thisThread = false, flushAfter: (index: number) => boolean = () => false): Promise<NdjsonRecord[]> {
  const records: NdjsonRecord[] = [];
  const reader = new ParallelNdjsonReader(checker, given, { workers, batchSize, thisThread }, (result) => {
    for (const { record } of result.reported) records.push(record);
  });
  for (const [index, chunk] of chunks.entries()) {
    await reader.write(chunk);
    // The reader takes its steps in turn; a failure is thrown again by the end.
    if (flushAfter(index)) reader.flush().catch(() => undefined);
  }
  await reader.end();
  return records;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((part) => [...part]));
}

describe('BatchCutter', () => {
  it('cuts any chunking into batches that end at line feeds, or pieces of a line longer than a batch', () => {
    fc.assert(
      fc.property(ndjsonInput, fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 400 }), fc.nat(), fc.integer({ min: 0, max: 3 }), (bytes, maxChunk, batchSize, seed, flushEvery) => {
        const cutter = new BatchCutter(batchSize);
        const batches: Batch[] = [];
        // flush() between chunks (an input gone quiet), every `flushEvery` chunks (0: never).
        randomChunks(bytes, random(seed), maxChunk).forEach((chunk, index) => {
          batches.push(...cutter.write(chunk));
          if (flushEvery > 0 && index % flushEvery === 0) batches.push(...cutter.flush());
        });
        batches.push(...cutter.end());
        assert.deepEqual(concat(batches.map((batch) => batch.bytes)), bytes);
        batches.forEach((batch, index) => {
          const last = index === batches.length - 1;
          assert.ok(batch.bytes.length > 0 || (last && index > 0 && !batches[index - 1]!.endsLine), 'only the end of a line sent in pieces may be empty');
          assert.equal(batch.lineFeeds, batch.endsLine ? countLineFeeds(batch.bytes) : 0);
          if (batch.endsLine && !last) assert.equal(batch.bytes.at(-1), 0x0a, 'a batch that ends a line ends at its LF');
          if (!batch.endsLine) assert.equal(countLineFeeds(batch.bytes), 0, 'a piece of a line holds no LF');
          assert.ok(batch.bytes.length <= batchSize, 'a batch fits its buffer');
          if (!batch.endsLine) assert.equal(batch.bytes.length, batchSize, 'a piece of a line fills its buffer');
        });
        assert.ok(batches.length === 0 || batches.at(-1)!.endsLine, 'the input ends a line');
      }),
      property(300),
    );
  });

  it('fills a buffer given back again rather than allocating one, and never one still in use', () => {
    const cutter = new BatchCutter(16);
    const line = new TextEncoder().encode('{"id":1}\n');
    const first = cutter.write(line).concat(cutter.write(line));
    assert.equal(first.length, 1);
    const given = first[0]!.bytes.buffer as ArrayBuffer;
    const copy = first[0]!.bytes.slice();
    cutter.recycle(given);
    const later: Batch[] = [];
    for (let index = 0; index < 4; index++) later.push(...cutter.write(line));
    later.push(...cutter.end());
    const buffers = later.map((batch) => batch.bytes.buffer);
    assert.ok(buffers.includes(given), 'the buffer given back holds a later batch');
    assert.equal(new Set(buffers).size, buffers.length, 'no two batches share a buffer');
    assert.deepEqual(concat([...first.map(() => copy), ...later.map((batch) => batch.bytes)]), concat(Array.from({ length: 6 }, () => line)));
  });

  it('flush() of the end of a line sent in pieces ends that line: end() adds no empty batch', () => {
    // What fast-check found: a line longer than the batch, its end flushed before the input ends.
    const cutter = new BatchCutter(4);
    const batches = [...cutter.write(new TextEncoder().encode('{"a"')), ...cutter.write(new TextEncoder().encode('1}\n')), ...cutter.flush(), ...cutter.end()];
    assert.deepEqual(
      batches.map((batch) => [Buffer.from(batch.bytes).toString(), batch.endsLine]),
      [['{"a"', false], ['1}\n', true]],
    );
  });

  // Found by an outside attack: 256 KiB of `{}` lines is 87,000 records, whose answer, every
  // record invalid, held them all: with a few in flight per worker, gigabytes.
  it('cuts batches of very short lines at MOST_BATCH_LINES lines, each in a buffer of its own', () => {
    const text = '{}\n\n'.repeat(100_000) + '{"last":1}';
    const bytes = new TextEncoder().encode(text);
    for (const flushing of [false, true]) {
      const cutter = new BatchCutter(256 * 1024);
      const batches: Batch[] = [];
      for (let at = 0; at < bytes.length; at += 100_000) {
        batches.push(...cutter.write(bytes.subarray(at, at + 100_000)));
        if (flushing) batches.push(...cutter.flush());
      }
      batches.push(...cutter.end());
      assert.deepEqual(concat(batches.map((batch) => batch.bytes)), bytes);
      assert.equal(batches.reduce((sum, batch) => sum + batch.lineFeeds, 0), 200_000);
      for (const batch of batches) {
        assert.ok(batch.lineFeeds <= MOST_BATCH_LINES, `${batch.lineFeeds} lines`);
        assert.equal(batch.lineFeeds, countLineFeeds(batch.bytes));
        assert.ok(batch.endsLine);
      }
      assert.equal(new Set(batches.map((batch) => batch.bytes.buffer)).size, batches.length, 'no two batches share a buffer');
      assert.ok(batches.length >= 200_000 / MOST_BATCH_LINES);
    }
  });

  it('encodes a surrogate pair split across string chunks as one character', () => {
    const cutter = new BatchCutter(1024);
    const batches = [...cutter.write('{"tag":"\ud83d'), ...cutter.write('\ude00"}\n'), ...cutter.end()];
    assert.equal(Buffer.from(concat(batches.map((batch) => batch.bytes))).toString('utf8'), '{"tag":"😀"}\n');
  });
});

describe('ParallelNdjsonReader', () => {
  it('gives the records of one thread, in order, with their lines, whatever the batch size', TEST_TIMEOUT, async () => {
    const bytes = fixtureBytes();
    const expected = recordsInOneThread(bytes);
    assert.ok(expected.some((record) => !record.valid) && expected.some((record) => record.valid));
    // 1 byte: every line in pieces; 40: cuts in the middle of most lines and of multibyte
    // characters; 200: several lines a batch, the 300-byte line in pieces.
    for (const batchSize of [1, 40, 200]) {
      const chunks = randomChunks(bytes, random(batchSize), 97);
      assert.deepEqual(await recordsOnWorkers(chunks, batchSize), expected, `batch size ${batchSize}`);
    }
  });

  it('gives the records of one thread with this thread validating too (thisThread), a line in pieces included', TEST_TIMEOUT, async () => {
    const bytes = fixtureBytes();
    const expected = recordsInOneThread(bytes);
    for (const workers of [1, 2]) {
      for (const batchSize of [1, 40, 200]) {
        const chunks = randomChunks(bytes, random(batchSize + workers), 97);
        assert.deepEqual(await recordsOnWorkers(chunks, batchSize, workers, recipe(), validator, true), expected, `${workers} workers, batch size ${batchSize}`);
        assert.deepEqual(await recordsOnWorkers(chunks, batchSize, workers, recipe(), validator, true, (index) => index % 3 === 0), expected, `${workers} workers, batch size ${batchSize}, flushed`);
      }
    }
  });

  it('gives the records of one thread in order when flushes land while writes wait for a slow worker', TEST_TIMEOUT, async () => {
    // The workers sleep on every tagged record, this thread does not: writes wait for the
    // workers' capacity while flushes, not awaited, queue behind them.
    const directory = mkdtempSync(join(tmpdir(), 'stream-schema-slow-'));
    after(() => rmSync(directory, { recursive: true, force: true }));
    const module = join(directory, 'slow-in-workers.mjs');
    writeFileSync(module, 'import { isMainThread } from "node:worker_threads";\nconst cell = new Int32Array(new SharedArrayBuffer(4));\nexport const slow = () => { if (!isMainThread) Atomics.wait(cell, 0, 0, 3); return true; };\n');
    const schema = { ...SHARD_SCHEMA, properties: { ...SHARD_SCHEMA.properties, tag: { ...SHARD_SCHEMA.properties.tag, format: 'slow' } } };
    const here = compile(schema, { formats: 'assert', customFormats: { slow: () => true } });
    const given = recipe({ schema, options: { formats: 'assert' }, modules: { customFormats: pathToFileURL(module).href } });
    await fc.assert(
      fc.asyncProperty(ndjsonInput, fc.integer({ min: 1, max: 120 }), fc.nat(), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), fc.boolean(), async (bytes, batchSize, seed, flushes, thisThread) => {
        const chunks = randomChunks(bytes, random(seed), 37);
        const expected: NdjsonRecord[] = [];
        const reader = new NdjsonRecordReader(here, {}, (record) => expected.push(record));
        for (const chunk of chunks) reader.write(chunk);
        reader.end();
        const records = await recordsOnWorkers(chunks, batchSize, 1, given, here, thisThread, (index) => flushes[index % flushes.length]!);
        assert.deepEqual(records, expected);
      }),
      property(12),
    );
  });

  it('flush() resolves once the records of the lines it sent are delivered', TEST_TIMEOUT, async () => {
    const records: NdjsonRecord[] = [];
    const reader = new ParallelNdjsonReader(validator, recipe(), { workers: 1 }, (result) => records.push(...result.reported.map(({ record }) => record)));
    try {
      await reader.write(new TextEncoder().encode('{"id":1}\n{"id":0}\n{"id":'));
      await reader.flush();
      assert.deepEqual(records.map((record) => [record.line, record.valid]), [[1, true], [2, false]]);
      await reader.write(new TextEncoder().encode('2}\n'));
      await reader.end();
      assert.deepEqual(records.map((record) => record.line), [1, 2, 3]);
    } finally {
      await reader.stop();
    }
  });

  it('with thisThread, validates batches here whenever the worker has its fill, and the first ones on the worker', TEST_TIMEOUT, async () => {
    // The same schema judged two ways: a worker's `tag` format refuses every value, this thread's
    // passes it, so each record says which thread validated its batch.
    const directory = mkdtempSync(join(tmpdir(), 'stream-schema-here-'));
    after(() => rmSync(directory, { recursive: true, force: true }));
    const module = join(directory, 'worker-refuses.mjs');
    writeFileSync(module, 'export const tag = () => false;\n');
    const schema = { properties: { tag: { format: 'tag' } } };
    const here = compile(schema, { formats: 'assert', customFormats: { tag: () => true } });
    const given = recipe({ schema, options: { formats: 'assert' }, modules: { customFormats: pathToFileURL(module).href } });
    const input = new TextEncoder().encode('{"tag":"x"}\n'.repeat(4000));
    const records = await recordsOnWorkers([input], 480, 1, given, here, true);
    assert.deepEqual(records.map((record) => record.line), Array.from({ length: 4000 }, (_, index) => index + 1));
    assert.equal(records[0]!.valid, false, 'the first batch goes to the worker');
    assert.ok(records.some((record) => record.valid), 'this thread validated some batches');
  });

  it('validates an input of one batch in this thread, and an empty input to no records', TEST_TIMEOUT, async () => {
    const bytes = fixtureBytes();
    // A recipe no worker could compile: a worker started would fail the read.
    const unusable = recipe({ modules: { customFormats: 'file:///no/such/module.js' } });
    assert.deepEqual(await recordsOnWorkers([bytes], bytes.length + 1, 2, unusable), recordsInOneThread(bytes));
    assert.deepEqual(await recordsOnWorkers([], 16, 2, unusable), []);
    await assert.rejects(recordsOnWorkers([bytes], Math.floor(bytes.length / 4), 2, unusable), NdjsonWorkerError);
  });

  it('numbers lines from firstLine, where a BOM is a character of the line (its columns count it)', TEST_TIMEOUT, async () => {
    const bytes = new TextEncoder().encode('\ufeff{"id":0}\n{"id":0}\n');
    const records: NdjsonRecord[] = [];
    const reader = new ParallelNdjsonReader(validator, recipe(), { workers: 2, batchSize: 4, firstLine: 41 }, (result) => records.push(...result.reported.map(({ record }) => record)));
    await reader.write(bytes);
    await reader.end();
    assert.deepEqual(records.map((record) => [record.line, record.errors[0]?.column]), [[41, 8], [42, 7]]);
    assert.equal(reader.linesRead, 42);
    assert.deepEqual(recordsInOneThread(bytes).map((record) => [record.line, record.errors[0]?.column]), [[1, 7], [2, 7]], 'at the stream start, the BOM is stripped');
  });

  it('refuses a firstLine that is not a positive integer, as one thread does, before any worker starts', () => {
    for (const firstLine of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => new ParallelNdjsonReader(validator, recipe(), { workers: 2, firstLine }, () => {}), { name: 'RangeError', message: `firstLine must be a positive integer, got ${firstLine}` });
      assert.throws(() => new NdjsonRecordReader(validator, { firstLine }, () => {}), RangeError);
    }
  });

  // Found by an outside attack: `workers: 1e6` was taken, and every worker started at once.
  it('refuses more than 256 workers and a batch over 64 MiB, before any worker starts', () => {
    for (const workers of [257, 1e6]) {
      assert.throws(() => new ParallelNdjsonReader(validator, recipe(), { workers }, () => {}), { name: 'RangeError', message: `workers must be an integer from 1 to 256, got ${workers}` });
    }
    assert.throws(() => new ParallelNdjsonReader(validator, recipe(), { workers: 2, batchSize: 64 * 1024 * 1024 + 1 }, () => {}), { name: 'RangeError', message: 'batchSize must be an integer from 1 to 67108864, got 67108865' });
  });

  it('reports only the invalid records with their ordinals when asked to', TEST_TIMEOUT, async () => {
    const bytes = fixtureBytes();
    const expected = recordsInOneThread(bytes);
    let before = 0;
    const seen: [number, NdjsonRecord][] = [];
    const reader = new ParallelNdjsonReader(validator, recipe({ report: 'invalid' }), { workers: 2, batchSize: 64 }, (result) => {
      for (const { ordinal, record } of result.reported) seen.push([before + ordinal, record]);
      before += result.records;
    });
    await reader.write(bytes);
    await reader.end();
    assert.equal(before, expected.length);
    assert.deepEqual(seen, expected.flatMap((record, index) => (record.valid ? [] : [[index, record] as [number, NdjsonRecord]])));
  });
});

describe('worker failures', () => {
  const directory = mkdtempSync(join(tmpdir(), 'stream-schema-workers-'));
  after(() => rmSync(directory, { recursive: true, force: true }));
  const throwing = join(directory, 'throwing.mjs');
  writeFileSync(throwing, 'export const tag = (value) => { if (value === "ab") throw new Error("format exploded"); return true; };\n');
  const exiting = join(directory, 'exiting.mjs');
  writeFileSync(exiting, 'export const tag = (value) => { if (value === "ab") process.exit(7); return true; };\n');
  const tagSchema = { ...SHARD_SCHEMA, properties: { ...SHARD_SCHEMA.properties, tag: { format: 'tag' } } };
  const checker = compile(tagSchema, { formats: 'assert', customFormats: { tag: () => true } });
  const lines = new TextEncoder().encode('{"id":1}\n'.repeat(50) + '{"id":1,"tag":"ab"}\n' + '{"id":1}\n'.repeat(50));

  /** What failed the read of `lines` on two workers whose `tag` format is `module`'s. */
  const failureWith = (module: string): Promise<unknown> => {
    const given = recipe({ schema: tagSchema, options: { formats: 'assert' }, modules: { customFormats: pathToFileURL(module).href }, report: 'invalid' });
    return recordsOnWorkers([lines], 64, 2, given, checker).then(
      () => assert.fail('no error'),
      (error: unknown) => error,
    );
  };

  it('fails the read with a RecordThrewError naming the line when a worker\'s format throws, as this thread would, never a pass', TEST_TIMEOUT, async () => {
    const failure = await failureWith(throwing);
    assert.ok(failure instanceof RecordThrewError, String(failure));
    assert.equal(failure.code, 'ndjson.record.threw');
    assert.equal(failure.line, 51);
    assert.equal(failure.message, 'line 51: validating the record threw Error: format exploded');
  });

  it('fails the read with an NdjsonWorkerError when a worker exits, never a pass', TEST_TIMEOUT, async () => {
    const failure = await failureWith(exiting);
    assert.ok(failure instanceof NdjsonWorkerError);
    assert.equal(failure.code, 'ndjson.worker.failed');
    assert.match(failure.message, /a worker thread exited \(code 7\) before the input was validated/);
  });

  it('with thisThread, fails the read when a batch validated here throws, and end() after it too, never a pass', TEST_TIMEOUT, async () => {
    // The worker's `tag` passes everything; this thread's throws. One worker takes the first 4
    // batches (its fill), so the 5th is validated here, before the worker has even started.
    const exploding = compile(tagSchema, { formats: 'assert', customFormats: { tag: () => { throw new Error('format exploded here'); } } });
    const given = recipe({ schema: tagSchema, options: { formats: 'assert', customFormats: { tag: /^/ } }, report: 'invalid' });
    let delivered = 0;
    const reader = new ParallelNdjsonReader(exploding, given, { workers: 1, batchSize: 24, thisThread: true }, (result) => (delivered += result.records));
    const thrown = (error: unknown): boolean => error instanceof RecordThrewError && error.message === `line ${error.line}: validating the record threw Error: format exploded here` && error.line > 1;
    await assert.rejects(reader.write(new TextEncoder().encode('{"id":1,"tag":"ab"}\n'.repeat(50))), thrown);
    await assert.rejects(reader.end(), thrown, `end() resolved with ${delivered} of 50 records delivered`);
  });

  it('flush() throws what failed the read when a worker fails on the lines it sent, not the next write', TEST_TIMEOUT, async () => {
    // A source gone quiet is not written to again soon, maybe never: flush() is the only step
    // its caller awaits (the CLI's timer, for a stdin left open).
    const given = recipe({ schema: tagSchema, options: { formats: 'assert' }, modules: { customFormats: pathToFileURL(exiting).href }, report: 'invalid' });
    const reader = new ParallelNdjsonReader(checker, given, { workers: 1 }, () => {});
    try {
      await reader.write(new TextEncoder().encode('{"id":1,"tag":"ab"}\n'));
      await assert.rejects(reader.flush(), (error: unknown) => error instanceof NdjsonWorkerError && /exited \(code 7\)/.test(error.message));
      await assert.rejects(reader.end(), NdjsonWorkerError);
    } finally {
      // A worker left running would keep the test process alive after a failed assertion.
      await reader.stop();
    }
  });

  it('refuses a recipe that cannot be sent to a worker, with a WorkerOptionsError', () => {
    const withFunction = recipe({ options: { customFormats: { tag: () => true } } });
    assert.throws(() => checkedRecipe(withFunction), (error: unknown) => error instanceof WorkerOptionsError && error.code === 'ndjson.workers.options' && /customFormats/.test(error.message));
    assert.doesNotThrow(() => checkedRecipe(recipe({ options: { customFormats: { tag: /^a/ } } })));
  });

  it('stops its workers when stopped, with batches still in flight', TEST_TIMEOUT, async () => {
    const records: NdjsonRecord[] = [];
    const reader = new ParallelNdjsonReader(validator, recipe(), { workers: 2, batchSize: 32 }, (result) => records.push(...result.reported.map(({ record }) => record)));
    await reader.write(fixtureBytes());
    await reader.stop();
    const delivered = records.length;
    await reader.end();
    assert.equal(records.length, delivered, 'nothing is delivered after stop');
  });
});
