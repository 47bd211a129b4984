// parseText's syntax pass (src/index.ts): the tokenizer checks that the text is JSON within the
// limits; this sink checks what JSON.parse would hide in the value it makes. A repeated key (the
// value keeps the last) or a number the double does not hold exactly (1.00000000000000001 becomes
// 1) means the value may not stand in for the text. No keyword runs here.

import {KeySet} from './keySet.js';
import {isExactNumberText} from './numbers.js';
import type {TokenSink} from './types.js';

export class SyntaxGuard implements TokenSink {
  /** No key repeated and every number exact, so far in this document. */
  sound = true;
  private depth = 0;
  /** The open containers' key sets by depth, null for an array. */
  private readonly open: (KeySet | null)[] = [];
  /** Key sets by depth, reused from document to document. */
  private readonly pool: KeySet[] = [];
  /** Key sets used by this document (see release). */
  private used = 0;

  reset(): void {
    this.sound = true;
    this.depth = 0;
    this.used = 0;
  }

  /**
   * Forget the document's keys. They are slices of its text: kept by this long-lived sink, they
   * would keep the whole text alive until the next document, and get it promoted to the old
   * generation by any scavenge meanwhile.
   */
  release(): void {
    for (let depth = 0; depth < this.used; depth++) this.pool[depth]?.clear();
  }

  startObject(): void {
    let keys = this.pool[this.depth];
    if (keys === undefined) this.pool[this.depth] = keys = new KeySet();
    else keys.clear();
    this.open[this.depth++] = keys;
    if (this.depth > this.used) this.used = this.depth;
  }

  startArray(): void {
    this.open[this.depth++] = null;
  }

  endObject(): void {
    this.depth--;
  }

  endArray(): void {
    this.depth--;
  }

  keyValue(key: string): void {
    if (!this.open[this.depth - 1]!.add(key)) this.sound = false;
  }

  numberValue(text: string): void {
    if (this.sound && !isExactNumberText(text)) this.sound = false;
  }

  stringValue(): void {}

  nullValue(): void {}

  trueValue(): void {}

  falseValue(): void {}
}
