// `stream-schema validate --jobs 2` against its own single thread (`--jobs 1`), and the single
// thread against a JSON.parse + ajv per-line loop, on one generated NDJSON file, in the same run.
// Beside them, two `--jobs 1` processes at once, each on half of the file (`--byte-range`): what
// two programs that share nothing get from 2 cores, the ceiling for `--jobs 2` on this machine.
//
//   node --import tsx benchmarks/ndjson-jobs.ts              # 200 MB file (issue 24's target)
//   NDJSON_JOBS_MB=20 node --import tsx benchmarks/ndjson-jobs.ts   # a quick run
//
// Each tool runs as its own child process (the compiled CLI, as a user runs it: see
// cli-support.ts), in rounds that alternate their order; the best round of each is compared.
// The load average is printed before and after: the ratios mean little on a loaded machine.
// It also measures what docs/scaling.md's model needs: the CPU time per record of one thread,
// and the cost of the main thread's part (reading, cutting at line feeds, counting lines, the
// round trip of a batch to a worker and back).

import { once } from 'node:events';
import { closeSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { BatchCutter, DEFAULT_BATCH_SIZE, type Batch, type WorkerRecipe } from '../adapters/ndjson-workers.js';
import { BASELINE_SOURCE, EVENT_SCHEMA_FILE, generate, measureChild, prepareCli, type ChildMeasurement, type Cli } from './cli-support.js';
import { printSummary } from './support.js';

const ROUNDS = Number(process.env.NDJSON_JOBS_ROUNDS ?? 3);
const TARGET_JOBS_RATIO = 1.7;
const TARGET_BASELINE_RATIO = 1.0;

interface Timing {
  tool: string;
  seconds: number[];
  cpuSeconds: number[];
  peakRssMb: number[];
  records: number;
  invalid: number;
  output: string;
}

async function main(): Promise<void> {
  const megabytes = Number(process.env.NDJSON_JOBS_MB ?? 200);
  if (!(megabytes > 0)) throw new RangeError(`NDJSON_JOBS_MB must be a positive number, got ${process.env.NDJSON_JOBS_MB}`);
  const file = join(tmpdir(), `stream-schema-jobs-${process.pid}.ndjson`);
  const removeFile = (): void => rmSync(file, { force: true });
  process.once('SIGINT', () => {
    removeFile();
    process.exit(130);
  });
  const cleanups: (() => void)[] = [removeFile];
  try {
    console.log(`${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; load average before: ${formatLoad()}`);
    const generated = await generate(file, megabytes * 1024 * 1024);
    console.log(`generated ${file}: ${(generated.bytes / 1e6).toFixed(0)} MB, ${generated.records.toLocaleString('en-US')} records`);
    const cli = await prepareCli('build', cleanups);
    const timings = await measureRounds(file, cli);
    report(timings, generated.bytes);
    await reportInvalid(cli, cleanups);
    await reportCoordination(file, generated.records, cli);
    console.log(`load average after: ${formatLoad()}`);
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
}

function formatLoad(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(', ');
}

async function measureRounds(file: string, cli: Cli): Promise<Timing[]> {
  const validate = [...cli.args, 'validate', '--schema', EVENT_SCHEMA_FILE, '--format', 'json'];
  const half = Math.floor(statSync(file).size / 2);
  const tools: { tool: string; args: string[][]; counts: (stdout: string, stderr: string) => { records: number; invalid: number } }[] = [
    { tool: 'stream-schema --jobs 1', args: [[...validate, '--jobs', '1', file]], counts: cliCounts },
    { tool: 'stream-schema --jobs 2', args: [[...validate, '--jobs', '2', file]], counts: cliCounts },
    { tool: 'JSON.parse + ajv per line', args: [['--input-type=module', '--eval', BASELINE_SOURCE, file, EVENT_SCHEMA_FILE]], counts: (stdout) => JSON.parse(stdout) as { records: number; invalid: number } },
    // What 2 cores give two programs that share nothing: the ceiling of --jobs 2 on this machine.
    {
      tool: '2 processes, --jobs 1 on each half',
      args: [`:${half}`, `${half}:`].map((range) => [...validate, '--jobs', '1', '--byte-range', range, file]),
      counts: (_stdout, stderr) => [...stderr.matchAll(SUMMARY)].map(summaryCounts).reduce((sum, part) => ({ records: sum.records + part.records, invalid: sum.invalid + part.invalid })),
    },
  ];
  const timings: Timing[] = tools.map(({ tool }) => ({ tool, seconds: [], cpuSeconds: [], peakRssMb: [], records: 0, invalid: 0, output: '' }));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1, 2, 3] : [3, 2, 1, 0];
    for (const index of order) {
      const { args, counts } = tools[index]!;
      const run = await measureTogether(args);
      const timing = timings[index]!;
      timing.seconds.push(run.seconds);
      timing.cpuSeconds.push(run.cpuSeconds);
      timing.peakRssMb.push(run.peakRssMb);
      Object.assign(timing, counts(run.stdout, run.stderr));
      timing.output = run.stdout;
    }
    console.log(`round ${round + 1}: ${timings.map((timing) => `${timing.tool} ${timing.seconds.at(-1)!.toFixed(2)} s`).join(', ')}; load ${formatLoad()}`);
  }
  return timings;
}

