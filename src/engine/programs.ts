// The fast verdicts of value mode and of whole texts, as code generated from the checker's shapes
// where the runtime allows code generation (docs/decisions.md, "Value mode: code generated from
// the shapes", and "Whole texts: code generated from the shapes"). The checker
// (src/engine/checker.ts) reads a document as token events into one generic loop per event, and
// calls each keyword's `accepts` from one shared site: V8 can neither specialise that loop to a
// schema nor inline a predicate it sees hundreds of. Here each distinct set of applications (a
// member's nodes, targets and scopes) becomes a function of its own, in which every keyword's
// `accepts` is called from a site of its own, with its compiled keyword as a constant. A value
// program walks a parsed value; a text program reads JSON text by recursive descent, with the
// TextScanner's own string and number readers.
//
// Nothing here states what a keyword means: the code is read off the Shape and Member the
// keywords' outlines and `accepts` built (src/engine/shapeBuilder.ts), as the checker reads them,
// and does what the checker does with them, rule for rule (src/engine/programWriter.ts writes it).
// Only a pass is trusted. Anything the code does not cover (a keyword the checker cannot run, an
// item of a `uniqueItems` array that is an object or array) is left to the checker, and what fails
// goes to the checker and then the evaluator, which say why. A text program refuses whatever the
// TextScanner refuses, and may refuse more (a key it cannot tell apart from another): a refusal,
// too, only sends the document to the checker.

import {NameBudget, NameTable} from './nameCache.js';
import type {Matcher} from '../schema/node.js';
import type {HeldScalar} from './scalar.js';
import type {Limits} from '../types.js';
import {Member, type Shape, type Target, cleared, signatureOf} from './shape.js';
import type {ScalarPlans} from './scalarPlan.js';
import {KeySets, type KeySet} from './keySet.js';
import {Ch} from '../json/grammar.js';
import type {TextScanner} from '../json/scanner.js';
import {holdBack} from './decisions.js';
import {Writer, flagBit, namesOf, type WriterContext} from './programWriter.js';

/**
 * Judge a value at nesting `depth`: -1 when it is not certain to pass (a failure that reaches the
 * document, or anything the checker would have to give up on), else 0. A failure that goes to a
 * flag of an enclosing container sets it in `state` (see ProgramState).
 */
export type ValueProgram = (value: unknown, held: HeldScalar, depth: number, state: ProgramState) => number;

/**
 * Judge the JSON value that starts at `from` in `text` (no whitespace before it): -1 as for a
 * ValueProgram, or where the text is not a value the TextScanner accepts; else where the value
 * ends.
 */
export type TextProgram = (text: string, from: number, held: HeldScalar, depth: number, state: TextState) => number;

type Program = ValueProgram | TextProgram;

/** What the generated code said of a text (TextChecker.textPasses). */
export const PASSED = 0;
export const NOT_PASSED = 1;
export const NOT_ASKED = 2;
export type Asked = typeof PASSED | typeof NOT_PASSED | typeof NOT_ASKED;
export type Mode = 'value' | 'text';

/**
 * The members of one open container that an UnevaluatedRule held back, with the conditions under
 * which they were evaluated after all, as the checker keeps them (decisions.ts, holdBack), and the
 * container's presence bits, for the decision at its close.
 */
export class HeldMembers {
  readonly rules: number[] = [];
  readonly conditions: (readonly (readonly number[])[])[] = [];
  seen = new Int32Array(2);

  /** The presence words, `words` of them, to be written at the object's close (an array has none: see NO_PRESENCE). */
  seenFor(words: number): Int32Array {
    if (this.seen.length < words) this.seen = new Int32Array(words);
    return this.seen;
  }
}

/**
 * What a program keeps while it judges one document: the flags of each open container and of the
 * scalar being judged, by depth, as the checker keeps them (a failure goes to the document or to a
 * flag some levels up; see Target); and by depth, the members held back by `unevaluated*` and the
 * items of a `uniqueItems` array. The items are the document's values: `release` drops them.
 */
