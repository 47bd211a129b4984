// Isolation of NDJSON records: the RxJS operator, the Node streams and the CLI validate every
// line of every input with one validator, compiled once, whether a line arrives whole (validateText
// or parseText) or in pieces (a session). A line's record must be what a validator compiled for that
// line alone gives, whatever broken, cut-off or over-limit lines came before it or are being read
// alongside it (several streams through one operator, written alternately).

import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {finished} from 'node:stream/promises';
import {after, describe, test} from 'node:test';
import fc from 'fast-check';
import {Subject} from 'rxjs';
import {NdjsonRecordReader, type NdjsonReaderOptions, type NdjsonRecord} from '../adapters/ndjson-lines.js';
import {validateNdjson} from '../adapters/rxjs.js';
import {jsonValidator, ndjsonValidator} from '../adapters/stream.js';
import {compile} from '../src/index.js';
import type {Result, Session, SessionOptions, Validator, ValueResult} from '../src/types.js';
import {chunk, familyCases, chunkingArbitrary, describeBytes, positionArbitrary, documentArbitrary, schemaCases, type Chunking, type SchemaCase} from './support/arbitraries.js';
import {property} from './support/property.js';
import {runCli} from './support/cliRun.js';

const LINE_FEED = 0x0a;
const SPACE = 0x20;

/** One NDJSON input: its bytes, and how they arrive. */
interface NdjsonInput {
  bytes: Uint8Array;
  chunking: Chunking;
}

interface NdjsonScenario {
  schemaCase: SchemaCase;
  inputs: NdjsonInput[];
  /** Which input gets its next chunk, turn after turn. */
  interleaving: number[];
  reader: NdjsonReaderOptions;
}

const lineBreaks = ['\n', '\n', '\r\n', '\n\n', '\n \t\n'];

/** Inputs mostly in few chunks: a line found whole in a chunk goes to validateText or parseText, the others to sessions. */
const ndjsonChunking: fc.Arbitrary<Chunking> = fc.record({
  cuts: fc.array(positionArbitrary, {maxLength: 3}),
  every: fc.constantFrom(0, 0, 0, 16, 64),
  afterHighBytes: fc.constantFrom(false, false, true),
  singleBytes: fc.constant(false),
  strings: fc.constantFrom(false, false, false, true),
});

function inputArbitrary(schemaCase: SchemaCase, family: Parameters<typeof documentArbitrary>[1]): fc.Arbitrary<NdjsonInput> {
  const line = fc.tuple(documentArbitrary(schemaCase, family), fc.constantFrom(...lineBreaks));
  return fc.record({lines: fc.array(line, {minLength: 1, maxLength: 10}), lastBreak: fc.boolean(), chunking: ndjsonChunking}).map(({lines, lastBreak, chunking}) => {
    const text = lines.flatMap(([document, lineBreak], index) => [oneLine(document.bytes), index < lines.length - 1 || lastBreak ? Buffer.from(lineBreak) : Buffer.alloc(0)]);
    return {bytes: new Uint8Array(Buffer.concat(text)), chunking};
  });
}

/** A document as one NDJSON line: its line feeds (indentation, a corruption) become spaces. */
function oneLine(bytes: Uint8Array): Uint8Array {
  return bytes.map((byte) => (byte === LINE_FEED ? SPACE : byte));
}

function scenarioArbitrary(schemaCaseArbitrary: fc.Arbitrary<SchemaCase>, inputs: {min: number; max: number}): fc.Arbitrary<NdjsonScenario> {
  return familyCases(schemaCaseArbitrary).chain(({schemaCase, family}) =>
    fc.record({
      schemaCase: fc.constant(schemaCase),
      inputs: fc.array(inputArbitrary(schemaCase, family), {minLength: inputs.min, maxLength: inputs.max}),
      interleaving: fc.array(fc.nat(), {minLength: 1, maxLength: 20}),
      reader: fc
        .record({parse: fc.boolean(), maxLineLength: fc.oneof({weight: 4, arbitrary: fc.constant(undefined)}, {weight: 1, arbitrary: fc.integer({min: 4, max: 200})})}),
    }),
  );
}

