import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, truncateSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { once } from 'node:events';
import { runInTerminal, screenLines, type TerminalRun } from './support/terminal.js';
import { buildPackage, CHILD_TIMEOUT_MS, CLI, ROOT, runCli, runNode, type Run } from './support/cliRun.js';

const TEST_TIMEOUT = { timeout: 60_000 };

/** The environment without what turns colour off, so that only a test's own choice does. */
const ENV = { ...process.env, NO_COLOR: undefined, TERM: 'xterm-256color' };

const run = (args: string[], input?: string, env: NodeJS.ProcessEnv = ENV): Promise<Run> => runCli(args, input, env);

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
const phoneSchemaFile = join(directory, 'phone.schema.json');
writeFileSync(phoneSchemaFile, JSON.stringify({ type: 'string', format: 'phone' }));
const namedFormatsFile = join(directory, 'named-formats.mjs');
writeFileSync(namedFormatsFile, 'export const phone = /^\\+[0-9]+$/;\n');
const defaultFormatsFile = join(directory, 'default-formats.mjs');
writeFileSync(defaultFormatsFile, 'export default { phone: (value) => value.startsWith("+") };\n');
const evenSchemaFile = join(directory, 'even.schema.json');
writeFileSync(evenSchemaFile, JSON.stringify({ type: 'array', even: true, errorMessage: { type: 'a list, please' } }));
const namedKeywordsFile = join(directory, 'named-keywords.mjs');
writeFileSync(namedKeywordsFile, 'export const keywords = [{ keyword: "even", type: "array", validate: (_s, data) => data.length % 2 === 0 }];\n');
const defaultKeywordsFile = join(directory, 'default-keywords.mjs');
writeFileSync(defaultKeywordsFile, 'export default [{ keyword: "even", validate: () => false, message: "never even" }];\n');
const badKeywordsFile = join(directory, 'bad-keywords.mjs');
writeFileSync(badKeywordsFile, 'export default { keyword: "even" };\n');
const typoSchemaFile = join(directory, 'typo.schema.json');
writeFileSync(typoSchemaFile, JSON.stringify({ type: 'object', requird: ['id'], properties: { id: { tpye: 'integer' } } }));
const notJsonFile = join(directory, 'not-json.json');
writeFileSync(notJsonFile, '{ "type": ');
const multilineNotJsonFile = join(directory, 'not-json-multiline.json');
writeFileSync(multilineNotJsonFile, '{\n  "type": "object",\n  "properties": {,}\n}\n');
const bomSchemaFile = join(directory, 'bom.schema.json');
writeFileSync(bomSchemaFile, '\ufeff{"type": "object"}');
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
// For the syntax pass: a document whose first error is a schema violation, then malformed.
const closedSchemaFile = join(directory, 'closed.schema.json');
writeFileSync(closedSchemaFile, JSON.stringify({ properties: { p: { type: 'array' } }, additionalProperties: false }));
const MALFORMED_DOCUMENT = '{"a": 1,\n "b": }';
const malformedDocumentFile = join(directory, 'malformed.json');
writeFileSync(malformedDocumentFile, MALFORMED_DOCUMENT);
// Line 3 is longer than the CLI's 64 KB reads, so it arrives in pieces.
const LONG_LINE = `{"p": ["${'x'.repeat(70_000)}"], "a": 1, "b": }`;
const malformedLinesFile = join(directory, 'malformed.ndjson');
writeFileSync(malformedLinesFile, `{"p": []}\n{"a": 1, "b": }\n${LONG_LINE}\n`);
const noIdFile = join(directory, 'defs', 'no-id.json');
writeFileSync(noIdFile, JSON.stringify({ type: 'string' }));

/** The package's bin built once for the tests that run it (a tsc build and a bundle take seconds). */
let built: ReturnType<typeof buildPackage> | undefined;
const builtCli = (): ReturnType<typeof buildPackage> => (built ??= buildPackage());

