#!/usr/bin/env node
// The stream-schema command line: validate NDJSON record by record, or single JSON documents,
// with bounded memory whatever the file size. Exit codes, the same for every command: 0 all valid,
// 1 some document invalid, 2 usage, input or schema error (check-schema's invalid schema too).

import { once } from 'node:events';
import { closeSync, createReadStream, existsSync, fstatSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { compile, SchemaError } from '../src/index.js';
import type { CompileOptions, Draft, OutputUnit, SchemaWarning, Validator } from '../src/types.js';
import { FileError, parsePositiveInteger, parseSize, UsageError } from './cli-errors.js';
import { describeThrown, RecordThrewError, type NdjsonRecord } from './ndjson-lines.js';
import { needsSyntaxPass, withInputErrors, withSyntaxPass } from './syntax-pass.js';
import { JOB_OPTIONS, JOB_USAGE, ndjsonSource, readJobs, recordFeed, type Jobs, type NdjsonSource } from './cli-jobs.js';
import { loadOptionModules, NdjsonWorkerError, OptionModuleError, type LineFormat, type OptionModules, type ReportedLines, type WorkerRecipe } from './ndjson-workers.js';
import { ANSI, formatUnit, PLAIN, type OutputFormat, type Style } from './cli-lines.js';

const USAGE = `Usage:
  stream-schema validate --schema <schema.json> [options] [files... | -]
  stream-schema check-schema <schema.json>... [--draft <draft>] [--strict] [--formats assert] [--custom-formats <module.js>] [--keywords <module.js>] [--error-messages] [--ref <schema.json>]...
  stream-schema --version

Validate NDJSON files record by record (files ending in .ndjson, .jsonl or .ldjson, or every
input with --ndjson) and other files as one JSON document each. "-" (or no file) reads stdin.
A document or line whose first error is a schema violation is still read to its end, so that a
syntax error after the violation is reported too.

Options:
  -s, --schema <file>       the schema to validate against (validate: required). A relative
                            $ref resolves against the file's location (unless the schema's $id
                            says otherwise), and a file it names there is read: {"$ref":
                            "b.json#/x"} reads b.json beside it. Nothing is fetched
      --ref <file>          another schema document, found by its $id when referenced (repeatable)
      --formats <mode>      annotate (default: format only annotates, as the drafts say) or
                            assert (format is checked; a format nobody knows is a schema error)
      --custom-formats <module.js>
                            an ES module whose default export (else its named exports) maps
                            format names to RegExps or functions (value) => boolean
      --keywords <module.js>
                            an ES module whose default export (else its named export
                            "keywords") is an array of custom keyword definitions
                            {keyword, type?, validate(schemaValue, data), message?}
      --error-messages      apply ajv-errors' errorMessage keyword
      --ndjson              read every input as NDJSON, stdin included
      --draft <draft>       draft4 | draft6 | draft7 | draft2019-09 | draft2020-12
                            (default: from $schema, else draft2020-12)
      --all-errors          report every error of a document, not only the first
      --max-errors <n>      stop reading after reporting n errors
      --strict              unknown schema keywords are an error (check-schema lists
                            them all; without --strict, as warnings, and exits 0)
      --format <text|json>  text (default), or json: one output unit per line
      --errors-only         print the error lines only: no summary, no progress line
  -q, --quiet               print only what makes the exit code 2 (usage, input, schema errors)
      --no-color            no colour (NO_COLOR=1 too); colour is only ever used on a terminal
      --max-line-length <n> longest NDJSON line, in characters (default 67108864)
${JOB_USAGE}      --max-schema-size <size>
                            largest schema file read, --ref and referenced files too: bytes,
                            or a size such as 128mb (default 64mb); a larger one is exit code 2
  -h, --help                show this help
      --version             print the version

Exit codes: 0 all valid, 1 some document invalid, 2 usage, input or schema error, a schema file
over --max-schema-size (check-schema: 2 for an invalid schema).
`;

const EXIT_VALID = 0;
const EXIT_INVALID = 1;
const EXIT_ERROR = 2;

const DRAFTS: readonly Draft[] = ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12'];
const NDJSON_EXTENSIONS = ['.ndjson', '.jsonl', '.ldjson', '.jsonlines'];
const PROGRESS_MIN_FILE_SIZE = 10 * 1024 * 1024;
const PROGRESS_INTERVAL_MS = 250;
const READ_CHUNK_SIZE = 64 * 1024;
/**
 * Default --max-schema-size. A schema file is read whole and parsed with JSON.parse before
 * anything is validated: this bounds what it can make the process hold, a device such as
 * /dev/zero included, whose stat gives no size to check. It leaves room for large generated
 * schemas: 64 MiB of schema text parses to about 200 MB of heap, well within Node's default.
 */
const DEFAULT_MAX_SCHEMA_SIZE = 64 * 1024 * 1024;

/** What is printed, and how. */
interface Output {
  format: OutputFormat;
  /** Print only what makes the exit code 2. */
  quiet: boolean;
  /** No summary and no progress line. */
  errorsOnly: boolean;
  maxErrors: number;
  stdout: Style;
  stderr: Style;
}

interface ValidateCommand {
  validator: Validator;
  /** `validator` whose documents are read on past a schema error for a syntax error too (SyntaxCheckedSession). */
  checked: Validator;
  /** The schema `true`: a syntax-only check. Undefined with --all-errors, where the engine reads on itself. */
  syntax: Validator | undefined;
  output: Output;
  ndjson: boolean;
  allErrors: boolean;
  maxLineLength: number | undefined;
  inputs: string[];
  jobs: Jobs;
  /** What --jobs workers compile: the same schema, options and files as `validator`. */
  recipe: WorkerRecipe;
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
  if (command === '-h' || command === '--help' || command === 'help') return printHelp();
  if (command === '--version') return printVersion();
  if (command === 'validate') return runValidate(rest);
  if (command === 'check-schema') return runCheckSchema(rest);
  const problem = command === undefined ? 'missing command' : `unknown command "${command}"`;
  throw new UsageError('cli.command', `${problem} (expected validate or check-schema)`);
}

function printHelp(): number {
  process.stdout.write(USAGE);
  return EXIT_VALID;
}

function printVersion(): number {
  process.stdout.write(`${packageVersion()}\n`);
  return EXIT_VALID;
}

/** The version in stream-schema's package.json: one directory up from adapters/cli.ts (run by tsx), two from dist/adapters/cli.js and from the bin, dist/bundle/cli.js. */
function packageVersion(): string {
  for (const candidate of ['../package.json', '../../package.json']) {
    const url = new URL(candidate, import.meta.url);
    if (!existsSync(url)) continue;
    const manifest = JSON.parse(readFileSync(url, 'utf8')) as { name?: unknown; version?: unknown };
    if (manifest.name === 'stream-schema' && typeof manifest.version === 'string') return manifest.version;
  }
  throw new Error(`no package.json of stream-schema above ${fileURLToPath(import.meta.url)}`);
}

const OPTIONS = {
  schema: { type: 'string', short: 's' },
  ref: { type: 'string', multiple: true },
  ndjson: { type: 'boolean' },
  draft: { type: 'string' },
  'all-errors': { type: 'boolean' },
  'max-errors': { type: 'string' },
  strict: { type: 'boolean' },
  formats: { type: 'string' },
  'custom-formats': { type: 'string' },
  keywords: { type: 'string' },
  'error-messages': { type: 'boolean' },
  format: { type: 'string' },
  'errors-only': { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  'no-color': { type: 'boolean' },
  'max-line-length': { type: 'string' },
  'max-schema-size': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  ...JOB_OPTIONS,
} as const;

/** Options about documents, which check-schema has none of. */
const VALIDATE_ONLY_OPTIONS = ['ndjson', 'all-errors', 'max-errors', 'errors-only', 'max-line-length', 'jobs', 'byte-range', 'batch-size'] as const;

function parseCommandLine(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError('cli.arguments', (error as Error).message);
  }
}

type ParsedValues = ReturnType<typeof parseCommandLine>['values'];

async function runValidate(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args);
  if (values.help) return printHelp();
  if (values.version) return printVersion();
  if (values.schema === undefined) throw new UsageError('cli.schema.missing', 'validate needs --schema <file>');
  const output = readOutput(values);
  const schema = await readSchemaInput(values, values.schema);
  // A bad schema is reported on stderr, apart from the validation output.
  const compiled = compileOrReport(schema, output.format, process.stderr, output.stderr);
  if (compiled === undefined) return EXIT_ERROR;
  const { validator } = compiled;
  const allErrors = schema.options.allErrors === true;
  const syntax = allErrors ? undefined : compile(true);
  const maxLineLength = values['max-line-length'] === undefined ? undefined : parsePositiveInteger('--max-line-length', values['max-line-length']);
  const inputs = positionals.length === 0 ? ['-'] : positionals;
  const ndjson = values.ndjson === true;
  const command: ValidateCommand = {
    validator,
    checked: syntax === undefined ? validator : withSyntaxPass(validator, syntax),
    syntax,
    output,
    ndjson,
    allErrors,
    maxLineLength,
    inputs,
    jobs: readJobs(values, inputs, (input) => ndjson || isNdjsonFile(input)),
    recipe: workerRecipe(compiled, schema, maxLineLength),
  };
  return validateInputs(command);
}