export class ProgramState {
  readonly flags: Int32Array[] = [];
  private readonly held: HeldMembers[] = [];
  private readonly distinct: Set<unknown>[] = [];
  /** Some set of `distinct` may hold items since the last release. */
  private holdsItems = false;

  /** The flags of the value at `depth`, `words` of them, cleared. */
  at(depth: number, words: number): Int32Array {
    return cleared(this.flags, depth, words);
  }

  /** The members held back in the container at `depth`: none yet (popped: setting `length` is a runtime call). */
  heldAt(depth: number): HeldMembers {
    const held = (this.held[depth] ??= new HeldMembers());
    const {rules, conditions} = held;
    while (rules.length > 0) {
      rules.pop();
      conditions.pop();
    }
    return held;
  }

  /** The items of the `uniqueItems` array at `depth` met so far: none yet. */
  distinctAt(depth: number): Set<unknown> {
    this.holdsItems = true;
    const seen = this.distinct[depth];
    if (seen === undefined) return (this.distinct[depth] = new Set());
    seen.clear();
    return seen;
  }

  release(): void {
    if (!this.holdsItems) return;
    this.holdsItems = false;
    for (const seen of this.distinct) seen?.clear();
  }
}

/**
 * What a text program keeps besides: per depth the keys of the open object that its code does not
 * list, to refuse a repeated one (RFC 7493 §2.3, as the checker does). They hold slices of the
 * text: `release` drops them.
 */
export class TextState extends ProgramState {
  private readonly keys = new KeySets();

  constructor(
    /** The TextScanner whose string reader the code calls (stringEnd, escaped). */
    readonly reader: TextScanner,
  ) {
    super();
  }

  /** The key set of the object at `depth`, emptied: its first key the code does not list came. */
  keysAt(depth: number): KeySet {
    return this.keys.open(depth);
  }

  override release(): void {
    super.release();
    this.keys.release();
    this.reader.forgetText();
  }
}

/**
 * The code generated for a checker's documents, made on first need and asked first: its pass is
 * the checker's; anything else, the checker reads again (src/engine/checker.ts).
 */
/** Where RootPrograms get their code: the schema's CheckerCache (src/engine/checkerCache.ts). */
export interface ProgramSource {
  readonly usable: boolean;
  asksPrograms(mode: Mode): boolean;
  valueProgramOf(member: Member, limits: Required<Limits>): ValueProgram | null;
  textProgramOf(member: Member, limits: Required<Limits>): TextProgram | null;
}

export class RootPrograms {
  private value: ValueProgram | null | undefined = undefined;
  private text: TextProgram | null | undefined = undefined;
  /** What the programs keep while they judge a document; made with them. */
  private textState: TextState | null = null;
  private valueState: ProgramState | null = null;

  constructor(
    private readonly cache: ProgramSource,
    private readonly root: Member,
    private readonly limits: Required<Limits>,
  ) {}

  /** The verdict on `value` (see ValueProgram); NOT_ASKED where there is none, or it is given up. */
  valuePasses(value: unknown, held: HeldScalar): Asked {
    if (this.value === undefined) this.value = this.programFor('value') as ValueProgram | null;
    if (this.value === null || !this.cache.asksPrograms('value')) return NOT_ASKED;
    const state = (this.valueState ??= new ProgramState());
    try {
      return this.value(value, held, 0, state) >= 0 ? PASSED : NOT_PASSED;
    } finally {
      state.release();
    }
  }