after(async () => {
  rmSync(directory, { recursive: true, force: true });
  if (built !== undefined) rmSync((await built).build, { recursive: true, force: true });
});

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
      run(['validate', '--schema', schemaFile, '--max-errors', '0', validFile]),
      run(['check-schema', '--max-errors', '3', schemaFile]),
    ]);
    for (const result of results) {
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /^stream-schema: .*\nRun "stream-schema --help" for usage\.\n$/);
    }
    assert.match(results[2].stderr, /validate needs --schema/);
    assert.match(results[5].stderr, /--max-errors must be a positive integer, got "0"/);
    assert.match(results[6].stderr, /--max-errors applies to validate, not check-schema/);
  });

  it('exits 2 on a schema error, naming its location', TEST_TIMEOUT, async () => {
    const bad = await run(['validate', '--schema', badSchemaFile, validFile]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /schema error: .*schema location "\/properties\/id\/type"/);
  });

  it('names the line and column where a schema file stops being JSON, without a usage hint', TEST_TIMEOUT, async () => {
    const [validate, check, reference] = await Promise.all([
      run(['validate', '--schema', notJsonFile, validFile]),
      run(['check-schema', multilineNotJsonFile]),
      run(['validate', '--schema', orderSchemaFile, '--ref', notJsonFile, validFile]),
    ]);
    assert.deepEqual([validate.code, check.code, reference.code], [2, 2, 2]);
    assert.equal(validate.stderr, `${notJsonFile}:1:11: not JSON: Unexpected end of input, expected a value\n`);
    assert.equal(check.stderr, `${multilineNotJsonFile}:3:18: not JSON: Unexpected character ',', expected a string key or '}'\n`);
    assert.equal(reference.stderr, validate.stderr);
  });

  it('reads a schema file that opens with a byte order mark', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['check-schema', bomSchemaFile]);
    assert.equal(code, 0, stdout);
  });

  it('says a schema file cannot be read, without a usage hint', TEST_TIMEOUT, async () => {
    const missing = join(directory, 'no-such-schema.json');
    const results = await Promise.all([run(['validate', '--schema', missing, validFile]), run(['check-schema', missing])]);
    for (const { code, stderr } of results) {
      assert.equal(code, 2);
      assert.match(stderr, /^stream-schema: cannot read .*no-such-schema\.json: ENOENT[^\n]*\n$/);
    }
  });

  it('exits 2 when an input cannot be read, after validating the others', TEST_TIMEOUT, async () => {
    const { code, stderr } = await run(['validate', '--schema', schemaFile, join(directory, 'missing.ndjson'), validFile]);
    assert.equal(code, 2);
    assert.match(stderr, /cannot read .*missing\.ndjson: ENOENT/);
    assert.match(stderr, /1 unreadable, 3 records: 3 valid/);
  });

  it('counts an input that cannot be read as a file, missing or a directory alike', TEST_TIMEOUT, async () => {
    const runs = await Promise.all([join(directory, 'missing.ndjson'), directory].map((input) => run(['validate', '--schema', schemaFile, input, validFile])));
    for (const { code, stderr } of runs) {
      assert.equal(code, 2);
      assert.match(stderr, /\b2 files, 1 unreadable, 3 records: 3 valid/);
    }
  });

  it('prints help with --help and exits 0', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['--help']);
    assert.equal(code, 0);
    assert.match(stdout, /stream-schema validate --schema/);
    for (const option of ['--quiet', '--errors-only', '--max-errors', '--no-color', '--max-schema-size', '--version']) assert.match(stdout, new RegExp(`^ .*${option}`, 'm'));
    assert.match(stdout, /Exit codes: 0 all valid, 1 some document invalid, 2 usage, input or schema error/);
  });

  it('says "1 record" and "1 file", not "1 records"', TEST_TIMEOUT, async () => {
    const { code, stderr } = await run(['validate', '--schema', schemaFile, documentFile]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^1 file, 1 record: 1 valid, 0 invalid \(/);
  });

  it('prints the version of package.json with --version, from the source, the build and the bundled bin', TEST_TIMEOUT, async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const [global, inCommand] = await Promise.all([run(['--version']), run(['validate', '--version'])]);
    assert.deepEqual([global.code, global.stdout, inCommand.stdout], [0, `${version}\n`, `${version}\n`]);
    // tsc's adapters/cli.js is two directories below package.json, the bin's bundle/cli.js too.
    const { cli, compiled } = await builtCli();
    for (const file of [compiled, cli]) {
      const fromBuild = spawnSync(process.execPath, [file, '--version'], { cwd: directory, encoding: 'utf8' });
      assert.deepEqual([fromBuild.status, fromBuild.stdout], [0, `${version}\n`], `${file}: ${fromBuild.stderr}`);
    }
  });

  it('the bin (the bundled CLI) finds its workers and its option modules, and says what the source says', TEST_TIMEOUT, async () => {
    // Past a few 256 KiB batches, so that --jobs 2 hands some to its worker.
    const many = join(directory, 'many.ndjson');
    writeFileSync(many, Array.from({ length: 60_000 }, (_, index) => (index % 997 === 5 ? '{"id":0,"tag":"long"}' : `{"id":${index + 1},"tag":"ab"}`)).join('\n'));
    const { cli } = await builtCli();
    for (const args of [
      ['validate', '--jobs', '1', '--schema', schemaFile, many, badDocumentFile],
      ['validate', '--jobs', '2', '--schema', schemaFile, many, mixedFile],
      ['validate', '--jobs', '2', '--keywords', namedKeywordsFile, '--schema', evenSchemaFile, '--ndjson', many],
    ]) {
      const [bundled, source] = await Promise.all([runNode([cli, ...args], undefined, ENV), run(args)]);
      assert.equal(bundled.code, 1, bundled.stderr);
      assert.ok(lines(bundled.stdout).length > 50, bundled.stdout);
      assert.deepEqual([bundled.code, bundled.stdout], [source.code, source.stdout], args.join(' '));
      // The summary's timing aside.
      assert.equal(bundled.stderr.replace(/\(.*\)/, ''), source.stderr.replace(/\(.*\)/, ''), args.join(' '));
    }
  });

  it('prints nothing with --quiet but what makes the exit code 2', TEST_TIMEOUT, async () => {
    const [invalid, unreadable, validSchema, invalidSchema] = await Promise.all([
      run(['validate', '-q', '--schema', schemaFile, mixedFile]),
      run(['validate', '--quiet', '--schema', schemaFile, join(directory, 'missing.ndjson'), mixedFile]),
      run(['check-schema', '--quiet', schemaFile]),
      run(['check-schema', '--quiet', badSchemaFile]),
    ]);
    assert.deepEqual(invalid, { code: 1, stdout: '', stderr: '' });
    assert.equal(unreadable.code, 2);
    assert.equal(unreadable.stdout, '');
    assert.match(unreadable.stderr, /^stream-schema: cannot read .*missing\.ndjson: ENOENT[^\n]*\n$/);
    assert.deepEqual(validSchema, { code: 0, stdout: '', stderr: '' });
    assert.equal(invalidSchema.code, 2);
    assert.match(invalidSchema.stdout, /schema error: /);
  });

  it('prints the error lines alone with --errors-only', TEST_TIMEOUT, async () => {
    const [errorsOnly, full] = await Promise.all([run(['validate', '--errors-only', '--schema', schemaFile, mixedFile]), run(['validate', '--schema', schemaFile, mixedFile])]);
    assert.equal(errorsOnly.code, 1);
    assert.equal(errorsOnly.stderr, '');
    assert.equal(lines(errorsOnly.stdout).length, 2);
    assert.equal(errorsOnly.stdout, full.stdout);
  });

  it('stops reading after --max-errors errors, and says so', TEST_TIMEOUT, async () => {
    const [one, oneOfAll, enough] = await Promise.all([
      run(['validate', '--max-errors', '1', '--schema', schemaFile, mixedFile, badDocumentFile]),
      run(['validate', '--max-errors', '1', '--all-errors', '--schema', schemaFile, '--ndjson', '-'], '{"id":0,"tag":"long"}\n'),
      run(['validate', '--max-errors', '3', '--schema', schemaFile, mixedFile]),
    ]);
    assert.equal(one.code, 1);
    assert.deepEqual(lines(one.stdout).map((line) => /^\S+?\.jsonl:(\d+):/.exec(line)?.[1]), ['2']);
    assert.match(one.stderr, /^1 file, 2 records: 1 valid, 1 invalid, stopped by --max-errors after 1 error \(/);
    assert.equal(lines(oneOfAll.stdout).length, 1);
    assert.equal(lines(enough.stdout).length, 2);
    assert.doesNotMatch(enough.stderr, /stopped/);
  });
});

