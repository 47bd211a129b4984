// Throughput of our Tokenizer against stream-json's jsonParser (the bare tokenizer, as a plain
// function per chunk, packValues on, streamValues off) and against the alternative we rejected:
// jsonParser plus stream-json's position-tracking jsonVerifier run side by side over the same text.
// Run: node --import tsx benchmarks/tokenizer.ts [rounds]
// Best of N interleaved rounds, because the machine is shared and noisy. MB = 10^6 UTF-8 bytes.

import {jsonParser} from 'stream-json/core/parser.js';
import {jsonVerifier} from 'stream-json/core/utils/verifier.js';
import {none} from 'stream-chain/defs.js';
import {defaultLimits} from '../src/json/limits.js';
import {Tokenizer} from '../src/json/tokenizer.js';
import {TextScanner, type RangeSink} from '../src/json/scanner.js';
import type {TokenSink} from '../src/types.js';
import {printSummary} from './support.js';
import {random as seeded} from '../test/support/chunks.js';

/** stream-json stages are flushed by calling them with `none`, which their declared input type omits. */
type Stage = (chunk: string | typeof none) => unknown;
const flushableParser = (options: Parameters<typeof jsonParser>[0]): Stage => jsonParser(options) as unknown as Stage;

const rounds = Number(process.argv[2] ?? 7);

// Deterministic inputs, so every run measures the same bytes.
const random = seeded(0x5eed);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const word = (n: number): string => {
  let s = '';
  for (let i = 0; i < n; ++i) s += String.fromCharCode(97 + Math.floor(random() * 26));
  return s;
};

/** ~500-byte records, one per line. */
const makeRecords = (count: number): string[] => {
  const records: string[] = [];
  for (let i = 0; i < count; ++i) {
    const record = {
      id: i,
      uuid: `${word(8)}-${word(4)}-${word(4)}-${word(12)}`,
      name: `${word(6)} ${word(9)}`,
      email: `${word(7)}@${word(5)}.com`,
      active: random() < 0.5,
      score: Math.round(random() * 1e6) / 100,
      balance: -random() * 1e4,
      tags: [word(5), word(7), word(4), word(6)],
      address: {street: `${Math.floor(random() * 999)} ${word(8)} St`, city: word(9), zip: String(10000 + Math.floor(random() * 89999)), country: 'US'},
      friends: [
        {id: Math.floor(random() * 1e5), name: word(10)},
        {id: Math.floor(random() * 1e5), name: word(10)}
      ],
      note: random() < 0.5 ? null : `${word(20)} ${word(15)} "${word(5)}"`,
      created: '2024-01-01T12:34:56.789Z'
    };
    records.push(JSON.stringify(record));
  }
  return records;
};

/** One object with `keys` keys, ~100 bytes per member. */
const makeBigObject = (keys: number): string => {
  const parts: string[] = [];
  for (let i = 0; i < keys; ++i) {
    const value = pick([
      () => JSON.stringify(word(60)),
      () => JSON.stringify([random() * 1000, Math.floor(random() * 1e6), true, null, word(12)]),
      () => JSON.stringify({a: word(20), b: random(), c: false})
    ])();
    parts.push(`${JSON.stringify(`key_${i}_${word(8)}`)}:${value}`);
  }
  return `{${parts.join(',')}}`;
};

/** Long strings with escapes and non-ASCII text. */
const makeStrings = (count: number): string => {
  const pieces = ['plain ascii text ', 'caf\u00e9 ', '\u65e5\u672c\u8a9e ', 'emoji \ud83d\ude00 ', 'quote " ', 'backslash \\ ', 'tab\t', 'newline\n', '\u00fc\u00f6\u00e4 '];
  const strings: string[] = [];
  for (let i = 0; i < count; ++i) {
    let s = '';
    while (s.length < 2000) s += pick(pieces) + word(30) + ' ';
    strings.push(s);
  }
  return JSON.stringify(strings);
};

/** Arrays of integers and floats. */
const makeNumbers = (count: number): string => {
  const rows: string[] = [];
  for (let i = 0; i < count; ++i) {
    const row: number[] = [];
    for (let j = 0; j < 20; ++j) row.push(j % 3 === 0 ? Math.floor(random() * 1e6) : j % 3 === 1 ? (random() - 0.5) * 1e4 : random() * 1e-5);
    rows.push(JSON.stringify(row));
  }
  return `[${rows.join(',\n')}]`;
};

const chunk = (text: string, size: number): string[] => {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
};

