// The body reader alone, in one process, without sockets: CPU per valid 1 KB order through
// BodyReader.read against express.json() + ajv and raw-body + JSON.parse + ajv (Koa's competitor
// in http-cpu.ts), each on IncomingMessage objects fed by hand, and the parts of each (parseText;
// JSON.parse + ajv; the reader with the schema `true`).
//
//   npm run build && node --import tsx benchmarks/http-reader.ts   (HTTP_READER_POLLUTE_MB=16)
//   HTTP_BASELINE=/path/to/an/older/dist   its BodyReader too, to measure a change against the build before it
//
// Warm, then with the caches flushed before each body (a buffer of HTTP_READER_POLLUTE_MB filled
// before each, its own cost measured apart and taken off): a server handles a body after its HTTP
// parser, its framework and, on a busy machine, other processes have run, so the reader's code
// and data are often cold there. benchmarks/http-cpu.ts measures the servers themselves.

import {IncomingMessage, ServerResponse} from 'node:http';
import {createRequire} from 'node:module';
import {Socket} from 'node:net';
import {pathToFileURL} from 'node:url';

import {BodyReader} from '../dist/adapters/http-body.js';
import {compile} from '../dist/src/index.js';
import {orderSchema, smallBody} from './support.js';

const require = createRequire(import.meta.url);
const express = require('express') as typeof import('express');
const getRawBody = require('raw-body') as typeof import('raw-body');
const {Ajv} = require('ajv') as typeof import('ajv');

const body = smallBody();
const socket = new Socket();
const POLLUTE_MB = Number(process.env['HTTP_READER_POLLUTE_MB'] ?? 16);
const BASELINE = process.env['HTTP_BASELINE'];
const ROUNDS = 7;

function request(): IncomingMessage {
  const req = new IncomingMessage(socket);
  req.method = 'POST';
  req.headers = {'content-type': 'application/json', 'content-length': String(body.length)};
  return req;
}

/** The whole body arrives in one chunk, then its end, as from a socket. */
function send(req: IncomingMessage): void {
  req.push(body);
  req.complete = true;
  req.push(null);
}

const response = new ServerResponse(request());
const validator = compile(orderSchema);
const validateOrder = new Ajv().compile(orderSchema);
const json = express.json();

function throughReader(reader: BodyReader): () => Promise<unknown> {
  return () =>
    new Promise((resolve, reject) => {
      const req = request();
      reader.read(req, response, (error, value) => (error === null ? resolve(value) : reject(error)));
      send(req);
    });
}

/** The baseline build's BodyReader, where HTTP_BASELINE names one. */
const Baseline =
  BASELINE === undefined ? undefined : ((await import(pathToFileURL(`${BASELINE}/adapters/http-body.js`).href)) as typeof import('../dist/adapters/http-body.js')).BodyReader;

const work: Record<string, () => Promise<unknown>> = {
  'BodyReader.read': throughReader(new BodyReader(orderSchema)),
  'BodyReader.read, schema true': throughReader(new BodyReader(true)),
  ...(Baseline === undefined
    ? {}
    : {
        'baseline BodyReader.read': throughReader(new Baseline(orderSchema)),
        'baseline BodyReader.read, schema true': throughReader(new Baseline(true)),
      }),
  'express.json() + ajv': () =>
    new Promise((resolve, reject) => {
      const req = request() as IncomingMessage & {body?: unknown};
      json(req as never, response as never, (error?: unknown) => (error === undefined && validateOrder(req.body) ? resolve(req.body) : reject(error ?? new Error('invalid'))));
      send(req);
    }),
  'raw-body + JSON.parse + ajv': async () => {
    const req = request();
    const text = getRawBody(req, {length: req.headers['content-length'], limit: '100kb', encoding: 'utf8'});
    send(req);
    const value: unknown = JSON.parse(await text);
    if (!validateOrder(value)) throw new Error('invalid');
    return value;
  },
  parseText: async () => validator.parseText(body),
  'JSON.parse + ajv': async () => validateOrder(JSON.parse(body.toString('utf8'))),
  nothing: async () => undefined,
};

const flush = Buffer.alloc(POLLUTE_MB * 2 ** 20);

/** CPU µs per call, best of ROUNDS rounds that alternate between the kinds of work. */
async function cpuPerCall(flushing: boolean, calls: number): Promise<Record<string, number>> {
  const best: Record<string, number> = Object.fromEntries(Object.keys(work).map((name) => [name, Infinity]));
  const names = Object.keys(work);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const started = process.cpuUsage();
      for (let call = 0; call < calls; call++) {
        if (flushing) flush.fill(call & 0xff);
        await work[name]!();
      }
      const {user, system} = process.cpuUsage(started);
      best[name] = Math.min(best[name]!, (user + system) / calls);
    }
  }
  return best;
}

const warm = await cpuPerCall(false, 5000);
const cold = await cpuPerCall(true, 500);
console.table(
  Object.keys(work)
    .filter((name) => name !== 'nothing')
    .map((name) => ({
      work: name,
      'warm, CPU µs': Number(warm[name]!.toFixed(2)),
      [`caches flushed (${POLLUTE_MB} MB), CPU µs`]: Number((cold[name]! - cold['nothing']!).toFixed(1)),
    })),
);
for (const competitor of ['express.json() + ajv', 'raw-body + JSON.parse + ajv']) {
  console.log(
    `BodyReader.read / ${competitor}: warm ${(warm[competitor]! / warm['BodyReader.read']!).toFixed(2)}x, ` +
      `caches flushed ${((cold[competitor]! - cold['nothing']!) / (cold['BodyReader.read']! - cold['nothing']!)).toFixed(2)}x (target >= 1.0x)`,
  );
}