  /**
   * The verdict on the whole of `text` from `from` to `to`, as `scanner` would read
   * `text.slice(from, to)` (a leading BOM, whitespace around the value): PASSED, NOT_PASSED, or
   * NOT_ASKED where there is none. A range spares an NDJSON line its slice, on which V8 reads each
   * character through the string it was sliced from. The code reads on past `to` as if the text
   * went on, but its position only grows: a value it passes that ends by `to` was read within it.
   */
  textPasses(text: string, held: HeldScalar, scanner: TextScanner, from = 0, to = text.length): Asked {
    if (this.text === undefined) this.text = this.programFor('text') as TextProgram | null;
    const program = this.text;
    if (program === null) return NOT_ASKED;
    const state = (this.textState ??= new TextState(scanner));
    state.reader.readStrings(text);
    // The programs below the root are written on their first call, in here too.
    try {
      let i = from < to && text.charCodeAt(from) === Ch.BOM ? from + 1 : from;
      let c = 0;
      while (i < to && ((c = text.charCodeAt(i)) === Ch.Space || c === Ch.LF || c === Ch.CR || c === Ch.Tab)) i++;
      if (i === to) return NOT_PASSED;
      i = program(text, i, held, 0, state);
      if (i < 0 || i > to) return NOT_PASSED;
      while (i < to && ((c = text.charCodeAt(i)) === Ch.Space || c === Ch.LF || c === Ch.CR || c === Ch.Tab)) i++;
      return i === to ? PASSED : NOT_PASSED;
    } catch (error) {
      // A stack used up by the code's recursion: the checker, which keeps a stack of its own, reads
      // the text again. Anything else was thrown by a custom format or keyword, as the checker
      // would have it thrown (it may not throw a second time).
      if (error instanceof RangeError && error.message.includes('call stack')) return NOT_PASSED;
      throw error;
    } finally {
      state.release();
    }
  }

  /**
   * The program for the document's values or texts, or null: none may be generated, the schema
   * has a keyword the checker cannot ask, or writing it failed (a schema whose shapes nest past
   * the stack: the checker builds them one at a time, as it reads).
   */
  private programFor(mode: Mode): ValueProgram | TextProgram | null {
    if (!this.cache.usable) return null;
    try {
      return mode === 'value' ? this.cache.valueProgramOf(this.root, this.limits) : this.cache.textProgramOf(this.root, this.limits);
    } catch {
      return null;
    }
  }
}

/** Distinct programs per schema, at most; past it, values go to the checker. */
const MAX_PROGRAMS = 2048;
/** Items whose program is kept per array shape, as the shape keeps their members (Shape.itemMember). */
const MAX_ITEMS = 256;

/** Whether this runtime lets us generate code (`node --disallow-code-generation-from-strings`, a CSP). */
export const generatesCode: boolean = (() => {
  try {
    return new Function('return true')() === true;
  } catch {
    return false;
  }
})();

const NEVER_PASSES = (): number => -1;
const runEachTime: Matcher = (pattern, text) => pattern.test(text);

/** A name of the schema's that a program's code does not list: its presence bit (-1: none), its program once made. */
interface NameEntry {
  readonly bit: number;
  program: Program | null;
  member: Member | null;
}

/**
 * A property name the code lists, or every name the schema does not know where no keyword tells
 * those apart: its member and program, made on its first call, and the programs for its member
 * without the subschemas whose failures no longer matter (see Programs.live).
 */
class MemberSlot {
  program: Program | null = null;
  member: Member | null = null;
  /** The flags (word 0 of the object's) that some subschema of the member fails to: all until known. */
  relevant = -1;
  relevantKnown = false;
  /** By the flags of `relevant` that no longer matter; at most MAX_PRUNED of them. */
  pruned: Map<number, Program> | null = null;
}

/** Programs kept per listed name for the flags that no longer matter: past this, the whole member's. */
const MAX_PRUNED = 16;

/** Programs for the property names a program's code does not list: the schema's, then the documents'. */
interface NameLookup {
  readonly entries: Map<string, NameEntry>;
  readonly table: NameTable<Program>;
}

/** The programs of one schema, by the signature of the member they judge (see Programs.of). */
export class Programs implements WriterContext {
  private readonly bySignature = new Map<string, Program>();
  /** The functions made from each source, by its constants' count and text (see write). */
  private readonly made = new Map<string, (...constants: unknown[]) => Program>();
  private count = 0;

