// The keys of one object seen so far, to reject a repeated key (RFC 7493 §2.3: otherwise the
// validator and JSON.parse, which keeps the last, could disagree on the value). Used by the
// evaluator's frames and by the text checker (src/engine/checker.ts).

import {KeyFingerprints} from './keyFingerprints.js';

/** Keys kept as strings up to this many; fingerprints past it (src/engine/keyFingerprints.ts). */
const SMALL_OBJECT = 24;

/**
 * A linear scan while the object is small, fingerprints past SMALL_OBJECT keys. The scan compares a
 * cheap signature (length and last character) before the strings themselves: on small objects
 * that beats both a Set and a plain scan (docs/decisions.md, "Engine speed").
 */
export class KeySet {
  private readonly list: string[] = [];
  private readonly signatures: number[] = [];
  private fingerprints: KeyFingerprints | null = null;

  /** Remember `key`; false when the object already has it. */
  add(key: string): boolean {
    const fingerprints = this.fingerprints;
    if (fingerprints !== null) return fingerprints.add(key);
    const list = this.list;
    const signatures = this.signatures;
    const signature = key.length * 65536 + (key.length === 0 ? 0 : key.charCodeAt(key.length - 1));
    for (let i = 0; i < list.length; i++) if (signatures[i] === signature && list[i] === key) return false;
    if (list.length < SMALL_OBJECT) {
      list.push(key);
      signatures.push(signature);
    } else {
      const large = (this.fingerprints = new KeyFingerprints());
      for (let i = 0; i < list.length; i++) large.add(list[i]);
      large.add(key);
    }
    return true;
  }

  /** Forget every key, for the next object (popping: `length = 0` is a runtime call). */
  clear(): void {
    const list = this.list;
    const signatures = this.signatures;
    while (list.length > 0) {
      list.pop();
      signatures.pop();
    }
    this.fingerprints = null;
  }
}

/** A KeySet per depth, for the open objects of one document; emptied as each opens, all at its end. */
export class KeySets {
  private readonly sets: KeySet[] = [];
  private usedLevels = 0;

  /** The keys of the object opening at `depth`: none yet. */
  open(depth: number): KeySet {
    let keys = this.sets[depth];
    if (keys === undefined) this.sets[depth] = keys = new KeySet();
    else keys.clear();
    if (depth >= this.usedLevels) this.usedLevels = depth + 1;
    return keys;
  }

  /** The keys of the open object at `depth` (opened). */
  at(depth: number): KeySet {
    return this.sets[depth]!;
  }

  /** Hold none of the document's keys. */
  release(): void {
    for (let depth = 0; depth < this.usedLevels; depth++) this.sets[depth]?.clear();
    this.usedLevels = 0;
  }
}
