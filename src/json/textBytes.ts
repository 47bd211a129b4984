// Byte offsets in the input a Tokenizer reads (./tokenizer.ts), one text after another. They are
// counted only when asked for (an error, a stop, bytesRead), with Buffer.byteLength, not per
// character in the hot loop; a text decoded from bytes with malformed sequences counts each at its
// true length (Replacements). The texts already read are counted when asked for too, a few at a
// time: a session of two short pieces that passes never asks, and a byteLength per piece was 3% of
// its time.

import {isHighSurrogate, isLowSurrogate} from './grammar.js';
import type {Replacements} from './utf8.js';

/** Code units of texts read and not yet counted, at most: what is held of them stays small. */
const MOST_UNCOUNTED = 4096;

/** A code unit of a text kept to be counted later (see TextBytes.mark). */
interface Mark {
  text: string;
  index: number;
  replacements: Replacements | null;
  shift: number;
  /** The text's place in `uncounted` once a later text begins: the length of `uncounted` as the mark is made. */
  place: number;
  /** `adjustment` once the text began. */
  adjustment: number;
  /** The mark's byte offset in the input once counted; -1 until then. */
  offset: number;
}

export class TextBytes {
  private text = '';
  private replacements: Replacements | null = null;
  /** Code units in front of the text the replacements are of: the Tokenizer's carried tail. */
  private shift = 0;
  // Successive asks within one text cost O(text) in total.
  private countedIndex = 0;
  private countedBytes = 0;
  /**
   * The bytes of the input before the current text are `counted`, then the texts of `uncounted`
   * (byteLength of each), then `adjustment` (what those texts' replacements, carried tails and cut
   * pairs take back).
   */
  private counted = 0;
  private readonly uncounted: string[] = [];
  private uncountedUnits = 0;
  private adjustment = 0;
  private marked: Mark | null = null;

  /**
   * The next text, after the current one was read whole but its last `shift` code units, which
   * begin this one (the carried tail, ASCII). `pairCut`: it begins with the second half of a
   * surrogate pair whose first half ended the text before, counted there as a 3-byte half: the
   * pair is 4 bytes. `replacements` are those of the text's code units from `shift` on.
   */
  next(text: string, replacements: Replacements | null, shift: number, pairCut: boolean): void {
    const previous = this.text;
    if (previous !== '') {
      if (this.uncountedUnits + previous.length > MOST_UNCOUNTED) this.count();
      this.uncounted.push(previous);
      this.uncountedUnits += previous.length;
      this.adjustment -= this.replacements?.total ?? 0;
    }
    this.adjustment -= shift + (pairCut ? 2 : 0);
    this.text = text;
    this.replacements = replacements;
    this.shift = shift;
    this.countedIndex = 0;
    this.countedBytes = 0;
  }

  /** Byte offset in the input of the current text's code unit `index`. */
  offsetAt(index: number): number {
    return this.base() + this.before(index);
  }

  /** Byte offset in the input just past the current text's character at `index`: both halves of a surrogate pair. */
  offsetThrough(index: number): number {
    const text = this.text;
    const pair = isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1));
    return this.offsetAt(index + (pair ? 2 : 1));
  }

  /** Bytes of the input through the current text's end. */
  get total(): number {
    return this.base() + Buffer.byteLength(this.text) - (this.replacements?.total ?? 0);
  }

  /**
   * Keep the current text's code unit `index` (a string's opening quote) to be found later by
   * `markedOffset`, once other texts have begun: counted only if asked for. One mark at a time.
   */
  mark(index: number): void {
    this.marked = {text: this.text, index, replacements: this.replacements, shift: this.shift, place: this.uncounted.length, adjustment: this.adjustment, offset: -1};
  }

  /** The byte offset of the mark. */
  markedOffset(): number {
    const mark = this.marked!;
    if (mark.offset < 0) this.count();
    return mark.offset;
  }

  /** Bytes of the input before the current text. */
  private base(): number {
    if (this.uncounted.length > 0 || this.adjustment !== 0) this.count();
    return this.counted;
  }

  /** Count the texts read so far, and the mark in them or in the current text. */
  private count(): void {
    const {uncounted} = this;
    const mark = this.marked !== null && this.marked.offset < 0 ? this.marked : null;
    let bytes = this.counted;
    for (let i = 0; i < uncounted.length; i++) {
      if (mark !== null && mark.place === i) mark.offset = bytes + mark.adjustment + bytesBefore(mark.text, mark.index, mark.replacements, mark.shift);
      bytes += Buffer.byteLength(uncounted[i]!);
    }
    this.counted = bytes + this.adjustment;
    if (mark !== null && mark.offset < 0) mark.offset = this.counted + bytesBefore(mark.text, mark.index, mark.replacements, mark.shift);
    // Counted: the mark holds its text no longer.
    if (mark !== null) mark.text = '';
    uncounted.length = 0;
    this.uncountedUnits = 0;
    this.adjustment = 0;
  }

  /** Bytes of the current text's first `index` code units. */
  private before(index: number): number {
    if (index < this.countedIndex) {
      this.countedIndex = 0;
      this.countedBytes = 0;
    }
    if (index > this.countedIndex) {
      this.countedBytes += Buffer.byteLength(this.text.slice(this.countedIndex, index));
      this.countedIndex = index;
    }
    return asSent(this.countedBytes, index, this.replacements, this.shift);
  }
}

/** Bytes of `text`'s first `index` code units, its `replacements` (from `shift` on) counted at their true length. */
function bytesBefore(text: string, index: number, replacements: Replacements | null, shift: number): number {
  return asSent(Buffer.byteLength(text.slice(0, index)), index, replacements, shift);
}

/** `bytes`, the UTF-8 length of a text's first `index` code units, as sent: its `replacements` (from `shift` on) at their true length. */
function asSent(bytes: number, index: number, replacements: Replacements | null, shift: number): number {
  return replacements === null ? bytes : bytes - replacements.addedBefore(index - shift);
}