  constructor(
    readonly mode: Mode,
    private readonly shapeOf: (member: Member) => Shape,
    readonly plans: ScalarPlans,
    private readonly budget: NameBudget,
    readonly limits: Required<Limits>,
    /** How deep a value may nest before the checker (and its bound) takes over: the code recurses. */
    readonly maxDepth: number,
  ) {}

  /** The program for values `member` applies to (made on first need, shared by same members). */
  of(member: Member): Program {
    const signature = signatureOf(member);
    let program = this.bySignature.get(signature);
    if (program !== undefined) return program;
    if (this.count >= MAX_PROGRAMS) return NEVER_PASSES;
    this.count++;
    // While it is written, a schema that refers to itself finds it through the slot; once written,
    // the program itself is given out, so that each call site sees one function.
    const slot: {program: Program} = {program: NEVER_PASSES};
    this.bySignature.set(signature, (...args: unknown[]) => (slot.program as (...args: unknown[]) => number)(...args));
    slot.program = this.write(member);
    this.bySignature.set(signature, slot.program);
    return slot.program;
  }

  /** The program for the objects and arrays at a leaf `member` (see Writer.program), kept in `slot`. */
  containers(slot: {program: Program | null}, member: Member): Program {
    return (slot.program = this.count < MAX_PROGRAMS ? (this.count++, this.write(member, true)) : NEVER_PASSES);
  }

  /**
   * The program written for `member`. Writing never throws: a shape that nests past the stack as it
   * is built gives a program that never passes, and the checker, which builds shapes one at a time,
   * reads those values. What a program throws when it runs is then the caller's own (a custom
   * format or keyword, a getter) or the stack's.
   */
  private write(member: Member, containersOnly = false): Program {
    try {
      return this.written(member, containersOnly);
    } catch {
      return NEVER_PASSES;
    }
  }

  private written(member: Member, containersOnly: boolean): Program {
    const writer = new Writer(this, member, containersOnly);
    const source = writer.program();
    if (source === null) return NEVER_PASSES;
    const values = writer.constants;
    // Members that differ only in their constants (the same keywords at another property) share
    // one function made from the source: it is compiled once and warms up for all of them, and
    // each of its call sites still sees one keyword's `accepts`.
    const key = `${values.length}:${source}`;
    let make = this.made.get(key);
    if (make === undefined) {
      make = new Function(...values.map((_, index) => `C${index}`), source) as (...constants: unknown[]) => Program;
      this.made.set(key, make);
    }
    return make(...values);
  }

  /** Program for property `name` in objects of `shape`: a name of the documents', not the schema's. */
  named(shape: Shape, table: NameTable<Program>, name: string, held: HeldScalar): Program {
    // Kept as a copy, within the schema's budget (src/engine/nameCache.ts).
    const known = table.byName.get(name);
    if (known !== undefined) return known;
    const program = this.of(this.member(shape, name, held));
    if (table.admits(name)) table.set(name, program);
    return program;
  }

  /** The program of a name of the schema's, made on its first call and kept in `slot` (a NameEntry too). */
  fill(slot: {program: Program | null; member?: Member | null}, shape: Shape, name: string, held: HeldScalar): Program {
    return (slot.program = this.of(this.memberOf(slot, shape, name, held)));
  }

