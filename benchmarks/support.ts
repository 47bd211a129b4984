// Timing helpers for the benchmark scripts: best of N runs, ratios printed against the competitor
// measured in the same run.

import {fork, type ChildProcess} from 'node:child_process';
import {once} from 'node:events';
import {Agent, request, type Server} from 'node:http';
import {connect} from 'node:net';
import {basename} from 'node:path';
import {performance} from 'node:perf_hooks';
import type {TokenSink} from '../src/types.js';

/** Best wall time in milliseconds over `runs` runs of `work` (after one warm-up run). */
export function best(work: () => number, runs = 7): number {
  let sink = work();
  let fastest = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    sink += work();
    fastest = Math.min(fastest, performance.now() - start);
  }
  if (sink < 0) console.log(sink);
  return fastest;
}

/**
 * Best wall times in milliseconds of `ours` and `theirs`, their runs alternating (after one warm-up
 * run each). The machine's speed shifts by up to 1.5x within a process; timed one after the other,
 * a shift between the two phases skewed the ratio (value mode printed 0.24x and 0.36x in runs
 * minutes apart). Alternating, both see the same phases, and the best of each is compared.
 */
export function bestAlternating(ours: () => number, theirs: () => number, runs = 7): {ours: number; theirs: number} {
  let sink = ours() + theirs();
  const fastest = {ours: Infinity, theirs: Infinity};
  for (let i = 0; i < runs; i++) {
    for (const side of i % 2 === 0 ? (['ours', 'theirs'] as const) : (['theirs', 'ours'] as const)) {
      const start = performance.now();
      sink += side === 'ours' ? ours() : theirs();
      fastest[side] = Math.min(fastest[side], performance.now() - start);
    }
  }
  if (sink < 0) console.log(sink);
  return fastest;
}

export interface Row {
  name: string;
  /** What "theirs" is, for the summary (default: the table's title after "vs "). */
  versus?: string;
  /** Milliseconds for ours and for the competitor, on the same input. */
  ours: number;
  theirs: number;
  bytes: number;
  /** The throughput ratio (theirs time / ours time) we aim for; none: measured for information. */
  target?: number;
}

/** A headline ratio of a benchmark, as benchmarks/run.ts collects them for docs/benchmarks.md. */
export interface SummaryRow {
  workload: string;
  /** theirs time / ours time (throughput ratio): above 1, we are faster. */
  ratio: number;
  /** What the ratio is against. */
  versus: string;
  target?: number;
}

/** Marks the line of a benchmark's output that benchmarks/run.ts reads (one per benchmark run). */
export const SUMMARY_MARK = 'BENCHMARK-SUMMARY ';

/** Print a benchmark's headline ratios on one marked line of JSON, for benchmarks/run.ts. */
export function printSummary(rows: readonly SummaryRow[]): void {
  const benchmark = basename(process.argv[1] ?? 'unknown').replace(/\.ts$/, '');
  console.log(SUMMARY_MARK + JSON.stringify({benchmark, rows}));
}

/** The table of `rows`, and their summary (`title`: "… vs <what theirs is>"). */
export function printTable(title: string, rows: readonly Row[]): void {
  printRows(title, rows);
  const versus = title.includes(' vs ') ? title.slice(title.lastIndexOf(' vs ') + 4) : 'the competitor';
  printSummary(rows.map((row) => ({workload: row.name, ratio: row.theirs / row.ours, versus: row.versus ?? versus, target: row.target})));
}

function printRows(title: string, rows: readonly Row[]): void {
  console.log(`\n${title}`);
  console.log('| workload | ours MB/s | theirs MB/s | ratio (ours/theirs) | target |');
  console.log('|---|---:|---:|---:|---:|');
  for (const row of rows) {
    const ours = row.bytes / 1e6 / (row.ours / 1000);
    const theirs = row.bytes / 1e6 / (row.theirs / 1000);
    const ratio = row.theirs / row.ours;
    const target = row.target === undefined ? '—' : `${row.target.toFixed(2)}x ${ratio >= row.target ? 'met' : 'NOT met'}`;
    console.log(`| ${row.name} | ${ours.toFixed(1)} | ${theirs.toFixed(1)} | ${ratio.toFixed(2)}x | ${target} |`);
  }
}

/** A sink that ignores every token: the tokenizer's own cost. */
export const noopSink: TokenSink = {
  startObject() {},
  endObject() {},
  startArray() {},
  endArray() {},
  keyValue() {},
  stringValue() {},
  numberValue() {},
  nullValue() {},
  trueValue() {},
  falseValue() {},
};

