// Peak RSS of `stream-schema validate` on one huge JSON document: a 2 GB array of records and a
// 1 GB object (issue 24, point 6: under 100 MB), and where JSON.parse + ajv, which must hold the
// whole text and then the whole value, gives up on the same files.
//
//   node --import tsx benchmarks/huge-document.ts     # 2048 MB array, 1024 MB object, 400 MB array
//   HUGE_ARRAY_MB=64 HUGE_OBJECT_MB=32 HUGE_SMALL_ARRAY_MB=16 node --import tsx benchmarks/huge-document.ts   # quick
//
// The third, smaller array is under V8's longest string (2^29 - 24 characters, 512 MiB): there
// JSON.parse + ajv gets to parse, and its peak RSS shows what it needs for the whole value.
//
// The files are generated in os.tmpdir() (every record valid, so the whole document is read) and
// deleted at the end; `df` must show room for the larger one. The object has 1 Ki members, each an
// array of records: the default limits.maxProperties (1 Mi) refuses an object with more members,
// and the duplicate-key check keeps every name of an object until it closes.

import { once } from 'node:events';
import { createWriteStream, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EVENT_SCHEMA_FILE, eventLine, measureChild, prepareCli, type ChildMeasurement } from './cli-support.js';

const RSS_LIMIT_MB = 100;
const EVENT_SCHEMA_ID = 'https://example.com/schemas/event.schema.json';
const OBJECT_MEMBERS = 1024;

interface Document {
  kind: string;
  file: string;
  schemaFile: string;
  bytes: number;
}