class NoopSink implements TokenSink {
  count = 0;
  startObject(): void {}
  endObject(): void {}
  startArray(): void {}
  endArray(): void {}
  keyValue(): void {}
  stringValue(): void {}
  numberValue(): void {}
  nullValue(): void {}
  trueValue(): void {}
  falseValue(): void {}
}

/** The scanner's sink that reads nothing: what reading a whole text costs validateText at least. */
class NoRanges extends NoopSink implements RangeSink {
  keyAt(): void {}
  stringAt(): void {}
  numberAt(): void {}
  openKeys(): void {}
  addKey(): boolean {
    return true;
  }
}
const noRanges = new NoRanges();

type Many = {values: unknown[]};
const drain = (result: unknown): number => (result === none ? 0 : (result as Many).values.length);

const ours = (chunks: string[]): number => {
  const tokenizer = new Tokenizer(new NoopSink());
  for (const piece of chunks) tokenizer.write(piece);
  tokenizer.end();
  return tokenizer.bytesRead;
};

const oursPerRecord = (records: string[]): number => {
  const sink = new NoopSink();
  let bytes = 0;
  for (const record of records) {
    const tokenizer = new Tokenizer(sink);
    tokenizer.write(record);
    tokenizer.end();
    bytes += tokenizer.bytesRead;
  }
  return bytes;
};

const scannerPerRecord = (records: string[]): number => {
  const scanner = new TextScanner(defaultLimits);
  let scanned = 0;
  for (const record of records) if (scanner.scan(record, noRanges)) scanned++;
  return scanned;
};

// How the scanner finds where a text's plain string characters end (src/json/scanner.ts,
// PLAIN_RUN): a search for the first special character, or one sticky greedy run of the others.
const SPECIAL_SEARCH = /[\\\x00-\x1f]/g;
const PLAIN_RUN = /[^\\\x00-\x1f]*/y;
const searchPerRecord = (records: string[]): number => {
  let plain = 0;
  for (const record of records) {
    SPECIAL_SEARCH.lastIndex = 0;
    plain += SPECIAL_SEARCH.test(record) ? SPECIAL_SEARCH.lastIndex - 1 : record.length;
  }
  return plain;
};
const runPerRecord = (records: string[]): number => {
  let plain = 0;
  for (const record of records) {
    PLAIN_RUN.lastIndex = 0;
    PLAIN_RUN.test(record);
    plain += PLAIN_RUN.lastIndex;
  }
  return plain;
};

const parsePerRecord = (records: string[]): number => {
  let parsed = 0;
  for (const record of records) if (JSON.parse(record) !== null) parsed++;
  return parsed;
};

const streamJson = (chunks: string[], jsonStreaming = false): number => {
  const parse = flushableParser({packValues: true, streamValues: false, jsonStreaming});
  let tokens = 0;
  for (const piece of chunks) tokens += drain(parse(piece));
  return tokens + drain(parse(none));
};

const streamJsonPerRecord = (records: string[]): number => {
  let tokens = 0;
  for (const record of records) {
    const parse = flushableParser({packValues: true, streamValues: false});
    tokens += drain(parse(record)) + drain(parse(none));
  }
  return tokens;
};

const streamJsonWithVerifier = (chunks: string[], jsonStreaming = false): number => {
  const parse = flushableParser({packValues: true, streamValues: false, jsonStreaming});
  const verify = jsonVerifier({jsonStreaming}) as unknown as Stage;
  let tokens = 0;
  for (const piece of chunks) {
    verify(piece);
    tokens += drain(parse(piece));
  }
  verify(none);
  return tokens + drain(parse(none));
};

interface Case {
  workload: string;
  contender: string;
  bytes: number;
  run: () => number;
  best: number;
}

const cases: Case[] = [];
const add = (workload: string, contender: string, text: string, run: () => number): void => {
  cases.push({workload, contender, bytes: Buffer.byteLength(text), run, best: Infinity});
};

const addChunked = (workload: string, text: string): void => {
  for (const size of [16 * 1024, 64 * 1024]) {
    const chunks = chunk(text, size);
    const kib = `${size / 1024} KiB`;
    add(workload, `stream-json jsonParser, ${kib}`, text, () => streamJson(chunks));
    add(workload, `ours, ${kib}`, text, () => ours(chunks));
    add(workload, `jsonParser + jsonVerifier, ${kib}`, text, () => streamJsonWithVerifier(chunks));
  }
};