/** Processes run at once: wall time until the last ends, CPU time of all, the largest peak RSS, their outputs in order. */
async function measureTogether(args: string[][]): Promise<ChildMeasurement> {
  const started = performance.now();
  const runs = await Promise.all(args.map((each) => measureChild(process.execPath, each)));
  return {
    stdout: runs.map((run) => run.stdout).join(''),
    stderr: runs.map((run) => run.stderr).join(''),
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: runs.reduce((sum, run) => sum + run.cpuSeconds, 0),
    peakRssMb: Math.max(...runs.map((run) => run.peakRssMb)),
  };
}

const SUMMARY = /(\d+) records: (\d+) valid, (\d+) invalid/g;

function summaryCounts(summary: RegExpMatchArray): { records: number; invalid: number } {
  return { records: Number(summary[1]), invalid: Number(summary[3]) };
}

function cliCounts(_stdout: string, stderr: string): { records: number; invalid: number } {
  const summary = [...stderr.matchAll(SUMMARY)];
  if (summary.length !== 1) throw new Error(`no summary from the CLI:\n${stderr}`);
  return summaryCounts(summary[0]!);
}

function report(timings: Timing[], bytes: number): void {
  const [one, two, baseline, halves] = timings as [Timing, Timing, Timing, Timing];
  console.table(
    timings.map((timing) => {
      const seconds = Math.min(...timing.seconds);
      return {
        tool: timing.tool,
        'best s': seconds.toFixed(2),
        'all s': timing.seconds.map((value) => value.toFixed(2)).join(' '),
        'MB/s': (bytes / 1e6 / seconds).toFixed(1),
        'CPU s (best run)': timing.cpuSeconds[timing.seconds.indexOf(seconds)]!.toFixed(2),
        'ns/record CPU': ((timing.cpuSeconds[timing.seconds.indexOf(seconds)]! / timing.records) * 1e9).toFixed(0),
        'peak RSS MB': Math.max(...timing.peakRssMb).toFixed(0),
        records: timing.records.toLocaleString('en-US'),
        invalid: timing.invalid,
      };
    }),
  );
  const jobsRatio = Math.min(...one.seconds) / Math.min(...two.seconds);
  const baselineRatio = Math.min(...baseline.seconds) / Math.min(...one.seconds);
  console.log(`--jobs 2 / --jobs 1: ${jobsRatio.toFixed(2)}x (target ${TARGET_JOBS_RATIO}x: ${jobsRatio >= TARGET_JOBS_RATIO ? 'met' : 'NOT met'})`);
  console.log(`--jobs 1 / JSON.parse + ajv: ${baselineRatio.toFixed(2)}x (target ${TARGET_BASELINE_RATIO}x: ${baselineRatio >= TARGET_BASELINE_RATIO ? 'met' : 'NOT met'})`);
  const ceiling = Math.min(...one.seconds) / Math.min(...halves.seconds);
  console.log(`2 processes on halves / --jobs 1: ${ceiling.toFixed(2)}x (the machine's ceiling for 2 threads); --jobs 2 reaches ${((jobsRatio / ceiling) * 100).toFixed(0)}% of it`);
  const mb = (bytes / 1e6).toFixed(0);
  printSummary([
    { workload: `CLI, ${mb} MB of NDJSON, --jobs 1`, ratio: baselineRatio, versus: 'JSON.parse + ajv per line', target: TARGET_BASELINE_RATIO },
    { workload: `CLI, ${mb} MB of NDJSON, --jobs 2`, ratio: jobsRatio, versus: '--jobs 1', target: TARGET_JOBS_RATIO },
    { workload: `two --jobs 1 processes at once, half the file each (the machine's ceiling for --jobs 2)`, ratio: ceiling, versus: '--jobs 1' },
  ]);
  if (two.output !== one.output || halves.output !== one.output) {
    console.log('--jobs 2, or the halves concatenated, printed another output than --jobs 1');
    process.exitCode = 1;
  }
  if (one.records !== baseline.records || one.invalid !== baseline.invalid || two.records !== one.records || halves.records !== one.records || halves.invalid !== one.invalid) {
    console.log(`verdicts differ: ${timings.map((timing) => `${timing.tool} ${timing.records}/${timing.invalid}`).join(', ')}`);
    process.exitCode = 1;
  }
}

