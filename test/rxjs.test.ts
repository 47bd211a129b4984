import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import { asyncScheduler, catchError, filter, from, lastValueFrom, map, observeOn, of, take, toArray, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { SchemaError } from '../src/index.js';
import { fromReadable, InvalidRecordError, InvalidValueError, validateNdjson, validateValues, type NdjsonRecord } from '../adapters/rxjs.js';

const TEST_TIMEOUT = { timeout: 20_000 };

const SCHEMA = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1 } },
};

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => assert.deepEqual(actual, expected));
}

/** Line and verdict: what the marble diagrams compare. */
function verdict(record: NdjsonRecord): string {
  return `${record.line}:${record.valid ? 'valid' : record.errors[0]?.kind}`;
}

/** An error notification as a string, to compare in a marble diagram. */
function describeError<T>(source: Observable<T>): Observable<T | string> {
  return source.pipe(
    catchError((error: Error) => {
      if (error instanceof InvalidRecordError) return of(`InvalidRecordError: line ${error.line}, ${error.errors[0]?.kind}`);
      return of(`${error.name}: ${error.message}`);
    }),
  );
}

describe('validateNdjson (marble tests)', () => {
  it('emits each record synchronously in the frame of the chunk that completes its line', TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b-c-|', { a: '{"id":1}\n{"id"', b: ':2}\n', c: '{"id":3}' });
      expectObservable(source.pipe(validateNdjson(SCHEMA), map(verdict))).toBe('-a-b---(c|)', {
        a: '1:valid',
        b: '2:valid',
        c: '3:valid',
      });
    });
  });

  it('emits several records for a chunk holding several lines, counting blank lines', TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a', { a: '{"id":1}\r\n\r\n{"id":2}\n' });
      expectObservable(source.pipe(validateNdjson(SCHEMA), map(verdict))).toBe('-(ab)', { a: '1:valid', b: '3:valid' });
    });
  });

  it('decodes bytes with a multibyte character split across chunks', TEST_TIMEOUT, () => {
    const bytes = new TextEncoder().encode('{"id":1,"n":"😀"}\n');
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b|', { a: bytes.subarray(0, 15), b: bytes.subarray(15) });
      const values = source.pipe(
        validateNdjson(SCHEMA, { parse: true }),
        map((record) => record.value),
      );
      expectObservable(values).toBe('---a|', { a: { id: 1, n: '😀' } });
    });
  });

  it("with 'emit', a malformed line yields a syntax error record and the stream goes on", TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable }) => {
      // A group "(ab)" spans four frames: b arrives at frame 7 so that the groups line up.
      const source = cold('-a-----b', { a: '{"id":1}\n{"id":\n', b: '{"id":0}\n{"id":3}\n' });
      expectObservable(source.pipe(validateNdjson(SCHEMA), map(verdict))).toBe('-(ab)--(cd)', {
        a: '1:valid',
        b: '2:syntax',
        c: '3:validation',
        d: '4:valid',
      });
    });
  });

  it("with 'skip', invalid records are dropped", TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b|', { a: '{"id":1}\n{"id":\n', b: '{"id":0}\n{"id":4}' });
      expectObservable(source.pipe(validateNdjson(SCHEMA, { onInvalid: 'skip' }), map(verdict))).toBe('-a--(b|)', {
        a: '1:valid',
        b: '4:valid',
      });
    });
  });

  it("with 'error', the first invalid line is an error notification naming the line, and the source is unsubscribed", TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c|', { a: '{"id":1}\n', b: '\n{"id":\n', c: '{"id":2}\n' });
      const records = source.pipe(validateNdjson(SCHEMA, { onInvalid: 'error' }));
      expectObservable(records.pipe(map(verdict), describeError)).toBe('-a-(b|)', {
        a: '1:valid',
        b: 'InvalidRecordError: line 3, syntax',
      });
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('the InvalidRecordError carries the line and the errors', TEST_TIMEOUT, async () => {
    const records = of('{"id":1}\n{"id":-5}\n').pipe(validateNdjson(SCHEMA, { onInvalid: 'error' }));
    await assert.rejects(lastValueFrom(records), (error: unknown) => {
      assert.ok(error instanceof InvalidRecordError);
      assert.equal(error.line, 2);
      assert.equal(error.errors[0].keyword, 'minimum');
      assert.equal(error.errors[0].line, 2);
      return true;
    });
  });

  it('unsubscribing stops the records, even for the rest of the chunk being read', TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b|', { a: '{"id":1}\n{"id":2}\n{"id":3}\n', b: '{"id":4}\n' });
      expectObservable(source.pipe(validateNdjson(SCHEMA), take(2), map(verdict))).toBe('-(ab|)', { a: '1:valid', b: '2:valid' });
      expectSubscriptions(source.subscriptions).toBe('^!');
    });
  });

  it('an unsubscription from outside tears down the source subscription', TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c|', { a: '{"id":1}\n', b: '{"id":2}\n', c: '{"id":3}\n' });
      expectObservable(source.pipe(validateNdjson(SCHEMA), map(verdict)), '^---!').toBe('-a-b', { a: '1:valid', b: '2:valid' });
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
  });

  it('routes an exception from inside to error, not to an uncaught exception', TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<string | Uint8Array>('-a-b|', { a: '{"id":1}\n', b: 42 as unknown as string });
      expectObservable(source.pipe(validateNdjson(SCHEMA), map(verdict), describeError)).toBe('-a-(b|)', {
        a: '1:valid',
        b: 'TypeError: NDJSON chunks must be strings or Uint8Arrays, got number',
      });
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('passes an error from the source on', TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-#', { a: '{"id":1}\n{"id":2' }, new Error('socket hang up'));
      expectObservable(source.pipe(validateNdjson(SCHEMA), map(verdict))).toBe('-a-#', { a: '1:valid' }, new Error('socket hang up'));
    });
  });

  it('validates a last line without LF when the source completes', TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a--|', { a: '{"id":1}\n{"id":0}' });
      expectObservable(source.pipe(validateNdjson(SCHEMA), map(verdict))).toBe('-a--(b|)', { a: '1:valid', b: '2:validation' });
    });
  });

  it('throws SchemaError for a bad schema when the operator is created', TEST_TIMEOUT, () => {
    assert.throws(() => validateNdjson({ type: 12 }), SchemaError);
    assert.throws(() => validateValues({ minimum: 'one' }), SchemaError);
  });
});

