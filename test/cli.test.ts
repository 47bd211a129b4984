import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { once } from 'node:events';

const TEST_TIMEOUT = { timeout: 60_000 };
const CHILD_TIMEOUT_MS = 45_000;
const ROOT = new URL('..', import.meta.url).pathname;
const CLI = ['--import', 'tsx', join(ROOT, 'adapters/cli.ts')];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a child process, from the project root, killed if it outlives the test. */
function run(args: string[], input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, timeout: CHILD_TIMEOUT_MS, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.length > 0);
}

const SCHEMA = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 }, tag: { type: 'string', maxLength: 3 } } };

const directory = mkdtempSync(join(tmpdir(), 'stream-schema-cli-'));
const schemaFile = join(directory, 'schema.json');
writeFileSync(schemaFile, JSON.stringify(SCHEMA));
const validFile = join(directory, 'valid.ndjson');
writeFileSync(validFile, '{"id":1}\n{"id":2,"tag":"ab"}\n\n{"id":3}');
const mixedFile = join(directory, 'mixed.jsonl');
writeFileSync(mixedFile, '{"id":1}\r\n{"id":0,"tag":"long"}\r\n{"id":\r\n');
const documentFile = join(directory, 'document.json');
writeFileSync(documentFile, '{\n  "id": 7\n}\n');
const badDocumentFile = join(directory, 'bad-document.json');
writeFileSync(badDocumentFile, '{\n  "id": "seven"\n}\n');
const badSchemaFile = join(directory, 'bad-schema.json');
writeFileSync(badSchemaFile, JSON.stringify({ properties: { id: { type: 12 } } }));
const itemSchemaFile = join(directory, 'item.schema.json');
writeFileSync(itemSchemaFile, JSON.stringify({ $id: 'https://example.com/item.json', type: 'object', required: ['sku'] }));
const orderSchemaFile = join(directory, 'order.schema.json');
writeFileSync(orderSchemaFile, JSON.stringify({ type: 'array', items: { $ref: 'https://example.com/item.json' } }));
const strictSchemaFile = join(directory, 'strict.schema.json');
writeFileSync(strictSchemaFile, JSON.stringify({ type: 'object', propertees: {} }));
const notJsonFile = join(directory, 'not-json.json');
writeFileSync(notJsonFile, '{ "type": ');
// A draft-07 schema with $id beside $ref at the root (ignored there), naming a sibling file that
// names another; and one naming a file that is not there.
mkdirSync(join(directory, 'defs'));
const catalogSchemaFile = join(directory, 'catalog.schema.json');
writeFileSync(catalogSchemaFile, JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', $id: 'https://example.com/elsewhere/catalog.json', $ref: 'defs/positive.json#/definitions/positive' }));
writeFileSync(join(directory, 'defs', 'positive.json'), JSON.stringify({ definitions: { positive: { type: 'integer', minimum: 1, not: { $ref: 'thirteen.json' } } } }));
writeFileSync(join(directory, 'defs', 'thirteen.json'), JSON.stringify({ const: 13 }));
const danglingSchemaFile = join(directory, 'dangling.schema.json');
writeFileSync(danglingSchemaFile, JSON.stringify({ $ref: 'missing.json' }));
const remoteSchemaFile = join(directory, 'remote.schema.json');
writeFileSync(remoteSchemaFile, JSON.stringify({ $ref: 'http://127.0.0.1:9/never.json' }));
const dateSchemaFile = join(directory, 'date.schema.json');
writeFileSync(dateSchemaFile, JSON.stringify({ type: 'string', format: 'date' }));
const noIdFile = join(directory, 'defs', 'no-id.json');
writeFileSync(noIdFile, JSON.stringify({ type: 'string' }));

after(() => rmSync(directory, { recursive: true, force: true }));

describe('stream-schema validate', { concurrency: 2 }, () => {
  it('reports each bad line of the example event log with its line number and exits 1', TEST_TIMEOUT, async () => {
    const { code, stdout, stderr } = await run(['validate', '--schema', 'examples/event.schema.json', 'examples/events.ndjson']);
    assert.equal(code, 1, stderr);
    const reported = lines(stdout).map((line) => Number(/^examples\/events\.ndjson:(\d+):/.exec(line)?.[1]));
    assert.deepEqual([...new Set(reported)], [37, 88, 121, 164, 203, 246, 279]);
    assert.match(stdout, /^examples\/events\.ndjson:203:\d+: syntax: /m);
    assert.match(stderr, /1 file, 299 records: 292 valid, 7 invalid/);
  });

  it('exits 0 and prints only the summary when every record is valid', TEST_TIMEOUT, async () => {
    const { code, stdout, stderr } = await run(['validate', '-s', schemaFile, validFile]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, /1 file, 3 records: 3 valid, 0 invalid/);
  });

  it('prints one JSON output unit per line with --format json', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['validate', '--schema', schemaFile, '--format', 'json', mixedFile]);
    assert.equal(code, 1);
    const units = lines(stdout).map((line) => JSON.parse(line));
    assert.deepEqual(
      units.map((unit) => [unit.file, unit.line, unit.kind]),
      [
        [mixedFile, 2, 'validation'],
        [mixedFile, 3, 'syntax'],
      ],
    );
    assert.equal(units[0].instanceLocation, '/id');
    assert.equal(typeof units[0].keywordLocation, 'string');
  });

  it('reports every error of a record with --all-errors', TEST_TIMEOUT, async () => {
    const first = await run(['validate', '--schema', schemaFile, '--format', 'json', mixedFile]);
    const all = await run(['validate', '--schema', schemaFile, '--format', 'json', '--all-errors', mixedFile]);
    const keywordsOfLine2 = (stdout: string) =>
      lines(stdout)
        .map((line) => JSON.parse(line))
        .filter((unit) => unit.line === 2)
        .map((unit) => unit.keyword)
        .sort();
    assert.equal(keywordsOfLine2(first.stdout).length, 1);
    assert.deepEqual(keywordsOfLine2(all.stdout), ['maxLength', 'minimum']);
  });

  it('reads NDJSON from stdin with - and --ndjson', TEST_TIMEOUT, async () => {
    const { code, stdout, stderr } = await run(['validate', '--schema', schemaFile, '--ndjson', '-'], '{"id":1}\n{"id":-1}\n');
    assert.equal(code, 1, stderr);
    assert.match(stdout, /^<stdin>:2:\d+: validation: /);
    assert.match(stderr, /2 records: 1 valid, 1 invalid/);
  });

  it('validates a file not named .ndjson/.jsonl as one JSON document', TEST_TIMEOUT, async () => {
    const valid = await run(['validate', '--schema', schemaFile, documentFile]);
    assert.equal(valid.code, 0, valid.stderr);
    const invalid = await run(['validate', '--schema', schemaFile, badDocumentFile, documentFile, validFile]);
    assert.equal(invalid.code, 1);
    assert.match(invalid.stdout, new RegExp(`^${escape(badDocumentFile)}:2:\\d+: validation: .*instance "/id"`));
    assert.match(invalid.stderr, /3 files, 5 records: 4 valid, 1 invalid/);
  });

  it('applies --draft, and rejects an unknown one with exit 2', TEST_TIMEOUT, async () => {
    const draft7 = await run(['validate', '--schema', schemaFile, '--draft', 'draft7', validFile]);
    assert.equal(draft7.code, 0, draft7.stderr);
    const unknown = await run(['validate', '--schema', schemaFile, '--draft', 'draft3', validFile]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown --draft "draft3"/);
  });

  it('turns a line over --max-line-length into a limit error', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['validate', '--schema', schemaFile, '--max-line-length', '12', validFile]);
    assert.equal(code, 1);
    assert.match(stdout, /:2:13: limit: line is longer than maxLineLength/);
  });

  it('exits 2 on usage errors', TEST_TIMEOUT, async () => {
    const results = await Promise.all([
      run([]),
      run(['lint']),
      run(['validate', validFile]),
      run(['validate', '--schema', schemaFile, '--colour', validFile]),
      run(['validate', '--schema', schemaFile, '--format', 'xml', validFile]),
    ]);
    for (const result of results) {
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /^stream-schema: .*\nRun "stream-schema --help" for usage\.\n$/);
    }
    assert.match(results[2].stderr, /validate needs --schema/);
  });

  it('exits 2 on a schema error, naming its location', TEST_TIMEOUT, async () => {
    const bad = await run(['validate', '--schema', badSchemaFile, validFile]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /schema error: .*schema location "\/properties\/id\/type"/);
    const notJson = await run(['validate', '--schema', notJsonFile, validFile]);
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /is not JSON/);
  });

  it('exits 2 when an input cannot be read, after validating the others', TEST_TIMEOUT, async () => {
    const { code, stderr } = await run(['validate', '--schema', schemaFile, join(directory, 'missing.ndjson'), validFile]);
    assert.equal(code, 2);
    assert.match(stderr, /cannot read .*missing\.ndjson: ENOENT/);
    assert.match(stderr, /1 unreadable, 3 records: 3 valid/);
  });

  it('prints help with --help and exits 0', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['--help']);
    assert.equal(code, 0);
    assert.match(stdout, /stream-schema validate --schema/);
  });
});