/**
 * `--jobs 2` against `--jobs 1` where every record is invalid: 1,000,000 lines of `{}` under the
 * event schema's `required`, with --quiet. Each invalid record sends something back to the
 * reading thread, which once made `--jobs 2` 1.5x slower than `--jobs 1` here.
 */
async function reportInvalid(cli: Cli, cleanups: (() => void)[]): Promise<void> {
  const file = join(tmpdir(), `stream-schema-jobs-invalid-${process.pid}.ndjson`);
  cleanups.push(() => rmSync(file, { force: true }));
  const lines = 1_000_000;
  writeFileSync(file, '{}\n'.repeat(lines));
  const args = (jobs: string): string[] => [...cli.args, 'validate', '--schema', EVENT_SCHEMA_FILE, '--quiet', '--jobs', jobs, file];
  const seconds: [number[], number[]] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const run = await measureChild(process.execPath, args(String(index + 1)), true);
      if (run.stdout !== '') throw new Error(`--jobs ${index + 1} --quiet printed: ${run.stdout}`);
      seconds[index]!.push(run.seconds);
    }
  }
  const ratio = Math.min(...seconds[0]) / Math.min(...seconds[1]);
  console.log(`every record invalid (${lines.toLocaleString('en-US')} lines of {}): --jobs 1 ${seconds[0].map((value) => value.toFixed(2)).join(' ')} s, --jobs 2 ${seconds[1].map((value) => value.toFixed(2)).join(' ')} s: --jobs 2 / --jobs 1 ${ratio.toFixed(2)}x`);
  printSummary([{ workload: `CLI, ${lines.toLocaleString('en-US')} invalid lines, --quiet, --jobs 2`, ratio, versus: '--jobs 1' }]);
}

/**
 * The main thread's share of --jobs, as CPU time per record: reading and cutting the file as the
 * CLI does (one reused read buffer, BatchCutter counting the line feeds, every batch's buffer
 * given back as a worker gives it), and this thread of a whole --jobs 2 run (it validates too) against
 * the process's total. docs/scaling.md divides one thread's validation rate by these to find
 * where more workers stop helping.
 */
async function reportCoordination(file: string, records: number, cli: Cli): Promise<void> {
  // CPU time, not wall time: on a loaded machine the wall time is mostly waiting for a core. The
  // best of 3 passes: on a big file the reading thread's code is compiled after a few batches.
  const passes = [readAndCut(file), readAndCut(file), readAndCut(file)];
  const { seconds: readSeconds, batches, bytes } = passes.reduce((best, pass) => (pass.seconds < best.seconds ? pass : best));
  const roundTrip = await batchRoundTrip(200);
  console.log(
    `main thread, reading and cutting: ${(bytes / 1e6 / readSeconds).toFixed(0)} MB per CPU second (${((readSeconds / records) * 1e9).toFixed(0)} ns/record, ${batches} batches); ` +
      `a ${DEFAULT_BATCH_SIZE / 1024} KiB batch's round trip to an idle worker (best, wall time): ${roundTrip.toFixed(0)} µs (${((roundTrip * 1000 * batches) / records).toFixed(0)} ns/record)`,
  );
  const one = await threadSplit(file, cli, 0);
  const two = await threadSplit(file, cli, 1);
  const perRecord = (seconds: number): string => `${((seconds / records) * 1e9).toFixed(0)} ns/record`;
  console.log(
    `in one process: one thread ${one.readingThread.toFixed(2)} s CPU (${perRecord(one.readingThread)}), the process ${one.process.toFixed(2)} s (${perRecord(one.process)}); ` +
      `--jobs 2 (this thread and a worker): this thread ${two.readingThread.toFixed(2)} s (${perRecord(two.readingThread)}, its start included), the process ${two.process.toFixed(2)} s (${perRecord(two.process)})`,
  );
}