  /**
   * The program for listed name `name` in objects of `shape`, while the flags in `dead` (word 0 of
   * the object's) no longer matter: a failure that goes to one changes no verdict. A flag is set
   * only by a failure and stays set while the object is read, so a flag already set is one; so is
   * the flag of an `if`'s `then` once the `if` has failed (see deadFlags). (The one flag cleared,
   * an UnevaluatedRule's, is clear again before the next name: it is never among them. A
   * `contains` tally's is an array's, whose items are not judged this way.) The subschemas that fail only to those are not applied: once a
   * discriminator has failed all but one `if` or `oneOf` branch, the value that follows is judged
   * against the one left, not against every branch.
   */
  live(slot: MemberSlot, shape: Shape, name: string, held: HeldScalar, dead: number): Program {
    const member = this.memberOf(slot, shape, name, held);
    if (!slot.relevantKnown) {
      slot.relevant = member.targets.reduce((flags, target) => flags | flagBit(target), 0);
      slot.relevantKnown = true;
    }
    const key = dead & slot.relevant;
    const pruned = key === 0 ? null : (slot.pruned ??= new Map());
    let program = pruned?.get(key);
    if (program !== undefined) return program;
    if (pruned === null || pruned.size >= MAX_PRUNED) return slot.program ?? this.fill(slot, shape, name, held);
    const kept = member.nodes.map((_, index) => index).filter((index) => (flagBit(member.targets[index]!) & key) === 0);
    const pick = <T>(list: readonly T[]): T[] => kept.map((index) => list[index]!);
    program = this.of(new Member(member.presence, pick(member.nodes), pick(member.targets), pick(member.scopes), this.plans));
    pruned.set(key, program);
    return program;
  }

  /** The program judging the property names of objects of `shape` as strings (`propertyNames`), kept in `slot`. */
  keyNames(slot: {program: Program | null}, shape: Shape): Program {
    return (slot.program = this.of(shape.keyNamesMemberOf(this.plans)));
  }

  /**
   * The value of `name` (its member, where the code has it) failed the subschema of an
   * UnevaluatedRule of `shape`, whose flags at its object are `flags`: held back, as the checker
   * holds it (memberEnded).
   */
  hold(held: HeldMembers, shape: Shape, member: Member | null | undefined, name: string, H: HeldScalar, flags: Int32Array): HeldMembers {
    holdBack(shape.memberSources.rules, member ?? this.member(shape, name, H), flags, held.rules, held.conditions);
    return held;
  }

  /** The same for item `item` of an array of `shape`. */
  holdItem(held: HeldMembers, shape: Shape, item: number, H: HeldScalar, flags: Int32Array): HeldMembers {
    holdBack(shape.itemSources.rules, shape.itemMember(item, this.plans, H.match), flags, held.rules, held.conditions);
    return held;
  }

  private memberOf(slot: {member?: Member | null}, shape: Shape, name: string, held: HeldScalar): Member {
    return (slot.member ??= this.member(shape, name, held));
  }

  /** Program for item `item` in arrays of `shape`. */
  item(shape: Shape, items: Program[], item: number): Program {
    const index = shape.itemSources.alike(item);
    const known = items[index];
    if (known !== undefined) return known;
    const program = this.of(this.itemMemberOf(shape, index));
    if (index < MAX_ITEMS && index === items.length) items.push(program);
    return program;
  }

  /** The shape's own (Shape.itemMember), which the checker and holdItem read too: selected once. */
  itemMemberOf(shape: Shape, index: number): Member {
    return shape.itemMember(index, this.plans, runEachTime);
  }

  /**
   * What `name` selects in `shape`, its regular expressions (patternProperties) run through the
   * document's log (src/engine/patterns.ts): the checker and the evaluator after the code recall
   * them, so each runs once per name in a document.
   */
  private member(shape: Shape, name: string, held: HeldScalar): Member {
    const bit = shape.presenceBits.get(name);
    return shape.memberSources.select(name, bit === undefined ? -1 : bit, this.plans, held.match);
  }

  slot(): MemberSlot {
    return new MemberSlot();
  }

  shape(member: Member): Shape {
    return this.shapeOf(member);
  }

  /** Where the programs for names of `shape` not in `listed` are found. */
  lookup(shape: Shape, listed: readonly string[]): NameLookup {
    const entries = new Map<string, NameEntry>();
    const inCode = new Set(listed);
    for (const name of namesOf(shape)) {
      if (inCode.has(name)) continue;
      const bit = shape.presenceBits.get(name);
      entries.set(name, {bit: bit === undefined ? -1 : bit, program: null, member: null});
    }
    return {entries, table: new NameTable<Program>(this.budget)};
  }
}