/**
 * Upload a body of `bodyBytes` whose first key is "forbidden" to POST /upload over a raw socket,
 * pushing 64 KiB per turn of the event loop, until the first byte of the answer arrives: the
 * milliseconds from connect to then, and that first piece of the answer.
 * One chunk per turn, so an answer (and the server's close) is read before the next write: a
 * write into a closed socket fails with EPIPE and loses the unread answer; such errors after the
 * answer are ignored.
 */
export function uploadUntilAnswered(port: number, bodyBytes: number): Promise<{milliseconds: number; answer: string}> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let remaining = bodyBytes - '{"forbidden": "'.length - '"}'.length;
    let started = 0;
    let answered = false;
    const timer = setTimeout(() => socket.destroy(new Error('timeout')), 30_000);
    socket.on('error', (error) => (answered ? undefined : reject(error)));
    socket.on('data', (data: Buffer) => {
      if (answered) return;
      answered = true;
      const milliseconds = performance.now() - started;
      clearTimeout(timer);
      socket.destroy();
      resolve({milliseconds, answer: data.toString('latin1')});
    });
    const pump = (): void => {
      if (answered || socket.destroyed) return;
      if (remaining === 0) return void socket.write('"}');
      const size = Math.min(remaining, chunk.length);
      remaining -= size;
      if (socket.write(size === chunk.length ? chunk : chunk.subarray(0, size))) setImmediate(pump);
      else socket.once('drain', pump);
    };
    socket.on('connect', () => {
      started = performance.now();
      socket.write(`POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${bodyBytes}\r\n\r\n{"forbidden": "`);
      setImmediate(pump);
    });
  });
}

/** How many refusals of a smaller upload each server gets before the timed runs (the JIT settles). */
const WARM_UP_REFUSALS = 1000;
const WARM_UP_BODY = 100 * 1024;

export interface RefusalOptions {
  /** Timed uploads per server (default 21). */
  runs?: number;
  /** Timed uploads a server gets in a row before the other's turn (default 7). */
  block?: number;
  /** Refusals of a 100 KiB upload each server gets before the timed runs (default 1000). */
  warmUp?: number;
  /** How every answer must start (default `HTTP/1.1 4`). */
  expected?: string;
}

/**
 * Milliseconds until the answer (uploadUntilAnswered), `runs` uploads of `bodyBytes` to each
 * server, after `warmUp` refusals of a 100 KiB upload each so that the refusal's code is compiled
 * as a busy server's would be. The servers take turns in blocks of `block` runs: the turns share
 * the machine's changes of speed, and within a block a server follows itself, not the other's
 * aftermath (docs/decisions.md, "HTTP: the 10 MB rejection, warmed up and judged on best runs").
 * Every answer must start with `expected`.
 */
export async function timeRefusals<K extends string>(
  ports: Readonly<Record<K, number>>,
  bodyBytes: number,
  {runs = 21, block = 7, warmUp = WARM_UP_REFUSALS, expected = 'HTTP/1.1 4'}: RefusalOptions = {},
): Promise<Record<K, number[]>> {
  const kinds = Object.keys(ports) as K[];
  const refuse = async (kind: K, bytes: number): Promise<number> => {
    const {milliseconds, answer} = await uploadUntilAnswered(ports[kind], bytes);
    if (!answer.startsWith(expected)) throw new Error(`${kind}: expected ${expected}..., got ${answer.slice(0, 12)}`);
    return milliseconds;
  };
  for (const kind of kinds) for (let run = 0; run < warmUp; run++) await refuse(kind, WARM_UP_BODY);
  const times = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<K, number[]>;
  for (let turn = 0; times[kinds[0]!].length < runs; turn++) {
    for (const kind of turn % 2 === 0 ? kinds : [...kinds].reverse()) {
      for (let run = 0; run < block; run++) times[kind].push(await refuse(kind, bodyBytes));
    }
  }
  return times;
}

export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** `theirs / ours` of the best runs and of the medians, as `timeRefusals` returns them. */
export function refusalRatios(ours: readonly number[], theirs: readonly number[]): {best: number; median: number} {
  return {best: Math.min(...theirs) / Math.min(...ours), median: median(theirs) / median(ours)};
}

/**
 * Fork `script` (a benchmark file, through tsx) as `script server <kind>`, and wait for the port
 * it sends once listening. A server that never reports is killed after 30 s.
 */