/** Reading and cutting the file as the CLI's reading thread does, every batch's buffer given back as a worker gives it. */
function readAndCut(file: string): { seconds: number; batches: number; bytes: number } {
  const started = process.cpuUsage();
  const cutter = new BatchCutter(DEFAULT_BATCH_SIZE);
  let batches = 0;
  let bytes = 0;
  const take = (batch: Batch): void => {
    batches++;
    bytes += batch.bytes.length;
    cutter.recycle(batch.bytes.buffer as ArrayBuffer);
  };
  const descriptor = openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(DEFAULT_BATCH_SIZE);
  for (let read = readSync(descriptor, buffer); read > 0; read = readSync(descriptor, buffer)) cutter.write(buffer.subarray(0, read)).forEach(take);
  closeSync(descriptor);
  cutter.end().forEach(take);
  return { seconds: cpuSeconds(process.cpuUsage(started)), batches, bytes };
}

function cpuSeconds(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}

/** CPU seconds of this thread, from /proc/thread-self/stat (utime and stime, in clock ticks of 1/100 s). */
function threadCpuSeconds(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The file read as `--jobs 1` (`workers` 0: NdjsonRecordReader in this thread) or `--jobs 2` runs
 * it: this thread's CPU time and the process's. The compiled modules of the CLI's build, so that
 * workers do not compile TypeScript as they start.
 */
async function threadSplit(file: string, cli: Cli, workers: number): Promise<{ readingThread: number; process: number }> {
  // The build's adapters/, beside the bundled bin's bundle/ (or the source's adapters/ itself, with tsx).
  const built = join(dirname(cli.args.at(-1)!), '..', 'adapters');
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(built, path)).href)) as T;
  const { ParallelNdjsonReader } = await load<typeof import('../adapters/ndjson-workers.js')>('ndjson-workers.js');
  const { NdjsonRecordReader } = await load<typeof import('../adapters/ndjson-lines.js')>('ndjson-lines.js');
  const { withSyntaxPass } = await load<typeof import('../adapters/syntax-pass.js')>('syntax-pass.js');
  const { compile } = await load<typeof import('../src/index.js')>('../src/index.js');
  const schema = JSON.parse(readFileSync(EVENT_SCHEMA_FILE, 'utf8')) as unknown;
  const recipe: WorkerRecipe = { schema, options: {}, syntaxPass: true, readerOptions: {}, report: 'invalid' };
  const threadStarted = threadCpuSeconds();
  const processStarted = process.cpuUsage();
  const validator = withSyntaxPass(compile(schema), compile(true));
  // As the CLI's --jobs (workers + 1): this thread validates too.
  const reader = workers === 0 ? new NdjsonRecordReader(validator, {}, () => {}) : new ParallelNdjsonReader(validator, recipe, { workers, thisThread: true }, () => {});
  const descriptor = openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(workers === 0 ? 64 * 1024 : DEFAULT_BATCH_SIZE);
  for (let read = readSync(descriptor, buffer); read > 0; read = readSync(descriptor, buffer)) await reader.write(buffer.subarray(0, read));
  closeSync(descriptor);
  await reader.end();
  return { readingThread: threadCpuSeconds() - threadStarted, process: cpuSeconds(process.cpuUsage(processStarted)) };
}

/** Microseconds of a batch sent (transferred) to a worker that answers at once with an empty result; the best of `runs`. */
async function batchRoundTrip(runs: number): Promise<number> {
  const worker = new Worker('require("node:worker_threads").parentPort.on("message", (m) => require("node:worker_threads").parentPort.postMessage({ sequence: m.sequence, records: 0, reported: [], buffer: m.bytes.buffer }, [m.bytes.buffer]));', { eval: true });
  let best = Infinity;
  for (let run = 0; run < runs; run++) {
    const bytes = new Uint8Array(DEFAULT_BATCH_SIZE);
    const started = performance.now();
    worker.postMessage({ sequence: run, firstLine: 1, bytes, endsLine: true }, [bytes.buffer]);
    await once(worker, 'message');
    best = Math.min(best, (performance.now() - started) * 1000);
  }
  await worker.terminate();
  return best;
}

await main();
