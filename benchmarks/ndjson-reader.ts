// What the CLI's --jobs 1 does per record, in one process: NDJSON bytes in 64 KiB chunks through
// the record reader (adapters/ndjson-lines.ts: line splitting, UTF-8 decoding, validateText per
// line), against the JSON.parse + ajv per-line loop the CLI benchmark runs (cli-support.ts,
// BASELINE_SOURCE: a StringDecoder per chunk, lines sliced from it), on the same records: the
// CLI's per-record work without process start-up and output. A fifth of the records have a
// non-ASCII character, as the CLI benchmark's have; past the first, V8 decodes the rest of a
// piece about ten times slower, on both sides. Run: `npm run bench -- ndjson-reader` or
// `node --import tsx benchmarks/ndjson-reader.ts [MB]`.

import {readFileSync} from 'node:fs';
import {StringDecoder} from 'node:string_decoder';
import {Ajv2020} from 'ajv/dist/2020.js';
import {compile} from '../dist/src/index.js';
import {NdjsonRecordReader} from '../dist/adapters/ndjson-lines.js';
import {EVENT_SCHEMA_FILE, eventLine} from './cli-support.js';
import {bestAlternating, printTable, type Row} from './support.js';

const CHUNK = 64 * 1024;
const megabytes = Number(process.argv[2] ?? 32);
const lines: string[] = [];
for (let size = 0; size < megabytes * 1024 * 1024; ) {
  const line = eventLine(lines.length);
  lines.push(line);
  size += Buffer.byteLength(line) + 1;
}
const bytes = Buffer.from(lines.join('\n') + '\n');
const chunks: Buffer[] = [];
for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.subarray(at, at + CHUNK));
const nonAscii = lines.filter((line) => !/^[\x00-\x7f]*$/.test(line)).length;

const schema: unknown = JSON.parse(readFileSync(EVENT_SCHEMA_FILE, 'utf8'));
const validator = compile(schema);
const ajv = new Ajv2020({validateFormats: false, allErrors: false, strict: false}).compile(schema as object);

function ours(): number {
  let invalid = 0;
  const reader = new NdjsonRecordReader(validator, {}, (record) => {
    if (!record.valid) invalid++;
  });
  for (const chunk of chunks) reader.write(chunk);
  reader.end();
  return invalid;
}

function theirs(): number {
  let invalid = 0;
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const check = (line: string): void => {
    if (line.trim().length > 0 && !ajv(JSON.parse(line))) invalid++;
  };
  for (const chunk of chunks) {
    const text = pending + decoder.write(chunk);
    let start = 0;
    for (let lineFeed = text.indexOf('\n'); lineFeed !== -1; lineFeed = text.indexOf('\n', start)) {
      check(text.slice(start, lineFeed));
      start = lineFeed + 1;
    }
    pending = text.slice(start);
  }
  check(pending + decoder.end());
  return invalid;
}

// Sanity: both find the same records invalid (every 1000th).
const expected = Math.floor(lines.length / 1000);
if (ours() !== expected || theirs() !== expected) throw new Error(`expected ${expected} invalid records: ours ${ours()}, theirs ${theirs()}`);

const rows: Row[] = [];
const reader = bestAlternating(ours, theirs, 9);
rows.push({
  name: `NDJSON reader, ${lines.length} records in 64 KiB chunks (${((100 * nonAscii) / lines.length).toFixed(0)}% with a non-ASCII character)`,
  ...reader,
  bytes: bytes.length,
  versus: 'StringDecoder + JSON.parse + ajv per line',
  target: 1.0,
});
printTable('The NDJSON record reader (what --jobs 1 does per record) vs a JSON.parse + ajv loop', rows);
