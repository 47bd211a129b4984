// Decoding bytes that are not UTF-8, at chunk boundaries: the text a session validates is the text
// the whole bytes decode to (WHATWG UTF-8 decode, each invalid sequence one U+FFFD), so the schema
// judges what JSON.parse of the body will hold. Random bytes: test/decoding-property.test.ts.

import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';


import {jsonValidator} from '../adapters/stream.js';
import {compile} from '../src/index.js';
import {expressRoute, koaRoute} from './support/apps.js';
import {byteChunks} from './support/chunks.js';
import {listen, slowUpload, type Harness} from './support/http.js';

const roleSchema = {type: 'object', properties: {role: {enum: ['user']}}} as const;

/**
 * `{"role":"us` + a byte 0xF8–0xFF + up to two continuation bytes, then `er"}`: the first
 * chunk ends inside what can never be a character. WHATWG decodes each of those bytes to U+FFFD,
 * so the role is not "user".
 */
function splitRoles(): {label: string; chunks: [Buffer, Buffer]; role: string}[] {
  const cases = [];
  for (let lead = 0xf8; lead <= 0xff; lead++) {
    for (const continuation of [[], [0x80], [0xbf, 0x80]]) {
      const tail = [lead, ...continuation];
      cases.push({
        label: tail.map((byte) => byte.toString(16).toUpperCase()).join(' '),
        chunks: [Buffer.from([...Buffer.from('{"role":"us'), ...tail]), Buffer.from('er"}')] as [Buffer, Buffer],
        role: `us${'\ufffd'.repeat(tail.length)}er`,
      });
    }
  }
  return cases;
}

describe('a byte 0xF8–0xFF ending a chunk is not dropped', () => {
  const validator = compile(roleSchema);
  const anything = compile({});

  it('session.write: the enum sees the replacement character', () => {
    for (const {label, chunks} of splitRoles()) {
      const session = validator.session();
      for (const chunk of chunks) session.write(chunk);
      const result = session.end();
      assert.equal(result.valid, false, label);
      assert.deepEqual(
        result.errors.map((unit) => [unit.keyword, unit.instanceLocation]),
        [['enum', '/role']],
        label,
      );
      assert.deepEqual(result, validator.validateText(Buffer.concat(chunks)), `${label}: as the whole bytes`);
    }
  });

  it('a parse-mode session gives the value JSON.parse gives the decoded bytes', () => {
    for (const {label, chunks, role} of splitRoles()) {
      const session = anything.session({parse: true});
      for (const chunk of chunks) session.write(chunk);
      assert.deepEqual(session.end().value, {role}, label);
    }
  });

  it('a byte 0xFF alone in its chunk, as n_array_invalid_utf8 in 1-byte chunks, is malformed JSON', () => {
    const session = anything.session();
    for (const chunk of byteChunks(Buffer.from([0x5b, 0xff, 0x5d]))) session.write(chunk);
    const result = session.end();
    assert.equal(result.valid, false);
    assert.equal(result.errors[0]?.kind, 'syntax');
  });

  it('jsonValidator (stream-schema/stream)', async () => {
    for (const {label, chunks} of splitRoles()) {
      const stream = jsonValidator(roleSchema);
      for (const chunk of chunks) stream.write(chunk);
      stream.end();
      const result = await stream.result;
      assert.equal(result.valid, false, label);
      assert.equal(result.errors[0]?.keyword, 'enum', label);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Over HTTP: the body in two TCP writes, the first ending in the byte

/** Posts the two chunks as two chunk frames, each its own TCP write 20 ms apart; the status and body. */
async function postInWrites(port: number, [first, second]: readonly [Buffer, Buffer]): Promise<{status: number; body: string}> {
  // slowUpload cuts every `size` bytes: the first chunk is the longer, so the cut falls after it.
  const response = await slowUpload(port, '/roles', Buffer.concat([first, second]), first.length, 20);
  return {status: Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0), body: response.slice(response.indexOf('\r\n\r\n') + 4)};
}

/** The route echoes the body it was given, so a test sees what its handler would. */
const echo = (body: unknown) => ({status: 200, body: JSON.stringify(body)});
const expressApp = () => expressRoute('/roles', roleSchema, {}, echo);
const koaApp = () => koaRoute('/roles', roleSchema, {}, echo);

for (const [framework, makeApp] of [
  ['Express', expressApp],
  ['Koa', koaApp],
] as const) {
  describe(`${framework}: a byte 0xF8–0xFF ending a TCP write is not dropped`, () => {
    let harness: Harness;
    before(async () => {
      harness = await listen(makeApp());
    });
    after(() => harness.server.close());

    it('{"role":"us\\xFF then er"} answers 422 on an enum ["user"] route (and each byte 0xF8–0xFF)', async () => {
      for (const {label, chunks} of splitRoles()) {
        const answer = await postInWrites(harness.port, chunks);
        assert.equal(answer.status, 422, `${label}: ${answer.body}`);
        assert.equal((JSON.parse(answer.body) as {code?: string}).code, 'entity.validation.failed', label);
      }
    });

    it('"user" in the same two writes passes, so the route is the one tested', async () => {
      const answer = await postInWrites(harness.port, [Buffer.from('{"role":"us'), Buffer.from('er"}')]);
      assert.equal(answer.status, 200, answer.body);
      assert.deepEqual(JSON.parse(answer.body), {role: 'user'});
    });
  });
}