async function runCheckSchema(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args);
  if (values.help) return printHelp();
  if (values.version) return printVersion();
  const misplaced = VALIDATE_ONLY_OPTIONS.find((option) => values[option] !== undefined);
  if (misplaced !== undefined) throw new UsageError('cli.arguments', `--${misplaced} applies to validate, not check-schema`);
  // Every schema named is checked, as ajv-cli's `compile -s a -s b` checks each: one left out
  // would be reported as if it had passed.
  const schemaFiles = values.schema === undefined ? positionals : [values.schema, ...positionals];
  if (schemaFiles.length === 0) throw new UsageError('cli.schema.missing', 'check-schema needs a schema file');
  const output = readOutput(values);
  exitOnClosedOutput = EXIT_VALID;
  let code = EXIT_VALID;
  for (const schemaFile of schemaFiles) code = Math.max(code, await checkSchemaFile(values, schemaFile, output));
  return code;
}

/** check-schema of one file: its verdict, on stdout unless --quiet, and its exit code. */
async function checkSchemaFile(values: ParsedValues, schemaFile: string, output: Output): Promise<number> {
  const input = await readSchemaInput(values, schemaFile);
  // Every unknown keyword is listed, not only the first: as a warning, or with --strict as an error.
  const compiled = compileOrReport({ ...input, options: { ...input.options, strict: false } }, output.format, process.stdout, output.stdout);
  if (compiled === undefined) return (exitOnClosedOutput = EXIT_ERROR);
  const { validator } = compiled;
  const strict = values.strict === true;
  if (strict || !output.quiet) reportWarnings(schemaFile, validator.warnings, strict, output);
  if (strict && validator.warnings.length > 0) return (exitOnClosedOutput = EXIT_ERROR);
  if (output.quiet) return EXIT_VALID;
  if (output.format === 'json') process.stdout.write(`${JSON.stringify({ file: schemaFile, valid: true, draft: validator.draft })}\n`);
  else process.stdout.write(`${schemaFile}: valid schema (${validator.draft})\n`);
  return EXIT_VALID;
}

