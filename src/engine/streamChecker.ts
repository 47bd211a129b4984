// A session's checker (src/session/document.ts, beginText): the text checker fed a session's
// tokens as its text arrives, and eager: it gives up at the first token at which the evaluator
// may refuse the document, so that a session that then hands the text to the evaluator answers
// at the same write as the evaluator alone (docs/decisions.md, "A session reads with the checker
// first"). The evaluator refuses as soon as a failure is certain; the checker decides most
// applicators at the container's close, so it gives up where the evaluator could be certain:
//
// - a decision certain before the close (src/engine/decisions.ts, failsAlready), looked at as a
//   flag or a presence bit of an open container is set, and as a container opens;
// - a count past its most (`maxProperties`, `maxItems`, `maxContains`), as the member or item comes;
// - a `false` subschema at a key (the evaluator applies a member's subschemas there), and a
//   member that no subschema can evaluate under `unevaluated*`;
// - a string value cut by a piece's end: the evaluator announces an array's item at its opening
//   quote, and judges a string that every schema applied to it judges by its kind (and length)
//   there or as it grows (src/engine/judgedByKind.ts); this checker judges it at the same place.
//
// A subclass, so that the whole-text and value checks, which answer only at the end, pay nothing
// for it: a test of a flag in `fail` alone cost value mode 5% on the keywords benchmark.

import {ARRAY, STRING, type Kind} from '../schema/node.js';
import {DECIDE_WHEN, DOCUMENT, clearBits, isSet, levelsUp, type Decision, type Member, type Shape, type Target} from './shape.js';
import {failsAlready, mayFailEarly, neverEvaluated} from './decisions.js';
import {stringsAlikePast} from './judgedByKind.js';
import {PASS, TextChecker, type Outcome} from './checker.js';
import type {MemberKeys} from './memberKeys.js';
import type {Tokenizer} from '../json/tokenizer.js';

/** The decisions of `shape` that may fail before the close, kept with it (its container's open asks first). */
function earlyOf(shape: Shape): Decision[] {
  const early = (shape.early = shape.decisions.filter(mayFailEarly));
  shape.earlyOnKeys = early.some((decision) => decision.mode === DECIDE_WHEN);
  return early;
}

export class StreamChecker extends TextChecker {
  /** The string value arriving is judged alike past this many code points (stringBegins), as `growing`'s value. */
  private growingPast = Infinity;
  private growing: Member | null = null;

  /**
   * Judge a session's document, whose tokens `tokenizer` delivers to this checker as its text
   * arrives. `outcome` says how it goes so far; endStream, how it ended.
   */
  beginStream(tokenizer: Tokenizer): void {
    this.begin(this.root);
    this.tokenizer = tokenizer;
    // The evaluator refuses a document under `false` before its first byte.
    if (this.root.refuses) this.giveUp('early');
  }

  endStream(): Outcome {
    this.growingPast = Infinity;
    this.growing = null;
    this.release();
    return this.outcome;
  }

  protected override fail(target: Target, level: number): void {
    super.fail(target, level);
    if (target === DOCUMENT) return;
    const at = level - levelsUp(target);
    // A scalar's level (the depth) is scratch, decided at once.
    if (at < this.depth) this.decidedEarly(at);
  }

  protected override openContainer(kind: Kind): void {
    super.openContainer(kind);
    if (this.outcome === PASS) this.decidedEarly(this.depth - 1);
  }

  protected override member(key: string, keys: MemberKeys | null): void {
    super.member(key, keys);
    if (this.outcome !== PASS) return;
    const level = this.depth - 1;
    const member = this.pending;
    const shape = this.open[level]!;
    if (member.refuses) this.giveUp('early');
    this.countedEarly(shape.propertyBounds, this.counts[level]!);
    if (member.presence >= 0 && shape.early !== null && shape.earlyOnKeys) this.decidedEarly(level);
  }

  protected override incoming(): Member {
    const level = this.depth - 1;
    if (level >= 0 && this.kinds[level] === ARRAY) this.countedEarly(this.open[level]!.itemBounds, this.counts[level]! + 1);
    return super.incoming();
  }

