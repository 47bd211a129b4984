// Decoding is exact at every chunk boundary: random bytes rich in what is not UTF-8 (lead bytes
// 0xC0–0xFF, lone continuation bytes, truncated sequences, overlongs, surrogates, code points past
// U+10FFFF), cut anywhere, decode to what `new TextDecoder().decode` (WHATWG UTF-8, replacement)
// makes of the whole, and so get the whole's Result.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import fc from 'fast-check';

import {NdjsonRecordReader, type NdjsonRecord} from '../adapters/ndjson-lines.js';
import {compile} from '../src/index.js';
import type {Result, Validator} from '../src/types.js';
import {referenceOfBytes} from './fixtures/jsontestsuite/cases.js';
import {byteChunks, byteOfPosition} from './support/chunks.js';
import {property} from './support/property.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

const continuation = fc.integer({min: 0x80, max: 0xbf});
const bytesOf = (...parts: fc.Arbitrary<number>[]): fc.Arbitrary<number[]> => fc.tuple(...parts);

/** One piece of a byte string: valid UTF-8 now and then, mostly what is not. */
const piece: fc.Arbitrary<number[]> = fc.oneof(
  // ASCII a JSON string may hold as it is (no quote, backslash or control character).
  fc.integer({min: 0x20, max: 0x7e}).filter((byte) => byte !== 0x22 && byte !== 0x5c).map((byte) => [byte]),
  // Valid characters of two, three and four bytes.
  fc.integer({min: 0x80, max: 0x10ffff}).filter((code) => code < 0xd800 || code > 0xdfff).map((code) => [...encoder.encode(String.fromCodePoint(code))]),
  continuation.map((byte) => [byte]),
  // A lead byte with too few continuation bytes, or none.
  fc.tuple(fc.integer({min: 0xc2, max: 0xf4}), fc.array(continuation, {maxLength: 2})).map(([lead, rest]) => [lead, ...rest]),
  // Bytes that start nothing: 0xC0, 0xC1 (overlong only) and 0xF5–0xFF, with continuation bytes after.
  fc.tuple(fc.constantFrom(0xc0, 0xc1, 0xf5, 0xf8, 0xfc, 0xfe, 0xff), fc.array(continuation, {maxLength: 5})).map(([lead, rest]) => [lead, ...rest]),
  // Overlong three- and four-byte forms.
  bytesOf(fc.constant(0xe0), fc.integer({min: 0x80, max: 0x9f}), continuation),
  bytesOf(fc.constant(0xf0), fc.integer({min: 0x80, max: 0x8f}), continuation, continuation),
  // UTF-16 surrogates encoded as UTF-8 (CESU-8), alone and paired.
  bytesOf(fc.constant(0xed), fc.integer({min: 0xa0, max: 0xbf}), continuation),
  bytesOf(fc.constant(0xed), fc.integer({min: 0xa0, max: 0xaf}), continuation, fc.constant(0xed), fc.integer({min: 0xb0, max: 0xbf}), continuation),
  // Past U+10FFFF.
  bytesOf(fc.constant(0xf4), fc.integer({min: 0x90, max: 0xbf}), continuation, continuation),
);

const payload = fc.array(piece, {maxLength: 12}).map((pieces) => Uint8Array.from(pieces.flat()));

/** Pieces of JSON around the bytes, so raw documents are sometimes well-formed and often not. */
const structural = fc.constantFrom(...['[', ']', '{', '}', '"', ',', ':', ' ', '1', '-0.5e2', 'true', 'null', '"a"', '\\', '\\u00e9'].map((text) => [...encoder.encode(text)]));
const rawDocument = fc.array(fc.oneof(piece, structural, structural), {maxLength: 16}).map((pieces) => Uint8Array.from(pieces.flat()));

/** Where to cut: sorted positions within `length`. */
const cuts = fc.array(fc.nat(), {maxLength: 6});

