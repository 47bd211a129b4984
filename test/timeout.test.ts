// `timeout` in the Node middleware's BodyReader: every body's watch is dropped on every way out of
// reading it, and the option is refused unless it is a number of milliseconds. A body that
// stalls or trickles past it, and the connection after the 408, are test/conformance/'s cases.

import assert from 'node:assert/strict';
import {once} from 'node:events';
import {createServer, request, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {after, before, describe, it} from 'node:test';
import {gzipSync} from 'node:zlib';

import {BodyReader, type BodyOptions, type HttpError} from '../adapters/http-body.js';
import {itemSchema, KiB, sleep} from './support/http.js';

const SUITE_TIMEOUT = {timeout: 120_000};

/** The pause between pieces of an upload below. */
const PAUSE = 50;

const OPENING = '{"name": "';

// ---------------------------------------------------------------------------------------------
// No watch outlives its body: the reader watches the body while it is read, and watches nothing
// by the time the outcome is handed over, whichever way reading ended.

const SHORT_IDLE = {idle: 201, total: 60_007};
const SHORT_TOTAL = {idle: 60_011, total: 401};

interface Exit {
  name: string;
  path: string;
  /** The status handed over (the client that hangs up gets none, but the app is handed request.aborted). */
  status: number;
  /** Bodies the reader watched while this one was read (default 1). */
  watched?: number;
  send(port: number, path: string): Promise<unknown>;
}

/**
 * One request over node:http, its body written in `pieces`, `pause` ms apart (chunked, unless
 * `headers` say Content-Length); the client hangs up after the last piece when `hangUp`.
 */
async function upload(port: number, path: string, pieces: Buffer[], options: {headers?: Record<string, string>; pause?: number; hangUp?: boolean} = {}): Promise<void> {
  const req = request({host: '127.0.0.1', port, path, method: 'POST', headers: {'content-type': 'application/json', ...options.headers}, agent: false});
  const done = new Promise<void>((resolve) => {
    req.on('response', (res) => res.resume().on('end', resolve));
    req.on('error', () => resolve());
    req.on('close', () => resolve());
  });
  for (const [index, piece] of pieces.entries()) {
    if (req.destroyed) break;
    if (index > 0) await sleep(options.pause ?? PAUSE);
    req.write(piece);
  }
  if (options.hangUp) {
    // Once the server has the head and the piece.
    await sleep(PAUSE);
    req.destroy();
  } else if (!req.destroyed) req.end();
  await done;
}

const bytes = (value: string): Buffer => Buffer.from(value);
const VALID = bytes('{"name": "a"}');

const EXITS: readonly Exit[] = [
  {name: 'valid, in one chunk (parseText)', path: '/default', status: 200, send: (port, path) => upload(port, path, [VALID], {headers: {'content-length': String(VALID.length)}})},
  {name: 'valid, in pieces (a session)', path: '/default', status: 200, send: (port, path) => upload(port, path, [bytes('{"name"'), bytes(': "a"}')])},
  {name: 'valid, gzip', path: '/default', status: 200, send: (port, path) => upload(port, path, [gzipSync(VALID)], {headers: {'content-encoding': 'gzip'}})},
  {name: '422 at the first bad byte', path: '/default', status: 422, send: (port, path) => upload(port, path, [bytes('{"name": 1'), bytes(', "more": 2}')])},
  {name: '400 for a number out of range', path: '/default', status: 400, send: (port, path) => upload(port, path, [bytes('{"name": "a", "n": 1e400'), bytes('}')])},
  {name: '413 decoded', path: '/default', status: 413, send: (port, path) => upload(port, path, [gzipSync(`{"name": "${'a'.repeat(200 * KiB)}"}`)], {headers: {'content-encoding': 'gzip'}})},
  {name: '413 as sent', path: '/default', status: 413, send: (port, path) => upload(port, path, [Buffer.concat(Array.from({length: 6000}, () => gzipSync('')))], {headers: {'content-encoding': 'gzip'}})},
  {name: '400 for a corrupt gzip body', path: '/default', status: 400, send: (port, path) => upload(port, path, [bytes('not gzip at all')], {headers: {'content-encoding': 'gzip'}})},
  {name: '403 from verify', path: '/verified', status: 403, send: (port, path) => upload(port, path, [VALID])},
  {name: 'the client hung up', path: '/default', status: 400, send: (port, path) => upload(port, path, [bytes('{"name"')], {hangUp: true})},
  {name: '408, idle', path: '/short-idle', status: 408, send: (port, path) => upload(port, path, [bytes(OPENING), bytes('"}')], {pause: 4 * SHORT_IDLE.idle})},
  {name: '408, total', path: '/short-total', status: 408, send: (port, path) => upload(port, path, Array.from({length: 20}, (_, index) => bytes(index === 0 ? OPENING : 'x')))},
  {name: 'both bounds 0: not watched', path: '/unbounded', status: 200, watched: 0, send: (port, path) => upload(port, path, [bytes('{"name"'), bytes(': "a"}')])},
];

describe('the watch of a body', SUITE_TIMEOUT, () => {
  let server: Server;
  let port: number;
  const handedOver: Array<{path: string; status: number; watched: number; left: number}> = [];

  before(async () => {
    const refuse = (): void => {
      throw Object.assign(new Error('bad signature'), {status: 403});
    };
    const readers: Record<string, BodyReader> = {
      '/default': new BodyReader(itemSchema),
      '/verified': new BodyReader(itemSchema, {verify: refuse}),
      '/short-idle': new BodyReader(itemSchema, {timeout: SHORT_IDLE}),
      '/short-total': new BodyReader(itemSchema, {timeout: SHORT_TOTAL}),
      '/unbounded': new BodyReader(itemSchema, {timeout: {idle: 0, total: 0}}),
    };
    server = createServer((req, res) => {
      const reader = readers[req.url!]!;
      let watched = 0;
      reader.read(req, res, (error: HttpError | null) => {
        handedOver.push({path: req.url!, status: error?.status ?? 200, watched, left: reader.watching});
        res.writeHead(error?.status ?? 200, {...error?.headers}).end();
      });
      // Every outcome below comes after reading began, so after `read` returns.
      watched = reader.watching;
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('by default, idle 10 s and total 30 s', () => {
    assert.deepEqual(new BodyReader(itemSchema).timeout, {idle: 10_000, total: 30_000});
  });

  for (const exit of EXITS) {
    it(`${exit.name}: the watch is dropped by the hand-over`, async () => {
      handedOver.length = 0;
      await exit.send(port, exit.path);
      // A hang-up reaches the server a moment after the client's close.
      for (let waited = 0; handedOver.length === 0 && waited < 2000; waited += 10) await sleep(10);
      assert.deepEqual(handedOver, [{path: exit.path, status: exit.status, watched: exit.watched ?? 1, left: 0}]);
    });
  }
});

describe('timeout option', () => {
  it('refuses what is not a number of milliseconds setTimeout can wait', () => {
    for (const timeout of [{idle: -1}, {total: Number.NaN}, {idle: 2 ** 31}, {total: Infinity}, {idle: '10s'}, 5000, null]) {
      assert.throws(() => new BodyReader(itemSchema, {timeout} as BodyOptions), TypeError, JSON.stringify(timeout));
    }
  });
});
