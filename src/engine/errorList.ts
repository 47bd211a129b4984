// A run's errors (src/engine/run.ts): its own, and the lists of the subschema runs whose errors it
// took on, in order, joined into one array only when they are read. A failure deep in a document
// travels up through a run at every level; an `anyOf` at each level adds its other branch's error
// to the deep ones, and copying them there costs O(depth²) (an 800-byte document nested 399 deep:
// 1.9 ms, where `JSON.parse` + ajv takes 0.4). Taking on a list by reference keeps it linear.

import type {OutputUnit} from '../types.js';

export class ErrorList {
  /** Units, and lists whose units come at that place, in order. */
  private readonly parts: (OutputUnit | ErrorList)[] = [];

  /** A new list that begins with the units of `first`, which does not change. */
  static after(first: ErrorList): ErrorList {
    const list = new ErrorList();
    list.parts.push(first);
    return list;
  }

  static of(units: readonly OutputUnit[]): ErrorList {
    const list = new ErrorList();
    for (const unit of units) list.parts.push(unit);
    return list;
  }

  add(unit: OutputUnit): void {
    this.parts.push(unit);
  }

  /** The units of `other`, after those here: `other` must not change from now on. */
  append(other: ErrorList): void {
    this.parts.push(other);
  }

  /** Every unit, in order, in an array of its own. */
  units(): OutputUnit[] {
    const units: OutputUnit[] = [];
    // A loop, not recursion: lists nest as deep as the document.
    const lists: ErrorList[] = [this];
    const next: number[] = [0];
    while (lists.length > 0) {
      const top = lists.length - 1;
      const {parts} = lists[top]!;
      const at = next[top]!;
      if (at === parts.length) {
        lists.pop();
        next.pop();
        continue;
      }
      next[top] = at + 1;
      const part = parts[at]!;
      if (part instanceof ErrorList) {
        lists.push(part);
        next.push(0);
      } else units.push(part);
    }
    return units;
  }
}
