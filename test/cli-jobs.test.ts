import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { compile } from '../src/index.js';
import { openByteRange } from '../adapters/cli-jobs.js';
import { NdjsonRecordReader, type NdjsonRecord } from '../adapters/ndjson-lines.js';
import { property } from './support/property.js';
import { CLI, ROOT, runCli, runNode, type Run } from './support/cliRun.js';
import { fixtureBytes, LINE_KINDS, ndjsonBytes, ndjsonInput, SHARD_SCHEMA } from './support/ndjsonShards.js';

const TEST_TIMEOUT = { timeout: 120_000 };

const run = (args: string[], input?: Uint8Array): Promise<Run> => runCli(args, input, { ...process.env, NO_COLOR: '1' }, 60_000);

/** The summary's timing is the one part of the output that may differ from run to run. */
function withoutTiming(stderr: string): string {
  return stderr.replace(/\([\d.]+ s, [\d,]+ records\/s\)/g, '(timing)');
}

/**
 * `validate --schema <args> --ndjson -` with stdin a pipe left to the test, killed if it outlives
 * 30 s (a test that waits for it fails then, rather than hanging).
 */
function trickling(args: string[]) {
  const child = spawn(process.execPath, [...CLI, 'validate', '--schema', ...args, '--ndjson', '-'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  // The child may exit with its stdin open: what is written after that is lost, not an error.
  child.stdin.on('error', () => undefined);
  return {
    stdin: child.stdin,
    stdout: () => stdout,
    stderr: () => stderr,
    exited: new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, signal) => resolve([code, signal]))),
    /** Resolves once `lines` lines are on stdout, while stdin is open. */
    async printed(lines: number): Promise<void> {
      for (let waited = 0; stdout.split('\n').length - 1 < lines; waited += 50) {
        assert.ok(waited < 30_000, `${lines} error lines expected while stdin is open, got: ${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    kill: (signal: NodeJS.Signals) => child.kill(signal),
  };
}

const directory = mkdtempSync(join(tmpdir(), 'stream-schema-cli-jobs-'));
after(() => rmSync(directory, { recursive: true, force: true }));
const schemaFile = join(directory, 'schema.json');
writeFileSync(schemaFile, JSON.stringify(SHARD_SCHEMA));
// Every kind of line (invalid records, syntax errors, blank lines, CRLF, a 300-byte line, invalid
// UTF-8 before a line feed, a BOM mid-stream, no final LF), enough of them for many batches.
const fixture = Buffer.concat([...Array.from({ length: 20 }, () => Buffer.concat([fixtureBytes(), Buffer.from('\n')])), Buffer.from(fixtureBytes())]);
const fixtureFile = join(directory, 'fixture.ndjson');
writeFileSync(fixtureFile, fixture);

describe('--jobs', () => {
  for (const [label, options] of [
    ['text', []],
    ['--format json', ['--format', 'json']],
    ['--all-errors --format json', ['--all-errors', '--format', 'json']],
    ['--max-errors 7', ['--max-errors', '7']],
  ] as const) {
    it(`prints what one thread prints, byte for byte: ${label}`, TEST_TIMEOUT, async () => {
      const one = await run(['validate', '--schema', schemaFile, '--jobs', '1', ...options, fixtureFile]);
      // 100-byte batches: most lines are cut from the next at a batch's end, the 300-byte line is sent in pieces.
      const two = await run(['validate', '--schema', schemaFile, '--jobs', '2', '--batch-size', '100', ...options, fixtureFile]);
      assert.equal(one.code, 1);
      assert.ok(one.stdout.length > 1000);
      assert.equal(two.stdout, one.stdout);
      assert.equal(withoutTiming(two.stderr), withoutTiming(one.stderr));
      assert.equal(two.code, one.code);
    });
  }

  it('cuts a record’s errors at --max-errors where one thread cuts them, from the lines workers send', TEST_TIMEOUT, async () => {
    const schema = join(directory, 'three-strings.schema.json');
    writeFileSync(schema, JSON.stringify({ properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } } }));
    const input = join(directory, 'three-errors.ndjson');
    writeFileSync(input, Array.from({ length: 3_000 }, (_, n) => (n % 5 === 4 ? `{"a":1,"b":2,"c":3,"n":${n}}` : '{"a":"x"}')).join('\n'));
    for (const [format, count] of [['text', '5'], ['json', '7'], ['text', '1000']]) {
      const options = ['--all-errors', '--max-errors', count, '--format', format, input];
      const one = await run(['validate', '--schema', schema, '--jobs', '1', ...options]);
      const two = await run(['validate', '--schema', schema, '--jobs', '2', '--batch-size', '200', ...options]);
      assert.equal(one.code, 1);
      assert.equal(one.stdout.split('\n').length - 1, Number(count), `${format}, --max-errors ${count}`);
      assert.equal(two.stdout, one.stdout, `${format}, --max-errors ${count}`);
      assert.equal(withoutTiming(two.stderr), withoutTiming(one.stderr));
    }
  });

  it('reads stdin in batches from one reader, with the same output', TEST_TIMEOUT, async () => {
    const one = await run(['validate', '--schema', schemaFile, '--jobs', '1', '--format', 'json', '--ndjson', '-'], fixture);
    const three = await run(['validate', '--schema', schemaFile, '--jobs', '3', '--batch-size', '333', '--format', 'json', '--ndjson', '-'], fixture);
    assert.equal(three.stdout, one.stdout);
    assert.equal(withoutTiming(three.stderr), withoutTiming(one.stderr));
  });

  it('fails with exit code 2 and says so when a worker dies, never a pass', TEST_TIMEOUT, async () => {
    const formats = join(directory, 'dying-formats.mjs');
    writeFileSync(formats, 'import { isMainThread } from "node:worker_threads";\nexport const tag = (value) => { if (!isMainThread && value === "ab") process.exit(3); return true; };\n');
    const tagSchema = join(directory, 'tag.schema.json');
    writeFileSync(tagSchema, JSON.stringify({ properties: { tag: { format: 'tag' } } }));
    const input = join(directory, 'tags.ndjson');
    // Every record kills a worker: the first batches always go to the worker (this thread takes
    // a batch only when the worker has its fill), whichever batches this thread validates.
    writeFileSync(input, '{"tag":"ab"}\n'.repeat(200));
    const single = await run(['validate', '--schema', tagSchema, '--formats', 'assert', '--custom-formats', formats, '--jobs', '1', input]);
    assert.equal(single.code, 0, 'the module is loaded by the workers too, by its path');
    const { code, stdout, stderr } = await run(['validate', '--schema', tagSchema, '--formats', 'assert', '--custom-formats', formats, '--jobs', '2', '--batch-size', '100', input]);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /^stream-schema: a worker thread exited \(code 3\) before the input was validated \(validating lines from \d+\)\n$/);
  });

  /** A format `tag` that throws on "ab", and a schema asserting it on the property `tag`. */
  const throwingTag = (): { formats: string; tagSchema: string } => {
    const formats = join(directory, 'throwing-formats.mjs');
    writeFileSync(formats, 'export const tag = (value) => { if (value === "ab") throw new TypeError("tag exploded"); return true; };\n');
    const tagSchema = join(directory, 'throwing-tag.schema.json');
    writeFileSync(tagSchema, JSON.stringify({ properties: { tag: { type: 'string', format: 'tag' } } }));
    return { formats, tagSchema };
  };

  it('names the file and line of a record whose custom format throws, the same in every thread, after the errors before it', TEST_TIMEOUT, async () => {
    const { formats, tagSchema } = throwingTag();
    const input = join(directory, 'throwing-tags.ndjson');
    // Line 3 is invalid; line 4,000 throws: in a worker's batch, or in this thread's, by turns.
    writeFileSync(input, Array.from({ length: 5000 }, (_, i) => (i === 2 ? '{"tag":1}' : i === 3999 ? '{"tag":"ab"}' : '{"tag":"x"}')).join('\n') + '\n');
    const expected = `${input}:4000: validating the record threw TypeError: tag exploded\n`;
    for (const options of [['--jobs', '1'], ['--jobs', '2', '--batch-size', '100'], ['--jobs', '3', '--batch-size', '1000']]) {
      const { code, stdout, stderr } = await run(['validate', '--schema', tagSchema, '--formats', 'assert', '--custom-formats', formats, ...options, input]);
      assert.equal(code, 2, `${options.join(' ')}: ${stderr}`);
      assert.match(stdout, /^\S+:3:8: validation: must be string/, options.join(' '));
      assert.equal(stderr, expected, options.join(' '));
    }
    const document = await run(['validate', '--schema', tagSchema, '--formats', 'assert', '--custom-formats', formats, '-'], new TextEncoder().encode('{"tag":"ab"}'));
    assert.equal(document.code, 2);
    assert.equal(document.stderr, '<stdin>: validating the document threw TypeError: tag exploded\n');
  });

  // Found by an outside attack: the records in batches still with a worker when a record validated
  // on this thread threw were never delivered, so their error lines were lost (214 of 2,000 lines).
  it('prints every error before a record that throws, in every thread, as one thread does', TEST_TIMEOUT, async () => {
    const { formats, tagSchema } = throwingTag();
    const input = join(directory, 'throwing-after-errors.ndjson');
    // Every line before 1,500 is invalid; line 1,500 throws; the lines after it are never read.
    writeFileSync(input, Array.from({ length: 2000 }, (_, i) => (i === 1499 ? '{"tag":"ab"}' : '{"tag":1}')).join('\n') + '\n');
    const one = await run(['validate', '--schema', tagSchema, '--formats', 'assert', '--custom-formats', formats, '--jobs', '1', input]);
    assert.equal(one.code, 2);
    assert.equal(one.stdout.split('\n').filter((line) => line !== '').length, 1499);
    for (const options of [['--jobs', '2', '--batch-size', '12'], ['--jobs', '2', '--batch-size', '1000'], ['--jobs', '3', '--batch-size', '100']]) {
      const { code, stdout, stderr } = await run(['validate', '--schema', tagSchema, '--formats', 'assert', '--custom-formats', formats, ...options, input]);
      assert.equal(code, 2, options.join(' '));
      assert.equal(stdout, one.stdout, options.join(' '));
      assert.equal(stderr, one.stderr, options.join(' '));
    }
  });

  it('judges --keywords and --error-messages in the workers as in one thread, never as unknown keywords', TEST_TIMEOUT, async () => {
    const keywords = join(directory, 'even-keywords.mjs');
    writeFileSync(keywords, 'export default [{ keyword: "even", type: "integer", validate: (wanted, n) => !wanted || n % 2 === 0 }];\n');
    const evenSchema = join(directory, 'even.schema.json');
    writeFileSync(evenSchema, JSON.stringify({ properties: { n: { even: true, errorMessage: 'n must be even' } } }));
    const input = join(directory, 'numbers.ndjson');
    writeFileSync(input, Array.from({ length: 400 }, (_, n) => `{"n":${n}}\n`).join(''));
    const options = ['--keywords', keywords, '--error-messages', '--format', 'json', input];
    const one = await run(['validate', '--schema', evenSchema, '--jobs', '1', ...options]);
    const two = await run(['validate', '--schema', evenSchema, '--jobs', '2', '--batch-size', '100', ...options]);
    assert.equal(one.code, 1);
    assert.equal(one.stdout.match(/n must be even/g)?.length, 200);
    assert.equal(two.stdout, one.stdout);
    assert.equal(two.code, one.code);
  });

  it('prints the invalid records of a trickling stdin as they come, not once a batch has filled', TEST_TIMEOUT, async () => {
    const child = trickling([schemaFile, '--jobs', '2', '--format', 'json']);
    // A few lines, far less than a batch, and stdin left open: each invalid one must show.
    child.stdin.write('{"id":1}\n{"id":"one"}\n');
    await child.printed(1);
    assert.match(child.stdout(), /"line":2/);
    child.stdin.write('{"id":2}\n{"id":"two"}\n{"id":3}\n');
    await child.printed(2);
    assert.match(child.stdout().split('\n')[1]!, /"line":4/);
    child.stdin.end('{"id":"three"}\n');
    assert.deepEqual(await child.exited, [1, null]);
    assert.deepEqual(child.stdout().trim().split('\n').map((line) => (JSON.parse(line) as { line: number }).line), [2, 4, 6]);
  });

  it('stops at --max-errors reached while a trickling stdin is quiet, stdin left open, as one thread does', TEST_TIMEOUT, async () => {
    for (const jobs of ['1', '2']) {
      const child = trickling([schemaFile, '--jobs', jobs, '--max-errors', '1']);
      child.stdin.write('{"id":1}\n{"id":"one"}\n{"id":2}\n');
      // Never ended: the error is printed and the process exits all the same.
      const [code] = await child.exited;
      assert.equal(code, 1, `--jobs ${jobs}: ${child.stderr()}`);
      assert.match(child.stdout(), /^<stdin>:2:7: validation: must be integer/);
      assert.match(child.stderr(), /^1 file, 2 records: 1 valid, 1 invalid, stopped by --max-errors after 1 error/);
    }
  });

  it('fails with exit code 2 when a worker dies on a trickling stdin while it is quiet, stdin left open', TEST_TIMEOUT, async () => {
    const formats = join(directory, 'dying-quietly-formats.mjs');
    writeFileSync(formats, 'import { isMainThread } from "node:worker_threads";\nexport const tag = (value) => { if (!isMainThread && value === "ab") process.exit(3); return true; };\n');
    const tagSchema = join(directory, 'quiet-tag.schema.json');
    writeFileSync(tagSchema, JSON.stringify({ properties: { tag: { format: 'tag' } } }));
    const child = trickling([tagSchema, '--formats', 'assert', '--custom-formats', formats, '--jobs', '2']);
    child.stdin.write('{"tag":"ab"}\n');
    assert.deepEqual(await child.exited, [2, null]);
    assert.equal(child.stdout(), '');
    assert.match(child.stderr(), /^stream-schema: a worker thread exited \(code 3\) before the input was validated \(validating lines from 1\)\n$/);
  });

  it('prints 500,000 invalid records within a 32 MB heap, in one thread and in two', TEST_TIMEOUT, async () => {
    // Every line invalid, each an error line: what waits to be printed, and the results that wait
    // for an earlier batch, are bounded by lines, not by chunks or batches (a chunk of 256 KiB is
    // 87,000 such lines). Before, --jobs 2 ran out of a 64 MB heap here.
    const file = join(directory, 'all-invalid.ndjson');
    writeFileSync(file, '{}\n'.repeat(500_000));
    const required = join(directory, 'required.json');
    writeFileSync(required, JSON.stringify({ type: 'object', required: ['id'] }));
    for (const jobs of ['1', '2']) {
      const { code, stderr } = await runNode(['--max-old-space-size=32', ...CLI, 'validate', '--schema', required, '--jobs', jobs, file], undefined, { ...process.env, NO_COLOR: '1' }, 100_000, 'ignore');
      assert.equal(code, 1, `--jobs ${jobs}: ${stderr}`);
      assert.match(stderr, /500000 records: 0 valid, 500000 invalid/, `--jobs ${jobs}`);
    }
  });

  it('stops, workers and all, at Ctrl-C (SIGINT) while reading', TEST_TIMEOUT, async () => {
    const child = trickling([schemaFile, '--jobs', '2', '--batch-size', '100']);
    // Many batches, and stdin left open: the workers have started and the input has not ended.
    child.stdin.write(fixture);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    child.kill('SIGINT');
    const [code, signal] = await child.exited;
    assert.equal(signal, 'SIGINT', `ended by ${signal ?? code}: ${child.stderr()}`);
  });
});

// --- --byte-range ------------------------------------------------------------------------------

const validator = compile(SHARD_SCHEMA);

async function recordsOf(stream: AsyncIterable<unknown>, firstLine: number): Promise<NdjsonRecord[]> {
  const records: NdjsonRecord[] = [];
  const reader = new NdjsonRecordReader(validator, { firstLine }, (record) => records.push(record));
  for await (const chunk of stream) reader.write(chunk as Uint8Array);
  reader.end();
  return records;
}

describe('--byte-range', () => {
  it('ranges cut anywhere (mid-line, mid-character) give, together, the records of the whole file', TEST_TIMEOUT, async () => {
    const file = join(directory, 'property.ndjson');
    await fc.assert(
      fc.asyncProperty(ndjsonInput, fc.array(fc.nat(), { maxLength: 6 }), async (bytes, positions) => {
        writeFileSync(file, bytes);
        const cuts = [...new Set(positions.map((position) => position % (bytes.length + 1)))].sort((a, b) => a - b);
        const bounds = [0, ...cuts, bytes.length];
        const whole = await openByteRange(file, { start: 0, end: Infinity }, 7);
        const expected = await recordsOf(whole.chunks, whole.firstLine);
        const merged: NdjsonRecord[] = [];
        for (let index = 0; index + 1 < bounds.length; index++) {
          const part = await openByteRange(file, { start: bounds[index]!, end: bounds[index + 1]! }, 7);
          merged.push(...(await recordsOf(part.chunks, part.firstLine)));
        }
        assert.deepEqual(merged, expected);
      }),
      property(60),
    );
  });

  it('the outputs of N processes on N ranges, concatenated, are one run’s output', TEST_TIMEOUT, async () => {
    // Cuts: in a line's middle, inside a multibyte character, right after a line feed, past the end.
    const multibyte = fixture.indexOf(Buffer.from('€'), 1000) + 1;
    const afterLineFeed = fixture.indexOf(0x0a, multibyte + 1000) + 1;
    const bounds = [0, 777, multibyte, afterLineFeed, fixture.length - 3];
    assert.deepEqual([...bounds].sort((a, b) => a - b), bounds);
    const ranges = [...bounds.slice(1).map((end, index) => `${bounds[index]}:${end}`), `${fixture.length - 3}:`];
    for (const format of ['text', 'json']) {
      const whole = await run(['validate', '--schema', schemaFile, '--jobs', '1', '--format', format, '--errors-only', fixtureFile]);
      const parts = await Promise.all(ranges.map((range, index) => run(['validate', '--schema', schemaFile, '--jobs', String(1 + (index % 2)), '--batch-size', '100', '--byte-range', range, '--format', format, '--errors-only', fixtureFile])));
      assert.deepEqual(parts.map((part) => part.code === 0 || part.code === 1), ranges.map(() => true));
      assert.ok(parts.map((part) => part.stdout).join('') === whole.stdout, `${format}: the concatenation differs from one run's output`);
      assert.ok(whole.stdout.split('\n').length > 100);
    }
  });

  it('counts the lines before START for true line numbers', TEST_TIMEOUT, async () => {
    const file = join(directory, 'numbered.ndjson');
    const bytes = ndjsonBytes(false, [{ kind: 0, crlf: false }, { kind: 5, crlf: true }, { kind: 1, crlf: false }, { kind: 1, crlf: false }], true);
    writeFileSync(file, bytes);
    const start = LINE_KINDS[0]!.length + 3;
    const { stdout } = await run(['validate', '--schema', schemaFile, '--byte-range', `${start}:`, '--format', 'json', '--errors-only', file]);
    assert.deepEqual(stdout.trim().split('\n').map((line) => (JSON.parse(line) as { line: number }).line), [3, 4]);
  });

  it('needs one NDJSON file and START:END', TEST_TIMEOUT, async () => {
    const cases: [string[], RegExp][] = [
      [['--byte-range', '0:10', '--ndjson', '-'], /needs exactly one input file \(not stdin\)/],
      [['--byte-range', '0:10', fixtureFile, fixtureFile], /needs exactly one input file/],
      [['--byte-range', '0:10', schemaFile], /applies to NDJSON/],
      [['--byte-range', '10:5', fixtureFile], /--byte-range must be START:END/],
      [['--byte-range', '1-5', fixtureFile], /--byte-range must be START:END/],
      [['--jobs', '0', fixtureFile], /--jobs must be a positive integer/],
      // Found by an outside attack: `Number` took these, and any count of workers was started.
      [['--jobs', '1e2', fixtureFile], /--jobs must be a positive integer, got "1e2"/],
      [['--jobs', '0x2', fixtureFile], /--jobs must be a positive integer, got "0x2"/],
      [['--jobs', ' 2', fixtureFile], /--jobs must be a positive integer, got " 2"/],
      [['--jobs', '258', fixtureFile], /--jobs must be at most 257, got "258"/],
      [['--jobs', '9007199254740991', fixtureFile], /--jobs must be at most 257/],
      [['--batch-size', '2gb', fixtureFile], /--batch-size must be at most 67108864 bytes, got "2gb"/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await run(['validate', '--schema', schemaFile, ...args]);
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, message);
    }
  });

  // Found by an outside attack: a pipe's size reads 0, so its range was empty, and an invalid
  // record passed unread with exit code 0.
  it('refuses --byte-range on a pipe, never a pass', TEST_TIMEOUT, async () => {
    const { code, stdout, stderr } = await run(['validate', '--schema', schemaFile, '--ndjson', '--byte-range', '0:', '/dev/stdin'], new TextEncoder().encode('{"broken": \n'));
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /--byte-range needs a regular file, which it can read from byte START: \/dev\/stdin is not one/);
  });
});