/** check-schema's unknown keywords: warnings, or errors with --strict, on stdout beside the verdict. */
function reportWarnings(schemaFile: string, warnings: readonly SchemaWarning[], strict: boolean, output: Output): void {
  const style = output.stdout;
  for (const warning of warnings) {
    const { code, schemaLocation, keyword, message } = warning;
    if (output.format === 'json') {
      const unit = strict ? { file: schemaFile, valid: false, code, schemaLocation, keyword, error: message } : { file: schemaFile, code, schemaLocation, keyword, warning: message };
      process.stdout.write(`${JSON.stringify(unit)}\n`);
    } else {
      const label = strict ? style.red('schema error (--strict):') : 'warning:';
      process.stdout.write(`${style.dim(`${schemaFile}:`)} ${label} ${message} ${style.dim(`[${code}]`)}\n`);
    }
  }
}

function readOutput(values: ParsedValues): Output {
  const noColor = values['no-color'] === true;
  return {
    format: parseFormat(values.format),
    quiet: values.quiet === true,
    errorsOnly: values['errors-only'] === true,
    maxErrors: values['max-errors'] === undefined ? Infinity : parsePositiveInteger('--max-errors', values['max-errors']),
    stdout: styleFor(process.stdout, noColor),
    stderr: styleFor(process.stderr, noColor),
  };
}

/** Colour on a terminal only, and not with --no-color or NO_COLOR (no-color.org: any non-empty value). */
function styleFor(stream: NodeJS.WriteStream, noColor: boolean): Style {
  const wanted = !noColor && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
  return wanted && stream.isTTY === true ? ANSI : PLAIN;
}

/** The schema file, the options it is compiled with, and the size cap of every file read for it. */
interface SchemaInput {
  file: string;
  options: CompileOptions;
  maxFileSize: number;
  /** The --custom-formats and --keywords modules, by URL: --jobs workers import them again. */
  modules: OptionModules;
}