  protected override memberEnded(level: number, member: Member): void {
    const conditions = this.heldConditions[level];
    const before = conditions === undefined ? 0 : conditions.length;
    super.memberEnded(level, member);
    const after = this.heldConditions[level];
    if (after === undefined) return;
    for (let i = before; i < after.length; i++) if (neverEvaluated(after[i]!)) this.giveUp('early');
  }

  protected override countItem(level: number): void {
    super.countItem(level);
    const {tallyBits, tallyBounds} = this.open[level]!;
    const counts = this.tallies[level]!;
    for (let i = 0; i < tallyBits.length; i++) if (counts[i]! > tallyBounds[2 * i + 1]!) this.giveUp('early');
  }

  override stringValue(value: string): void {
    this.growingPast = Infinity;
    super.stringValue(value);
  }

  /** A flag or presence bit of the open container at `level` was set: give up if a decision there already fails. */
  private decidedEarly(level: number): void {
    const shape = this.open[level]!;
    const decisions = shape.early ?? earlyOf(shape);
    for (let i = 0; i < decisions.length; i++) {
      if (!failsAlready(decisions[i]!, this.kinds[level]!, this.flags[level]!, this.seen[level]!)) continue;
      this.giveUp('early');
      return;
    }
  }

  /** A container now has `count` members or items: give up past a bound's most (its odd entries). */
  private countedEarly(bounds: readonly number[], count: number): void {
    for (let i = 1; i < bounds.length; i += 2) {
      if (count <= bounds[i]!) continue;
      this.giveUp('early');
      return;
    }
  }

  /**
   * A string value opened and goes on past the text so far (TokenSink.stringBegins): an array's
   * item is counted, and the string judged now or as it grows where the evaluator judges it so.
   */
  stringBegins(): void {
    if (this.outcome !== PASS) return;
    const depth = this.depth;
    let member = depth === 0 ? this.top : this.pending;
    if (depth > 0 && this.kinds[depth - 1] === ARRAY) {
      const shape = this.open[depth - 1]!;
      this.countedEarly(shape.itemBounds, this.counts[depth - 1]! + 1);
      member = this.memberAt(shape, this.counts[depth - 1]!);
    }
    if (member.refuses) {
      this.giveUp('early');
      return;
    }
    let past = -1;
    const {nodes} = member;
    for (let i = 0; i < nodes.length && past !== Infinity; i++) past = Math.max(past, stringsAlikePast(nodes[i]!));
    if (past < 0) this.judgeAhead(member, '');
    else if (past !== Infinity) {
      this.growing = member;
      this.growingPast = past;
    }
  }

  /** The string that began is `length` code units long so far: past the bound, judge it as any string as long. */
  stringGrows(length: number): void {
    const past = this.growingPast;
    if (length - (length >> 1) <= past) return;
    this.growingPast = Infinity;
    this.judgeAhead(this.growing!, 'x'.repeat(past + 1));
  }

  /**
   * Judge the string arriving as `member`'s value now, as `text`: every string it may be gets the
   * verdict `text` gets, so its failures are those it will set as it ends (flags are only set).
   */
  private judgeAhead(member: Member, text: string): void {
    const level = this.depth - 1;
    const shape = level >= 0 && this.kinds[level] === ARRAY ? this.open[level]! : null;
    // An item's tallies (`contains`): as its start would clear them (incoming), then counted as its end would.
    if (shape !== null) clearBits(this.flags[level]!, shape.tallyBits);
    this.held.holdString(text);
    this.judgeScalar(member, STRING, this.depth);
    if (shape === null || shape.tallyBits.length === 0) return;
    const {tallyBits, tallyBounds} = shape;
    const counts = this.tallies[level]!;
    for (let i = 0; i < tallyBits.length; i++) if (!isSet(this.flags[level]!, tallyBits[i]!) && counts[i]! + 1 > tallyBounds[2 * i + 1]!) this.giveUp('early');
  }
}
