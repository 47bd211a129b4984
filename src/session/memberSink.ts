// A session's token sink when its schema can be asked of the text checker (src/engine/checker.ts): the
// evaluator gets every token, except those of the values of object members and of the object or
// array items of arrays that the checker judges apart. After a key (or as an item's bracket opens),
// when every subschema applied to the value would ignore a pass (properties, patternProperties,
// items...: Evaluator.pendingMember), the checker reads the value ahead in the text the tokenizer
// holds, with the scanner of whole texts (src/json/scanner.ts). A value that passes is one
// `skipMember` for the evaluator, and the tokenizer goes on after it; anything else (a failure,
// something the checker cannot judge, an input error, or the end of the text before the value
// ends) leaves the value's tokens to come to the evaluator as they would have. So the evaluator
// still decides every failure, at the byte it would have, with the errors it would have reported;
// only values that pass skip its machinery (docs/decisions.md, "Sessions: member values judged
// apart").

import type {Evaluator} from '../engine/evaluator.js';
import type {TextChecker} from '../engine/checker.js';
import {ARRAY, OBJECT, type Kind, type SchemaNode} from '../schema/node.js';
import type {Tokenizer} from '../json/tokenizer.js';
import type {TokenSink} from '../types.js';

/**
 * `worthIt`: code units left in the text below which a member value is not judged apart: one that
 * does not end within the text is read twice, so small chunks (a document in a few writes) would
 * cost more per document instead of less (docs/decisions.md, "Sessions: member values judged
 * apart"). Tests set it to 0, to judge apart wherever possible.
 */
export const memberValues = {worthIt: 2048};

export class MemberSink implements TokenSink {
  private tokenizer!: Tokenizer;
  /**
   * Where in the input (in code units) values may be read ahead again. A value that did not pass
   * leaves the rest of its text to the evaluator: its members, read ahead in turn, would stop where
   * it stopped, and a value nested n deep would cost n readings of the text.
   */
  private readsFrom = 0;
  /** The subschemas of the value being read ahead. */
  private nodes: readonly SchemaNode[] = [];
  /** Made on the first value judged apart: a small document may have none. */
  private checker: TextChecker | null = null;
  /** Reads the value ahead: made once, for the tokenizer to call. */
  private readonly read = (text: string, from: number, depth: number): number =>
    (this.checker ??= this.newChecker()).valueEndAt(this.nodes, text, from, depth);

  constructor(
    private readonly evaluator: Evaluator,
    private readonly newChecker: () => TextChecker,
  ) {}

  /** The tokenizer that feeds this sink: it reads values ahead from the text it holds. */
  attach(tokenizer: Tokenizer): void {
    this.tokenizer = tokenizer;
  }

  keyValue(key: string): void {
    const evaluator = this.evaluator;
    evaluator.keyValue(key);
    if (evaluator.stopped || !this.readsAhead()) return;
    const nodes = evaluator.pendingMember();
    if (nodes === null) return;
    this.nodes = nodes;
    if (this.tokenizer.readMemberValue(this.read)) evaluator.skipMember();
    else this.leaveText();
  }

  startObject(): void {
    if (!this.readItem(OBJECT)) this.evaluator.startObject();
  }

  startArray(): void {
    if (!this.readItem(ARRAY)) this.evaluator.startArray();
  }

  /**
   * An object or array starts as an item of an array: judge it apart if its subschemas allow. The
   * evaluator hears of the item first (its item hooks apply the subschemas), as it would at its
   * first token.
   */
  private readItem(kind: Kind): boolean {
    const evaluator = this.evaluator;
    if (!evaluator.inArray() || evaluator.stopped || !this.readsAhead()) return false;
    evaluator.announceItem(kind);
    if (evaluator.stopped) return false;
    const nodes = evaluator.pendingMember(true);
    if (nodes === null) return false;
    this.nodes = nodes;
    if (this.tokenizer.readItem(this.read)) {
      evaluator.skipMember();
      return true;
    }
    this.leaveText();
    return false;
  }

  /** A value that would likely not end in this text, or one in a text left to the evaluator, is not read ahead. */
  private readsAhead(): boolean {
    const tokenizer = this.tokenizer;
    return tokenizer.remaining >= memberValues.worthIt && tokenizer.unitOffset >= this.readsFrom;
  }

  private leaveText(): void {
    this.readsFrom = this.tokenizer.unitOffset + this.tokenizer.remaining + 1;
  }

  endObject(): void {
    this.evaluator.endObject();
  }

  endArray(): void {
    this.evaluator.endArray();
  }

  stringValue(value: string): void {
    this.evaluator.stringValue(value);
  }

  stringBegins(): void {
    this.evaluator.stringBegins();
  }

  stringGrows(length: number): void {
    this.evaluator.stringGrows(length);
  }

  numberValue(text: string): void {
    this.evaluator.numberValue(text);
  }

  nullValue(): void {
    this.evaluator.nullValue();
  }

  trueValue(): void {
    this.evaluator.trueValue();
  }

  falseValue(): void {
    this.evaluator.falseValue();
  }
}