async function readSchemaInput(values: ParsedValues, file: string): Promise<SchemaInput> {
  const given = values['max-schema-size'];
  const maxFileSize = given === undefined ? DEFAULT_MAX_SCHEMA_SIZE : parseSize('--max-schema-size', given);
  const options = readCompileOptions(values, file, maxFileSize);
  if (values['error-messages'] === true) options.errorMessages = true;
  const modules: OptionModules = { customFormats: moduleUrl(values['custom-formats']), keywords: moduleUrl(values.keywords) };
  try {
    await loadOptionModules(modules, options);
  } catch (error) {
    if (!(error instanceof OptionModuleError)) throw error;
    const flag = error.option === 'customFormats' ? 'custom-formats' : 'keywords';
    throw new FileError('cli.module.unreadable', values[flag]!, `--${flag}: cannot load the module: ${(error.cause as Error).message}`);
  }
  return { file, options, maxFileSize, modules };
}

/** The module a flag names, by URL, or undefined without the flag. */
function moduleUrl(file: string | undefined): string | undefined {
  return file === undefined ? undefined : pathToFileURL(resolve(file)).href;
}

/**
 * The recipe of `compiled` for --jobs workers: its schema and the files its references named, as
 * data; the --custom-formats and --keywords modules by their URLs, which each worker imports, as
 * functions do not travel to threads.
 */
function workerRecipe(compiled: CompiledSchema, input: SchemaInput, maxLineLength: number | undefined): WorkerRecipe {
  const { customFormats: _formats, keywords: _keywords, ...options } = { ...input.options, schemas: compiled.schemas };
  return { schema: compiled.schema, options, modules: input.modules, syntaxPass: true, readerOptions: { maxLineLength }, report: 'invalid' };
}

function readCompileOptions(values: ParsedValues, schemaFile: string, maxFileSize: number): CompileOptions {
  // The schema's own location is its base URI, so that its relative references name files beside it.
  const options: CompileOptions = { allErrors: values['all-errors'] === true, strict: values.strict === true, baseUri: fileUrl(schemaFile) };
  if (values.draft !== undefined) options.draft = parseDraft(values.draft);
  if (values.formats !== undefined) options.formats = parseFormats(values.formats);
  options.schemas = values.ref === undefined ? {} : readReferencedSchemas(values.ref, maxFileSize);
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

function readJsonFile(file: string, maxSize: number): unknown {
  let text = readSchemaText(file, maxSize);
  // RFC 8259 §8.1: a parser may ignore a byte order mark; JSON.parse does not.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw notJsonError(file, text, error as Error);
  }
}

/**
 * A schema file's text, of at most `maxSize` bytes, read with the size checked as it grows:
 * readFileSync reads a file with no size in its stat (/dev/zero, a FIFO) until the process runs
 * out of memory.
 */
function readSchemaText(file: string, maxSize: number): string {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch (error) {
    throw unreadable(file, error);
  }
  try {
    return readBounded(file, descriptor, maxSize).toString('utf8');
  } catch (error) {
    throw error instanceof FileError ? error : unreadable(file, error);
  } finally {
    closeSync(descriptor);
  }
}

function readBounded(file: string, descriptor: number, maxSize: number): Buffer {
  // A regular file says its size: one too large is refused unread.
  const stats = fstatSync(descriptor);
  if (stats.isFile() && stats.size > maxSize) throw tooLarge(file, maxSize);
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(READ_CHUNK_SIZE);
    const read = readSync(descriptor, chunk, 0, READ_CHUNK_SIZE, null);
    if (read === 0) return Buffer.concat(chunks, size);
    size += read;
    if (size > maxSize) throw tooLarge(file, maxSize);
    chunks.push(chunk.subarray(0, read));
  }
}

function unreadable(file: string, error: unknown): FileError {
  return new FileError('cli.file.unreadable', 'stream-schema', `cannot read ${file}: ${(error as Error).message}`);
}

function tooLarge(file: string, maxSize: number): FileError {
  return new FileError('cli.file.tooLarge', file, `larger than --max-schema-size (${maxSize} bytes): not read as a schema`);
}

/**
 * Where the text stops being JSON, found by our own tokenizer, which gives a line and a column
 * (JSON.parse gives at best a character position). A repeated key stops the tokenizer first but
 * is no error to JSON.parse, whose message is then the only one that names the problem.
 */
function notJsonError(file: string, text: string, parseError: Error): FileError {
  const unit = compile(true).validateText(text).errors[0];
  if (unit?.line === undefined || unit.column === undefined || unit.params?.code === 'syntax.duplicateKey') {
    return new FileError('cli.file.json', file, `not JSON: ${parseError.message}`);
  }
  const message = unit.error.replace(` at line ${unit.line} column ${unit.column}`, '');
  return new FileError('cli.file.json', `${file}:${unit.line}:${unit.column}`, `not JSON: ${message}`);
}

