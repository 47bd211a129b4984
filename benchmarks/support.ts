// Timing helpers for the benchmark scripts: best of N runs, ratios printed against the competitor
// measured in the same run.

import {connect} from 'node:net';
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
  /** Milliseconds for ours and for the competitor, on the same input. */
  ours: number;
  theirs: number;
  bytes: number;
  /** The throughput ratio (theirs time / ours time) we aim for; none: measured for information. */
  target?: number;
}

export function printTable(title: string, rows: readonly Row[]): void {
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
 * milliseconds from connect to then, and that first piece of the answer. One chunk per turn, so an
 * answer (and the server's close) is read before the next write: a write into a closed socket
 * fails with EPIPE and loses the unread answer; such errors after the answer are ignored.
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
