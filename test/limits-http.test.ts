// `limit` bounds a compressed body twice: the bytes read from the connection, and the bytes
// decoded from them. A stream of empty gzip members decodes to nothing however long it is, and a
// bomb decodes to far more than it sends: each is answered 413 once one count passes the limit,
// with the server having read little more than the limit. On Express 5 and Koa 3, over a raw
// socket (counting what the server read) and with fetch's keep-alive pool. And the validator's own
// limit on what a body makes it keep, `uniqueItems`'s, is a 413 too, on Fastify as well.

import assert from 'node:assert/strict';
import type {AddressInfo} from 'node:net';
import {after, before, describe, it} from 'node:test';
import {gzipSync} from 'node:zlib';
import Fastify, {type FastifyInstance} from 'fastify';

import streamSchema from '../adapters/fastify.js';
import {KiB, MiB, rawUpload, type Harness} from './support/http.js';
import {ITEMS_ROUTE, assertFollowUpsAnswered, serving, errorStyles, itemSchema, post, streamOf, streamedInit, warmUp} from './support/servers.js';

const SUITE_TIMEOUT = {timeout: 120_000};

/** The route under test: ITEMS_ROUTE's schema and its 64 KiB limit. */
const LIMIT = 64 * KiB;
const GZIP_ROUTE = {path: '/gzip', schema: itemSchema, options: {limit: LIMIT}};

/** What Node may read past the refusing chunk before the socket is paused: a read or two of 64 KiB, and the head. */
const READ_AHEAD = 192 * KiB;

/** 20 bytes that gunzip to nothing. */
const EMPTY_MEMBER = gzipSync(Buffer.alloc(0));

/** A valid start, then empty gzip members: nothing after the first few bytes ever decodes. */
const emptyMembers = (count: number): Buffer => Buffer.concat(Array.from({length: count}, () => EMPTY_MEMBER));

/** One member of 4 MiB of digits: ~4 KiB sent for each 4 MiB decoded. */
const BOMB_MEMBER = gzipSync(Buffer.alloc(4 * MiB, '0'));

const OPENING = gzipSync('{"name": "');

/** Bytes sent for each test upload: 128 times the limit. */
const UPLOAD = 8 * MiB;

function serverRead(harness: Harness): number {
  return harness.sockets.at(-1)!.bytesRead;
}

// Two apps for the byte counts; the keep-alive checks run on every way of answering an error.
for (const server of errorStyles([ITEMS_ROUTE, GZIP_ROUTE]).filter((style) => style.name.endsWith('problemHandler()'))) {
  describe(`limit counts the bytes as sent and as decoded, ${server.name}`, SUITE_TIMEOUT, () => {
    const served = serving(server.app);

    for (const chunked of [true, false]) {
      const framing = chunked ? 'chunked' : 'with Content-Length';
      it(`a stream of empty gzip members, ${framing}: 413 once the bytes read pass the limit`, async () => {
        const outcome = await rawUpload(served.harness.port, GZIP_ROUTE.path, {
          total: UPLOAD,
          prefix: OPENING,
          suffix: '',
          filler: emptyMembers(800),
          contentLength: !chunked,
          headers: {'Content-Encoding': 'gzip'},
        });
        assert.equal(outcome.status, 413);
        assert.match(outcome.head, /\r\nconnection: close\r\n/i);
        assert.ok(outcome.closedByServer, 'the server closed the connection');
        // With Content-Length the head says it all, before a byte of the body is read.
        const read = serverRead(served.harness);
        assert.ok(read < LIMIT + READ_AHEAD, `the server read ${read} of ${UPLOAD} bytes`);
      });
    }

    it('a gzip bomb (8 MiB sent, 8 GiB inside): 413 once the decoded bytes pass the limit, having read a few KiB', async () => {
      const outcome = await rawUpload(served.harness.port, GZIP_ROUTE.path, {
        total: UPLOAD,
        prefix: OPENING,
        suffix: '',
        filler: BOMB_MEMBER,
        contentLength: false,
        headers: {'Content-Encoding': 'gzip'},
      });
      assert.equal(outcome.status, 413);
      assert.ok(outcome.closedByServer, 'the server closed the connection');
      const read = serverRead(served.harness);
      assert.ok(read < READ_AHEAD, `the server read ${read} bytes`);
    });

    it('a compressed body within the limit both ways is read and decoded', async () => {
      const text = JSON.stringify({name: 'x'.repeat(40 * KiB)});
      const outcome = await rawUpload(served.harness.port, GZIP_ROUTE.path, {
        total: 0,
        prefix: gzipSync(text),
        suffix: '',
        contentLength: false,
        headers: {'Content-Encoding': 'gzip', Connection: 'close'},
      });
      assert.equal(outcome.status, 201);
    });
  });
}

