// Connections after an early refusal, on Express 5 and Koa 3 with each common way of answering
// an error: when validateBody stops reading a body, the unread rest stays on the socket, so that
// response must close the connection whoever writes it. Checked with fetch's keep-alive pool
// (the next requests of the same client must each get their own answer) and with a raw socket
// (the answer says `Connection: close` and the server closes).

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {KiB, MiB, rawUpload} from './support/http.js';
import {ITEMS_ROUTE, assertFollowUpsAnswered, serving, errorStyles, itemSchema, streamOf, streamedInit, warmUp} from './support/servers.js';

const SUITE_TIMEOUT = {timeout: 120_000};

/** `/uploads` takes 8 MiB, so its refusals come from the content; `/items` takes 64 KiB. */
const UPLOADS_ROUTE = {path: '/uploads', schema: itemSchema, options: {limit: '8mb'}};

/** Big enough that the refusal comes while most of it is still unsent or unread. */
const BIG = MiB;
const SMALL = 4 * KiB;

interface Refusal {
  name: string;
  status: number;
  path: string;
  contentType: string;
  /** Body text: `prefix`, then `x` filler up to `size` bytes, then `suffix`. */
  size: number;
  prefix: string;
  suffix: string;
  /** Sent without Content-Length (Transfer-Encoding: chunked), so the server learns its size only while reading. */
  chunked: boolean;
}

const REFUSALS: readonly Refusal[] = [
  {name: '413 announced by Content-Length', size: BIG, status: 413, path: '/items', contentType: 'application/json', prefix: '{"name": "', suffix: '"}', chunked: false},
  {name: '413 once the limit is crossed', size: BIG, status: 413, path: '/items', contentType: 'application/json', prefix: '{"name": "', suffix: '"}', chunked: true},
  // Refused from its head and small: read and discarded, and the connection kept (SMALL is under DISCARD_LIMIT).
  {name: '415 for another media type, a small body', size: SMALL, status: 415, path: '/items', contentType: 'text/plain', prefix: '{"name": "', suffix: '"}', chunked: false},
  {name: '415 for another media type', size: BIG, status: 415, path: '/items', contentType: 'text/plain', prefix: '{"name": "', suffix: '"}', chunked: false},
  {name: '415 for a non-UTF-8 charset', size: BIG, status: 415, path: '/items', contentType: 'application/json; charset=latin1', prefix: '{"name": "', suffix: '"}', chunked: true},
  {name: '422 midway', size: BIG, status: 422, path: '/uploads', contentType: 'application/json', prefix: '{"forbidden": "', suffix: '"}', chunked: false},
  {name: '422 midway, chunked', size: BIG, status: 422, path: '/uploads', contentType: 'application/json', prefix: '{"forbidden": "', suffix: '"}', chunked: true},
  {name: '400 midway', size: BIG, status: 400, path: '/uploads', contentType: 'application/json', prefix: '{"name" "', suffix: '"}', chunked: false},
  {name: '400 midway, chunked', size: BIG, status: 400, path: '/uploads', contentType: 'application/json', prefix: '{"name" "', suffix: '"}', chunked: true},
];

function bodyOf(refusal: Refusal): Buffer {
  const filler = refusal.size - refusal.prefix.length - refusal.suffix.length;
  return Buffer.concat([Buffer.from(refusal.prefix), Buffer.alloc(filler, 'x'), Buffer.from(refusal.suffix)]);
}

const SERVERS = errorStyles([ITEMS_ROUTE, UPLOADS_ROUTE]);

for (const server of SERVERS) {
  describe(`after an early refusal, ${server.name}`, SUITE_TIMEOUT, () => {
    const served = serving(server.app);

    for (const refusal of REFUSALS) {
      it(`${refusal.name}: the same fetch client's next requests each get their own answer`, async () => {
        await warmUp(served.origin);
        const body = bodyOf(refusal);
        const init = streamedInit(refusal.chunked ? streamOf(body) : new Uint8Array(body), {'content-type': refusal.contentType});
        const response = await fetch(served.origin + refusal.path, init);
        assert.equal(response.status, refusal.status);
        assert.equal(response.headers.get('connection'), refusal.size === BIG ? 'close' : 'keep-alive');
        await response.arrayBuffer();
        await assertFollowUpsAnswered(served.origin, refusal.name);
      });

      if (refusal.size !== BIG) continue;
      it(`${refusal.name}: over a raw socket, the answer says Connection: close and the server closes`, async () => {
        const outcome = await rawUpload(served.harness.port, refusal.path, {
          total: refusal.size,
          prefix: refusal.prefix,
          suffix: refusal.suffix,
          contentLength: !refusal.chunked,
          contentType: refusal.contentType,
        });
        assert.equal(outcome.status, refusal.status);
        assert.match(outcome.head, /\r\nconnection: close\r\n/i);
        assert.ok(outcome.closedByServer, 'the server closed the connection');
      });
    }
  });
}
