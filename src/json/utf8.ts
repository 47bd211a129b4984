// One document's bytes, chunk by chunk, as the exact text of the whole: a chunk boundary never
// changes what a byte decodes to. Malformed sequences become U+FFFD as the WHATWG Encoding
// Standard's UTF-8 decoder says (§4.3, "replacement"), which is what `new TextDecoder()`,
// `Buffer#toString` and `JSON.parse` of either see; any other text would let the verdict and the
// value a second parser makes disagree. Byte offsets stay those of the bytes as sent: a text says
// where its U+FFFDs stand for fewer bytes than their own three (Replacements).

const NO_BYTES = Buffer.alloc(0);
const REPLACEMENT_CHARACTER = '\ufffd';

/** UTF-8 bytes as text, whole: malformed or incomplete sequences become U+FFFD, as a ChunkDecoder makes them. */
export function decodeUtf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** A UTF-8 byte that continues a character (10xxxxxx). */
function isContinuationByte(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** The bytes a sequence whose first byte is `lead` would take: what openTail holds back for. */
function intendedLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/**
 * How many bytes at the end of `bytes` a later chunk may still change the decoding of (0 to 3):
 * the start of a character that is not complete yet. A byte that can never start a character
 * (0xF5–0xFF) counts too: it is decoded with the bytes after it, which changes nothing.
 */
function openTail(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back]!;
    if (isContinuationByte(byte)) continue;
    return intendedLength(byte) > back ? back : 0;
  }
  return 0;
}

/**
 * The bytes of the character at `at` (1 to 4), or minus the bytes of the malformed sequence there
 * (1 to 3), which decodes to one U+FFFD: WHATWG Encoding §4.3, the UTF-8 decoder, whose bounds on
 * the second byte refuse overlong forms, surrogates and code points past U+10FFFF. `end` ends the
 * input: a sequence it cuts is malformed.
 */
function sequenceAt(bytes: Uint8Array, at: number, end: number): number {
  const lead = bytes[at]!;
  if (lead < 0x80) return 1;
  let needed: number;
  let lower = 0x80;
  let upper = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) needed = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    needed = 2;
    if (lead === 0xe0) lower = 0xa0;
    else if (lead === 0xed) upper = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    needed = 3;
    if (lead === 0xf0) lower = 0x90;
    else if (lead === 0xf4) upper = 0x8f;
  } else return -1;
  let next = at + 1;
  for (let seen = 0; seen < needed; seen++, next++) {
    const byte = next < end ? bytes[next]! : -1;
    if (byte < lower || byte > upper) return at - next;
    lower = 0x80;
    upper = 0xbf;
  }
  return next - at;
}

/**
 * Where a text decoded from bytes stands for fewer bytes than its own UTF-8: each U+FFFD that
 * replaced a malformed sequence of one or two bytes is three bytes in the text. A byte offset
 * counted in the text is taken back by what the replacements before it added.
 */
export class Replacements {
  /** The text's code units at which such a U+FFFD stands, ascending. */
  private readonly units: number[] = [];
  /** Bytes added by the replacements up to each, included. */
  private readonly added: number[] = [];

  add(unit: number, added: number): void {
    this.units.push(unit);
    this.added.push(this.total + added);
  }

  /** Bytes added by the whole text's replacements. */
  get total(): number {
    const added = this.added;
    return added.length === 0 ? 0 : added[added.length - 1]!;
  }

  /** Bytes added by the replacements before code unit `unit` of the text. */
  addedBefore(unit: number): number {
    const units = this.units;
    let low = 0;
    let high = units.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (units[middle]! < unit) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? 0 : this.added[low - 1]!;
  }
}

/**
 * The replacements of `text`, which `bytes` from `from` to `to` decode to whole, or null where it
 * is exactly as long in UTF-8 as they are (always, unless the bytes hold a malformed sequence).
 */
export function replacementsIn(bytes: Uint8Array, from: number, to: number, text: string): Replacements | null {
  // Only a text with U+FFFD can have one; V8 answers this at once for a one-byte string.
  if (!text.includes(REPLACEMENT_CHARACTER)) return null;
  let found: Replacements | null = null;
  let unit = 0;
  for (let at = from; at < to; ) {
    const length = sequenceAt(bytes, at, to);
    if (length > 0) {
      at += length;
      unit += length === 4 ? 2 : 1;
      continue;
    }
    at -= length;
    if (length > -3) (found ??= new Replacements()).add(unit, 3 + length);
    unit++;
  }
  return found;
}

