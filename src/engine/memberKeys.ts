// The keys of one open object in the text checker, to refuse a repeated key (RFC 7493 §2.3). Most
// keys select a member the object's shape has kept (src/engine/shape.ts): such a key is marked on
// its member with the object's stamp, one comparison, where a KeySet compares it with every key
// before it (a tenth of a record's time on the engine benchmark's records). The other keys, and
// every key of an object whose shape is open already further out (a recursive schema, a check
// inside a custom keyword), go to a KeySet.

import {KeySet} from './keySet.js';
import type {Member, Shape} from './shape.js';

/** The last stamp given, in any checker: each object opened gets a new one, never reused. */
let lastStamp = 0;

export class MemberKeys {
  /** This object's stamp; 0 when its keys all go to `names`. */
  private stamp = 0;
  /** The shape this object holds open (see Shape.openObjects); null once closed. */
  private shape: Shape | null = null;
  private readonly names = new KeySet();
  /** Names of members stamped since `names` last took them. */
  private readonly stamped: string[] = [];

  /**
   * A new object opens, of `shape`. A member's stamp can stand for one open object only, so an
   * object whose shape is open already marks none.
   */
  open(shape: Shape): void {
    this.forget();
    this.shape = shape;
    this.stamp = shape.openObjects === 0 ? ++lastStamp : 0;
    shape.openObjects++;
  }

  /**
   * `key`, which selected `member` in this object's shape (`kept`: a member the shape had kept
   * before this key); false when the object has it already.
   */
  add(key: string, member: Member, kept: boolean): boolean {
    const stamp = this.stamp;
    if (kept && stamp !== 0) {
      if (member.stamp === stamp) return false;
      member.stamp = stamp;
      this.stamped.push(member.name!);
      return true;
    }
    if (!this.addName(key)) return false;
    // A member kept from now on: its next key is caught by the stamp.
    if (stamp !== 0 && member.name !== null) member.stamp = stamp;
    return true;
  }

  /**
   * A key by its name alone (its member is not kept); false when the object has it already. Names
   * stamped so far go to `names` first: the member they were marked on may no longer be kept
   * (NameBudget retired its table), so that the same name now selects another one.
   */
  private addName(key: string): boolean {
    const {stamped, names} = this;
    while (stamped.length > 0) names.add(stamped.pop()!);
    return names.add(key);
  }

  /** The object is closed: its shape is open once less. */
  close(): void {
    if (this.shape === null) return;
    this.shape.openObjects--;
    this.shape = null;
  }

  /** Close, and hold no key: they are slices of the document's text. */
  forget(): void {
    this.close();
    this.stamp = 0;
    this.names.clear();
    const {stamped} = this;
    while (stamped.length > 0) stamped.pop();
  }
}