function cutAt(bytes: Uint8Array, positions: readonly number[]): Uint8Array[] {
  const points = [...new Set(positions.map((position) => position % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(from, point));
    from = point;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

function fed(validator: Validator, chunks: readonly Uint8Array[], parse = false): Result {
  const session = validator.session({parse});
  for (const chunk of chunks) session.write(chunk);
  return session.end();
}

function withoutValue({value: _value, ...result}: Result): Result {
  return result;
}

/** Every way of cutting `bytes` this property tries: the random cuts, every single cut, 1-byte chunks. */
function chunkings(bytes: Uint8Array, positions: readonly number[]): Uint8Array[][] {
  const every = Array.from({length: bytes.length + 1}, (_, at) => [bytes.subarray(0, at), bytes.subarray(at)]);
  return [cutAt(bytes, positions), byteChunks(bytes), ...every];
}

const wrap = (bytes: Uint8Array): Uint8Array => Uint8Array.from([...encoder.encode('["'), ...bytes, ...encoder.encode('"]')]);

describe('decoding is exact at every chunk boundary', () => {
  const anything = compile({});

  it('a string of such bytes, cut anywhere, has the value TextDecoder gives the whole', () => {
    fc.assert(
      fc.property(payload, cuts, (bytes, positions) => {
        const document = wrap(bytes);
        const expected = decoder.decode(bytes);
        const whole = anything.validateText(document);
        assert.deepEqual(whole, {valid: true, errors: []});
        assert.deepEqual(anything.parseText(document).value, [expected]);
        for (const chunks of chunkings(document, positions)) {
          assert.deepEqual(fed(anything, chunks), whole);
          const parsed = fed(anything, chunks, true);
          assert.deepEqual(withoutValue(parsed), whole);
          assert.deepEqual(parsed.value, [expected]);
        }
      }),
      property(150),
    );
  });

  it('a schema judges that value: const of the decoded text passes and the same text minus a character fails', () => {
    fc.assert(
      fc.property(payload.filter((bytes) => bytes.length > 0), cuts, (bytes, positions) => {
        const document = wrap(bytes);
        const expected = decoder.decode(bytes);
        const exact = compile({prefixItems: [{const: expected}], items: false});
        const shorter = compile({prefixItems: [{const: [...expected].slice(0, -1).join('')}]});
        for (const chunks of [cutAt(document, positions), byteChunks(document)]) {
          assert.equal(fed(exact, chunks).valid, true);
          assert.equal(fed(shorter, chunks).valid, false);
        }
      }),
      property(100),
    );
  });

  it('raw documents of such bytes, cut anywhere, get the Result of the whole, and JSON.parse\'s verdict', () => {
    fc.assert(
      fc.property(rawDocument, cuts, (document, positions) => {
        const whole = anything.validateText(document);
        const expected = referenceOfBytes(document);
        assert.equal(whole.valid, expected.valid);
        assert.deepEqual(withoutValue(anything.parseText(document)), whole);
        for (const chunks of chunkings(document, positions)) assert.deepEqual(fed(anything, chunks), whole);
        const parsed = fed(anything, cutAt(document, positions), true);
        if (parsed.valid) assert.deepEqual(parsed.value, expected.value);
      }),
      property(200),
    );
  });
});

describe('byte offsets are those of the bytes as sent, each malformed sequence its own length', () => {
  // Strings and numbers where the schema wants neither: schema errors besides syntax errors, each with its position.
  const picky = compile({items: {type: 'boolean'}, additionalProperties: {type: 'boolean'}});

  /** Every error's offset is the byte its line and column point at. */
  function assertPlaced(result: Result, bytes: Uint8Array, label: string): void {
    for (const unit of result.errors) {
      if (unit.offset === undefined) continue;
      assert.equal(unit.offset, byteOfPosition(bytes, unit.line!, unit.column!), `${label}: ${unit.error}`);
    }
  }

  it('validateText, parseText and sessions cut anywhere', () => {
    fc.assert(
      fc.property(rawDocument, cuts, (document, positions) => {
        assertPlaced(picky.validateText(document), document, 'validateText');
        assertPlaced(picky.parseText(document), document, 'parseText');
        for (const chunks of chunkings(document, positions)) assertPlaced(fed(picky, chunks), document, `${chunks.length} chunks`);
      }),
      property(150),
    );
  });

  it('NDJSON records, each error within its line, in any chunking', () => {
    // A raw document holds no line feed: each is one record.
    fc.assert(
      fc.property(fc.array(rawDocument, {minLength: 1, maxLength: 4}), cuts, (documents, positions) => {
        const input = Uint8Array.from(documents.flatMap((document) => [...document, 0x0a]));
        for (const chunks of [cutAt(input, positions), byteChunks(input), [input]]) {
          const records: NdjsonRecord[] = [];
          const reader = new NdjsonRecordReader(picky, {}, (record) => records.push(record));
          for (const chunk of chunks) reader.write(chunk);
          reader.end();
          for (const record of records) assertPlaced(record, documents[record.line - 1]!, `line ${record.line} in ${chunks.length} chunks`);
        }
      }),
      property(100),
    );
  });
});
