// The floor under http.ts's 10 MB rejection on this machine: how fast could any server answer?
// A bare Node server (no Express, no body read, no validation) answers 422 the moment the request
// head arrives; it is timed exactly as http.ts times ours (support.ts's timeRefusals: a raw socket
// from connect to the answer's first byte, the upload pushed 64 KiB per turn, after 1,000 warm-up
// refusals), in turns with express.json() reading the whole 10 MB. Its ratios are the most any
// validator could print in http.ts here (docs/decisions.md, "HTTP: the 10 MB rejection's floor").
//
//   node --import tsx benchmarks/rejection-floor.ts

import type {AddressInfo} from 'node:net';
import {fileURLToPath} from 'node:url';
import {median, refusalRatios, startServer, stopServer, timeRefusals} from './support.js';

const LARGE_BODY = 10 * 1024 * 1024;

async function server(kind: string): Promise<void> {
  if (kind === 'bare') {
    const {createServer} = await import('node:http');
    // It never reads the body, as ours stops reading once it refuses: left alone, Node would read
    // and discard the rest of the upload after the answer (costing the next upload its CPU). No
    // `Connection: close`, which would race the client's next write (EPIPE before the answer is
    // read): the client closes once it has the answer, and this server half-closes after it and
    // lets go of the socket a second later.
    const bare = createServer((req, res) => {
      req.read(0);
      req.pause();
      res.writeHead(422, {'content-type': 'application/json'});
      res.end('{"type":"entity.validation.failed"}');
      res.on('finish', () => {
        req.socket.end();
        setTimeout(() => req.socket.destroy(), 1000);
      });
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

async function main(): Promise<void> {
  const bare = await startServer(fileURLToPath(import.meta.url), 'bare');
  const express = await startServer(fileURLToPath(import.meta.url), 'express');
  try {
    const times = await timeRefusals({bare: bare.port, express: express.port}, LARGE_BODY, {expected: 'HTTP/1.1 422'});
    const ratios = refusalRatios(times.bare, times.express);
    console.log(`a bare server answering at the request head: best ${Math.min(...times.bare).toFixed(2)} ms, median ${median(times.bare).toFixed(2)} ms`);
    console.log(`express.json() reading the 10 MB: best ${Math.min(...times.express).toFixed(1)} ms, median ${median(times.express).toFixed(1)} ms`);
    console.log(`so no server can print more than ${ratios.best.toFixed(1)}x (best runs) or ${ratios.median.toFixed(1)}x (medians) in http.ts here (target 50x)`);
  } finally {
    await Promise.all([stopServer(bare.child), stopServer(express.child)]);
  }
}

if (process.argv[2] === 'server') await server(process.argv[3]!);
else await main();
