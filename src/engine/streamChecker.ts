// A session's checker (src/session/document.ts, beginText): the text checker fed a session's
// tokens as its text arrives, and eager: it gives up in the piece of text in which the evaluator
// may refuse the document, so that a session that then hands the text to the evaluator answers
// at the same write as the evaluator alone (docs/decisions.md, "A session reads with the checker
// first"). The evaluator refuses as soon as a failure is certain; the checker decides most
// applicators at the container's close, so it gives up where the evaluator could be certain:
//
// - a decision certain before the close (src/engine/decisions.ts, failsAlready), a count past its
//   most (`maxProperties`, `maxItems`, `maxContains`), a member that no subschema can evaluate
//   under `unevaluated*`: looked at in the open containers as each piece ends (pieceEnded), since
//   a session answers once a write, not once a token;
// - a `false` subschema at a key (the evaluator applies a member's subschemas there), at the key;
// - a string value cut by a piece's end: the evaluator announces an array's item at its opening
//   quote, and judges a string that every schema applied to it judges by its kind (and length)
//   there or as it grows (src/engine/judgedByKind.ts); this checker judges it at the same place.
//
// A subclass, so that the whole-text and value checks, which answer only at the end, pay nothing
// for it: a test of a flag in `fail` alone cost value mode 5% on the keywords benchmark.

import {ARRAY, STRING} from '../schema/node.js';
import {DOCUMENT, flagOf, isSet, levelsUp, type EagerFacts, type Member, type Shape, type Target} from './shape.js';
import {failsAlready, heldWhen, mayFailEarly, neverEvaluated} from './decisions.js';
import {stringsAlikePast, stringsAlikeUnknown} from './judgedByKind.js';
import {PASS, TextChecker, type Outcome} from './checker.js';
import type {MemberKeys} from './memberKeys.js';
import type {Tokenizer} from '../json/tokenizer.js';

/** What may fail in a container of `shape` before its close, worked out on first need. */
function eagerOf(shape: Shape): EagerFacts {
  const decisions = shape.decisions.filter(mayFailEarly);
  return (shape.eager = {decisions, mostMembers: most(shape.propertyBounds), mostItems: most(shape.itemBounds)});
}