async function main(): Promise<void> {
  const arrayMegabytes = Number(process.env.HUGE_ARRAY_MB ?? 2048);
  const objectMegabytes = Number(process.env.HUGE_OBJECT_MB ?? 1024);
  const smallArrayMegabytes = Number(process.env.HUGE_SMALL_ARRAY_MB ?? 400);
  const directory = join(tmpdir(), `stream-schema-huge-${process.pid}`);
  const cleanups: (() => void)[] = [() => rmSync(directory, { recursive: true, force: true })];
  process.once('SIGINT', () => {
    for (const cleanup of cleanups) cleanup();
    process.exit(130);
  });
  try {
    rmSync(directory, { recursive: true, force: true });
    await import('node:fs').then((fs) => fs.mkdirSync(directory));
    console.log(`${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; load average ${loadavg().map((load) => load.toFixed(2)).join(', ')}`);
    const cli = await prepareCli('build', cleanups);
    const rows = [];
    for (const [kind, megabytes] of [['array', arrayMegabytes], ['object', objectMegabytes], ['array', smallArrayMegabytes]] as const) {
      if (!(megabytes > 0)) continue;
      const document = kind === 'array' ? await generateArray(directory, megabytes) : await generateObject(directory, megabytes);
      const ours = await measureChild(process.execPath, [...cli.args, 'validate', '--schema', document.schemaFile, '--ref', EVENT_SCHEMA_FILE, document.file]);
      const theirs = await measureChild(process.execPath, ['--input-type=module', '--eval', BASELINE_SOURCE, document.file, document.schemaFile, EVENT_SCHEMA_FILE]).catch((error: Error) => error);
      rows.push(row(document, ours, theirs));
      rmSync(document.file, { force: true });
    }
    console.table(rows);
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
}

function row(document: Document, ours: ChildMeasurement, theirs: ChildMeasurement | Error): Record<string, string> {
  const verdict = /(\d+) valid, (\d+) invalid/.exec(ours.stderr);
  if (verdict === null || verdict[1] !== '1') process.exitCode = 1;
  if (ours.peakRssMb >= RSS_LIMIT_MB) process.exitCode = 1;
  return {
    document: `${document.kind}, ${(document.bytes / 1e6).toFixed(0)} MB`,
    'stream-schema': `${verdict?.[1] === '1' ? 'valid' : 'NOT valid'}, ${ours.seconds.toFixed(1)} s, ${(document.bytes / 1e6 / ours.seconds).toFixed(1)} MB/s`,
    'peak RSS MB': `${ours.peakRssMb.toFixed(1)} (${ours.peakRssMb < RSS_LIMIT_MB ? 'under' : 'OVER'} ${RSS_LIMIT_MB})`,
    'JSON.parse + ajv': theirs instanceof Error ? `failed: ${firstLineOfFailure(theirs.message)}` : `${theirs.stdout.trim()}, ${theirs.seconds.toFixed(1)} s, peak RSS ${theirs.peakRssMb.toFixed(0)} MB`,
  };
}

/** The line of a child's stderr that names why it stopped (a RangeError, an out-of-memory abort). */
function firstLineOfFailure(message: string): string {
  const line = message.split('\n').find((text) => /Error|heap|memory|Cannot create/i.test(text) && !text.includes('exited with'));
  return (line ?? message.split('\n')[0]!).trim().slice(0, 160);
}

/** Reads the whole file as one string, JSON.parse, ajv: what a program without a streaming validator does. */
const BASELINE_SOURCE = `
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
const [file, schemaFile, eventSchemaFile] = process.argv.slice(1);
const ajv = new Ajv2020({ validateFormats: false, strict: false });
ajv.addSchema(JSON.parse(readFileSync(eventSchemaFile, 'utf8')));
const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
process.stdout.write(validate(JSON.parse(readFileSync(file, 'utf8'))) ? 'valid' : 'invalid');
`;

/** Records of the event log, every one valid (the log's every 1000th record is invalid: skipped). */
function* validRecords(): Generator<string> {
  for (let index = 0; ; index++) if (index % 1000 !== 999) yield eventLine(index);
}

async function writeSchema(directory: string, kind: string, schema: unknown): Promise<string> {
  const file = join(directory, `${kind}.schema.json`);
  writeFileSync(file, JSON.stringify(schema));
  return file;
}

/** `[record,\n record, ...]` of about `megabytes`. */
async function generateArray(directory: string, megabytes: number): Promise<Document> {
  const schemaFile = await writeSchema(directory, 'array', { type: 'array', items: { $ref: EVENT_SCHEMA_ID } });
  const file = join(directory, 'array.json');
  const records = validRecords();
  const bytes = await writeDocument(file, megabytes * 1024 * 1024, '[', ']', (first) => `${first ? '' : ',\n'}${records.next().value}`);
  return { kind: 'array', file, schemaFile, bytes };
}

/** `{"m0000": [records], "m0001": [...], ...}` of about `megabytes`, OBJECT_MEMBERS members. */
async function generateObject(directory: string, megabytes: number): Promise<Document> {
  const schemaFile = await writeSchema(directory, 'object', { type: 'object', additionalProperties: { type: 'array', items: { $ref: EVENT_SCHEMA_ID } } });
  const file = join(directory, 'object.json');
  const target = megabytes * 1024 * 1024;
  const memberBytes = target / OBJECT_MEMBERS;
  const records = validRecords();
  let member = 0;
  let inMember = 0;
  const bytes = await writeDocument(file, target, '{', ']}', (first) => {
    let text = '';
    if (first || inMember >= memberBytes) {
      text = `${first ? '' : '],\n'}"m${String(member++).padStart(4, '0')}":[`;
      inMember = 0;
    } else text = ',';
    text += records.next().value;
    inMember += text.length;
    return text;
  });
  return { kind: 'object', file, schemaFile, bytes };
}

/** Writes `open`, pieces until `target` bytes, `close`; the bytes written. */
async function writeDocument(file: string, target: number, open: string, close: string, piece: (first: boolean) => string): Promise<number> {
  const started = performance.now();
  const out = createWriteStream(file);
  let bytes = 0;
  let buffer = open;
  let first = true;
  while (bytes + buffer.length < target) {
    buffer += piece(first);
    first = false;
    if (buffer.length < 1024 * 1024) continue;
    bytes += Buffer.byteLength(buffer);
    const drained = out.write(buffer);
    buffer = '';
    if (!drained) await once(out, 'drain');
  }
  buffer += close;
  bytes += Buffer.byteLength(buffer);
  out.end(buffer);
  await once(out, 'close');
  console.log(`generated ${file}: ${(bytes / 1e6).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return bytes;
}

await main();