describe('a syntax error after the first schema violation', { concurrency: 2 }, () => {
  it('is reported too for a JSON file', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['validate', '--schema', closedSchemaFile, malformedDocumentFile]);
    assert.equal(code, 1);
    assert.deepEqual(lines(stdout), [
      `${malformedDocumentFile}:1:4: validation: must NOT have additional property "a" (instance "/a", keyword "/additionalProperties")`,
      `${malformedDocumentFile}:2:7: syntax: Unexpected character '}' at line 2 column 7, expected a value (instance "")`,
    ]);
  });

  it('is reported too for a document read from stdin', TEST_TIMEOUT, async () => {
    const [piped, file] = await Promise.all([run(['validate', '--schema', closedSchemaFile, '-'], MALFORMED_DOCUMENT), run(['validate', '--schema', closedSchemaFile, malformedDocumentFile])]);
    assert.equal(piped.code, 1);
    assert.equal(piped.stdout, file.stdout.replaceAll(malformedDocumentFile, '<stdin>'));
  });

  it('is reported too for an NDJSON line, whole in a chunk or split across chunks', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['validate', '--schema', closedSchemaFile, '--format', 'json', malformedLinesFile]);
    assert.equal(code, 1);
    const units = lines(stdout).map((line) => JSON.parse(line));
    assert.deepEqual(
      units.map((unit) => [unit.line, unit.kind, unit.column]),
      [
        [2, 'validation', 4],
        [2, 'syntax', 15],
        [3, 'validation', LONG_LINE.indexOf('"a"') + 3],
        [3, 'syntax', LONG_LINE.length],
      ],
    );
  });

  it('is reported for a piped document bigger than what is kept for the pass, whether the violation comes early or late', TEST_TIMEOUT, async () => {
    // Over the 4 MiB the CLI keeps of a pipe before the verdict (KEPT_PREFIX_LIMIT): a late
    // violation finds the syntax pass already running alongside, an early one starts it from what was kept.
    const strings = Array.from({ length: 5 }, () => `"${'x'.repeat(1024 * 1024)}"`).join(',');
    const early = `{"a": 1, "p": [${strings}], "b": }`;
    const late = `{"p": [${strings}], "a": 1, "b": }`;
    for (const document of [early, late]) {
      const { code, stdout } = await run(['validate', '--schema', closedSchemaFile, '--format', 'json', '-'], document);
      assert.equal(code, 1);
      const units = lines(stdout).map((line) => JSON.parse(line));
      assert.deepEqual(
        units.map((unit) => [unit.kind, unit.column]),
        [
          ['validation', document.indexOf('"a"') + 3],
          ['syntax', document.length],
        ],
      );
    }
  });

  it('adds nothing to a well-formed document, and is reported once with --all-errors', TEST_TIMEOUT, async () => {
    const [wellFormed, allErrors] = await Promise.all([
      run(['validate', '--schema', closedSchemaFile, '--format', 'json', '-'], '{"a": 1, "b": 2}'),
      run(['validate', '--all-errors', '--schema', closedSchemaFile, '--format', 'json', malformedDocumentFile]),
    ]);
    assert.deepEqual(
      lines(wellFormed.stdout).map((line) => JSON.parse(line).kind),
      ['validation'],
    );
    assert.deepEqual(
      lines(allErrors.stdout).map((line) => JSON.parse(line).kind),
      ['validation', 'validation', 'syntax'],
    );
  });
});

