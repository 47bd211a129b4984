// A text in one piece, read for a verdict only: the fast path of validateText and parseText, and
// of the member values a session judges apart (docs/decisions.md, "A scanner for whole texts").
// The Tokenizer (./tokenizer.ts) can stop and resume anywhere, count lines and say where each
// error is; none of that is needed to say that a text passes, and it cost the Tokenizer about
// JSON.parse's time on the engine's records.
//
// The scanner hands its sink ranges of the text, not strings: a key or a string is sliced only by
// a sink that reads it. It accepts exactly what the Tokenizer accepts (RFC 8259, a leading BOM,
// within the limits) and says nothing else: anything it does not accept, including a text past a
// limit it cannot measure cheaply, is refused, and the Tokenizer then reads the text and says
// what is wrong and where. Test: test/scanner.test.ts (against the Tokenizer).

import type {Limits} from '../types.js';
import {isWithinDoubleRange, numberEnd} from './numbers.js';
import {Ch, PLAIN_RUN, STRING_RUN} from './grammar.js';

/** What a scan delivers: the Tokenizer's tokens, with strings, keys and numbers as ranges of the text. */
export interface RangeSink {
  startObject(): void;
  endObject(): void;
  startArray(): void;
  endArray(): void;
  /**
   * A key: `text` from `from` to `to` (past the quotes), with escapes when `escaped` (then
   * `decodeString` gives it).
   */
  keyAt(text: string, from: number, to: number, escaped: boolean): void;
  /** A string value, as a key is given. */
  stringAt(text: string, from: number, to: number, escaped: boolean): void;
  /** A number, `text` from `from` to `to`. */
  numberAt(text: string, from: number, to: number): void;
  nullValue(): void;
  trueValue(): void;
  falseValue(): void;
  /**
   * In a value skipped (TextScanner.skipValue): an object opens at `depth` (1 for the document's
   * own), its keys kept afresh. A repeated key is a refusal of the engine's (RFC 7493 §2.3), not of
   * the grammar: it is the sink's to keep them.
   */
  openKeys(depth: number): void;
  /** In a value skipped: a key of the object at `depth`; false when that object has it already. */
  addKey(depth: number, key: string): boolean;
}

/** An open array on the scanner's stack; an object's entry is its property count. */
const ARRAY = -1;

/** Not a string's end: the text is not JSON here. */
const REFUSED = -1;

