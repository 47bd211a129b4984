// Memory and throughput of `stream-schema validate` on a big NDJSON file, next to the usual
// alternative (split lines, JSON.parse, ajv per line) on the same file.
//
//   node --import tsx benchmarks/ndjson-memory.ts            # 1 GiB file (the target)
//   node --import tsx benchmarks/ndjson-memory.ts --mb 50    # quick run; or NDJSON_BENCH_MB=50
//
// The CLI measured is the compiled JavaScript a user runs (`--cli build`, the default: `tsc` into
// a temporary directory first); `--cli dist` uses an existing dist/, and `--cli tsx` runs the
// TypeScript through tsx, whose loader alone adds about 30 MB of RSS.
//
// The file is generated in os.tmpdir() from the example event log's shape (one invalid record
// in 1000) and deleted at the end. Each tool runs as its own child process; peak RSS is the
// kernel's high-water mark (VmHWM in /proc/<pid>/status, polled), and /usr/bin/time's maximum
// resident set size when that exists. The target: stream-schema stays under 100 MB.

import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const ROOT = new URL('..', import.meta.url).pathname;
const SCHEMA_FILE = join(ROOT, 'examples/event.schema.json');
const RSS_LIMIT_MB = 100;
const POLL_INTERVAL_MS = 50;
const TIME_BINARY = '/usr/bin/time';

interface Measurement {
  tool: string;
  records: number;
  invalid: number;
  seconds: number;
  peakRssMb: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      mb: { type: 'string' },
      cli: { type: 'string' },
      keep: { type: 'boolean' },
    },
  });
  const megabytes = Number(values.mb ?? process.env.NDJSON_BENCH_MB ?? 1024);
  if (!(megabytes > 0)) throw new RangeError(`--mb must be a positive number, got ${values.mb}`);
  const file = join(tmpdir(), `stream-schema-bench-${process.pid}.ndjson`);
  const removeFile = (): void => rmSync(file, { force: true });
  process.once('SIGINT', () => {
    removeFile();
    process.exit(130);
  });
  const cleanups: (() => void)[] = [];
  try {
    const generated = await generate(file, megabytes * 1024 * 1024);
    console.log(`generated ${file}: ${(generated.bytes / 1024 / 1024).toFixed(0)} MB, ${generated.records.toLocaleString('en-US')} records (${generated.invalid} invalid) in ${generated.seconds.toFixed(1)} s`);
    const cli = await prepareCli(parseFlavour(values.cli), cleanups);
    const ours = await measureCli(file, cli);
    const theirs = await measureBaseline(file);
    report(ours, theirs, generated.bytes);
  } finally {
    for (const cleanup of cleanups) cleanup();
    if (values.keep) console.log(`kept ${file}`);
    else removeFile();
  }
}

// --- The data -------------------------------------------------------------------------------

const PAGES = ['/', '/pricing', '/docs/getting-started', '/docs/api', '/blog/streaming-json', '/checkout', '/products/42'];
const AGENTS = ['Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15', 'curl/8.5.0'];
const LOCALES = ['en-US', 'de-DE', 'fr-FR', 'ja-JP'];
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A base-36 identifier of fixed width from a counter: deterministic and cheap. */
function identifier(counter: number, width: number): string {
  let text = '';
  let rest = counter;
  for (let index = 0; index < width; index++) {
    text += ALPHABET[rest % 36];
    rest = Math.floor(rest / 36);
  }
  return text;
}

/** One event line matching examples/event.schema.json; every 1000th is invalid. */
function eventLine(index: number): string {
  const id = identifier(index * 7919, 12);
  const user = `usr_${identifier(index % 5000, 8)}`;
  const session = `ses_${identifier(Math.floor(index / 7), 10)}`;
  const timestamp = new Date(1_795_000_000_000 + index * 1000).toISOString();
  const context = `{"ip":"203.0.113.${(index % 254) + 1}","userAgent":"${AGENTS[index % AGENTS.length]}","locale":"${LOCALES[index % LOCALES.length]}"}`;
  const head = `{"id":"evt_${id}","timestamp":"${timestamp}","userId":"${user}","sessionId":"${session}","context":${context},`;
  if (index % 1000 === 999) return `${head}"type":"purchase","payload":{"orderId":"ord_${identifier(index, 10)}","currency":"EUR","amount":-1,"items":[]}}`;
  if (index % 5 === 0) {
    return `${head}"type":"purchase","payload":{"orderId":"ord_${identifier(index, 10)}","currency":"EUR","amount":${(index % 500) + 0.99},"items":[{"sku":"SKU-${String(index % 10_000).padStart(4, '0')}","name":"Café grinder","quantity":${(index % 3) + 1},"unitPrice":89.9}]}}`;
  }
  return `${head}"type":"page_view","payload":{"url":"${PAGES[index % PAGES.length]}","durationMs":${index % 30_000},"referrer":"https://example.org/blog"}}`;
}

