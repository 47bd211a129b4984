// src/json/utf8.ts: a document's bytes decode to the same text however they are cut into chunks.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import fc from 'fast-check';
import {ChunkDecoder, replacementsIn} from '../src/json/utf8.js';
import {byteOfUnit} from './support/chunks.js';
import {property} from './support/property.js';

/** The text a ChunkDecoder (slices of `slice` bytes) makes of `bytes` cut at `cuts`. */
function decodeInChunks(bytes: Uint8Array, cuts: readonly number[], slice: number): string {
  const decoder = new ChunkDecoder(slice);
  let text = '';
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    decoder.start(bytes.subarray(from, cut));
    for (let piece = decoder.next(); piece !== undefined; piece = decoder.next()) text += piece;
    from = cut;
  }
  return text + decoder.flush();
}

const whole = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** Bytes rich in what UTF-8 decoders disagree on: lead bytes of every length, stray and missing continuations, overlongs, surrogates, bytes that never occur. */
const hostileByte = fc.oneof(
  fc.constantFrom(0x22, 0x41, 0x5c, 0x7f),
  fc.constantFrom(0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf),
  fc.constantFrom(0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xf7, 0xf8, 0xfb, 0xfc, 0xfe, 0xff),
  fc.integer({min: 0, max: 255}),
);
const hostileBytes = fc.array(hostileByte, {maxLength: 24}).map((values) => Uint8Array.from(values));

describe('ChunkDecoder', () => {
  it('decodes bytes cut at every single point as the whole', () => {
    fc.assert(
      fc.property(hostileBytes, fc.integer({min: 1, max: 6}), (bytes, slice) => {
        for (let cut = 0; cut <= bytes.length; cut++) assert.equal(decodeInChunks(bytes, [cut], slice), whole(bytes));
      }),
      property(2000),
    );
  });

  it('decodes bytes in any chunking, 1-byte chunks included, as the whole', () => {
    fc.assert(
      fc.property(hostileBytes, fc.array(fc.nat(), {maxLength: 8}), fc.integer({min: 1, max: 6}), (bytes, marks, slice) => {
        const cuts = [...new Set(marks.map((mark) => mark % (bytes.length + 1)))].sort((a, b) => a - b);
        assert.equal(decodeInChunks(bytes, cuts, slice), whole(bytes));
        const everyByte = Array.from({length: Math.max(0, bytes.length - 1)}, (_, index) => index + 1);
        assert.equal(decodeInChunks(bytes, everyByte, slice), whole(bytes));
      }),
      property(2000),
    );
  });

  it('does not drop a byte 0xF5–0xFF that ends a chunk, alone or with continuation bytes', () => {
    for (let lead = 0xf5; lead <= 0xff; lead++) {
      for (const tail of [[], [0x80], [0x80, 0xbf]]) {
        const bytes = Uint8Array.from([0x61, lead, ...tail, 0x62]);
        const cut = bytes.length - 1;
        assert.equal(decodeInChunks(bytes, [cut], 8192), whole(bytes), `0x${lead.toString(16)} with ${tail.length} continuation bytes`);
      }
    }
  });

  it('does not split a character when a slice ends in a long run of continuation bytes', () => {
    // A 4-byte character followed by more stray continuation bytes than a slice holds.
    const bytes = Uint8Array.from([0xf0, 0x90, 0x80, 0x80, ...new Array(40).fill(0x80), 0x41]);
    for (const slice of [1, 2, 3, 8, 16]) assert.equal(decodeInChunks(bytes, [], slice), whole(bytes), `slices of ${slice}`);
  });

  it('ends an unfinished character as U+FFFD before text written as a string', () => {
    const decoder = new ChunkDecoder(8192);
    decoder.start(Uint8Array.from([0x61, 0xe2, 0x82]));
    let text = '';
    for (let piece = decoder.next(); piece !== undefined; piece = decoder.next()) text += piece;
    assert.equal(text + decoder.flush(), 'a\uFFFD');
  });
});

describe('Replacements: byte offsets of a text decoded from bytes', () => {
  it('replacementsIn: every character of the text is at the byte it was decoded from', () => {
    fc.assert(
      fc.property(hostileBytes, (bytes) => {
        // As Buffer#toString decodes it: a leading BOM kept.
        const text = Buffer.from(bytes).toString('utf8');
        const replacements = replacementsIn(bytes, 0, bytes.length, text);
        for (let unit = 0; unit <= text.length; unit++) {
          // The low half of a surrogate pair begins no character.
          if (unit > 0 && /[\uD800-\uDBFF]/u.test(text[unit - 1]!) && /[\uDC00-\uDFFF]/u.test(text[unit] ?? '')) continue;
          const offset = Buffer.byteLength(text.slice(0, unit)) - (replacements?.addedBefore(unit) ?? 0);
          assert.equal(offset, byteOfUnit(bytes, unit), `code unit ${unit} of ${JSON.stringify(text)}`);
        }
      }),
      property(1000),
    );
  });

  it('a ChunkDecoder says which bytes each text came from, in any chunking, and how long it truly is', () => {
    fc.assert(
      fc.property(hostileBytes, fc.array(fc.nat(), {maxLength: 8}), fc.integer({min: 1, max: 6}), (bytes, marks, slice) => {
        const cuts = [...new Set(marks.map((mark) => mark % (bytes.length + 1)))].sort((a, b) => a - b);
        const decoder = new ChunkDecoder(slice);
        const sources: number[] = [];
        const check = (text: string): void => {
          const source = decoder.textBytes();
          assert.equal(text, whole(source));
          assert.equal(Buffer.byteLength(text) - (decoder.replacements?.total ?? 0), source.length, JSON.stringify(text));
          sources.push(...source);
        };
        let from = 0;
        for (const cut of [...cuts, bytes.length]) {
          decoder.start(bytes.subarray(from, cut));
          for (let text = decoder.next(); text !== undefined; text = decoder.next()) check(text);
          from = cut;
        }
        const rest = decoder.flush();
        if (rest !== '') check(rest);
        assert.deepEqual(sources, [...bytes]);
      }),
      property(2000),
    );
  });
});
