// `npm run bench`: every benchmark, one after the other, each in its own process so they do not
// share a heap or a JIT. Each prints ratios against its competitor measured in the same run, and
// one marked line of its headline ratios (support.ts, printSummary), from which this writes
// docs/benchmarks.md.
//
//   npm run bench                      all of them (the NDJSON memory run uses a 1 GiB file)
//   NDJSON_BENCH_MB=100 npm run bench  a quicker NDJSON memory run
//   npm run bench -- engine http       only the named ones: their rows of docs/benchmarks.md are
//                                      replaced, the others' kept with the date and machine they
//                                      were measured on
//   npm run bench -- load              the load run alone (60 s per server at 100 connections)

import {spawn} from 'node:child_process';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {cpus, loadavg} from 'node:os';
import {fileURLToPath} from 'node:url';
import {SUMMARY_MARK, type SummaryRow} from './support.js';

const all = ['tokenizer', 'breakdown', 'engine', 'value-options', 'value-interpreters', 'keywords', 'ceiling', 'http', 'http-cpu', 'http-reader', 'rejection-floor', 'ndjson-reader', 'ndjson-memory', 'ndjson-jobs', 'huge-document', 'unique-items-memory', 'name-cache-memory', 'validator-churn', 'linear-time', 'branching', 'compile', 'literals', 'numbers', 'discriminators', 'parse-first', 'redos', 'import', 'load'];
/** Node flags a benchmark needs: the memory runs collect garbage themselves before each heap sample. */
const nodeFlags: Readonly<Record<string, readonly string[]>> = {
  'validator-churn': ['--expose-gc'],
  'unique-items-memory': ['--expose-gc'],
  'name-cache-memory': ['--expose-gc'],
};
const resultsFile = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

/** Where and when a benchmark ran. */
interface Machine {
  date: string;
  cores: number;
  cpu: string;
  node: string;
  /** The 1-minute load average as the benchmark started: the machine may be shared. */
  load: number;
}

/** One benchmark's last run, as docs/benchmarks.md keeps it. */
interface Result {
  benchmark: string;
  machine: Machine;
  rows: SummaryRow[];
}

function machine(): Machine {
  const processors = cpus();
  return {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    cores: processors.length,
    cpu: processors[0]?.model.trim() ?? 'unknown',
    node: process.version,
    load: Math.round(loadavg()[0]! * 100) / 100,
  };
}

/** Run one benchmark, its output passed through; the rows of its marked lines (none: it printed none). */
function runBenchmark(name: string, script: string): Promise<{status: number | null; rows: SummaryRow[] | undefined}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(nodeFlags[name] ?? []), '--import', 'tsx', script], {stdio: ['inherit', 'pipe', 'inherit']});
    let rows: SummaryRow[] | undefined;
    let pending = '';
    const take = (line: string): void => {
      if (!line.startsWith(SUMMARY_MARK)) return void console.log(line);
      (rows ??= []).push(...(JSON.parse(line.slice(SUMMARY_MARK.length)) as {rows: SummaryRow[]}).rows);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (data: string) => {
      const lines = (pending + data).split('\n');
      pending = lines.pop()!;
      lines.forEach(take);
    });
    child.on('error', reject);
    child.on('close', (status) => {
      if (pending !== '') take(pending);
      resolve({status, rows});
    });
  });
}

/** The results docs/benchmarks.md holds (in its data comment), by benchmark. */
function earlierResults(): Map<string, Result> {
  const results = new Map<string, Result>();
  if (!existsSync(resultsFile)) return results;
  const data = /<!-- results: (.*) -->/.exec(readFileSync(resultsFile, 'utf8'));
  if (data === null) return results;
  for (const result of JSON.parse(data[1]!) as Result[]) results.set(result.benchmark, result);
  return results;
}

const describe = ({cores, cpu, node}: Machine): string => `${cores} × ${cpu}, Node ${node}`;
const ratio = (value: number): string => `${value.toFixed(2)}x`;

function markdown(results: readonly Result[]): string {
  const machines = new Map<string, Result[]>();
  for (const result of results) {
    const key = `${result.machine.date}, ${describe(result.machine)}, load average ${result.machine.load} at its start`;
    machines.set(key, [...(machines.get(key) ?? []), result]);
  }
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (benchmarks/run.ts), which runs the benchmarks of `benchmarks/` and keeps each one\'s headline ratios here; `npm run bench -- <names>` replaces the rows of those it runs. A ratio is the competitor\'s time over ours, measured in the same process with alternating rounds: above 1.00x we are faster. The machines are shared and drift; compare ratios, not runs.',
    '',
    '| benchmark | workload | ratio | against | target |',
    '|---|---|---:|---|---:|',
  ];
  for (const {benchmark, rows} of results) {
    for (const row of rows) {
      const target = row.target === undefined ? '—' : `${ratio(row.target)} ${row.ratio >= row.target ? 'met' : '**not met**'}`;
      lines.push(`| ${benchmark} | ${row.workload} | ${ratio(row.ratio)} | ${row.versus} | ${target} |`);
    }
  }
  lines.push('', 'Measured on:', '');
  for (const [key, measured] of machines) lines.push(`- ${key}: ${measured.map((result) => result.benchmark).join(', ')}`);
  lines.push('', `<!-- results: ${JSON.stringify(results)} -->`, '');
  return lines.join('\n');
}

const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : all;
const results = earlierResults();
const silent: string[] = [];
let failed = false;
for (const name of chosen) {
  const script = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  if (!existsSync(script)) {
    console.error(`no benchmark named ${name} (have: ${all.join(', ')})`);
    failed = true;
    continue;
  }
  console.log(`\n=== ${name} ===`);
  const measuredOn = machine();
  const {status, rows} = await runBenchmark(name, script);
  if (status !== 0) failed = true;
  else if (rows === undefined) silent.push(name);
  else results.set(name, {benchmark: name, machine: measuredOn, rows});
}
// The table lists the benchmarks in the order of `all`.
const ordered = [...results.values()].sort((a, b) => all.indexOf(a.benchmark) - all.indexOf(b.benchmark));
writeFileSync(resultsFile, markdown(ordered));
console.log(`\nwrote ${resultsFile}${silent.length > 0 ? ` (no summary line from ${silent.join(', ')}: not in the table)` : ''}`);
process.exitCode = failed ? 1 : 0;