/** Where the line feeds are: line k (1-based) ends before `ends[k - 1]`. */
function lineSpans(bytes: Uint8Array): [start: number, end: number][] {
  const spans: [number, number][] = [];
  let start = 0;
  bytes.forEach((byte, index) => {
    if (byte !== LINE_FEED) return;
    spans.push([start, index]);
    start = index + 1;
  });
  if (start < bytes.length) spans.push([start, bytes.length]);
  return spans;
}

/**
 * The record of each line from a reader whose validator never saw another line: the input with
 * every other line blanked (spaces, same length: the chunks cut it at the same places, and line
 * numbers and positions stay the same), read by a freshly compiled validator.
 */
function freshRecords(schemaCase: SchemaCase, input: NdjsonInput, reader: NdjsonReaderOptions, freshValidator = (): Validator => compile(schemaCase.schema, schemaCase.options)): NdjsonRecord[] {
  const records: NdjsonRecord[] = [];
  lineSpans(input.bytes).forEach(([start, end], index) => {
    const alone = input.bytes.map((byte, at) => (byte === LINE_FEED || (at >= start && at < end) ? byte : SPACE));
    const found: NdjsonRecord[] = [];
    const fresh = new NdjsonRecordReader(freshValidator(), reader, (record) => found.push(record));
    for (const piece of chunk(alone, input.chunking)) fresh.write(piece);
    fresh.end();
    records.push(...found.filter((record) => record.line === index + 1));
  });
  return records;
}

function describeScenario(scenario: NdjsonScenario): string {
  return scenario.inputs.map((input, index) => `input ${index}: ${describeBytes(input.bytes)}`).join('\n');
}

/** Feeds every input's chunks to its writer, in the order the interleaving says, then ends each. */
function interleave(scenario: NdjsonScenario, write: (input: number, piece: Uint8Array | string) => void, end: (input: number) => void): void {
  const pieces = scenario.inputs.map((input) => chunk(input.bytes, input.chunking));
  const next = pieces.map(() => 0);
  for (let turn = 0; ; turn++) {
    const open = pieces.map((_, index) => index).filter((index) => next[index]! <= pieces[index]!.length);
    if (open.length === 0) return;
    const input = open[scenario.interleaving[turn % scenario.interleaving.length]! % open.length]!;
    if (next[input]! < pieces[input]!.length) write(input, pieces[input]![next[input]!]!);
    else end(input);
    next[input]!++;
  }
}