/** `--ref` files, by their `$id` (`id` in draft 4), resolved against their location. */
function readReferencedSchemas(files: string[], maxFileSize: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (const file of files) {
    const schema = readJsonFile(file, maxFileSize);
    const record = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>) : {};
    const draft4 = typeof record.$schema === 'string' && record.$schema.includes('draft-04');
    const id = draft4 ? record.id : record.$id;
    // Files named by their location are read when referenced; --ref is for the others.
    if (typeof id !== 'string') throw new FileError('cli.ref.id', file, `--ref: the schema has no string ${draft4 ? 'id' : '$id'} to be referenced by`);
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
function compileReadingFiles(schema: unknown, options: CompileOptions, maxFileSize: number): CompiledSchema {
  const schemas = { ...options.schemas };
  for (let read = 0; ; read++) {
    try {
      return { validator: compile(schema, { ...options, schemas }), schema, schemas };
    } catch (error) {
      const file = error instanceof SchemaError ? referencedFile(error, schemas) : undefined;
      if (file === undefined || read === MAX_REFERENCED_FILES) throw error;
      schemas[file.uri] = readJsonFile(file.path, maxFileSize);
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

/** A validator, and what it was compiled from: the schema, and every schema its references named. */
interface CompiledSchema {
  validator: Validator;
  schema: unknown;
  schemas: Record<string, unknown>;
}

/** Compiles the schema file; a SchemaError is reported (with its pointer) and gives undefined. */
function compileOrReport(input: SchemaInput, format: OutputFormat, output: NodeJS.WritableStream, style: Style): CompiledSchema | undefined {
  const schemaFile = input.file;
  const schema = readJsonFile(schemaFile, input.maxFileSize);
  try {
    return compileReadingFiles(schema, input.options, input.maxFileSize);
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    if (format === 'json') {
      const unit = { file: schemaFile, valid: false, code: error.code, schemaLocation: error.schemaLocation, error: error.message, ...(error.unresolved && { unresolved: error.unresolved }) };
      output.write(`${JSON.stringify(unit)}\n`);
    } else {
      // The message ends with the schema location: `... (at schema location "/properties/id/type")`.
      output.write(`${style.dim(`${schemaFile}:`)} ${style.red('schema error:')} ${error.message} ${style.dim(`[${error.code}]`)}\n`);
    }
    return undefined;
  }
}

/**
 * The exit code if the reader of stdout goes away before the run ends. validate writes only error
 * lines there, so some record was invalid, unless an input it could not read earned 2 already;
 * check-schema writes its verdicts.
 */
let exitOnClosedOutput = EXIT_INVALID;

async function validateInputs(command: ValidateCommand): Promise<number> {
  const tally: Tally = { files: 0, records: 0, invalid: 0, unreadable: 0 };
  const errorLines = new ErrorLines(command.output);
  const started = performance.now();
  for (const input of command.inputs) {
    if (errorLines.full) break;
    try {
      await validateInput(command, input, tally, errorLines);
    } catch (error) {
      if (!isInputError(error)) throw error;
      tally.unreadable++;
      exitOnClosedOutput = EXIT_ERROR;
      process.stderr.write(`stream-schema: cannot read ${displayName(input)}: ${error.message}\n`);
    }
  }
  const { quiet, errorsOnly, stderr } = command.output;
  if (!quiet && !errorsOnly) process.stderr.write(summary(tally, errorLines, performance.now() - started, stderr));
  if (tally.unreadable > 0) return EXIT_ERROR;
  return tally.invalid > 0 ? EXIT_INVALID : EXIT_VALID;
}

/** An operating-system error while reading an input (ENOENT, EISDIR, EACCES...). */
function isInputError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

async function validateInput(command: ValidateCommand, input: string, tally: Tally, errorLines: ErrorLines): Promise<void> {
  // Every input named is a file of the count, read or not: a missing one as much as a directory.
  tally.files++;
  const name = displayName(input);
  const file = input === '-' ? undefined : statSync(input);
  // process.stdin on a directory (`< dir`) just ends, as if empty: a file named so is refused
  // (EISDIR), and so is stdin.
  if (input === '-' && fstatSync(0).isDirectory()) throw Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR', syscall: 'read' });
  const ndjson = command.ndjson || isNdjsonFile(input);
  const progress = showsProgress(command.output, file) ? new Progress(name, file.size, tally) : undefined;
  try {
    if (ndjson) {
      const source = await ndjsonSource(input, file, command.jobs, READ_CHUNK_SIZE);
      await validateNdjsonInput(command, name, source, tally, errorLines, progress);
      return;
    }
    const stream = input === '-' ? process.stdin : createReadStream(input, { highWaterMark: READ_CHUNK_SIZE });
    await validateDocumentInput(command, file?.isFile() === true ? input : undefined, name, stream, tally, errorLines);
  } catch (error) {
    if (!(error instanceof RecordThrewError)) throw error;
    // The records before it were judged: their errors are printed before the one that has no verdict.
    await errorLines.flush(undefined);
    throw new FileError('cli.record.threw', `${name}:${error.line}`, `validating the record threw ${describeThrown(error.cause)}`);
  } finally {
    progress?.hide();
  }
}

function showsProgress(output: Output, file: Stats | undefined): file is Stats {
  return !output.quiet && !output.errorsOnly && file !== undefined && file.size > PROGRESS_MIN_FILE_SIZE && process.stderr.isTTY;
}

async function validateNdjsonInput(command: ValidateCommand, name: string, source: NdjsonSource, tally: Tally, errorLines: ErrorLines, progress: Progress | undefined): Promise<void> {
  const { checked: validator, recipe, jobs, maxLineLength } = command;
  const { chunks, firstLine } = source;
  const invalid = (addLines: () => void): void => {
    tally.records++;
    tally.invalid++;
    addLines();
    if (errorLines.full) reader.stop();
    // A worker's answer to lines sent while the input was quiet comes between two chunks.
    else if (quiet !== undefined) errorLines.flushSoon(progress);
  };
  const onRecord = (record: NdjsonRecord): void => {
    if (record.valid) tally.records++;
    else invalid(() => errorLines.add(name, record.errors, progress));
  };
  const onLines = (lines: ReportedLines, from: number, to: number): void => invalid(() => errorLines.addLines(lines, from, to, progress));
  // Workers write the error lines themselves: only those travel back (WorkerRecipe.lines).
  const lines: LineFormat = { name, format: command.output.format, color: command.output.stdout === ANSI, quiet: command.output.quiet };
  const reader = recordFeed({ validator, recipe: { ...recipe, lines }, jobs, firstLine, maxLineLength }, { onRecord, onLines, onValid: (count) => (tally.records += count) });
  const quiet = source.trickles && reader.flush !== undefined ? new QuietInput(source.chunks, reader.flush, () => errorLines.full) : undefined;
  for await (const chunk of quiet?.chunks() ?? chunks) {
    await reader.write(chunk);
    progress?.update(chunk.length);
    // One write per chunk, not per error line; a slow reader of our output slows the reading down.
    await errorLines.flush(progress);
    if (errorLines.full) return;
  }
  // After a source that ended, or one left unread: the end throws what failed the read.
  await reader.end();
  await errorLines.flush(progress);
}

/**
 * An input that may trickle (a pipe, stdin) read by workers: when it has sent nothing for
 * QUIET_MS, the whole lines held for the next batch are sent (ParallelNdjsonReader.flush), so
 * that `tail -f log | stream-schema validate --ndjson -` prints each invalid record as it comes,
 * as one thread does, not once a batch of 256 KiB has filled. When their answers leave the read
 * over (--max-errors reached, or a worker failed), the input is not waited for any longer: one
 * thread would have stopped at the chunk that held those lines, and a pipe may stay open forever.
 */
class QuietInput {
  #timer: NodeJS.Timeout | undefined;
  #over!: () => void;
  /** Resolves once the read is over while the input was quiet. */
  readonly #overWhileQuiet = new Promise<'over'>((resolve) => (this.#over = () => resolve('over')));

  /** `done`: nothing more is to be read (--max-errors reached). */
  constructor(private readonly input: Readable, private readonly flush: () => Promise<void>, private readonly done: () => boolean) {}

  /** The input's chunks until it ends or the read is over; then the input is destroyed, unread. */
  async *chunks(): AsyncGenerator<Uint8Array> {
    const iterator = (this.input as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await Promise.race([iterator.next(), this.#overWhileQuiet]);
        this.#heard();
        if (next === 'over' || next.done === true) return;
        yield next.value;
        this.#listen();
      }
    } finally {
      this.#heard();
      // Also when the caller stops early: a pipe left open would keep the process alive.
      this.input.destroy();
    }
  }

  #heard(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #listen(): void {
    // A failure is thrown again by the reader's end (ParallelNdjsonReader: every later step throws it).
    const flushed = (): void => (this.done() ? this.#over() : undefined);
    this.#timer = setTimeout(() => void this.flush().then(flushed, this.#over), QUIET_MS);
  }
}

/** How long an input that trickles may be quiet before the lines held from it are validated. */
const QUIET_MS = 50;

/**
 * One JSON document. `rereadable` names a regular file, which the syntax pass after a schema
 * error reads again from its start; a pipe cannot be read again, so its session keeps what the
 * pass needs (SyntaxCheckedSession).
 */
async function validateDocumentInput(command: ValidateCommand, rereadable: string | undefined, name: string, stream: Readable, tally: Tally, errorLines: ErrorLines): Promise<void> {
  const session = (rereadable === undefined ? command.checked : command.validator).session();
  for await (const chunk of stream) {
    // Certainly invalid, and nothing more to learn from this stream: the rest is not read
    // (unless every error is wanted).
    if (!judging(name, () => session.write(chunk as Uint8Array)) && !command.allErrors) break;
  }
  let result = judging(name, () => session.end());
  if (rereadable !== undefined && command.syntax !== undefined && needsSyntaxPass(result)) {
    result = withInputErrors(result, await inputErrorsOfFile(rereadable, command.syntax));
  }
  tally.records++;
  if (result.valid) return;
  tally.invalid++;
  errorLines.add(name, result.errors, undefined);
  await errorLines.flush(undefined);
}

/**
 * A step of validating the document `name`. What it throws comes from a custom format or keyword's
 * own code (or a bug): the document has no verdict, and the error says which file.
 */
function judging<R>(name: string, step: () => R): R {
  try {
    return step();
  } catch (error) {
    throw new FileError('cli.document.threw', name, `validating the document threw ${describeThrown(error)}`);
  }
}

/** The syntax pass over a file read again from its start: its first syntax or limit error, if any. */
async function inputErrorsOfFile(file: string, syntax: Validator): Promise<OutputUnit[]> {
  const session = syntax.session();
  for await (const chunk of createReadStream(file, { highWaterMark: READ_CHUNK_SIZE })) {
    if (!session.write(chunk as Uint8Array)) break;
  }
  return session.end().errors;
}

/**
 * Error lines held before they are written at once: a chunk of short invalid records is tens of
 * thousands of lines, and one string of them all cost more than validating them (3 million `{}`
 * records under `required`: 20 s with --jobs 1, 7.8 s written every 64 KiB) and held them all.
 */
const MOST_PENDING = 64 * 1024;

/** The error lines of validate on stdout: formatted, at most --max-errors of them, none with --quiet. */
class ErrorLines {
  readonly #output: Output;
  #pending = '';
  #reported = 0;
  /** A flushSoon is due. */
  #flushing = false;

  constructor(output: Output) {
    this.#output = output;
  }

  /** --max-errors errors were reported: nothing more is read. */
  get full(): boolean {
    return this.#reported >= this.#output.maxErrors;
  }

  get reported(): number {
    return this.#reported;
  }

  /** `progress`: the input's progress line, cleared while lines are written. */
  add(name: string, errors: readonly OutputUnit[], progress: Progress | undefined): void {
    const { format, stdout } = this.#output;
    this.#addUnits(0, errors.length, (unit) => formatUnit(name, errors[unit]!, format, stdout), progress);
  }

  /** Units `from` to `to` of lines a worker wrote (ParallelNdjsonReader's ReportedLines). */
  addLines(lines: ReportedLines, from: number, to: number, progress: Progress | undefined): void {
    this.#addUnits(from, to, (unit) => lines.text.slice(unit === 0 ? 0 : lines.ends[unit - 1], lines.ends[unit]), progress);
  }

  #addUnits(from: number, to: number, line: (unit: number) => string, progress: Progress | undefined): void {
    for (let unit = from; unit < to; unit++) {
      if (this.full) break;
      this.#reported++;
      if (!this.#output.quiet) this.#pending += line(unit);
    }
    if (this.#pending.length > MOST_PENDING) this.#write(progress);
  }

  /** flush() at the next turn of the event loop, once for all the lines added before it. */
  flushSoon(progress: Progress | undefined): void {
    if (this.#flushing) return;
    this.#flushing = true;
    setImmediate(() => {
      this.#flushing = false;
      void this.flush(progress);
    });
  }

  /** Writes what was added, and waits while stdout's reader is behind. */
  async flush(progress: Progress | undefined): Promise<void> {
    this.#write(progress);
    // Also for what flushSoon wrote without waiting: the reading waits for a slow reader of it.
    if (process.stdout.writableNeedDrain) await once(process.stdout, 'drain');
  }

  /** Write what was added; the progress line, on the same terminal, is cleared first and drawn again after. */
  #write(progress: Progress | undefined): void {
    if (this.#pending === '') return;
    progress?.hide();
    process.stdout.write(this.#pending);
    this.#pending = '';
    progress?.show();
  }
}

function summary(tally: Tally, errorLines: ErrorLines, elapsedMs: number, style: Style): string {
  const valid = tally.records - tally.invalid;
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(tally.records / seconds) : tally.records;
  const unreadable = tally.unreadable > 0 ? `, ${tally.unreadable} unreadable` : '';
  const invalid = tally.invalid > 0 ? style.red(`${tally.invalid} invalid`) : `${tally.invalid} invalid`;
  const stopped = errorLines.full ? `, stopped by --max-errors after ${counted(errorLines.reported, 'error')}` : '';
  return `${counted(tally.files, 'file')}${unreadable}, ${counted(tally.records, 'record')}: ${valid} valid, ${invalid}${stopped} (${seconds.toFixed(2)} s, ${formatCount(rate)} records/s)\n`;
}

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function isNdjsonFile(input: string): boolean {
  const lower = input.toLowerCase();
  return NDJSON_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

function displayName(input: string): string {
  return input === '-' ? '<stdin>' : input;
}

/**
 * One self-overwriting stderr line for big files on a terminal: bytes, records/s, invalid count.
 * Anything else written to the terminal meanwhile is written between `hide` and `show`, so that
 * it starts on a line of its own and the progress line follows it.
 */
class Progress {
  readonly #name: string;
  readonly #size: number;
  readonly #tally: Tally;
  readonly #started = performance.now();
  #bytes = 0;
  /** The first chunk draws the line at once. */
  #lastShown = -Infinity;

  constructor(name: string, size: number, tally: Tally) {
    this.#name = name;
    this.#size = size;
    this.#tally = tally;
  }

  update(bytes: number): void {
    this.#bytes += bytes;
    const now = performance.now();
    if (now - this.#lastShown < PROGRESS_INTERVAL_MS) return;
    this.#lastShown = now;
    this.show();
  }

  /** Clears the line, the cursor at its start. */
  hide(): void {
    if (this.#lastShown !== -Infinity) process.stderr.write('\r\x1b[K');
  }

  /** Draws the line, with the numbers as they are now, over whatever the current line holds. */
  show(): void {
    if (this.#lastShown === -Infinity) return;
    const seconds = (performance.now() - this.#started) / 1000;
    const rate = seconds > 0 ? Math.round(this.#tally.records / seconds) : 0;
    const percent = Math.floor((this.#bytes / this.#size) * 100);
    process.stderr.write(`\r\x1b[K${this.#name}: ${formatBytes(this.#bytes)} / ${formatBytes(this.#size)} (${percent}%), ${formatCount(rate)} records/s, ${this.#tally.invalid} invalid`);
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

/** An integer with thousands separators, as `toLocaleString('en-US')` gives it, without loading ICU's number formatting for one line (~40 ms). */
function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}

// Bounded memory on files larger than RAM. One session per record makes short-lived garbage at a
// steady rate, and V8 answers by doubling the young generation up to 2 x 16 MB, a third of the
// process's RSS. Keeping it at its initial size costs no throughput here
// (benchmarks/ndjson-memory.ts: peak RSS ~99 MB -> ~75 MB on the same file). The growth factor is
// read at each growth, so it takes effect even when set after start-up; `--max-semi-space-size`
// would not. Only the CLI does this: it owns its process, the library never touches V8 flags.
setFlagsFromString('--semi-space-growth-factor=1');

// `stream-schema validate ... | head`: the reader has seen enough (EPIPE), and the run ends with
// what it has earned (exitOnClosedOutput). Output that cannot be written (ENOSPC, EIO) is no
// verdict: exit 1 would tell a script that some record was invalid and every line was written.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(exitOnClosedOutput);
  process.stderr.write(`stream-schema: cannot write the output: ${error.message}\n`);
  process.exit(EXIT_ERROR);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`stream-schema: ${error.message}\nRun "stream-schema --help" for usage.\n`);
    else if (error instanceof FileError) process.stderr.write(`${error.location}: ${error.message}\n`);
    else if (error instanceof NdjsonWorkerError) process.stderr.write(`stream-schema: ${error.message}\n`);
    else process.stderr.write(`stream-schema: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT_ERROR;
  },
);