console.log('Generating inputs...');
const records = makeRecords(100_000);
const ndjson = records.join('\n') + '\n';
for (const size of [16 * 1024, 64 * 1024]) {
  const chunks = chunk(ndjson, size);
  const kib = `${size / 1024} KiB`;
  add('(i) NDJSON 100k records', `stream-json jsonParser jsonStreaming, ${kib}`, ndjson, () => streamJson(chunks, true));
  add('(i) NDJSON 100k records', `jsonParser + jsonVerifier jsonStreaming, ${kib}`, ndjson, () => streamJsonWithVerifier(chunks, true));
}
add('(i) NDJSON 100k records', 'stream-json jsonParser, per record', ndjson, () => streamJsonPerRecord(records));
add('(i) NDJSON 100k records', 'ours, per record', ndjson, () => oursPerRecord(records));
add('(i) NDJSON 100k records', 'JSON.parse, per record', ndjson, () => parsePerRecord(records));
add('(i) NDJSON 100k records', 'our scanner (whole texts), per record', ndjson, () => scannerPerRecord(records));
add('(i) NDJSON 100k records', 'plain run: a search for the first special character, per record', ndjson, () => searchPerRecord(records));
add('(i) NDJSON 100k records', 'plain run: one sticky run, per record', ndjson, () => runPerRecord(records));
addChunked('(ii) object with 200k keys', makeBigObject(200_000));
addChunked('(iii) string-heavy', makeStrings(10_000));
addChunked('(iv) number-heavy', makeNumbers(60_000));

const workloads = [...new Set(cases.map(c => c.workload))];
for (const w of workloads) {
  const c = cases.find(x => x.workload === w)!;
  console.log(`${w}: ${(c.bytes / 1e6).toFixed(1)} MB`);
}

let sink = 0;
for (let round = 1; round <= rounds; ++round) {
  for (const c of cases) {
    const start = process.hrtime.bigint();
    sink += c.run();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (seconds < c.best) c.best = seconds;
  }
  process.stdout.write(`round ${round}/${rounds} done\n`);
}
if (sink < 0) console.log(sink);

const mbps = (c: Case): number => c.bytes / 1e6 / c.best;
const baselineFor = (c: Case): Case | undefined => {
  if (c.contender.endsWith('per record')) return cases.find(x => x.workload === c.workload && x.contender === 'stream-json jsonParser, per record');
  const size = c.contender.split(', ')[1];
  return cases.find(x => x.workload === c.workload && x.contender.startsWith('stream-json jsonParser') && x.contender.endsWith(size));
};

console.log('\n| workload | contender | MB/s | vs stream-json jsonParser |');
console.log('|---|---|---:|---:|');
for (const c of cases) {
  const base = baselineFor(c);
  const ratio = base && base !== c ? `${(mbps(c) / mbps(base)).toFixed(2)}x` : '';
  console.log(`| ${c.workload} | ${c.contender} | ${mbps(c).toFixed(0)} | ${ratio} |`);
}
const ndjsonOurs = cases.find(x => x.contender === 'ours, per record')!;
for (const c of cases.filter(x => x.workload.startsWith('(i)') && x.contender.includes('jsonStreaming'))) {
  console.log(`ours per record / ${c.contender}: ${(mbps(ndjsonOurs) / mbps(c)).toFixed(2)}x`);
}

const named = (contender: string, workload = '(i) NDJSON 100k records'): Case => cases.find((x) => x.workload === workload && x.contender === contender)!;
const scannerRatio = mbps(named('our scanner (whole texts), per record')) / mbps(named('JSON.parse, per record'));
console.log(`our scanner per record / JSON.parse per record: ${scannerRatio.toFixed(2)}x`);
const plainRunRatio = mbps(named('plain run: one sticky run, per record')) / mbps(named('plain run: a search for the first special character, per record'));
console.log(`plain run, a sticky run / a search (the scanner uses the run): ${plainRunRatio.toFixed(2)}x`);
printSummary([
  {workload: 'NDJSON records, the Tokenizer per record', ratio: mbps(ndjsonOurs) / mbps(named('stream-json jsonParser, per record')), versus: 'stream-json jsonParser'},
  {workload: 'NDJSON records, the scanner of whole texts per record', ratio: scannerRatio, versus: 'JSON.parse'},
  {workload: 'NDJSON records, where plain string characters end: a sticky run', ratio: plainRunRatio, versus: 'a search for the first special character'},
  ...workloads.slice(1).map((workload) => ({
    workload: `${workload.slice(workload.indexOf(' ') + 1)}, the Tokenizer, 64 KiB chunks`,
    ratio: mbps(named('ours, 64 KiB', workload)) / mbps(named('stream-json jsonParser, 64 KiB', workload)),
    versus: 'stream-json jsonParser',
  })),
]);
