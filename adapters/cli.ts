#!/usr/bin/env node
// The stream-schema command line: validate NDJSON record by record, or single JSON documents,
// with bounded memory whatever the file size. Exit codes: 0 all valid, 1 some invalid,
// 2 usage, input or schema error.

import { once } from 'node:events';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { compile, SchemaError } from '../src/index.js';
import type { CompileOptions, Draft, OutputUnit, Validator } from '../src/types.js';
import { NdjsonRecordReader, type NdjsonRecord } from './ndjson-lines.js';

const USAGE = `Usage:
  stream-schema validate --schema <schema.json> [options] [files... | -]
  stream-schema check-schema <schema.json> [--draft <draft>] [--strict] [--formats assert] [--ref <schema.json>]...

Validate NDJSON files record by record (files ending in .ndjson, .jsonl or .ldjson, or every
input with --ndjson) and other files as one JSON document each. "-" (or no file) reads stdin.

Options:
  -s, --schema <file>       the schema to validate against (validate: required). A relative
                            $ref resolves against the file's location (unless the schema's $id
                            says otherwise), and a file it names there is read: {"$ref":
                            "b.json#/x"} reads b.json beside it. Nothing is fetched
      --ref <file>          another schema document, found by its $id when referenced (repeatable)
      --formats <mode>      annotate (default: format only annotates, as the drafts say) or
                            assert (format is checked)
      --ndjson              read every input as NDJSON, stdin included
      --draft <draft>       draft4 | draft6 | draft7 | draft2019-09 | draft2020-12
                            (default: from $schema, else draft2020-12)
      --all-errors          report every error of a document, not only the first
      --strict              unknown schema keywords are an error
      --format <text|json>  text (default), or json: one output unit per line
      --max-line-length <n> longest NDJSON line, in characters (default 67108864)
  -h, --help                show this help

Exit codes: 0 all valid, 1 some invalid, 2 usage, input or schema error.
`;

const EXIT_VALID = 0;
const EXIT_INVALID = 1;
const EXIT_USAGE = 2;

const DRAFTS: readonly Draft[] = ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12'];
const NDJSON_EXTENSIONS = ['.ndjson', '.jsonl', '.ldjson', '.jsonlines'];
const PROGRESS_MIN_FILE_SIZE = 10 * 1024 * 1024;
const PROGRESS_INTERVAL_MS = 250;
const READ_CHUNK_SIZE = 64 * 1024;

/** A mistake in the command line or an unreadable input: exit code 2 with this message. */
class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

type OutputFormat = 'text' | 'json';

interface ValidateCommand {
  validator: Validator;
  format: OutputFormat;
  ndjson: boolean;
  allErrors: boolean;
  maxLineLength: number | undefined;
  inputs: string[];
}

/** Totals over every input, for the summary and the exit code. */
interface Tally {
  files: number;
  records: number;
  invalid: number;
  unreadable: number;
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(USAGE);
    return EXIT_VALID;
  }
  if (command === 'validate') return runValidate(rest);
  if (command === 'check-schema') return runCheckSchema(rest);
  const problem = command === undefined ? 'missing command' : `unknown command "${command}"`;
  throw new UsageError('cli.command', `${problem} (expected validate or check-schema)`);
}

const OPTIONS = {
  schema: { type: 'string', short: 's' },
  ref: { type: 'string', multiple: true },
  ndjson: { type: 'boolean' },
  draft: { type: 'string' },
  'all-errors': { type: 'boolean' },
  strict: { type: 'boolean' },
  formats: { type: 'string' },
  format: { type: 'string' },
  'max-line-length': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseCommandLine(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError('cli.arguments', (error as Error).message);
  }
}

async function runValidate(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args);
  if (values.help) {
    process.stdout.write(USAGE);
    return EXIT_VALID;
  }
  if (values.schema === undefined) throw new UsageError('cli.schema.missing', 'validate needs --schema <file>');
  const format = parseFormat(values.format);
  const compileOptions = readCompileOptions(values, values.schema);
  // A bad schema is a usage error here: reported on stderr, apart from the validation output.
  const validator = compileOrReport(values.schema, compileOptions, format, process.stderr);
  if (validator === undefined) return EXIT_USAGE;
  const command: ValidateCommand = {
    validator,
    format,
    ndjson: values.ndjson === true,
    allErrors: compileOptions.allErrors === true,
    maxLineLength: parseMaxLineLength(values['max-line-length']),
    inputs: positionals.length === 0 ? ['-'] : positionals,
  };
  return validateInputs(command);
}