/** The CLI from source with its stdin and stdout on the given file descriptors (a directory, /dev/full). */
const runOnDescriptors = (args: string[], stdin: number | 'pipe', stdout: number): Promise<Run> => runNode([...CLI, ...args], undefined, ENV, CHILD_TIMEOUT_MS, stdout, stdin);

// An outside attack, as an ajv-cli user: each of these ended with an exit code a script reads as
// a verdict it was not.
describe('what the CLI could not do is never a verdict', { concurrency: 2 }, () => {
  it('output it cannot write (ENOSPC) exits 2 with a message, not 1 with a stack trace', TEST_TIMEOUT, async () => {
    const full = openSync('/dev/full', 'w');
    try {
      for (const args of [['validate', '--schema', schemaFile, mixedFile], ['check-schema', schemaFile]]) {
        const { code, stderr } = await runOnDescriptors(args, 'pipe', full);
        assert.equal(code, 2, args[0]);
        assert.match(stderr, /cannot write the output: ENOSPC/, args[0]);
        assert.doesNotMatch(stderr, /\n\s+at /, args[0]);
      }
    } finally {
      closeSync(full);
    }
  });

  it('stdin that is a directory is an input it cannot read, as a directory named is', TEST_TIMEOUT, async () => {
    const folder = openSync(directory, 'r');
    try {
      for (const args of [['validate', '--schema', schemaFile, '--ndjson'], ['validate', '--schema', schemaFile]]) {
        const { code, stderr } = await runOnDescriptors(args, folder, 1);
        assert.equal(code, 2, args.join(' '));
        assert.match(stderr, /cannot read <stdin>: EISDIR/, args.join(' '));
      }
    } finally {
      closeSync(folder);
    }
  });

  it('check-schema checks every schema named, and exits 2 if any is not one', TEST_TIMEOUT, async () => {
    for (const args of [[schemaFile, badSchemaFile], ['-s', schemaFile, badSchemaFile], [badSchemaFile, schemaFile]]) {
      const { code, stdout } = await run(['check-schema', ...args]);
      assert.equal(code, 2, args.join(' '));
      assert.match(stdout, /valid schema/, args.join(' '));
      assert.match(stdout, /schema error: /, args.join(' '));
    }
    const both = await run(['check-schema', schemaFile, 'examples/event.schema.json']);
    assert.equal(both.code, 0);
    assert.equal(lines(both.stdout).length, 2);
  });

  it('a name in the data with line breaks or a terminal escape stays on its one error line, escaped', TEST_TIMEOUT, async () => {
    const closed = join(directory, 'closed-names.schema.json');
    writeFileSync(closed, JSON.stringify({ type: 'object', additionalProperties: false, properties: { a: {} } }));
    const { code, stdout } = await run(['validate', '--schema', closed, '--ndjson', '-'], '{"a":1,"x\\ny\\r\\u001b]0;t\\u0007\\u2028":1}\n');
    assert.equal(code, 1);
    assert.equal(lines(stdout).length, 1);
    assert.match(stdout, /"x\\u000ay\\u000d\\u001b\]0;t\\u0007\\u2028"/);
    assert.doesNotMatch(stdout, /[\u0000-\u0009\u000b-\u001f\u2028]/);
  });
});