/** The fewest of the bounds' most values (their odd entries); Infinity where there is none. */
function most(bounds: readonly number[]): number {
  let least = Infinity;
  for (let i = 1; i < bounds.length; i += 2) least = Math.min(least, bounds[i]!);
  return least;
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

  protected override member(key: string, keys: MemberKeys | null): void {
    super.member(key, keys);
    // The evaluator refuses a `false` subschema at the key, before its value (which may be in a later piece).
    if (this.outcome === PASS && this.pending.refuses) this.giveUp('early');
  }

  /**
   * A piece of the text was read: give up if the evaluator would have refused the document in it.
   * A session answers once a write, so what the evaluator finds at a token the checker may find
   * at the piece's end, from its open containers. What it reads there only ever grows while a
   * container is open (counts, tallies of ended items, flags but those of the current member or
   * item, presence bits), and what an ended member left is kept (held conditions): a failure
   * certain at some token of the piece is still certain at its end.
   */
  pieceEnded(): void {
    for (let level = 0; level < this.depth && this.outcome === PASS; level++) {
      const shape = this.open[level]!;
      const eager = shape.eager ?? eagerOf(shape);
      const array = this.kinds[level] === ARRAY;
      if (this.counts[level]! > (array ? eager.mostItems : eager.mostMembers)) this.giveUp('early');
      // An item that is an open object or array has started: a `true` tally counted it as it did.
      if (array) this.talliesPast(level, level + 1 < this.depth);
      if (eager.decisions.length > 0) this.decidedEarly(level);
      // An `unevaluated*` subschema failed by a member that nothing can evaluate: ended, or the current one.
      if ((array ? shape.itemSources : shape.memberSources).rules.length === 0) continue;
      const conditions = this.heldConditions[level]!;
      for (let i = 0; i < conditions.length; i++) if (neverEvaluated(conditions[i]!)) this.giveUp('early');
      const current = this.currentMembers[level];
      if (current !== undefined) this.unevaluatedEarly(level, current);
    }
  }

  /** An item of the array at `level` starts (a string cut by the piece's end): it is counted, as the evaluator counts it there. */
  private itemStarts(level: number): void {
    const eager = this.open[level]!.eager ?? eagerOf(this.open[level]!);
    if (this.counts[level]! + 1 > eager.mostItems) this.giveUp('early');
    this.talliesPast(level, true);
  }

  /** Some tally of the array at `level` is past its most: its ended items, and a started one where its subschema is `true`. */
  private talliesPast(level: number, started: boolean): void {
    const {tallyBounds, tallyAtStart} = this.open[level]!;
    const counts = this.tallies[level]!;
    for (let i = 0; i < tallyAtStart.length; i++) {
      if (counts[i]! + (started && tallyAtStart[i] ? 1 : 0) > tallyBounds[2 * i + 1]!) this.giveUp('early');
    }
  }

  override stringValue(value: string): void {
    this.growingPast = Infinity;
    super.stringValue(value);
  }

  /** A flag or presence bit of the open container at `level` was set: give up if a decision there already fails. */
  private decidedEarly(level: number): void {
    const {decisions} = this.open[level]!.eager!;
    for (let i = 0; i < decisions.length; i++) {
      if (!failsAlready(decisions[i]!, this.kinds[level]!, this.flags[level]!, this.seen[level]!)) continue;
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
      this.itemStarts(depth - 1);
      member = this.memberAt(this.open[depth - 1]!, this.counts[depth - 1]!);
      // The last item's tallies and rules set flags that are not this item's.
      if (this.open[depth - 1]!.extras) this.itemBegins(depth - 1, member);
    }
    if (member.refuses) {
      this.giveUp('early');
      return;
    }
    // The evaluator judges the string once every subschema it applies there would (the most of
    // their bounds). Those whose failure fails the document it certainly applies; one whose failure
    // goes to a flag it may have dropped: a branch that failed through a `contains` below it, the
    // `then` of a failed `if`, a `dependentSchemas` on an array. Where such a one would judge later
    // than those certainly applied, the evaluator may judge sooner: it decides.
    let past = -1;
    let applied = -1;
    const {nodes, targets} = member;
    for (let i = 0; i < nodes.length && applied !== Infinity; i++) {
      const target = targets[i]!;
      // A node whose failure goes to a flag already set (a branch that failed) decides nothing more.
      if (this.flagSet(target)) continue;
      const node = nodes[i]!;
      const bound = stringsAlikePast(node);
      past = Math.max(past, bound);
      if (target === DOCUMENT) applied = Math.max(applied, bound);
      // What the evaluator finds applied there may judge the string now: it decides.
      if (bound === Infinity && stringsAlikeUnknown(node)) this.giveUp('early');
    }
    if (past > applied) this.giveUp('early');
    if (this.outcome !== PASS) return;
    if (past < 0) this.judgeAhead(member, '');
    else if (past !== Infinity) {
      this.growing = member;
      this.growingPast = past;
    }
  }

  /** `target`, from the location of the value arriving, is a flag that is set already. */
  private flagSet(target: Target): boolean {
    if (target === DOCUMENT) return false;
    const up = levelsUp(target);
    return up > 0 && isSet(this.flags[this.depth - up]!, flagOf(target));
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
    const array = level >= 0 && this.kinds[level] === ARRAY;
    const shape = level >= 0 ? this.open[level]! : null;
    this.held.holdString(text);
    this.judgeScalar(member, STRING, this.depth);
    if (shape === null) return;
    const flags = this.flags[level]!;
    // Then as its end would: counted, and held back by `unevaluated*` where nothing can evaluate it.
    if (array) {
      const {tallyBits, tallyBounds} = shape;
      const counts = this.tallies[level]!;
      for (let i = 0; i < tallyBits.length; i++) if (!isSet(flags, tallyBits[i]!) && counts[i]! + 1 > tallyBounds[2 * i + 1]!) this.giveUp('early');
    }
    this.unevaluatedEarly(level, member);
  }

  /**
   * `member`, the current one of the container at `level`, failed the subschema of an
   * `unevaluated*` that nothing can make evaluate it: the evaluator refuses it now.
   */
  private unevaluatedEarly(level: number, member: Member): void {
    const shape = this.open[level]!;
    const {rules} = this.kinds[level] === ARRAY ? shape.itemSources : shape.memberSources;
    const flags = this.flags[level]!;
    for (let r = 0; r < rules.length; r++) {
      const when = heldWhen(rules[r]!, member, r, flags);
      if (when === null || !neverEvaluated(when)) continue;
      this.giveUp('early');
      return;
    }
  }
}
