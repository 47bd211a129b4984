// A session's token sink when its schema can be asked of the text checker (src/engine/checker.ts): the
// evaluator gets every token, except the values of object members and the object or array items
// of arrays that the checker can judge apart. After a key (or as an item's bracket opens), when
// every subschema applied to the value would ignore a pass (properties, patternProperties,
// items...: Evaluator.pendingMember), the value's tokens go to a checker instead, and the
// tokenizer marks the point just after the key (or before the bracket). A value that passes is one
// `skipMember` for the evaluator; anything else (a failure, something the checker cannot judge,
// an input error, or the end of the text before the value ends) makes the tokenizer replay the
// text from the mark into the evaluator, within the same write. So the evaluator still decides
// every failure, at the byte it would have, with the errors it would have reported; only values
// that pass skip its machinery (docs/decisions.md, "Sessions: member values judged apart").

import type {Evaluator} from '../engine/evaluator.js';
import {PASS, type TextChecker} from '../engine/checker.js';
import type {Rewinder, Tokenizer} from '../json/tokenizer.js';
import type {TokenSink} from '../types.js';

/**
 * `worthIt`: code units left in the text below which a member value is not judged apart: one that
 * does not end within the text is tokenized twice, so small chunks (a document in a few writes)
 * would cost more per document instead of less (docs/decisions.md, "Sessions: member values
 * judged apart"). Tests set it to 0, to judge apart wherever possible.
 */
export const memberValues = {worthIt: 2048};

export class MemberSink implements TokenSink, Rewinder {
  /** The tokens of a member value go to the checker. */
  private apart = false;
  /** Objects and arrays open within that value. */
  private depth = 0;
  private tokenizer!: Tokenizer;
  /** Where each object or array open within that value began (Tokenizer.unitOffset), by depth. */
  private readonly openedAt: number[] = [];
  /**
   * Where the objects and arrays began that were open when a value judged apart was replayed.
   * Each of them holds the point where the checker gave up (a failure, something it cannot judge,
   * the end of the text): judged apart in turn, it would give up there too and be replayed again,
   * and a value nested n deep would cost n passes over the text. They go to the evaluator.
   */
  private readonly givenUp = new Set<number>();
  /** The last of givenUp: past it, none of them can come again. */
  private lastGivenUp = -1;
  /** The mark is before an item's bracket (markValue), not after a key (mark). */
  private markedItem = false;
  /** An item's bracket comes again after a rewind, and goes to the evaluator this time. */
  private replayedItem = false;

  /** Made on the first value judged apart: a small document may have none. */
  private checker!: TextChecker;

  constructor(
    private readonly evaluator: Evaluator,
    private readonly newChecker: () => TextChecker,
  ) {}

  /** The tokenizer that feeds this sink: it keeps the marks, and this sink decides about going back. */
  attach(tokenizer: Tokenizer): void {
    this.tokenizer = tokenizer;
    tokenizer.setRewinder(this);
  }

  /**
   * Any input error after the mark (malformed, past a limit) goes back to it: the evaluator then
   * reads the value and meets the error itself, reporting it where it would have.
   */
  rewindsOn(): boolean {
    return true;
  }

  /** The tokenizer went back to the mark: the rest goes to the evaluator. */
  rewound(): void {
    this.apart = false;
    if (this.markedItem) this.replayedItem = true;
    this.rememberGivenUp();
  }

  /**
   * Between writes: a mark still set is a value that did not end in this text. The text after it
   * goes again to the evaluator, and so on until the text is done with no mark left (each pass
   * starts further on, at a value the previous one did not see end): a mark never outlives its text.
   */
  settle(): void {
    while (this.tokenizer.rewindAndResume());
  }

  keyValue(key: string): void {
    if (this.apart) {
      this.checker.keyValue(key);
      this.afterToken();
      return;
    }
    const evaluator = this.evaluator;
    evaluator.keyValue(key);
    // A value that would likely not end in this text would be replayed: not worth judging apart.
    if (evaluator.stopped || this.tokenizer.remaining < memberValues.worthIt) return;
    const nodes = evaluator.pendingMember();
    if (nodes === null) return;
    (this.checker ??= this.newChecker()).beginValue(nodes);
    this.apart = true;
    this.depth = 0;
    this.markedItem = false;
    this.tokenizer.mark();
  }