/**
 * Decodes one document's chunks, a slice at a time (so that a chunk whose first bytes decide the
 * verdict is not decoded whole): `start(chunk)`, then `next()` until it returns undefined.
 *
 * Slices are decoded on their own with `Buffer#toString`, and each ends before a byte that is not
 * a continuation byte, where the decoder resynchronises whatever came before (WHATWG §4.3: such a
 * byte ends any sequence in progress and is read afresh), so the slices' texts add up to the
 * whole's. A character the chunk ends in is held (at most 3 bytes) and decoded with the next
 * chunk's continuation bytes, as many as it takes: past those the decoder is afresh again,
 * whether they completed it or not. So each text is the exact decoding of bytes known here, and
 * `replacements` says where it stands for fewer bytes than it is long.
 */
export class ChunkDecoder {
  private bytes: Buffer = NO_BYTES;
  private at = 0;
  /** Where the chunk's bytes that decode without the next chunk end. */
  private complete = 0;
  /** The start of a character the chunks so far ended in; made when first needed. */
  private held: Buffer = NO_BYTES;
  private heldLength = 0;
  /** The replacements in the text `next()` or `flush()` returned last (see Replacements). */
  replacements: Replacements | null = null;
  /** Where the bytes of that text are: valid until the next call. */
  private decoded: Buffer = NO_BYTES;
  private decodedFrom = 0;
  private decodedTo = 0;

  constructor(private readonly slice: number) {}

  /** The next chunk: its text comes from `next()`. */
  start(chunk: Uint8Array): void {
    this.bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.at = 0;
    this.complete = this.bytes.length - openTail(this.bytes);
  }

  /** The text of the next slice of the chunk (possibly empty), or undefined once it is all decoded or held. */
  next(): string | undefined {
    if (this.heldLength > 0) return this.completeHeld();
    const {bytes, at} = this;
    if (at >= this.complete) {
      if (at < bytes.length) this.hold(at);
      return undefined;
    }
    let end = Math.min(at + this.slice, this.complete);
    while (end < this.complete && isContinuationByte(bytes[end]!)) end++;
    this.at = end;
    return this.decode(bytes, at, end);
  }

  /** The chunk's open tail, from `at`, waits for the next chunk. */
  private hold(at: number): void {
    if (this.held === NO_BYTES) this.held = Buffer.alloc(4);
    this.bytes.copy(this.held, 0, at);
    this.heldLength = this.bytes.length - at;
    this.at = this.bytes.length;
  }

  /** The held character, with the chunk's leading continuation bytes it needs; undefined while the chunk ends before they do. */
  private completeHeld(): string | undefined {
    const {bytes, held} = this;
    const needed = intendedLength(held[0]!);
    let end = this.at;
    while (this.heldLength + end - this.at < needed && end < bytes.length && isContinuationByte(bytes[end]!)) end++;
    bytes.copy(held, this.heldLength, this.at, end);
    this.heldLength += end - this.at;
    this.at = end;
    if (this.heldLength < needed && end === bytes.length) return undefined;
    const length = this.heldLength;
    this.heldLength = 0;
    return this.decode(held, 0, length);
  }

  private decode(bytes: Buffer, from: number, to: number): string {
    const text = bytes.toString('utf8', from, to);
    this.replacements = replacementsIn(bytes, from, to, text);
    this.decoded = bytes;
    this.decodedFrom = from;
    this.decodedTo = to;
    return text;
  }

  /** The bytes the text `next()` or `flush()` returned last was decoded from; valid until the next call. */
  textBytes(): Uint8Array {
    return this.decoded.subarray(this.decodedFrom, this.decodedTo);
  }

  /**
   * The text of the bytes still held at the end of the input (an unfinished character: U+FFFD),
   * or before text written as a string, which follows them.
   */
  flush(): string {
    this.bytes = NO_BYTES;
    this.at = 0;
    this.complete = 0;
    this.replacements = null;
    if (this.heldLength === 0) return '';
    const length = this.heldLength;
    this.heldLength = 0;
    return this.decode(this.held, 0, length);
  }
}