export async function startServer(script: string, kind: string): Promise<{child: ChildProcess; port: number}> {
  const child = fork(script, ['server', kind], {execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc']});
  const timer = setTimeout(() => child.kill(), 30_000);
  const [message] = (await once(child, 'message')) as [{port: number}];
  clearTimeout(timer);
  return {child, port: message.port};
}

/** Disconnect a server started by startServer (it exits on that) and wait for it; killed after 5 s. */
export async function stopServer(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.disconnect();
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// HTTP: the 1 KB order body, and server CPU per request under one load

/** Valid in draft-07 (ajv's default) and 2020-12 alike. */
export const orderSchema = {
  type: 'object',
  properties: {
    orderId: {type: 'string', pattern: '^ord_[0-9]+$'},
    customer: {
      type: 'object',
      properties: {id: {type: 'string'}, email: {type: 'string', maxLength: 254}, vip: {type: 'boolean'}},
      required: ['id', 'email'],
    },
    items: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        properties: {
          sku: {type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$'},
          quantity: {type: 'integer', minimum: 1},
          price: {type: 'number', minimum: 0},
        },
        required: ['sku', 'quantity', 'price'],
      },
    },
    note: {type: 'string'},
  },
  required: ['orderId', 'customer', 'items'],
} as const;

/** A valid order of 1,024 bytes. */
export function smallBody(): Buffer {
  const items = Array.from({length: 10}, (_, index) => ({sku: `ABC-${String(1000 + index)}`, quantity: index + 1, price: 9.99 + index}));
  const order = {orderId: 'ord_123456', customer: {id: 'cus_42', email: 'ada@example.com', vip: true}, items, note: ''};
  const base = Buffer.byteLength(JSON.stringify(order));
  order.note = 'n'.repeat(Math.max(0, 1024 - base));
  return Buffer.from(JSON.stringify(order));
}

export function post(agent: Agent, port: number, path: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {host: '127.0.0.1', port, path, method: 'POST', agent, headers: {'content-type': 'application/json', 'content-length': body.length}},
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

/** A server's own CPU time so far (user + system, µs) and how many requests it has received. */
interface CpuReading {
  cpu: number;
  requests: number;
}

/**
 * In a server child: count the requests `server` receives, and answer the parent's `'cpu'`
 * message with a CpuReading. Over IPC, so that reading costs no request and no route.
 */
export function reportCpu(server: Server): void {
  let requests = 0;
  server.on('request', () => requests++);
  process.on('message', (message) => {
    if (message !== 'cpu') return;
    const {user, system} = process.cpuUsage();
    process.send?.({cpu: user + system, requests} satisfies CpuReading);
  });
}

async function readCpu(child: ChildProcess): Promise<CpuReading> {
  const reply = once(child, 'message') as Promise<[CpuReading]>;
  child.send('cpu');
  return (await reply)[0];
}

/**
 * Server CPU time per request (µs) for each server, under one load: `concurrency` keep-alive
 * clients (rounded up to a multiple of the servers), each sending the same body to every server
 * in turn, so any change in the machine's speed hits all servers at the same moments. Each client
 * starts its turn at another server: with all clients in one order, the same build measured twice
 * cost 2-12% more CPU per request second in line than first, every round (server processes
 * that answer in the same rhythm get their requests in other batches). Every answer must be 201.
 */
export async function cpuPerRequest(servers: ReadonlyArray<{child: ChildProcess; port: number}>, body: Buffer, seconds: number, concurrency: number): Promise<number[]> {
  const clients = Math.ceil(concurrency / servers.length) * servers.length;
  const agent = new Agent({keepAlive: true, maxSockets: clients * servers.length});
  const before = await Promise.all(servers.map(({child}) => readCpu(child)));
  const deadline = performance.now() + seconds * 1000;
  let failed = 0;
  const client = async (first: number): Promise<void> => {
    const ports = servers.map((_, index) => servers[(first + index) % servers.length]!.port);
    while (performance.now() < deadline) for (const port of ports) if ((await post(agent, port, '/orders', body)) !== 201) failed++;
  };
  await Promise.all(Array.from({length: clients}, (_, index) => client(index % servers.length)));
  const after = await Promise.all(servers.map(({child}) => readCpu(child)));
  agent.destroy();
  if (failed > 0) throw new Error(`${failed} requests were not answered 201`);
  return servers.map((_, i) => (after[i]!.cpu - before[i]!.cpu) / (after[i]!.requests - before[i]!.requests));
}