describe('NDJSON: one validator tells every line what a fresh validator tells it', () => {
  test('validateNdjson: several inputs through one operator, written alternately, after broken lines', () => {
    fc.assert(
      fc.property(scenarioArbitrary(schemaCases(), {min: 1, max: 3}), (scenario) => {
        const operator = validateNdjson(scenario.schemaCase.schema, {...scenario.schemaCase.options, ...scenario.reader});
        const subjects = scenario.inputs.map(() => new Subject<Uint8Array | string>());
        const records = scenario.inputs.map((): NdjsonRecord[] => []);
        const failures: unknown[] = [];
        subjects.forEach((subject, index) => subject.pipe(operator).subscribe({next: (record) => records[index]!.push(record), error: (error) => failures.push(error)}));
        interleave(scenario, (input, piece) => subjects[input]!.next(piece), (input) => subjects[input]!.complete());
        assert.deepEqual(failures, [], 'no error notification');
        scenario.inputs.forEach((input, index) => {
          assert.deepStrictEqual(records[index], freshRecords(scenario.schemaCase, input, scenario.reader), `input ${index} of\n${describeScenario(scenario)}`);
        });
      }),
      property(80),
    );
  });

  test('ndjsonValidator: every record of one stream, after broken lines', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary(schemaCases(), {min: 2, max: 4}), async (scenario) => {
        // One stream of all the inputs, one after another.
        const input: NdjsonInput = {bytes: new Uint8Array(Buffer.concat(scenario.inputs.flatMap(({bytes}) => [bytes, Buffer.from('\n')]))), chunking: scenario.inputs[0]!.chunking};
        const stream = ndjsonValidator(scenario.schemaCase.schema, {...scenario.schemaCase.options, ...scenario.reader});
        const records: NdjsonRecord[] = [];
        stream.on('data', (record: NdjsonRecord) => records.push(record));
        for (const piece of chunk(input.bytes, input.chunking)) stream.write(piece);
        stream.end();
        await finished(stream);
        assert.deepStrictEqual(records, freshRecords(scenario.schemaCase, input, scenario.reader), describeBytes(input.bytes));
      }),
      property(50),
    );
  });

  test('jsonValidator: a document after documents that broke off, each through its own stream', async () => {
    const scenarios = schemaCases().chain((schemaCase) =>
      fc.record({schemaCase: fc.constant(schemaCase), documents: fc.array(fc.tuple(documentArbitrary(schemaCase), chunkingArbitrary, fc.boolean()), {minLength: 2, maxLength: 6})}),
    );
    await fc.assert(
      fc.asyncProperty(scenarios, async ({schemaCase, documents}) => {
        for (const [document, chunking, parse] of documents) {
          const pieces = chunk(document.bytes, chunking);
          const stream = jsonValidator(schemaCase.schema, {...schemaCase.options, parse});
          for (const piece of pieces) stream.write(piece);
          stream.end();
          const result = await stream.result;
          const fresh = compile(schemaCase.schema, schemaCase.options).session({parse});
          for (const piece of pieces) if (!fresh.write(piece) && schemaCase.options.allErrors !== true) break;
          assert.deepStrictEqual(result, fresh.end(), `${document[fc.toStringMethod]()}`);
        }
      }),
      property(20),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The CLI: one process, one validator for every input on its command line.

const directory = mkdtempSync(join(tmpdir(), 'stream-schema-isolation-'));
after(() => rmSync(directory, {recursive: true, force: true}));

/** The CLI reports a schema violation's document with its syntax error too, if it has one (unless --all-errors reads on anyway). */
function needsSyntaxPass(result: Result): boolean {
  return !result.valid && result.errors.length > 0 && result.errors.every((unit) => unit.kind === 'validation');
}

/**
 * A validator as the CLI judges with it, made for one input alone: the schema's, compiled with the
 * CLI's options, and, after a schema violation, the syntax pass's errors (the schema `true`) of
 * the same text.
 */
function freshCliValidator(schemaCase: SchemaCase, schemaFile: string): Validator {
  const {draft, allErrors, formats} = schemaCase.options;
  const validator = compile(schemaCase.schema, {draft, allErrors, formats, strict: false, baseUri: pathToFileURL(schemaFile).href, schemas: {}});
  if (allErrors === true) return validator;
  const syntax = compile(true);
  const withSyntaxErrors = (result: Result, errorsOfSyntax: () => Result['errors']): Result => (needsSyntaxPass(result) ? {...result, errors: [...result.errors, ...errorsOfSyntax()]} : result);
  return {
    draft: validator.draft,
    allErrors: validator.allErrors,
    changesValues: validator.changesValues,
    warnings: validator.warnings,
    validate: (value) => validator.validate(value),
    validateText: (text) => withSyntaxErrors(validator.validateText(text), () => syntax.validateText(text).errors),
    parseText: (text) => withSyntaxErrors(validator.parseText(text), () => syntax.validateText(text).errors) as ValueResult,
    is: (value): value is unknown => validator.is(value),
    '~standard': validator['~standard'],
    session: (options?: SessionOptions): Session<ValueResult> => {
      const written: (string | Uint8Array)[] = [];
      const session = validator.session(options);
      return {
        write: (chunk) => (written.push(chunk), session.write(chunk)),
        end: () =>
          withSyntaxErrors(session.end(), () => {
            const alone = syntax.session();
            for (const chunk of written) alone.write(chunk);
            return alone.end().errors;
          }) as ValueResult,
        get failed() {
          return session.failed;
        },
        get bytesRead() {
          return session.bytesRead;
        },
      };
    },
  };
}

/** What the CLI reports for a document file, judged by a fresh validator as the CLI reads it (one chunk, up to 64 KiB). */
function freshDocumentResult(validator: Validator, bytes: Uint8Array): Result {
  const session = validator.session();
  session.write(bytes);
  return session.end();
}

describe('the CLI validates every input with one validator as a fresh one would', () => {
  test('NDJSON files and JSON documents on one command line, broken ones among them', {timeout: 120_000}, async () => {
    // The CLI has no option for limits.
    const scenarios = scenarioArbitrary(schemaCases({limits: false, formats: true}), {min: 4, max: 8}).chain((scenario) =>
      fc.record({scenario: fc.constant(scenario), documents: fc.array(documentArbitrary(scenario.schemaCase), {minLength: 2, maxLength: 6}), order: fc.array(fc.nat(), {minLength: 8, maxLength: 8})}),
    );
    await fc.assert(
      fc.asyncProperty(scenarios, async ({scenario, documents, order}) => {
        const {schemaCase} = scenario;
        const run = mkdtempSync(join(directory, 'run-'));
        const schemaFile = join(run, 'schema.json');
        writeFileSync(schemaFile, JSON.stringify(schemaCase.schema));
        const reader: NdjsonReaderOptions = {};
        // Documents and NDJSON files mixed on the command line, in a generated order.
        const files = [
          ...scenario.inputs.map((input, index) => ({name: join(run, `lines-${index}.ndjson`), bytes: input.bytes, ndjson: true})),
          ...documents.map((document, index) => ({name: join(run, `document-${index}.json`), bytes: document.bytes, ndjson: false})),
        ]
          .map((file, index) => ({...file, rank: order[index % order.length]! * 100 + index}))
          .sort((a, b) => a.rank - b.rank);
        const wholeFile: Chunking = {cuts: [], every: 0, afterHighBytes: false, singleBytes: false, strings: false};
        let invalid = 0;
        let records = 0;
        let expected = '';
        for (const file of files) {
          writeFileSync(file.name, file.bytes);
          const fresh = (): Validator => freshCliValidator(schemaCase, schemaFile);
          const results: {valid: boolean; errors: Result['errors']}[] = file.ndjson
            ? freshRecords(schemaCase, {bytes: file.bytes, chunking: wholeFile}, reader, fresh)
            : [freshDocumentResult(fresh(), file.bytes)];
          for (const result of results) {
            records++;
            if (result.valid) continue;
            invalid++;
            for (const unit of result.errors) expected += `${JSON.stringify({file: file.name, ...unit})}\n`;
          }
        }
        const args = ['validate', '--schema', schemaFile, '--format', 'json', '--draft', schemaCase.options.draft!, '--formats', schemaCase.options.formats!];
        if (schemaCase.options.allErrors === true) args.push('--all-errors');
        const {code, stdout, stderr} = await runCli([...args, ...files.map((file) => file.name)], undefined, process.env);
        assert.equal(stdout, expected, `stdout of ${files.map((file) => `${file.name}: ${describeBytes(file.bytes)}`).join('\n')}`);
        assert.match(stderr, new RegExp(`${records} records?: ${records - invalid} valid, ${invalid} invalid`));
        assert.equal(code, invalid > 0 ? 1 : 0, stderr);
      }),
      {...property(3), endOnFailure: true},
    );
  });
});
