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

import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BASELINE_SOURCE, EVENT_SCHEMA_FILE as SCHEMA_FILE, generate, measureChild, parseFlavour, prepareCli, type Cli } from './cli-support.js';

const RSS_LIMIT_MB = 100;

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
