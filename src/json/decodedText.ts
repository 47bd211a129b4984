// The decoded value of a string or key that has escapes or spans pieces of text, gathered by the
// Tokenizer (./tokenizer.ts) as it reads them. Its length is bounded by the Tokenizer's string or
// key limit, which it checks against `length` before each piece is added.

/** Pieces joined by `+=` before switching to batched joins (see add). */
const ROPE_PIECES = 64;
/** Pieces joined at once past ROPE_PIECES. */
const BATCH = 256;

export class DecodedText {
  /** Code units gathered so far. */
  length = 0;
  private text = '';
  private ropePieces = 0;
  private readonly pieces: string[] = [];

  /**
   * Adds the next piece. The first pieces are joined with `+=` (a rope node each, and no copy:
   * fastest for the usual few escapes). Past ROPE_PIECES, pieces are joined BATCH at a time: a
   * rope node (~32 bytes) per escape or per write would let a 16 Mi-unit string of `\n` escapes,
   * or one fed a character per write, take ~0.5 GB instead of ~16 MB.
   */
  add(piece: string): void {
    this.length += piece.length;
    if (this.ropePieces < ROPE_PIECES) {
      this.text += piece;
      ++this.ropePieces;
      return;
    }
    const pieces = this.pieces;
    pieces.push(piece);
    if (pieces.length >= BATCH) {
      this.text += pieces.join('');
      pieces.length = 0;
    }
  }

  /** The whole value, `last` its final piece; the gathering starts afresh. */
  take(last: string): string {
    const value = this.text + this.pieces.join('') + last;
    this.reset();
    return value;
  }

  reset(): void {
    this.text = '';
    this.ropePieces = 0;
    // Setting `length` is a runtime call: most values gather no pieces.
    if (this.pieces.length > 0) this.pieces.length = 0;
    this.length = 0;
  }
}
