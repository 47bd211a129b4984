// The floor under http.ts's 10 MB rejection on this machine: how fast could any server answer?
// A bare Node server (no Express, no body read, no validation) answers 422 the moment the request
// head arrives; it is timed exactly as http.ts times ours (a raw socket from connect to the first
// byte of the answer, the upload pushed 64 KiB per turn), alternating with express.json() reading
// the whole 10 MB. The ratio of the two medians is the best any validator could print in http.ts
// here (docs/decisions.md, "HTTP: the 10 MB rejection's floor").
//
//   node --import tsx benchmarks/rejection-floor.ts

import {fork, type ChildProcess} from 'node:child_process';
import {once} from 'node:events';
import type {AddressInfo} from 'node:net';
import {fileURLToPath} from 'node:url';
import {uploadUntilAnswered} from './support.js';

const LARGE_BODY = 10 * 1024 * 1024;
const RUNS = 21;

async function server(kind: string): Promise<void> {
  if (kind === 'bare') {
    const {createServer} = await import('node:http');
    // No `Connection: close`: closing races the client's next write (EPIPE before the answer is
    // read), and this server does as little as possible. The client closes once it has the answer.
    const bare = createServer((_req, res) => {
      res.writeHead(422, {'content-type': 'application/json'});
      res.end('{"type":"entity.validation.failed"}');
    });
    bare.listen(0, '127.0.0.1', () => process.send?.({port: (bare.address() as AddressInfo).port}));
  } else {
    const {default: express} = await import('express');
    const app = express();
    app.post('/upload', express.json({limit: '20mb'}), (_req, res) => void res.status(422).json({}));
    const listening = app.listen(0, '127.0.0.1', () => process.send?.({port: (listening.address() as AddressInfo).port}));
  }
  process.on('disconnect', () => process.exit(0));
}

async function start(kind: string): Promise<{child: ChildProcess; port: number}> {
  const child = fork(fileURLToPath(import.meta.url), ['server', kind], {execArgv: ['--import', 'tsx']});
  const [message] = (await once(child, 'message')) as [{port: number}];
  return {child, port: message.port};
}

/** Milliseconds from connect to the answer's first byte, for a 10 MB upload (as in http.ts). */
async function timeToAnswer(port: number): Promise<number> {
  return (await uploadUntilAnswered(port, LARGE_BODY)).milliseconds;
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function main(): Promise<void> {
  const bare = await start('bare');
  const express = await start('express');
  try {
    await timeToAnswer(bare.port);
    await timeToAnswer(express.port);
    const bareTimes: number[] = [];
    const expressTimes: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      bareTimes.push(await timeToAnswer(bare.port));
      expressTimes.push(await timeToAnswer(express.port));
    }
    console.log(`a bare server answering at the request head: median ${median(bareTimes).toFixed(2)} ms, min ${Math.min(...bareTimes).toFixed(2)} ms`);
    console.log(`express.json() reading the 10 MB: median ${median(expressTimes).toFixed(1)} ms`);
    console.log(`so no server can print more than ${(median(expressTimes) / median(bareTimes)).toFixed(1)}x in http.ts here (target 50x)`);
  } finally {
    bare.child.disconnect();
    express.child.disconnect();
  }
}

if (process.argv[2] === 'server') await server(process.argv[3]!);
else await main();