describe('stream-schema check-schema', { concurrency: 2 }, () => {
  it('says a good schema is valid and exits 0', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['check-schema', 'examples/event.schema.json']);
    assert.equal(code, 0);
    assert.equal(stdout, 'examples/event.schema.json: valid schema (draft2020-12)\n');
  });

  it('reports a bad schema with its pointer and exits 2, as validate does', TEST_TIMEOUT, async () => {
    const text = await run(['check-schema', badSchemaFile]);
    assert.equal(text.code, 2);
    assert.match(text.stdout, /schema error: .*\(at schema location "\/properties\/id\/type"\) \[schema\.[\w.]+\]/);
    const json = await run(['check-schema', '--format', 'json', badSchemaFile]);
    assert.equal(json.code, 2);
    const unit = JSON.parse(json.stdout);
    assert.equal(unit.valid, false);
    assert.equal(unit.schemaLocation, '/properties/id/type');
    assert.match(unit.code, /^schema\./);
  });

  it('finds referenced schema documents given with --ref', TEST_TIMEOUT, async () => {
    const without = await run(['check-schema', orderSchemaFile]);
    assert.equal(without.code, 2);
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
    assert.equal(code, 2);
    const unit = JSON.parse(stdout);
    assert.equal(unit.code, 'schema.ref.unresolved');
    assert.equal(unit.unresolved.uri, pathToFileURL(join(directory, 'missing.json')).href);
    assert.equal(unit.unresolved.base, pathToFileURL(danglingSchemaFile).href);
    assert.equal((await run(['validate', '--schema', danglingSchemaFile, '-'], '1')).code, 2);
  });

  it('never fetches a reference from the network', TEST_TIMEOUT, async () => {
    const { code, stdout } = await run(['check-schema', '--format', 'json', remoteSchemaFile]);
    assert.equal(code, 2);
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

  it('asserts the formats of a --custom-formats module, and refuses an asserted format nobody knows', TEST_TIMEOUT, async () => {
    const [named, namedBad, byDefault, unknown, annotated, checked, missing] = await Promise.all([
      run(['validate', '--schema', phoneSchemaFile, '--formats', 'assert', '--custom-formats', namedFormatsFile, '-'], '"+4712"'),
      run(['validate', '--schema', phoneSchemaFile, '--formats', 'assert', '--custom-formats', namedFormatsFile, '-'], '"4712"'),
      run(['validate', '--schema', phoneSchemaFile, '--formats', 'assert', '--custom-formats', defaultFormatsFile, '-'], '"4712"'),
      run(['validate', '--schema', phoneSchemaFile, '--formats', 'assert', '-'], '"+4712"'),
      run(['validate', '--schema', phoneSchemaFile, '-'], '"4712"'),
      run(['check-schema', '--formats', 'assert', '--custom-formats', namedFormatsFile, phoneSchemaFile]),
      run(['check-schema', '--custom-formats', join(directory, 'no-such-module.mjs'), phoneSchemaFile]),
    ]);
    assert.equal(named.code, 0, named.stderr);
    assert.equal(namedBad.code, 1, namedBad.stderr);
    assert.match(namedBad.stdout, /format "phone"/);
    assert.equal(byDefault.code, 1, byDefault.stderr);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown format "phone".*\[schema\.format\.unknown\]/);
    assert.equal(annotated.code, 0, annotated.stderr);
    assert.equal(checked.code, 0, checked.stdout);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--custom-formats: cannot load the module/);
  });

  it('judges by the keywords of a --keywords module, refuses a bad one, and applies errorMessage with --error-messages', TEST_TIMEOUT, async () => {
    const [named, namedBad, byDefault, bad, missing, messages, strict] = await Promise.all([
      run(['validate', '--schema', evenSchemaFile, '--keywords', namedKeywordsFile, '-'], '[1,2]'),
      run(['validate', '--schema', evenSchemaFile, '--keywords', namedKeywordsFile, '-'], '[1,2,3]'),
      run(['validate', '--schema', evenSchemaFile, '--keywords', defaultKeywordsFile, '-'], '[1,2]'),
      run(['check-schema', '--keywords', badKeywordsFile, evenSchemaFile]),
      run(['check-schema', '--keywords', join(directory, 'no-such-module.mjs'), evenSchemaFile]),
      run(['validate', '--schema', evenSchemaFile, '--keywords', namedKeywordsFile, '--error-messages', '-'], '{}'),
      run(['check-schema', '--strict', '--keywords', namedKeywordsFile, '--error-messages', evenSchemaFile]),
    ]);
    assert.equal(named.code, 0, named.stderr);
    assert.equal(namedBad.code, 1, namedBad.stderr);
    assert.match(namedBad.stdout, /must pass "even" keyword validation/);
    assert.equal(byDefault.code, 1, byDefault.stderr);
    assert.match(byDefault.stdout, /never even/);
    assert.equal(bad.code, 2);
    assert.match(bad.stdout + bad.stderr, /options\.keywords must be an array.*\[schema\.option\.keywords\]/);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--keywords: cannot load the module/);
    assert.equal(messages.code, 1, messages.stderr);
    assert.match(messages.stdout, /a list, please/);
    assert.equal(strict.code, 0, strict.stdout + strict.stderr);
  });

  it('rejects unknown keywords with --strict only', TEST_TIMEOUT, async () => {
    assert.equal((await run(['check-schema', strictSchemaFile])).code, 0);
    const strict = await run(['check-schema', '--strict', strictSchemaFile]);
    assert.equal(strict.code, 2);
    assert.match(strict.stdout, /propertees/);
  });

  it('lists every unknown keyword as a warning with exit 0, and with --strict as an error with exit 2', TEST_TIMEOUT, async () => {
    const [text, json, strict, quiet] = await Promise.all([
      run(['check-schema', typoSchemaFile]),
      run(['check-schema', '--format', 'json', typoSchemaFile]),
      run(['check-schema', '--strict', '--format', 'json', typoSchemaFile]),
      run(['check-schema', '--quiet', typoSchemaFile]),
    ]);
    assert.equal(text.code, 0);
    assert.deepEqual(lines(text.stdout), [
      `${typoSchemaFile}: warning: unknown keyword "requird" (did you mean "required"?) (at schema location "/requird") [schema.keyword.unknown]`,
      `${typoSchemaFile}: warning: unknown keyword "tpye" (did you mean "type"?) (at schema location "/properties/id/tpye") [schema.keyword.unknown]`,
      `${typoSchemaFile}: valid schema (draft2020-12)`,
    ]);
    assert.equal(json.code, 0);
    assert.deepEqual(lines(json.stdout).map((line) => JSON.parse(line)).map(({ schemaLocation, keyword, warning, valid }) => ({ schemaLocation, keyword, warning: typeof warning, valid })), [
      { schemaLocation: '/requird', keyword: 'requird', warning: 'string', valid: undefined },
      { schemaLocation: '/properties/id/tpye', keyword: 'tpye', warning: 'string', valid: undefined },
      { schemaLocation: undefined, keyword: undefined, warning: 'undefined', valid: true },
    ]);
    assert.equal(strict.code, 2);
    assert.deepEqual(lines(strict.stdout).map((line) => JSON.parse(line)).map(({ valid, code, schemaLocation }) => ({ valid, code, schemaLocation })), [
      { valid: false, code: 'schema.keyword.unknown', schemaLocation: '/requird' },
      { valid: false, code: 'schema.keyword.unknown', schemaLocation: '/properties/id/tpye' },
    ]);
    assert.equal(quiet.code, 0);
    assert.equal(quiet.stdout, '');
  });

  it('exits 2 without a schema file', TEST_TIMEOUT, async () => {
    const { code } = await run(['check-schema']);
    assert.equal(code, 2);
  });
});

