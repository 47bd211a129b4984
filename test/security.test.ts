// Regressions for the security issue's reproductions, at the API: each was one request that
// crashed a server or let the next invalid body pass. Broader properties of the same kind are in
// test/isolation*.test.ts and test/parser-agreement*.test.ts.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {compile} from '../src/index.js';
import type {Result, Validator} from '../src/types.js';
import {byteChunks, feed} from './support/chunks.js';

const schema = {
  type: 'object',
  properties: {name: {type: 'string'}, role: {enum: ['user']}, data: {type: 'object'}},
  required: ['name'],
  additionalProperties: false,
};
const admin = '{"name":"x","role":"admin"}';
/** Documents that end inside a nested member, or are broken there. */
const malformed = ['{"role":"user","data":{"n":1,', '{"role":"user","data":{"n":', '{"data":{"n":1}', '{"role":"user","data":[1,', '{"data":{"a":1,"a":2}}', '{"name":"x"}\uFFFD'];
const bytesOf = (text: string) => new TextEncoder().encode(text);
const latin1 = (text: string) => Buffer.from(text, 'latin1');

/** The result without the parsed value, to compare with a fresh validator's. */
function verdictOf({value: _value, ...result}: Result): Result {
  return result;
}

describe('a malformed document leaves nothing behind for the next one', () => {
  const modes: [string, (validator: Validator, text: string) => Result][] = [
    ['validateText', (validator, text) => validator.validateText(text)],
    ['validateText of bytes', (validator, text) => validator.validateText(bytesOf(text))],
    ['parseText', (validator, text) => verdictOf(validator.parseText(text))],
    ['session in 1-byte chunks', (validator, text) => verdictOf(feed(validator, byteChunks(bytesOf(text))))],
  ];
  for (const [mode, judge] of modes) {
    it(`${mode}: the admin body is refused after each malformed body, as by a fresh validator`, () => {
      const shared = compile(schema);
      const expected = judge(compile(schema), admin);
      assert.equal(expected.valid, false);
      for (const before of malformed) {
        assert.doesNotThrow(() => judge(shared, before));
        assert.deepEqual(judge(shared, admin), expected, `after ${JSON.stringify(before)}`);
      }
    });
  }

  it('validate: a value whose getter throws is an input error, and the next value is judged afresh', () => {
    const shared = compile(schema);
    const hostile = {
      name: 'x',
      get data(): never {
        throw new Error('boom');
      },
    };
    const result = shared.validate(hostile);
    assert.equal(result.valid, false);
    assert.equal(result.errors[0]?.params?.code, 'value.unreadable');
    assert.equal(result.errors[0]?.instanceLocation, '/data');
    assert.deepEqual(shared.validate({name: 'x', role: 'admin'}), compile(schema).validate({name: 'x', role: 'admin'}));
  });
});

describe('a byte 0xF8–0xFF that ends a chunk is not dropped', () => {
  const roleSchema = {properties: {role: {enum: ['user']}}};
  it('session: {"role":"us\\xFF then er"} is refused as when written whole', () => {
    const validator = compile(roleSchema);
    const whole = feed(validator, [latin1('{"role":"us\xFFer"}')]);
    assert.equal(whole.valid, false);
    for (let lead = 0xf5; lead <= 0xff; lead++) {
      const result = feed(validator, [latin1(`{"role":"us${String.fromCharCode(lead)}`), latin1('er"}')]);
      assert.equal(result.valid, false, `0x${lead.toString(16)}`);
      assert.equal(result.errors[0]?.keyword, 'enum');
    }
  });

  it('session: {"name":"x"}\\xFF in two chunks is a syntax error, as whole', () => {
    const validator = compile({});
    for (const chunks of [[latin1('{"name":"x"}\xFF')], [latin1('{"name":"x"}'), latin1('\xFF')], byteChunks(latin1('{"name":"x"}\xFF'))]) {
      const result = feed(validator, chunks);
      assert.equal(result.valid, false);
      assert.equal(result.errors[0]?.kind, 'syntax');
    }
  });

  it('session: JSONTestSuite n_array_invalid_utf8 ([ 0xFF ]) is refused in 1- and 2-byte chunks', () => {
    const validator = compile({});
    const bytes = Uint8Array.from([0x5b, 0xff, 0x5d]);
    for (const chunks of [byteChunks(bytes), [bytes.subarray(0, 2), bytes.subarray(2)]]) assert.equal(feed(validator, chunks).valid, false);
  });
});

describe('parseText does not throw when JSON.parse refuses what the checker passed', () => {
  it('answers a syntax error (syntax.parse) instead', () => {
    const validator = compile({type: 'object'});
    const parse = JSON.parse;
    JSON.parse = () => {
      throw new SyntaxError('refused for the test');
    };
    let result: Result;
    try {
      result = validator.parseText('{"a":1}');
    } finally {
      JSON.parse = parse;
    }
    assert.equal(result.valid, false);
    assert.equal(result.value, undefined);
    assert.equal(result.errors[0]?.kind, 'syntax');
    assert.equal(result.errors[0]?.params?.code, 'syntax.parse');
  });
});
