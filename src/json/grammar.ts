// What JSON's grammar (RFC 8259) says of single characters, shared by the Tokenizer
// (./tokenizer.ts), which reads text in pieces, and the TextScanner (./scanner.ts), which reads a
// whole text for a verdict: both must accept exactly the same strings.

/** Character codes, by name. */
export const enum Ch {
  Tab = 9,
  LF = 10,
  CR = 13,
  Space = 32,
  Quote = 34,
  Plus = 43,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  One = 49,
  Nine = 57,
  Colon = 58,
  UpperE = 69,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  LowerB = 98,
  LowerE = 101,
  LowerF = 102,
  LowerN = 110,
  LowerR = 114,
  LowerT = 116,
  LowerU = 117,
  OpenBrace = 123,
  CloseBrace = 125,
  BOM = 0xfeff
}

/**
 * A number (RFC 8259 §6). A sticky regex `test` matches a whole number a little faster than the
 * Tokenizer's charCodeAt state machine, which remains for the unusual cases. Sticky: set
 * `lastIndex` right before each `test`.
 */
export const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

/** `text` is one JSON number, whole (a number given apart from its text, as stream-json's tokens give it). */
export function isNumberText(text: string): boolean {
  NUMBER.lastIndex = 0;
  return NUMBER.test(text) && NUMBER.lastIndex === text.length;
}

/**
 * A run of string characters that need no attention (RFC 8259 §7): all but the quote, the
 * backslash and U+0000–U+001F. A sticky regex `test` scans faster than a charCodeAt loop here, on
 * short keys and long runs alike, and allocates nothing (docs/decisions.md, "Our own tokenizer").
 * Sticky: set `lastIndex` right before each `test`.
 */
export const STRING_RUN = /[^"\\\x00-\x1f]*/y;

/**
 * A run of characters that a string may hold as they are (RFC 8259 §7), quotes included: all but
 * the backslash and U+0000–U+001F. Where a text has none of those, a string ends at the next
 * quote: the TextScanner and the Tokenizer find the run once per text and each string's end by a
 * quote search within it. Matched sticky, as one greedy run: V8 runs that 1.1 to 1.7 times as fast
 * as a search for the first special character, which tries a match at every position
 * (benchmarks/tokenizer.ts, "plain run").
 */
export const PLAIN_RUN = /[^\\\x00-\x1f]*/y;

/** The single-character escapes of RFC 8259 §7, indexed by the character after '\'. */
export const SHORT_ESCAPES: string[] = [];
SHORT_ESCAPES[Ch.Quote] = '"';
SHORT_ESCAPES[Ch.Backslash] = '\\';
SHORT_ESCAPES[Ch.Slash] = '/';
SHORT_ESCAPES[Ch.LowerB] = '\b';
SHORT_ESCAPES[Ch.LowerF] = '\f';
SHORT_ESCAPES[Ch.LowerN] = '\n';
SHORT_ESCAPES[Ch.LowerR] = '\r';
SHORT_ESCAPES[Ch.LowerT] = '\t';

/** The value of a hexadecimal digit of a `\u` escape, or -1. */
export const hexValue = (c: number): number => {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
};

export const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
export const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** A character as an error message names it: itself when printable ASCII, else its code point. */
export const describeChar = (c: number): string => {
  if (c >= 0x21 && c < 0x7f) return `'${String.fromCharCode(c)}'`;
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')}${c === Ch.Space ? ' (space)' : ''}`;
};