async function runCheckSchema(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args);
  if (values.help) {
    process.stdout.write(USAGE);
    return EXIT_VALID;
  }
  const schemaFile = values.schema ?? positionals[0];
  if (schemaFile === undefined) throw new UsageError('cli.schema.missing', 'check-schema needs a schema file');
  const format = parseFormat(values.format);
  const validator = compileOrReport(schemaFile, readCompileOptions(values, schemaFile), format, process.stdout);
  if (validator === undefined) return EXIT_INVALID;
  if (format === 'json') process.stdout.write(`${JSON.stringify({ file: schemaFile, valid: true, draft: validator.draft })}\n`);
  else process.stdout.write(`${schemaFile}: valid schema (${validator.draft})\n`);
  return EXIT_VALID;
}

type ParsedValues = ReturnType<typeof parseCommandLine>['values'];

function readCompileOptions(values: ParsedValues, schemaFile: string): CompileOptions {
  // The schema's own location is its base URI, so that its relative references name files beside it.
  const options: CompileOptions = { allErrors: values['all-errors'] === true, strict: values.strict === true, baseUri: fileUrl(schemaFile) };
  if (values.draft !== undefined) options.draft = parseDraft(values.draft);
  if (values.formats !== undefined) options.formats = parseFormats(values.formats);
  options.schemas = values.ref === undefined ? {} : readReferencedSchemas(values.ref);
  return options;
}

function fileUrl(file: string): string {
  return pathToFileURL(resolve(file)).href;
}

function parseFormats(formats: string): 'annotate' | 'assert' {
  if (formats === 'annotate' || formats === 'assert') return formats;
  throw new UsageError('cli.formats', `unknown --formats "${formats}" (expected annotate or assert)`);
}

function parseDraft(draft: string): Draft {
  const known = DRAFTS.find((name) => name === draft);
  if (known === undefined) throw new UsageError('cli.draft', `unknown --draft "${draft}" (expected ${DRAFTS.join(', ')})`);
  return known;
}

function parseFormat(format: string | undefined): OutputFormat {
  if (format === undefined || format === 'text') return 'text';
  if (format === 'json') return 'json';
  throw new UsageError('cli.format', `unknown --format "${format}" (expected text or json)`);
}

function parseMaxLineLength(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new UsageError('cli.maxLineLength', `--max-line-length must be a positive integer, got "${text}"`);
  return value;
}