describe('validateValues (marble tests)', () => {
  it('emits one record per value with its index', TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b-c|', { a: { id: 1 }, b: { id: 0 }, c: 'x' });
      const records = source.pipe(
        validateValues(SCHEMA),
        map((record) => `${record.index}:${record.valid}`),
      );
      expectObservable(records).toBe('-a-b-c|', { a: '0:true', b: '1:false', c: '2:false' });
    });
  });

  it("with 'skip' drops invalid values and with 'error' fails with InvalidValueError", TEST_TIMEOUT, () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c|', { a: { id: 1 }, b: { id: 0 }, c: { id: 3 } });
      expectObservable(source.pipe(validateValues(SCHEMA, { onInvalid: 'skip' }), map((record) => record.value))).toBe('-a---c|', {
        a: { id: 1 },
        c: { id: 3 },
      });
      const failing = source.pipe(
        validateValues(SCHEMA, { onInvalid: 'error' }),
        map((record) => record.index),
        catchError((error: unknown) => of(error instanceof InvalidValueError ? `index ${error.index}` : 'other')),
      );
      expectObservable(failing).toBe('-a-(b|)', { a: 0, b: 'index 1' });
      expectSubscriptions(source.subscriptions).toBe(['^-----!', '^--!']);
    });
  });
});

describe('validateNdjson on a real scheduler', () => {
  it('gives the same records when chunks arrive on the asyncScheduler, one macrotask each', TEST_TIMEOUT, async () => {
    const text = '{"id":1}\n{"id":0}\r\n\n{"id":\n{"id":4}';
    const chunks = Array.from(text, (character) => character);
    const records = await lastValueFrom(from(chunks).pipe(observeOn(asyncScheduler), validateNdjson(SCHEMA), map(verdict), toArray()));
    assert.deepEqual(records, ['1:valid', '2:validation', '4:syntax', '5:valid']);
  });
});

