// What the benchmarks of the CLI share: the NDJSON event log they generate, a child process
// measured for time and peak RSS, the CLI compiled as a user runs it, and the JSON.parse + ajv
// per-line loop they compare it with.

import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildPackage } from '../test/support/cliRun.js';

export const ROOT = new URL('..', import.meta.url).pathname;
export const EVENT_SCHEMA_FILE = join(ROOT, 'examples/event.schema.json');
const POLL_INTERVAL_MS = 50;
const TIME_BINARY = '/usr/bin/time';

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
export function eventLine(index: number): string {
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

export async function generate(file: string, targetBytes: number): Promise<{ bytes: number; records: number; invalid: number; seconds: number }> {
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

export interface ChildMeasurement {
  stdout: string;
  stderr: string;
  seconds: number;
  /** User + system CPU seconds of every thread, from /usr/bin/time (NaN without it). */
  cpuSeconds: number;
  peakRssMb: number;
}

/**
 * Runs a command, polling its VmHWM; resolves with its stdout, stderr, CPU time and peak RSS.
 * `quiet`: the CLI runs with --quiet, so exit code 1 comes with nothing printed.
 */
export async function measureChild(command: string, args: string[], quiet = false): Promise<ChildMeasurement> {
  const useTime = existsSync(TIME_BINARY);
  const started = performance.now();
  const child = useTime
    ? spawn(TIME_BINARY, ['-f', 'maxrss_kb=%M cpu_s=%U+%S', command, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
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
  const cpu = /cpu_s=([\d.]+)\+([\d.]+)/.exec(stderr);
  const cpuSeconds = cpu === null ? NaN : Number(cpu[1]) + Number(cpu[2]);
  if (code !== 0 && code !== 1) throw new Error(`${command} ${args.slice(0, 3).join(' ')} exited with ${code}:\n${stderr}`);
  if (code === 1 && !quiet && stdout.length === 0 && !stderr.includes('records:')) throw new Error(`${command} ${args.slice(0, 3).join(' ')} failed:\n${stderr}`);
  return { stdout, stderr, seconds, cpuSeconds, peakRssMb: Math.max(polledKb, timedKb) / 1024 };
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

export type CliFlavour = 'build' | 'dist' | 'tsx';

export function parseFlavour(flavour: string | undefined): CliFlavour {
  if (flavour === undefined) return 'build';
  if (flavour === 'build' || flavour === 'dist' || flavour === 'tsx') return flavour;
  throw new RangeError(`--cli must be build, dist or tsx, got ${flavour}`);
}

export interface Cli {
  flavour: CliFlavour;
  /** Node arguments that start the CLI. */
  args: string[];
}

export async function prepareCli(flavour: CliFlavour, cleanups: (() => void)[]): Promise<Cli> {
  if (flavour === 'tsx') return { flavour, args: ['--import', 'tsx', join(ROOT, 'adapters/cli.ts')] };
  if (flavour === 'dist') return { flavour, args: [join(ROOT, 'dist/bundle/cli.js')] };
  // Built and bundled as `npm run build` makes the package's bin (the tests' own build of it).
  const started = performance.now();
  const { build, cli } = await buildPackage();
  cleanups.push(() => rmSync(build, { recursive: true, force: true }));
  console.log(`compiled and bundled the CLI into ${build} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { flavour, args: [cli] };
}

/** The comparison: lines split by hand, JSON.parse, ajv (formats not asserted, as ours by default). */
export const BASELINE_SOURCE = `
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