async function generate(file: string, targetBytes: number): Promise<{ bytes: number; records: number; invalid: number; seconds: number }> {
  const started = performance.now();
  const out = createWriteStream(file);
  let bytes = 0;
  let records = 0;
  while (bytes < targetBytes) {
    let batch = '';
    while (batch.length < 1024 * 1024) batch += eventLine(records++) + '\n';
    bytes += Buffer.byteLength(batch);
    if (!out.write(batch)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return { bytes, records, invalid: Math.floor(records / 1000), seconds: (performance.now() - started) / 1000 };
}

// --- Measuring a child process ---------------------------------------------------------------

/** Runs a command, polling its VmHWM; resolves with its stdout, stderr and peak RSS. */
async function measureChild(command: string, args: string[]): Promise<{ stdout: string; stderr: string; seconds: number; peakRssMb: number }> {
  const useTime = existsSync(TIME_BINARY);
  const started = performance.now();
  const child = useTime
    ? spawn(TIME_BINARY, ['-f', 'maxrss_kb=%M', command, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  let polledKb = 0;
  const poll = setInterval(() => {
    polledKb = Math.max(polledKb, highWaterMarkKb(child, useTime));
  }, POLL_INTERVAL_MS);
  const [code] = (await once(child, 'close')) as [number | null];
  clearInterval(poll);
  const seconds = (performance.now() - started) / 1000;
  const timedKb = Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? 0);
  if (code !== 0 && code !== 1) throw new Error(`${command} ${args.slice(0, 3).join(' ')} exited with ${code}:\n${stderr}`);
  if (code === 1 && stdout.length === 0 && !stderr.includes('records:')) throw new Error(`${command} ${args.slice(0, 3).join(' ')} failed:\n${stderr}`);
  return { stdout, stderr, seconds, peakRssMb: Math.max(polledKb, timedKb) / 1024 };
}

/** VmHWM of the measured process (the child of /usr/bin/time when time is used), in kB. */
function highWaterMarkKb(child: ChildProcess, throughTime: boolean): number {
  try {
    let pid = child.pid;
    if (throughTime) pid = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')[0]);
    if (!pid) return 0;
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  } catch {
    // The process ended between two polls (or this is not Linux): keep the last reading.
    return 0;
  }
}

type CliFlavour = 'build' | 'dist' | 'tsx';

function parseFlavour(flavour: string | undefined): CliFlavour {
  if (flavour === undefined) return 'build';
  if (flavour === 'build' || flavour === 'dist' || flavour === 'tsx') return flavour;
  throw new RangeError(`--cli must be build, dist or tsx, got ${flavour}`);
}

interface Cli {
  flavour: CliFlavour;
  /** Node arguments that start the CLI. */
  args: string[];
}

async function prepareCli(flavour: CliFlavour, cleanups: (() => void)[]): Promise<Cli> {
  if (flavour === 'tsx') return { flavour, args: ['--import', 'tsx', join(ROOT, 'adapters/cli.ts')] };
  if (flavour === 'dist') return { flavour, args: [join(ROOT, 'dist/adapters/cli.js')] };
  const outDir = mkdtempSync(join(tmpdir(), 'stream-schema-bench-build-'));
  cleanups.push(() => rmSync(outDir, { recursive: true, force: true }));
  // An ES module scope, and the project's dependencies, for the compiled files.
  writeFileSync(join(outDir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(ROOT, 'node_modules'), join(outDir, 'node_modules'));
  const started = performance.now();
  const tsc = spawn(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(ROOT, 'tsconfig.json'), '--outDir', outDir, '--declaration', 'false', '--sourceMap', 'false'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  tsc.stdout?.resume();
  tsc.stderr?.resume();
  await once(tsc, 'close');
  const cliFile = join(outDir, 'adapters/cli.js');
  // tsc emits despite type errors elsewhere in the tree; only a missing CLI stops the benchmark.
  if (!existsSync(cliFile)) throw new Error(`tsc did not emit ${cliFile}`);
  console.log(`compiled the CLI into ${outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { flavour, args: [cliFile] };
}

async function measureCli(file: string, cli: Cli): Promise<Measurement> {
  const run = await measureChild(process.execPath, [...cli.args, 'validate', '--schema', SCHEMA_FILE, '--ndjson', file]);
  const summary = /(\d+) records: (\d+) valid, (\d+) invalid/.exec(run.stderr);
  if (summary === null) throw new Error(`no summary from the CLI:\n${run.stderr}`);
  return { tool: `stream-schema validate (${cli.flavour})`, records: Number(summary[1]), invalid: Number(summary[3]), seconds: run.seconds, peakRssMb: run.peakRssMb };
}

async function measureBaseline(file: string): Promise<Measurement> {
  // Plain JavaScript, run without tsx, like the compiled CLI: the same Node baseline for both.
  const run = await measureChild(process.execPath, ['--input-type=module', '--eval', BASELINE_SOURCE, file, SCHEMA_FILE]);
  const counts = JSON.parse(run.stdout) as { records: number; invalid: number };
  return { tool: 'JSON.parse + ajv per line', records: counts.records, invalid: counts.invalid, seconds: run.seconds, peakRssMb: run.peakRssMb };
}

/** The comparison: lines split by hand, JSON.parse, ajv (formats not asserted, as ours by default). */
const BASELINE_SOURCE = `
import { createReadStream, readFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { Ajv2020 } from 'ajv/dist/2020.js';
const [file, schemaFile] = process.argv.slice(1);
const ajv = new Ajv2020({ validateFormats: false, allErrors: false, strict: false });
const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
const decoder = new StringDecoder('utf8');
let records = 0;
let invalid = 0;
let pending = '';
function check(line) {
  if (line.trim().length === 0) return;
  records++;
  try {
    if (!validate(JSON.parse(line))) invalid++;
  } catch {
    invalid++;
  }
}
for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
  const text = pending + decoder.write(chunk);
  let start = 0;
  let lineFeed = text.indexOf('\\n');
  while (lineFeed !== -1) {
    check(text.slice(start, lineFeed));
    start = lineFeed + 1;
    lineFeed = text.indexOf('\\n', start);
  }
  pending = text.slice(start);
}
check(pending + decoder.end());
process.stdout.write(JSON.stringify({ records, invalid }));
`;

function report(ours: Measurement, theirs: Measurement, bytes: number): void {
  const rows = [ours, theirs].map((row) => ({
    tool: row.tool,
    records: row.records.toLocaleString('en-US'),
    invalid: row.invalid,
    seconds: row.seconds.toFixed(1),
    'records/s': Math.round(row.records / row.seconds).toLocaleString('en-US'),
    'MB/s': (bytes / 1024 / 1024 / row.seconds).toFixed(1),
    'peak RSS (MB)': row.peakRssMb.toFixed(1),
  }));
  console.table(rows);
  const ratio = ours.records / ours.seconds / (theirs.records / theirs.seconds);
  console.log(`records/s ratio stream-schema / (JSON.parse + ajv): ${ratio.toFixed(2)}`);
  console.log(`peak RSS ${ours.peakRssMb.toFixed(1)} MB: ${ours.peakRssMb < RSS_LIMIT_MB ? 'under' : 'OVER'} the ${RSS_LIMIT_MB} MB target`);
  if (ours.records !== theirs.records || ours.invalid !== theirs.invalid) {
    console.log(`verdicts differ: stream-schema ${ours.records}/${ours.invalid}, baseline ${theirs.records}/${theirs.invalid}`);
    process.exitCode = 1;
  }
}

await main();