describe('validateNdjson on real file streams', () => {
  const directory = mkdtempSync(join(tmpdir(), 'stream-schema-rxjs-'));
  after(() => rmSync(directory, { recursive: true, force: true }));

  it('reports the bad lines of the example event log by line number', TEST_TIMEOUT, async () => {
    const schema = JSON.parse(readFileSync('examples/event.schema.json', 'utf8'));
    const records = await lastValueFrom(fromReadable(createReadStream('examples/events.ndjson', { highWaterMark: 1000 })).pipe(validateNdjson(schema), toArray()));
    assert.equal(records.length, 299);
    const invalid = records.filter((record) => !record.valid);
    assert.deepEqual(
      invalid.map((record) => record.line),
      [37, 88, 121, 164, 203, 246, 279],
    );
    assert.equal(invalid.find((record) => record.line === 203)?.errors[0].kind, 'syntax');
  });

  it('gives the same values as JSON.parse per line, whatever the chunk size', TEST_TIMEOUT, async () => {
    const lines = ['{"id":1,"name":"café"}', '', '{"id":2,"tags":["日本","😀"],"n":1.5e3}', '{"id":3}'];
    const file = join(directory, 'values.ndjson');
    writeFileSync(file, '\uFEFF' + lines.join('\r\n'));
    for (const highWaterMark of [1, 2, 3, 7, 64 * 1024]) {
      const values = await lastValueFrom(
        fromReadable(createReadStream(file, { highWaterMark })).pipe(
          validateNdjson(SCHEMA, { parse: true }),
          map((record) => [record.line, record.value]),
          toArray(),
        ),
      );
      assert.deepEqual(values, [
        [1, JSON.parse(lines[0])],
        [3, JSON.parse(lines[2])],
        [4, JSON.parse(lines[3])],
      ]);
    }
  });

  it('destroys the file stream when the subscriber unsubscribes early', TEST_TIMEOUT, async () => {
    const file = join(directory, 'many.ndjson');
    writeFileSync(file, '{"id":1}\n'.repeat(100_000));
    const stream = createReadStream(file, { highWaterMark: 1024 });
    const first = await lastValueFrom(fromReadable(stream).pipe(validateNdjson(SCHEMA), take(3), toArray()));
    assert.deepEqual(first.map(verdict), ['1:valid', '2:valid', '3:valid']);
    assert.equal(stream.destroyed, true);
    assert.ok(stream.bytesRead < 100_000 * 9);
  });

  it('turns a read error into an error notification', TEST_TIMEOUT, async () => {
    const records = fromReadable(createReadStream(join(directory, 'missing.ndjson'))).pipe(validateNdjson(SCHEMA));
    await assert.rejects(lastValueFrom(records), { code: 'ENOENT' });
  });

  it('turns a premature close into an error notification', TEST_TIMEOUT, async () => {
    const stream = new PassThrough();
    const records = lastValueFrom(fromReadable(stream).pipe(validateNdjson(SCHEMA), toArray()));
    stream.write('{"id":1}\n');
    stream.destroy();
    await assert.rejects(records, { code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('counts invalid records of a generated file without keeping them', TEST_TIMEOUT, async () => {
    const file = join(directory, 'mixed.ndjson');
    const lines: string[] = [];
    for (let index = 1; index <= 5000; index++) lines.push(index % 100 === 0 ? '{"id":"x"}' : `{"id":${index}}`);
    writeFileSync(file, lines.join('\n') + '\n');
    const invalid = await lastValueFrom(
      fromReadable(createReadStream(file, { highWaterMark: 4096 })).pipe(
        validateNdjson(SCHEMA),
        filter((record) => !record.valid),
        map((record) => record.line),
        toArray(),
      ),
    );
    assert.deepEqual(
      invalid,
      Array.from({ length: 50 }, (_, index) => (index + 1) * 100),
    );
  });
});