/** The characters after '\' of RFC 8259 §7's short escapes: " \ / b f n r t. */
const SHORT_ESCAPE = /["\\/bfnrt]/;
const FOUR_HEX = /[0-9a-fA-F]{4}/y;

/** The value of a string or key delivered with `escaped`: the scan checked its escapes already. */
export function decodeString(text: string, from: number, to: number): string {
  return JSON.parse(text.slice(from - 1, to + 1)) as string;
}

export class TextScanner {
  /** The sink asked for no more tokens (see stop). */
  stopped = false;
  /** Property count of each open object, ARRAY for each open array, by depth. */
  private readonly stack: number[] = [];
  /**
   * The text from `plainFrom` to `plainUntil` holds no special character (see PLAIN_RUN): a string
   * in between ends at its next quote. Strings only move forward, so each part of the text is
   * searched for special characters at most once.
   */
  private plainFrom = 0;
  private plainUntil = 0;
  /** The text plainUntil was found in, when values of one text are read one by one (valueAt). */
  private plainText = '';
  /** The last string's end came with escapes (see stringEnd). */
  escaped = false;
  /** The next value is skipped (see skipValue). */
  private skipNext = false;
  private readonly rejectInexact: boolean;

  constructor(private readonly limits: Required<Limits>) {
    this.rejectInexact = limits.inexactNumbers === 'reject';
  }

  /** Hold no text read by valueAt: the document that sent it is over. */
  forgetText(): void {
    this.plainText = '';
  }

  /**
   * Strings of `text` are to be read by stringEnd alone (by code generated from the schema,
   * src/engine/programs.ts): nothing found in another text holds for it.
   */
  readStrings(text: string): void {
    this.plainText = text;
    this.plainFrom = 0;
    this.plainUntil = 0;
  }

  /** From a sink call: deliver no more tokens. */
  stop(): void {
    this.stopped = true;
  }

  /**
   * From a `keyAt` call, or before `scan`: deliver none of the tokens of the value that starts
   * next. Only that it is JSON within the limits is checked, and that no object in it repeats a
   * key (through the sink's `openKeys` and `addKey`).
   */
  skipValue(): void {
    this.skipNext = true;
  }

  /**
   * Deliver the tokens of `text` to `sink`, but those of values skipped. True when the text is one
   * JSON value within the limits, with no key repeated in a value skipped, and every token was
   * delivered, or when the sink stopped the scan; false when it is not (the tokens delivered so
   * far are the Tokenizer's).
   */
  scan(text: string, sink: RangeSink): boolean {
    this.stopped = false;
    this.plainUntil = 0;
    this.plainText = '';
    try {
      const length = text.length;
      let i = this.valueEnd(text, length > 0 && text.charCodeAt(0) === Ch.BOM ? 1 : 0, sink, this.limits.maxDepth);
      if (this.stopped) return true;
      if (i === REFUSED) return false;
      let c = 0;
      while ((c = text.charCodeAt(i)) === Ch.Space || c === Ch.LF || c === Ch.CR || c === Ch.Tab) i++;
      return i === length;
    } finally {
      // A skip asked for a value that never came is not one for the next text.
      this.skipNext = false;
    }
  }

  /**
   * Deliver the tokens of the one value that starts at `from` in `text` (after whitespace), inside
   * `depth` open objects and arrays: where it ends, when it is JSON within the limits, with no key
   * repeated in a value skipped, all of it delivered and followed in `text` by what may follow a
   * value inside an object or array (whitespace, ',', '}' or ']'); else REFUSED, also when the
   * sink stopped the scan. A piece of a longer text, then: a value the text cuts is refused.
   */
  valueAt(text: string, from: number, sink: RangeSink, depth: number): number {
    this.stopped = false;
    // What was found of the text's special characters holds for later values of the same text.
    if (text !== this.plainText) {
      this.plainText = text;
      this.plainUntil = 0;
    }
    try {
      const end = this.valueEnd(text, from, sink, this.limits.maxDepth - depth);
      if (this.stopped || end === REFUSED) return REFUSED;
      const c = text.charCodeAt(end);
      return c === Ch.Space || c === Ch.LF || c === Ch.CR || c === Ch.Tab || c === Ch.Comma || c === Ch.CloseBrace || c === Ch.CloseBracket ? end : REFUSED;
    } finally {
      this.skipNext = false;
    }
  }

  /**
   * Where the value starting at `i` (after whitespace) ends, its tokens delivered, or REFUSED; `room`:
   * how deep it may nest. After stop(), anything: the caller asks `stopped` first.
   */
  private valueEnd(text: string, i: number, sink: RangeSink, room: number): number {
    const stack = this.stack;
    let depth = 0;
    let top = ARRAY;
    /** The depth at which the value being skipped started (see skipValue); -1: none is. */
    let skipFrom = -1;
    let c = 0;
    for (;;) {
      // A value starts at the next non-whitespace character.
      while ((c = text.charCodeAt(i)) === Ch.Space || c === Ch.LF || c === Ch.CR || c === Ch.Tab) i++;
      if (this.skipNext) {
        this.skipNext = false;
        if (skipFrom < 0) skipFrom = depth;
      }
      const delivered = skipFrom < 0;
      if (c === Ch.Quote) {
        const end = this.stringEnd(text, i + 1, this.limits.maxStringLength);
        if (end === REFUSED) return REFUSED;
        if (delivered) sink.stringAt(text, i + 1, end, this.escaped);
        i = end + 1;
      } else if (c === Ch.OpenBrace) {
        if (depth >= room) return REFUSED;
        stack[depth++] = top;
        top = 0;
        if (delivered) sink.startObject();
        else sink.openKeys(depth);
        if (this.stopped) return REFUSED;
        i++;
        while ((c = text.charCodeAt(i)) === Ch.Space || c === Ch.LF || c === Ch.CR || c === Ch.Tab) i++;
        if (c !== Ch.CloseBrace) {
          if (this.limits.maxProperties < 1) return REFUSED;
          top = 1;
          i = this.member(text, i, sink, delivered ? 0 : depth);
          if (i === REFUSED) return REFUSED;
          if (this.stopped) return REFUSED;
          continue;
        }
        top = stack[--depth]!;
        if (delivered) sink.endObject();
        i++;
      } else if (c === Ch.OpenBracket) {
        if (depth >= room) return REFUSED;
        stack[depth++] = top;
        top = ARRAY;
        if (delivered) sink.startArray();
        if (this.stopped) return REFUSED;
        i++;
        while ((c = text.charCodeAt(i)) === Ch.Space || c === Ch.LF || c === Ch.CR || c === Ch.Tab) i++;
        if (c !== Ch.CloseBracket) continue;
        top = stack[--depth]!;
        if (delivered) sink.endArray();
        i++;
      } else if (c === Ch.Minus || (c >= Ch.Zero && c <= Ch.Nine)) {
        const end = numberEnd(text, i, c);
        if (end === REFUSED || end - i > this.limits.maxNumberLength) return REFUSED;
        if (this.rejectInexact && !isWithinDoubleRange(text.slice(i, end))) return REFUSED;
        if (delivered) sink.numberAt(text, i, end);
        i = end;
      } else if (c === Ch.LowerT && text.startsWith('true', i)) {
        if (delivered) sink.trueValue();
        i += 4;
      } else if (c === Ch.LowerF && text.startsWith('false', i)) {
        if (delivered) sink.falseValue();
        i += 5;
      } else if (c === Ch.LowerN && text.startsWith('null', i)) {
        if (delivered) sink.nullValue();
        i += 4;
      } else return REFUSED;
      if (this.stopped) return REFUSED;
      // After a value: close what ends here, then a comma and the next item or member, or the end.
      for (;;) {
        if (depth === skipFrom) skipFrom = -1;
        while ((c = text.charCodeAt(i)) === Ch.Space || c === Ch.LF || c === Ch.CR || c === Ch.Tab) i++;
        if (depth === 0) return i;
        if (c === Ch.Comma) {
          i++;
          if (top === ARRAY) break;
          if (top >= this.limits.maxProperties) return REFUSED;
          top++;
          while ((c = text.charCodeAt(i)) === Ch.Space || c === Ch.LF || c === Ch.CR || c === Ch.Tab) i++;
          i = this.member(text, i, sink, skipFrom < 0 ? 0 : depth);
          if (i === REFUSED) return REFUSED;
          if (this.stopped) return REFUSED;
          break;
        }
        if (c === Ch.CloseBrace && top !== ARRAY) {
          top = stack[--depth]!;
          if (skipFrom < 0) sink.endObject();
        } else if (c === Ch.CloseBracket && top === ARRAY) {
          top = stack[--depth]!;
          if (skipFrom < 0) sink.endArray();
        } else return REFUSED;
        if (this.stopped) return REFUSED;
        i++;
      }
    }
  }

  /**
   * A member at `i` (its key's quote): the key delivered (or, in a value skipped, registered in
   * the object at `skippedDepth`), and where its value starts (past the colon); REFUSED when that
   * is not what follows, or the key is repeated.
   */
  private member(text: string, i: number, sink: RangeSink, skippedDepth: number): number {
    if (text.charCodeAt(i) !== Ch.Quote) return REFUSED;
    const end = this.stringEnd(text, i + 1, this.limits.maxKeyLength);
    if (end === REFUSED) return REFUSED;
    if (skippedDepth === 0) sink.keyAt(text, i + 1, end, this.escaped);
    else if (!sink.addKey(skippedDepth, this.escaped ? decodeString(text, i + 1, end) : text.slice(i + 1, end))) return REFUSED;
    i = end + 1;
    let c = 0;
    while ((c = text.charCodeAt(i)) === Ch.Space || c === Ch.LF || c === Ch.CR || c === Ch.Tab) i++;
    return c === Ch.Colon ? i + 1 : REFUSED;
  }

  /**
   * Where the string whose contents start at `from` ends (its closing quote), or REFUSED when it
   * is not a JSON string of at most `max` code units. `escaped` says whether it has escapes.
   */
  stringEnd(text: string, from: number, max: number): number {
    const end = text.indexOf('"', from);
    if (end < 0) return REFUSED;
    if (end - from > max) return REFUSED;
    if (end >= this.plainUntil || from < this.plainFrom) {
      PLAIN_RUN.lastIndex = from;
      PLAIN_RUN.test(text);
      this.plainFrom = from;
      this.plainUntil = PLAIN_RUN.lastIndex;
      if (end >= this.plainUntil) return this.escapedStringEnd(text, from, max);
    }
    this.escaped = false;
    return end;
  }

  /** stringEnd for a string with an escape or a control character. */
  private escapedStringEnd(text: string, from: number, max: number): number {
    let i = from;
    for (;;) {
      STRING_RUN.lastIndex = i;
      STRING_RUN.test(text);
      i = STRING_RUN.lastIndex;
      const c = text.charCodeAt(i);
      if (c === Ch.Quote) break;
      if (c !== Ch.Backslash) return REFUSED;
      const next = text.charCodeAt(i + 1);
      if (next === Ch.LowerU) {
        FOUR_HEX.lastIndex = i + 2;
        if (!FOUR_HEX.test(text)) return REFUSED;
        i += 6;
      } else if (SHORT_ESCAPE.test(text.charAt(i + 1))) i += 2;
      else return REFUSED;
    }
    // The length limit is on the decoded string, at most as long as the text: past it, the
    // Tokenizer measures.
    if (i - from > max) return REFUSED;
    this.escaped = true;
    return i;
  }
}