for (const server of errorStyles([ITEMS_ROUTE, GZIP_ROUTE])) {
  describe(`after a 413 for the bytes as sent, ${server.name}`, SUITE_TIMEOUT, () => {
    const served = serving(server.app);

    it("empty gzip members past the limit: 413, Connection: close, and the same fetch client's next requests each get their own answer", async () => {
      await warmUp(served.origin);
      const body = Buffer.concat([OPENING, emptyMembers(MiB / EMPTY_MEMBER.length)]);
      const response = await fetch(served.origin + GZIP_ROUTE.path, streamedInit(streamOf(body), {'content-type': 'application/json', 'content-encoding': 'gzip'}));
      assert.equal(response.status, 413);
      assert.equal(response.headers.get('connection'), 'close');
      await response.arrayBuffer();
      await assertFollowUpsAnswered(served.origin, 'empty gzip members');
    });
  });
}

/** `uniqueItems` keeps a fingerprint per item: past limits.maxUniqueItems the body is too large. */
const TAGS_ROUTE = {path: '/tags', schema: {type: 'array', uniqueItems: true}, options: {limits: {maxUniqueItems: 100}}};
const tags = (count: number): string => JSON.stringify(Array.from({length: count}, (_, i) => `tag ${i}`));

/** 100 items pass and 101 are a 413: what the 413 says. */
async function refusalPastUniqueItemsLimit(origin: string): Promise<string> {
  const within = await post(origin, TAGS_ROUTE.path, tags(100));
  assert.equal(within.status, 201, within.text);
  const past = await post(origin, TAGS_ROUTE.path, tags(101));
  assert.equal(past.status, 413, past.text);
  return past.text;
}

for (const server of errorStyles([TAGS_ROUTE]).filter((style) => style.name.endsWith('problemHandler()'))) {
  describe(`an array past limits.maxUniqueItems, ${server.name}`, SUITE_TIMEOUT, () => {
    const served = serving(server.app);
    it('101 distinct items under maxUniqueItems 100: 413 naming the limit; 100 items pass', async () => {
      assert.match(await refusalPastUniqueItemsLimit(served.origin), /maxUniqueItems \(100\)/);
    });
  });
}

describe('an array past limits.maxUniqueItems, Fastify', SUITE_TIMEOUT, () => {
  let app: FastifyInstance;
  let origin = '';
  before(async () => {
    app = Fastify();
    await app.register(streamSchema, {limits: TAGS_ROUTE.options.limits});
    app.post(TAGS_ROUTE.path, {schema: {body: TAGS_ROUTE.schema}}, async (_request, reply) => reply.code(201).send('stored'));
    await app.listen({port: 0, host: '127.0.0.1'});
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(() => app.close());
  it('101 distinct items under maxUniqueItems 100: 413 (in the shape of Fastify\'s own); 100 items pass', async () => {
    assert.match(await refusalPastUniqueItemsLimit(origin), /FST_ERR_CTP_BODY_TOO_LARGE/);
  });
});
