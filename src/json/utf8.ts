// One document's bytes, chunk by chunk, as the exact text of the whole: a chunk boundary never
// changes what a byte decodes to. Malformed sequences become U+FFFD as the WHATWG Encoding
// Standard's UTF-8 decoder says (§4.3, "replacement"), which is what `new TextDecoder()`,
// `Buffer#toString` and `JSON.parse` of either see; any other text would let the verdict and the
// value a second parser makes disagree.

import {StringDecoder} from 'node:string_decoder';

const NO_BYTES = Buffer.alloc(0);

/** UTF-8 bytes as text, whole: malformed or incomplete sequences become U+FFFD, as a ChunkDecoder makes them. */
export function decodeUtf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** A UTF-8 byte that continues a character (10xxxxxx). */
function isContinuationByte(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/**
 * How many bytes at the end of `bytes` a later chunk may still change the decoding of (0 to 3):
 * the start of a character that is not complete yet. A byte that can never start a character
 * (0xF5–0xFF) counts too: the StringDecoder that takes the tail over decides it, exactly.
 */
function openTail(bytes: Buffer): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back]!;
    if (isContinuationByte(byte)) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0;
}

/**
 * Decodes one document's chunks, a slice at a time (so that a chunk whose first bytes decide the
 * verdict is not decoded whole): `start(chunk)`, then `next()` until it returns undefined.
 *
 * Until a chunk ends inside a character, slices are decoded on their own with `Buffer#toString`:
 * a StringDecoder costs ~1 us to make, as much as validating a small document. A slice is only
 * ever cut before a byte that is not a continuation byte, where the decoder resynchronises
 * whatever came before (WHATWG §4.3: such a byte ends any sequence in progress and is read
 * afresh), so the slices' texts add up to the whole's. From the first chunk that ends inside a
 * character on, a StringDecoder carries the open bytes across chunks; it is exact at any cut.
 */
export class ChunkDecoder {
  private decoder: StringDecoder | undefined;
  private bytes: Buffer = NO_BYTES;
  private at = 0;
  /** Where the bytes `Buffer#toString` may decode end; the rest goes to a StringDecoder. */
  private complete = 0;

  constructor(private readonly slice: number) {}

  /** The next chunk: its text comes from `next()`. */
  start(chunk: Uint8Array): void {
    this.bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.at = 0;
    this.complete = this.decoder === undefined ? this.bytes.length - openTail(this.bytes) : 0;
  }

  /** The text of the next slice of the chunk (possibly empty), or undefined once it is all decoded. */
  next(): string | undefined {
    const {bytes, at} = this;
    if (at >= bytes.length) return undefined;
    if (at < this.complete) {
      let end = Math.min(at + this.slice, this.complete);
      while (end < this.complete && isContinuationByte(bytes[end]!)) end++;
      this.at = end;
      return bytes.toString('utf8', at, end);
    }
    this.decoder ??= new StringDecoder('utf8');
    const end = Math.min(at + this.slice, bytes.length);
    this.at = end;
    return this.decoder.write(bytes.subarray(at, end));
  }

  /**
   * The text of the bytes still held at the end of the input (an unfinished character: U+FFFD),
   * or before text written as a string, which follows them.
   */
  flush(): string {
    this.bytes = NO_BYTES;
    this.at = 0;
    return this.decoder?.end() ?? '';
  }
}