  startObject(): void {
    if (!this.apart && !this.itemApart()) return this.evaluator.startObject();
    if (this.opensGivenUp()) return;
    this.checker.startObject();
    this.afterToken();
  }

  startArray(): void {
    if (!this.apart && !this.itemApart()) return this.evaluator.startArray();
    if (this.opensGivenUp()) return;
    this.checker.startArray();
    this.afterToken();
  }

  /**
   * An object or array opens within the value judged apart. If it is the value itself (a member's,
   * after its key) and an earlier replay gave it up, replay at once: the evaluator takes it.
   */
  private opensGivenUp(): boolean {
    const at = this.tokenizer.unitOffset;
    if (this.depth === 0 && this.wasGivenUp(at)) {
      this.tokenizer.rewind();
      return true;
    }
    this.openedAt[this.depth++] = at;
    return false;
  }

  private rememberGivenUp(): void {
    for (let depth = 0; depth < this.depth; depth++) this.givenUp.add(this.openedAt[depth]!);
    if (this.depth > 0) this.lastGivenUp = Math.max(this.lastGivenUp, this.openedAt[this.depth - 1]!);
  }

  private wasGivenUp(at: number): boolean {
    if (this.lastGivenUp < 0) return false;
    if (at <= this.lastGivenUp) return this.givenUp.has(at);
    // The input only moves on: none of them comes again.
    this.givenUp.clear();
    this.lastGivenUp = -1;
    return false;
  }

  /**
   * An object or array starts as an item of an array: judge it apart if its subschemas allow.
   * The evaluator hears of the item first (its item hooks apply the subschemas), as it would at
   * its first token; the mark is the point before the bracket.
   */
  private itemApart(): boolean {
    if (this.replayedItem) {
      this.replayedItem = false;
      return false;
    }
    if (this.tokenizer.remaining < memberValues.worthIt || this.wasGivenUp(this.tokenizer.unitOffset)) return false;
    const evaluator = this.evaluator;
    if (!evaluator.inArray() || evaluator.stopped) return false;
    evaluator.announceItem();
    if (evaluator.stopped) return false;
    const nodes = evaluator.pendingMember(true);
    if (nodes === null) return false;
    (this.checker ??= this.newChecker()).beginValue(nodes);
    this.apart = true;
    this.depth = 0;
    this.markedItem = true;
    this.tokenizer.markValue();
    return true;
  }

  endObject(): void {
    if (!this.apart) return this.evaluator.endObject();
    this.depth--;
    this.checker.endObject();
    this.afterToken();
  }

  endArray(): void {
    if (!this.apart) return this.evaluator.endArray();
    this.depth--;
    this.checker.endArray();
    this.afterToken();
  }

  stringValue(value: string): void {
    if (!this.apart) return this.evaluator.stringValue(value);
    this.checker.stringValue(value);
    this.afterToken();
  }

  numberValue(text: string): void {
    if (!this.apart) return this.evaluator.numberValue(text);
    this.checker.numberValue(text);
    this.afterToken();
  }

  nullValue(): void {
    if (!this.apart) return this.evaluator.nullValue();
    this.checker.nullValue();
    this.afterToken();
  }

  trueValue(): void {
    if (!this.apart) return this.evaluator.trueValue();
    this.checker.trueValue();
    this.afterToken();
  }

  falseValue(): void {
    if (!this.apart) return this.evaluator.falseValue();
    this.checker.falseValue();
    this.afterToken();
  }

  /** After a token of the value judged apart: replay it into the evaluator, or done with it? */
  private afterToken(): void {
    if (this.checker.outcome !== PASS) {
      this.tokenizer.rewind();
      return;
    }
    if (this.depth > 0) return;
    this.apart = false;
    this.tokenizer.unmark();
    this.evaluator.skipMember();
  }
}