function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError('cli.file.unreadable', `cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError('cli.schema.json', `${file} is not JSON: ${(error as Error).message}`);
  }
}

/** `--ref` files, by their `$id` (`id` in draft 4), resolved against their location. */
function readReferencedSchemas(files: string[]): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (const file of files) {
    const schema = readJsonFile(file);
    const record = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>) : {};
    const draft4 = typeof record.$schema === 'string' && record.$schema.includes('draft-04');
    const id = draft4 ? record.id : record.$id;
    // Files named by their location are read when referenced; --ref is for the others.
    if (typeof id !== 'string') throw new UsageError('cli.ref.id', `--ref ${file}: the schema has no string ${draft4 ? 'id' : '$id'} to be referenced by`);
    schemas[resolveAgainst(id, fileUrl(file))] = schema;
  }
  return schemas;
}

/** `reference` resolved against `base`; as it is when it is no URI reference (compile then says so). */
function resolveAgainst(reference: string, base: string): string {
  try {
    return new URL(reference, base).href;
  } catch {
    return reference;
  }
}

/** Files read for references, at most: a schema that names more is surely a mistake. */
const MAX_REFERENCED_FILES = 1000;

/**
 * Compile, reading each schema file a reference names that is not registered yet: compile says
 * which URI it tried (SchemaError.unresolved), so the rules of base URIs stay in one place. Only
 * `file:` URIs are read, never the network.
 */
function compileReadingFiles(schema: unknown, options: CompileOptions): Validator {
  const schemas = { ...options.schemas };
  for (let read = 0; ; read++) {
    try {
      return compile(schema, { ...options, schemas });
    } catch (error) {
      const file = error instanceof SchemaError ? referencedFile(error, schemas) : undefined;
      if (file === undefined || read === MAX_REFERENCED_FILES) throw error;
      schemas[file.uri] = readJsonFile(file.path);
    }
  }
}

/** The file an unresolved reference names, when it is a `file:` URI not read yet and a file is there. */
function referencedFile(error: SchemaError, schemas: Record<string, unknown>): { uri: string; path: string } | undefined {
  const uri = error.unresolved?.uri.split('#')[0];
  if (uri === undefined || !uri.startsWith('file:') || uri in schemas) return undefined;
  const path = fileURLToPath(uri);
  try {
    return statSync(path).isFile() ? { uri, path } : undefined;
  } catch {
    return undefined;
  }
}

/** Compiles the schema file; a SchemaError is reported (with its pointer) and gives undefined. */
function compileOrReport(schemaFile: string, options: CompileOptions, format: OutputFormat, output: NodeJS.WritableStream): Validator | undefined {
  const schema = readJsonFile(schemaFile);
  try {
    return compileReadingFiles(schema, options);
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    if (format === 'json') {
      const unit = { file: schemaFile, valid: false, code: error.code, schemaLocation: error.schemaLocation, error: error.message, ...(error.unresolved && { unresolved: error.unresolved }) };
      output.write(`${JSON.stringify(unit)}\n`);
    } else {
      // The message ends with the schema location: `... (at schema location "/properties/id/type")`.
      output.write(`${schemaFile}: schema error: ${error.message} [${error.code}]\n`);
    }
    return undefined;
  }
}

async function validateInputs(command: ValidateCommand): Promise<number> {
  const tally: Tally = { files: 0, records: 0, invalid: 0, unreadable: 0 };
  const started = performance.now();
  for (const input of command.inputs) {
    try {
      await validateInput(command, input, tally);
    } catch (error) {
      if (!isInputError(error)) throw error;
      tally.unreadable++;
      process.stderr.write(`stream-schema: cannot read ${displayName(input)}: ${error.message}\n`);
    }
  }
  process.stderr.write(summary(tally, performance.now() - started));
  if (tally.unreadable > 0) return EXIT_USAGE;
  return tally.invalid > 0 ? EXIT_INVALID : EXIT_VALID;
}

/** An operating-system error while reading an input (ENOENT, EISDIR, EACCES...). */
function isInputError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

async function validateInput(command: ValidateCommand, input: string, tally: Tally): Promise<void> {
  const name = displayName(input);
  const size = input === '-' ? undefined : statSync(input).size;
  const stream: Readable = input === '-' ? process.stdin : createReadStream(input, { highWaterMark: READ_CHUNK_SIZE });
  const progress = size !== undefined && size > PROGRESS_MIN_FILE_SIZE && process.stderr.isTTY ? new Progress(name, size) : undefined;
  tally.files++;
  if (command.ndjson || isNdjsonFile(input)) await validateNdjsonInput(command, name, stream, tally, progress);
  else await validateDocumentInput(command, name, stream, tally);
  progress?.clear();
}

async function validateNdjsonInput(command: ValidateCommand, name: string, stream: Readable, tally: Tally, progress: Progress | undefined): Promise<void> {
  let output = '';
  const reader = new NdjsonRecordReader(command.validator, { maxLineLength: command.maxLineLength, allErrors: command.allErrors }, (record: NdjsonRecord) => {
    tally.records++;
    if (record.valid) return;
    tally.invalid++;
    output += formatUnits(name, record.errors, command.format);
  });
  for await (const chunk of stream) {
    reader.write(chunk as Uint8Array);
    // One write per chunk, not per error line; a slow reader of our output slows the reading down.
    if (output.length > 0 && !process.stdout.write(output)) await once(process.stdout, 'drain');
    output = '';
    progress?.update((chunk as Uint8Array).length, tally);
  }
  reader.end();
  if (output.length > 0) process.stdout.write(output);
}

async function validateDocumentInput(command: ValidateCommand, name: string, stream: Readable, tally: Tally): Promise<void> {
  const session = command.validator.session();
  for await (const chunk of stream) {
    // Certainly invalid: the verdict is final, the rest of the document is not read
    // (unless every error is wanted).
    if (!session.write(chunk as Uint8Array) && !command.allErrors) break;
  }
  const result = session.end();
  tally.records++;
  if (result.valid) return;
  tally.invalid++;
  process.stdout.write(formatUnits(name, result.errors, command.format));
}

function formatUnits(name: string, errors: readonly OutputUnit[], format: OutputFormat): string {
  let text = '';
  for (const unit of errors) text += format === 'json' ? formatUnitJson(name, unit) : formatUnitText(name, unit);
  return text;
}

/** `file:line:column: kind: message (instance "/a/0", keyword "/properties/a/items/type")` */
function formatUnitText(name: string, unit: OutputUnit): string {
  let position = '';
  if (unit.line !== undefined) position += `:${unit.line}`;
  if (unit.line !== undefined && unit.column !== undefined) position += `:${unit.column}`;
  const keyword = unit.kind === 'validation' ? `, keyword "${unit.keywordLocation}"` : '';
  return `${name}${position}: ${unit.kind}: ${unit.error} (instance "${unit.instanceLocation}"${keyword})\n`;
}

function formatUnitJson(name: string, unit: OutputUnit): string {
  return `${JSON.stringify({ file: name, ...unit })}\n`;
}

function summary(tally: Tally, elapsedMs: number): string {
  const valid = tally.records - tally.invalid;
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(tally.records / seconds) : tally.records;
  const files = `${tally.files} ${tally.files === 1 ? 'file' : 'files'}`;
  const unreadable = tally.unreadable > 0 ? `, ${tally.unreadable} unreadable` : '';
  return `${files}${unreadable}, ${tally.records} records: ${valid} valid, ${tally.invalid} invalid (${seconds.toFixed(2)} s, ${formatCount(rate)} records/s)\n`;
}

function isNdjsonFile(input: string): boolean {
  const lower = input.toLowerCase();
  return NDJSON_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

function displayName(input: string): string {
  return input === '-' ? '<stdin>' : input;
}

/** One self-overwriting stderr line for big files on a terminal: bytes, records/s, invalid count. */
class Progress {
  readonly #name: string;
  readonly #size: number;
  readonly #started = performance.now();
  #bytes = 0;
  #lastShown = 0;

  constructor(name: string, size: number) {
    this.#name = name;
    this.#size = size;
  }

  update(bytes: number, tally: Tally): void {
    this.#bytes += bytes;
    const now = performance.now();
    if (now - this.#lastShown < PROGRESS_INTERVAL_MS) return;
    this.#lastShown = now;
    const seconds = (now - this.#started) / 1000;
    const rate = seconds > 0 ? Math.round(tally.records / seconds) : 0;
    const percent = Math.floor((this.#bytes / this.#size) * 100);
    process.stderr.write(`\r\x1b[K${this.#name}: ${formatBytes(this.#bytes)} / ${formatBytes(this.#size)} (${percent}%), ${formatCount(rate)} records/s, ${tally.invalid} invalid`);
  }

  clear(): void {
    process.stderr.write('\r\x1b[K');
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

// Bounded memory on files larger than RAM. One session per record makes short-lived garbage at a
// steady rate, and V8 answers by doubling the young generation up to 2 x 16 MB, a third of the
// process's RSS. Keeping it at its initial size costs no throughput here
// (benchmarks/ndjson-memory.ts: peak RSS ~99 MB -> ~75 MB on the same file). The growth factor is
// read at each growth, so it takes effect even when set after start-up; `--max-semi-space-size`
// would not. Only the CLI does this: it owns its process, the library never touches V8 flags.
setFlagsFromString('--semi-space-growth-factor=1');

// `stream-schema validate ... | head`: the reader has seen enough. Only error lines are written
// to stdout, so some record was invalid.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(EXIT_INVALID);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`stream-schema: ${error.message}\nRun "stream-schema --help" for usage.\n`);
    else process.stderr.write(`stream-schema: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT_USAGE;
  },
);