/** `text` followed by spaces up to `size` bytes: still the same JSON. */
function paddedTo(size: number, text: string): string {
  return text + ' '.repeat(size - Buffer.byteLength(text));
}

describe('schema files over --max-schema-size', { concurrency: 2 }, () => {
  const tooLarge = (file: string, size: number) => `${file}: larger than --max-schema-size (${size} bytes): not read as a schema\n`;

  it('refuses --schema /dev/zero, --ref /dev/zero and check-schema /dev/zero, which have no size to stat, with exit 2', TEST_TIMEOUT, async () => {
    const results = await Promise.all([
      run(['validate', '--schema', '/dev/zero', '--max-schema-size', '1mb', validFile]),
      run(['validate', '--schema', orderSchemaFile, '--ref', '/dev/zero', '--max-schema-size', '1mb', '-'], '[]'),
      run(['check-schema', '--max-schema-size', '1mb', '/dev/zero']),
    ]);
    for (const { code, stdout, stderr } of results) {
      assert.equal(code, 2);
      assert.equal(stderr, tooLarge('/dev/zero', 1024 * 1024));
      assert.equal(stdout, '');
    }
  });

  it('refuses a schema file over the default 64 MiB, unread', TEST_TIMEOUT, async () => {
    const hugeFile = join(directory, 'huge.schema.json');
    writeFileSync(hugeFile, '{}');
    truncateSync(hugeFile, 64 * 1024 * 1024 + 1);
    const { code, stderr } = await run(['check-schema', hugeFile]);
    assert.equal(code, 2);
    assert.equal(stderr, tooLarge(hugeFile, 64 * 1024 * 1024));
  });

  it('reads a schema file of exactly --max-schema-size, and refuses one a byte larger', TEST_TIMEOUT, async () => {
    const exactFile = join(directory, 'exactly-1kb.schema.json');
    writeFileSync(exactFile, paddedTo(1024, JSON.stringify(SCHEMA)));
    const [atLimit, inUnits, over] = await Promise.all([
      run(['check-schema', '--max-schema-size', '1024', exactFile]),
      run(['validate', '--schema', exactFile, '--max-schema-size', '1kb', validFile]),
      run(['check-schema', '--max-schema-size', '1023', exactFile]),
    ]);
    assert.equal(atLimit.code, 0, atLimit.stderr);
    assert.equal(inUnits.code, 0, inUnits.stderr);
    assert.equal(over.code, 2);
    assert.equal(over.stderr, tooLarge(exactFile, 1023));
  });

  it('refuses a file that a relative $ref names when it is over --max-schema-size', TEST_TIMEOUT, async () => {
    const referencedFile = join(directory, 'padded-item.json');
    writeFileSync(referencedFile, paddedTo(2048, JSON.stringify({ type: 'object' })));
    const referringFile = join(directory, 'refers-to-padded.schema.json');
    writeFileSync(referringFile, JSON.stringify({ $ref: 'padded-item.json' }));
    const [within, over] = await Promise.all([
      run(['check-schema', '--max-schema-size', '2kb', referringFile]),
      run(['check-schema', '--max-schema-size', '1kb', referringFile]),
    ]);
    assert.equal(within.code, 0, within.stderr);
    assert.equal(over.code, 2);
    assert.equal(over.stderr, tooLarge(referencedFile, 1024));
  });

  it('takes only a size of at least one byte', TEST_TIMEOUT, async () => {
    const results = await Promise.all(['0', 'lots', '1xb', '-5'].map((size) => run(['check-schema', `--max-schema-size=${size}`, schemaFile])));
    for (const { code, stderr } of results) {
      assert.equal(code, 2);
      assert.match(stderr, /^stream-schema: --max-schema-size must be a size in bytes, such as 1048576 or 1mb, got "[^"]*"\nRun "stream-schema --help" for usage\.\n$/);
    }
  });
});