describe('stream-schema check-schema', { concurrency: 2 }, () => {
  it('says a good schema is valid and exits 0', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['check-schema', 'examples/event.schema.json']);
    assert.equal(code, 0);
    assert.equal(stdout, 'examples/event.schema.json: valid schema (draft2020-12)\n');
  });

  it('reports a bad schema with its pointer and exits 1', TEST_TIMEOUT, async () => {
    const text = await run(['check-schema', badSchemaFile]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /schema error: .*\(at schema location "\/properties\/id\/type"\) \[schema\.[\w.]+\]/);
    const json = await run(['check-schema', '--format', 'json', badSchemaFile]);
    assert.equal(json.code, 1);
    const unit = JSON.parse(json.stdout);
    assert.equal(unit.valid, false);
    assert.equal(unit.schemaLocation, '/properties/id/type');
    assert.match(unit.code, /^schema\./);
  });

  it('finds referenced schema documents given with --ref', TEST_TIMEOUT, async () => {
    const without = await run(['check-schema', orderSchemaFile]);
    assert.equal(without.code, 1);
    const withRef = await run(['validate', '--schema', orderSchemaFile, '--ref', itemSchemaFile, '--ndjson', '-'], '[{"sku":"A"}]\n[{}]\n');
    assert.equal(withRef.code, 1, withRef.stderr);
    assert.match(withRef.stdout, /^<stdin>:2:\d+: validation: .*instance "\/0"/);
  });

  it('resolves relative references against the schema file and reads the files they name', TEST_TIMEOUT, async () => {
    const { code, stdout, stderr } = await run(['validate', '--schema', catalogSchemaFile, '--ndjson', '-'], '3\n0\n13\n');
    assert.equal(code, 1, stderr);
    assert.deepEqual(lines(stdout).map((line) => /^<stdin>:(\d+):/.exec(line)?.[1]), ['2', '3']);
    assert.match(stderr, /3 records: 1 valid, 2 invalid/);
    assert.equal((await run(['check-schema', catalogSchemaFile])).code, 0);
  });

  it('names the file a reference tried, and the base, when it is not there', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['check-schema', '--format', 'json', danglingSchemaFile]);
    assert.equal(code, 1);
    const unit = JSON.parse(stdout);
    assert.equal(unit.code, 'schema.ref.unresolved');
    assert.equal(unit.unresolved.uri, pathToFileURL(join(directory, 'missing.json')).href);
    assert.equal(unit.unresolved.base, pathToFileURL(danglingSchemaFile).href);
    assert.equal((await run(['validate', '--schema', danglingSchemaFile, '-'], '1')).code, 2);
  });

  it('never fetches a reference from the network', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['check-schema', '--format', 'json', remoteSchemaFile]);
    assert.equal(code, 1);
    assert.equal(JSON.parse(stdout).unresolved.uri, 'http://127.0.0.1:9/never.json');
  });

  it('refuses a --ref file without $id: nothing could reference it but its location, which is read anyway', TEST_TIMEOUT, async () => {
    const { code, stderr } = await run(['validate', '--schema', orderSchemaFile, '--ref', noIdFile, '-'], '[]');
    assert.equal(code, 2);
    assert.match(stderr, /no string \$id/);
  });

  it('checks format with --formats assert only', TEST_TIMEOUT, async () => {
    assert.equal((await run(['validate', '--schema', dateSchemaFile, '-'], '"2020-13-45"')).code, 0);
    const asserted = await run(['validate', '--schema', dateSchemaFile, '--formats', 'assert', '-'], '"2020-13-45"');
    assert.equal(asserted.code, 1, asserted.stderr);
    assert.match(asserted.stdout, /format "date"/);
    assert.equal((await run(['validate', '--schema', dateSchemaFile, '--formats', 'strict', '-'], '"x"')).code, 2);
  });

  it('rejects unknown keywords with --strict only', TEST_TIMEOUT, async () => {
    assert.equal((await run(['check-schema', strictSchemaFile])).code, 0);
    const strict = await run(['check-schema', '--strict', strictSchemaFile]);
    assert.equal(strict.code, 1);
    assert.match(strict.stdout, /propertees/);
  });

  it('exits 2 without a schema file', TEST_TIMEOUT, async () => {
    const { code } = await run(['check-schema']);
    assert.equal(code, 2);
  });
});

const hasScript = spawnSync('script', ['--version']).status === 0;

describe('progress line', () => {
  it('shows bytes, records/s and the invalid count on a terminal for files over 10 MB', { ...TEST_TIMEOUT, skip: hasScript ? false : 'needs script(1) for a pseudo-terminal' }, async () => {
    const bigFile = join(directory, 'big.ndjson');
    const out = createWriteStream(bigFile);
    const block = '{"id":1,"tag":"abc"}\n'.repeat(5000) + '{"id":0}\n';
    for (let written = 0; written < 11 * 1024 * 1024; written += block.length) {
      if (!out.write(block)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'close');
    const command = [process.execPath, ...CLI, 'validate', '--schema', schemaFile, bigFile].map((part) => `'${part}'`).join(' ');
    // script(1) gives the child a terminal; its stdout (and so ours) is the terminal's output.
    const { stdout } = await runScript(command);
    assert.match(stdout, /big\.ndjson: [\d.]+ (KB|MB) \/ 11\.\d MB \(\d+%\), [\d,]+ records\/s, \d+ invalid/);
    assert.match(stdout, /records: \d+ valid, \d+ invalid/);
  });
});

function runScript(command: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], { cwd: ROOT, timeout: CHILD_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr: '' }));
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
