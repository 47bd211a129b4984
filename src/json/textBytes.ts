// Byte offsets in the text a Tokenizer reads (./tokenizer.ts). They are counted only when asked
// for (an error, a stop, bytesRead), with Buffer.byteLength, not per character in the hot loop; a
// text decoded from bytes with malformed sequences counts each at its true length (Replacements).

import {isHighSurrogate, isLowSurrogate} from './grammar.js';
import type {Replacements} from './utf8.js';

export class TextBytes {
  private text = '';
  private replacements: Replacements | null = null;
  /** Code units in front of the text the replacements are of: the Tokenizer's carried tail. */
  private shift = 0;
  // Successive asks within one text cost O(text) in total.
  private countedIndex = 0;
  private countedBytes = 0;

  /** A new text: `replacements` are those of its code units from `shift` on. */
  start(text: string, replacements: Replacements | null, shift: number): void {
    this.text = text;
    this.replacements = replacements;
    this.shift = shift;
    this.countedIndex = 0;
    this.countedBytes = 0;
  }

  /** Bytes of the text's first `index` code units. */
  before(index: number): number {
    if (index < this.countedIndex) {
      this.countedIndex = 0;
      this.countedBytes = 0;
    }
    if (index > this.countedIndex) {
      this.countedBytes += Buffer.byteLength(this.text.slice(this.countedIndex, index));
      this.countedIndex = index;
    }
    const replacements = this.replacements;
    return replacements === null ? this.countedBytes : this.countedBytes - replacements.addedBefore(index - this.shift);
  }

  /** Bytes of the text through its character at `index`: both halves of a surrogate pair. */
  through(index: number): number {
    const text = this.text;
    const pair = isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1));
    return this.before(index + (pair ? 2 : 1));
  }

  /** Bytes of the whole text. */
  get length(): number {
    return Buffer.byteLength(this.text) - (this.replacements?.total ?? 0);
  }
}