/** A file over the 10 MB progress threshold with an invalid record every 5,001 lines. */
const bigFile = join(directory, 'big.ndjson');
const BIG_BLOCK = '{"id":1,"tag":"abc"}\n'.repeat(5000) + '{"id":0}\n';
let bigRun: Promise<TerminalRun> | undefined;

async function writeBigFile(): Promise<number> {
  const out = createWriteStream(bigFile);
  let blocks = 0;
  for (let written = 0; written < 11 * 1024 * 1024; written += BIG_BLOCK.length, blocks++) {
    if (!out.write(BIG_BLOCK)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return blocks;
}

let bigFileBlocks = 0;

/** The CLI over the big file on a terminal, run once for the tests that read its output. */
function runBigFileInTerminal(): Promise<TerminalRun> {
  bigRun ??= writeBigFile().then((blocks) => {
    bigFileBlocks = blocks;
    return inTerminal(['validate', '--schema', schemaFile, bigFile]);
  });
  return bigRun;
}

function inTerminal(args: string[], env: NodeJS.ProcessEnv = ENV): Promise<TerminalRun> {
  return runInTerminal([process.execPath, ...CLI, ...args], { cwd: ROOT, env, timeout: CHILD_TIMEOUT_MS });
}

const PROGRESS = /big\.ndjson: [\d.]+ (KB|MB) \/ 11\.\d MB \(\d+%\), [\d,]+ records\/s, \d+ invalid/;
const BIG_FILE_ERROR = /^\S*big\.ndjson:\d+:7: validation: must be >= 1 \(instance "\/id", keyword "\/properties\/id\/minimum"\)$/;

describe('on a terminal', { concurrency: 2 }, () => {
  it('shows bytes, records/s and the invalid count for files over 10 MB', TEST_TIMEOUT, async () => {
    const { code, output } = await runBigFileInTerminal();
    assert.equal(code, 1);
    assert.match(output, PROGRESS);
    assert.match(screenLines(output).at(-1) ?? '', /^1 file, \d+ records: \d+ valid, \d+ invalid \(/);
  });

  it('clears the progress line before an error line and draws it again after', TEST_TIMEOUT, async () => {
    const { output } = await runBigFileInTerminal();
    // The first chunk draws the progress line and holds an invalid record: an error line is
    // always written while the progress line is on the screen.
    assert.match(output, new RegExp(`${PROGRESS.source}[^\\n]*big\\.ndjson:5001:7:(\x1b\\[22m)? (\x1b\\[31m)?validation`));
    const shown = screenLines(output);
    const errorLines = shown.filter((line) => line.includes('validation:'));
    assert.equal(errorLines.length, bigFileBlocks);
    for (const line of errorLines) assert.match(line, BIG_FILE_ERROR);
    // Cleared for good at the end: no line left showing progress but the summary.
    assert.deepEqual(
      shown.filter((line) => line.includes('records/s')),
      shown.slice(-1),
    );
    assert.match(shown[shown.length - 1], /^1 file, \d+ records: \d+ valid, \d+ invalid \(/);
    // Drawn again right after an error line.
    assert.match(output, new RegExp(`minimum"\\)(\x1b\\[22m)?\\r?\\n\\r\x1b\\[K\\S*${PROGRESS.source}`));
  });

  it('colours error lines: red for the kind of error, dim for locations', TEST_TIMEOUT, async () => {
    const [coloured, piped] = await Promise.all([inTerminal(['validate', '--schema', schemaFile, mixedFile]), run(['validate', '--schema', schemaFile, mixedFile])]);
    assert.equal(coloured.code, 1);
    assert.match(coloured.output, /\x1b\[2m[^\x1b]*mixed\.jsonl:2:\d+:\x1b\[22m \x1b\[31mvalidation:\x1b\[39m /);
    assert.match(coloured.output, /\x1b\[31m2 invalid\x1b\[39m/);
    // The same text as when piped, once the colours are drawn.
    assert.deepEqual(
      screenLines(coloured.output).filter((line) => line.includes('mixed.jsonl:')),
      lines(piped.stdout),
    );
  });

  it('uses no colour with --no-color or a non-empty NO_COLOR, nor when piped', TEST_TIMEOUT, async () => {
    const args = ['validate', '--schema', schemaFile, mixedFile];
    const [flag, variable, emptyVariable, piped] = await Promise.all([
      inTerminal([...args, '--no-color']),
      inTerminal(args, { ...ENV, NO_COLOR: '1' }),
      inTerminal(args, { ...ENV, NO_COLOR: '' }),
      run(args),
    ]);
    for (const output of [flag.output, variable.output, piped.stdout, piped.stderr]) assert.doesNotMatch(output, /\x1b/);
    assert.match(flag.output, /mixed\.jsonl:2:\d+: validation: /);
    // no-color.org: NO_COLOR counts only when it is not empty.
    assert.match(emptyVariable.output, /\x1b\[31mvalidation:/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
