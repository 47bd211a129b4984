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
// and does what the checker does with them, rule for rule. Only a pass is trusted. Anything the
// code does not cover (a shape with `unevaluated*`, `uniqueItems`, `contains` or `propertyNames`)
// is left to the checker, and what fails goes to the checker and then the evaluator, which say why. A text
// program refuses whatever the TextScanner refuses, and may refuse more (a key it cannot tell
// apart from another): a refusal, too, only sends the document to the checker.
//
// Property names and other text of the schema reach the code only as JSON string literals; every
// other constant (a keyword, its `accepts`, a shape) is passed in, never written into the source.

import {NameBudget, NameTable} from './nameCache.js';
import {ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, type Matcher, type SchemaNode} from '../schema/node.js';
import type {HeldScalar} from './scalar.js';
import type {Limits} from '../types.js';
import {
  DECIDE_IF,
  DECIDE_NONE,
  DECIDE_ONE,
  DECIDE_SOME,
  DECIDE_UNEVALUATED,
  DECIDE_WHEN,
  DOCUMENT,
  Member,
  type Shape,
  type Target,
  bitCount,
  cleared,
  flagOf,
  levelsUp,
  signatureOf,
  wordsFor,
} from './shape.js';
import type {ScalarPlans} from './scalarPlan.js';
import {KeySets, type KeySet} from './keySet.js';
import {Ch} from '../json/grammar.js';
import {decodeString, type TextScanner} from '../json/scanner.js';
import {isWithinDoubleRange, numberEnd} from '../json/numbers.js';

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
 * What a program keeps while it judges one document: the flags of each open container and of the
 * scalar being judged, by depth, as the checker keeps them (a failure goes to the document or to a
 * flag some levels up; see Target).
 */
export class ProgramState {
  readonly flags: Int32Array[] = [];

  /** The flags of the value at `depth`, `words` of them, cleared. */
  at(depth: number, words: number): Int32Array {
    return cleared(this.flags, depth, words);
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

  release(): void {
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
    return this.value(value, held, 0, (this.valueState ??= new ProgramState())) >= 0 ? PASSED : NOT_PASSED;
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
/** Items whose program is kept per array shape, as the checker keeps members (MAX_INDICES). */
const MAX_ITEMS = 256;
/** Property names a program lists in its code; past these, it looks each up in a map (NameLookup). */
const MAX_LISTED_NAMES = 24;

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
export class Programs {
  private readonly bySignature = new Map<string, Program>();
  /** The functions made from each source, by its constants' count and text (see write). */
  private readonly made = new Map<string, (...constants: unknown[]) => Program>();
  private count = 0;

  constructor(
    readonly mode: Mode,
    private readonly shapeOf: (member: Member) => Shape,
    private readonly plans: ScalarPlans,
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
   * only by a failure and is never cleared in the shapes code is written for (no `unevaluated*`,
   * no `contains`), so a flag already set is one; so is the flag of an `if`'s `then` once the `if`
   * has failed (see deadFlags). The subschemas that fail only to those are not applied: once a
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

  private memberOf(slot: {member?: Member | null}, shape: Shape, name: string, held: HeldScalar): Member {
    return (slot.member ??= this.member(shape, name, held));
  }

  /** Program for item `item` in arrays of `shape`. */
  item(shape: Shape, items: Program[], item: number): Program {
    const index = shape.itemSources.alike(item);
    const known = items[index];
    if (known !== undefined) return known;
    const program = this.of(shape.itemSources.select(index, -1, this.plans, runEachTime));
    if (index < MAX_ITEMS && index === items.length) items.push(program);
    return program;
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
      entries.set(name, {bit: bit === undefined ? -1 : bit, program: null});
    }
    return {entries, table: new NameTable<Program>(this.budget)};
  }
}

/** Writes one program's source: a function per value kind, from the member's shape. */
class Writer {
  /** The values the code refers to as C0, C1...: given to the function made from it (Programs.written). */
  readonly constants: unknown[] = [];

  constructor(
    private readonly programs: Programs,
    private readonly member: Member,
    /** Only the objects and arrays at the member: a leaf's scalars are its own program's. */
    private readonly containersOnly = false,
  ) {}

  private constant(value: unknown): string {
    this.constants.push(value);
    return `C${this.constants.length - 1}`;
  }

  /**
   * What a failure to `target` does, from the code of a value at depth `d`: -1 at the document,
   * else the flag set, in the value's own flags (`f`) or in those of a container some levels up.
   */
  private fail(target: Target): string {
    if (target === DOCUMENT) return 'return -1;';
    const up = levelsUp(target);
    const flag = flagOf(target);
    const flags = up === 0 ? 'f' : `T.flags[d - ${up}]`;
    return `${flags}[${flag >> 5}] |= ${1 << (flag & 31)};`;
  }

  /** The whole program, or null when some part of it is not written (then it never passes). */
  program(): string | null {
    const text = this.programs.mode === 'text';
    const scalar = this.containersOnly ? '  return -1;\n' : this.scalar();
    if (scalar === null) return null;
    // The parameters of the functions for containers, and how the program calls them.
    const parameters = text ? 't, i, H, d, T' : 'v, H, d, T';
    let objects: string | null;
    let arrays: string | null;
    if (this.member.accepts !== null && !this.containersOnly && !this.member.nodes.some(judgesContainers)) {
      // A leaf with no keyword for objects or arrays: its shape is built when one first comes
      // there, as the checker builds it. Most such leaves only ever see scalars, and a shape per
      // leaf was most of a wide schema's first call.
      const slot = this.constant({program: null});
      const member = this.constant(this.member);
      const programs = this.constant(this.programs);
      objects = arrays = `  return (${slot}.program ?? ${programs}.containers(${slot}, ${member}))(${parameters});`;
    } else {
      const shape = this.programs.shape(this.member);
      objects = this.objectCode(shape);
      arrays = this.arrayCode(shape);
    }
    if (objects === null || arrays === null) return null;
    const {maxDepth, limits} = this.programs;
    const depth = Math.min(limits.maxDepth, maxDepth);
    const helpers = `function judgeObject(${parameters}) {
${objects}
}
function judgeArray(${parameters}) {
${arrays}
}`;
    if (text) {
      const reader = 'T.reader';
      const inexact = limits.inexactNumbers === 'reject' ? `    if (!${this.constant(isWithinDoubleRange)}(t.slice(i, end))) return -1;\n` : '';
      return `
${helpers}
return function program(t, i, H, d, T) {
  let kind;
  let end;
  const c = t.charCodeAt(i);
  if (c === ${Ch.Quote}) {
    end = ${reader}.stringEnd(t, i + 1, ${limits.maxStringLength});
    if (end < 0) return -1;
    kind = ${STRING};
    H.holdRange(t, i + 1, end, ${reader}.escaped);
    end++;
  } else if (c === ${Ch.OpenBrace} || c === ${Ch.OpenBracket}) {
    if (d >= ${depth}) return -1;
    return c === ${Ch.OpenBrace} ? judgeObject(t, i, H, d, T) : judgeArray(t, i, H, d, T);
  } else if (c === ${Ch.Minus} || (c >= ${Ch.Zero} && c <= ${Ch.Nine})) {
    end = ${this.constant(numberEnd)}(t, i, c);
    if (end < 0 || end - i > ${limits.maxNumberLength}) return -1;
${inexact}    kind = ${NUMBER};
    H.holdRange(t, i, end, false);
  } else if (c === ${Ch.LowerT} && t.startsWith('true', i)) {
    kind = ${BOOLEAN};
    H.holdBoolean(true);
    end = i + 4;
  } else if (c === ${Ch.LowerF} && t.startsWith('false', i)) {
    kind = ${BOOLEAN};
    H.holdBoolean(false);
    end = i + 5;
  } else if (c === ${Ch.LowerN} && t.startsWith('null', i)) {
    kind = ${NULL};
    end = i + 4;
  } else return -1;
${scalar}
  return end;
};`;
    }
    return `
const {getPrototypeOf} = Object;
const objectPrototype = Object.prototype;
const isArray = Array.isArray;
${helpers}
return function program(x, H, d, T) {
  let kind;
  switch (typeof x) {
    case 'string':
      if (x.length > ${limits.maxStringLength}) return -1;
      kind = ${STRING};
      H.holdString(x);
      break;
    case 'number':
      if (!Number.isFinite(x)) return -1;
      kind = ${NUMBER};
      H.holdDouble(x);
      break;
    case 'boolean':
      kind = ${BOOLEAN};
      H.holdBoolean(x);
      break;
    case 'object':
      if (x === null) {
        kind = ${NULL};
        break;
      }
      if (d >= ${depth}) return -1;
      return isArray(x) ? judgeArray(x, H, d, T) : judgeObject(x, H, d, T);
    default:
      return -1;
  }
${scalar}
  return 0;
};`;
  }

  /**
   * A scalar (in `kind`, held by H) at this member: its `accepts` in one run (the common leaf),
   * else as the checker's judgeScalar does from the shape, with flags of its own level.
   */
  private scalar(): string | null {
    const {member} = this;
    if (member.accepts !== null) {
      let code = '';
      for (let i = 0; i < member.accepts.length; i++) {
        const fail = this.fail(member.acceptsTargets[i]!);
        code += `  if (!${this.constant(member.accepts[i])}(${this.constant(member.acceptsKeywords[i])}, kind, H)) { ${fail} }\n`;
      }
      return code;
    }
    const shape = this.programs.shape(member);
    if (shape.unsure) return '  return -1;\n';
    const flags = this.flagWords(shape);
    let code = `  ${flags}\n`;
    for (const target of shape.scalarFails) {
      const fail = this.fail(target);
      code += `  ${fail}\n`;
    }
    for (let i = 0; i < shape.scalarKinds.length; i++) {
      const fail = this.fail(shape.scalarKindTargets[i]!);
      code += `  if ((${shape.scalarKinds[i]} & kind) === 0) { ${fail} }\n`;
    }
    for (let i = 0; i < shape.scalarAccepts.length; i++) {
      const fail = this.fail(shape.scalarAcceptsTargets[i]!);
      code += `  if (!${this.constant(shape.scalarAccepts[i])}(${this.constant(shape.scalarAcceptsKeywords[i])}, kind, H)) { ${fail} }\n`;
    }
    const decisions = this.decisions(shape, 0, null);
    if (decisions === null) return null;
    return code + decisions;
  }

  /** The flags of the shape's value (`f`), cleared, from the state's stack. */
  private flagWords(shape: Shape): string {
    return shape.flagWords === 0 ? '' : `const f = T.at(d, ${shape.flagWords});`;
  }

  /**
   * The shape's decisions, last to first, as the checker's decide, for a value of `kind` (0: a
   * scalar); `seen`: the presence words (objects).
   */
  private decisions(shape: Shape, kind: number, seen: number | null): string | null {
    let code = '';
    const isSet = (bit: number): string => `(f[${bit >> 5}] & ${1 << (bit & 31)}) !== 0`;
    for (let i = shape.decisions.length - 1; i >= 0; i--) {
      const decision = shape.decisions[i]!;
      const fail = this.fail(decision.target);
      let failed: string;
      switch (decision.mode) {
        case DECIDE_SOME:
          failed = decision.masks.map((mask, word) => `(f[${word}] & ${mask}) === ${mask}`).join(' && ') || 'true';
          break;
        case DECIDE_ONE:
          failed = `(${decision.masks.map((mask, word) => `${this.constant(bitCount)}(${mask} & ~f[${word}])`).join(' + ') || '0'}) !== 1`;
          break;
        case DECIDE_NONE:
          failed = `!(${isSet(decision.flag)})`;
          break;
        case DECIDE_IF: {
          const then = decision.thenFlag >= 0 ? isSet(decision.thenFlag) : 'false';
          const otherwise = decision.elseFlag >= 0 ? isSet(decision.elseFlag) : 'false';
          failed = `(${isSet(decision.flag)} ? ${otherwise} : ${then})`;
          break;
        }
        case DECIDE_WHEN:
          if (seen === null) continue;
          failed = `(s${decision.trigger >> 5} & ${1 << (decision.trigger & 31)}) !== 0 && ${isSet(decision.flag)}`;
          break;
        case DECIDE_UNEVALUATED:
          // Decided for objects only; an object shape with the rule is not written (objectCode).
          if (kind !== OBJECT) continue;
          return null;
        default:
          if (kind !== ARRAY) continue;
          return null;
      }
      code += `  if (${failed}) { ${fail} }\n`;
    }
    return code;
  }

  private objectCode(shape: Shape): string | null {
    if (shape.unsure || (shape.judgedWhole & OBJECT) !== 0 || shape.extras || shape.keyNameNodes.length > 0 || shape.memberSources.rules.length > 0) {
      return '  return -1;';
    }
    const text = this.programs.mode === 'text';
    const {limits} = this.programs;
    const flags = this.flagWords(shape);
    const names = namesOf(shape);
    // A switch compares a name with each case in turn: past a few dozen, a map finds it sooner.
    const listed = names.length <= MAX_LISTED_NAMES ? names : [];
    const words = (count: number, letter: string): string => (count > 0 ? `let ${Array.from({length: count}, (_, word) => `${letter}${word} = 0`).join(', ')};` : '');
    let code = `  let count = 0;
  ${flags}
  ${words(shape.presenceWords, 's')}
  ${text ? `${words(wordsFor(listed.length), 'k')}\n  let c = 0, keys = null;` : 'const prototype = getPrototypeOf(v);\n  if (prototype !== objectPrototype && prototype !== null) return -1;\n  let members = 0;'}
`;
    for (const target of shape.objectFails) {
      const fail = this.fail(target);
      code += `  ${fail}\n`;
    }
    const unlisted = this.programs.lookup(shape, listed);
    const lookup = this.constant(unlisted);
    const shapeConstant = this.constant(shape);
    const programs = this.constant(this.programs);
    // The value's arguments: a parsed value, or where it starts in the text.
    const value = text ? 't, i, H, d + 1, T' : 'x, H, d + 1, T';
    // A name the schema does not know: where no source tells such names apart, all of them have
    // one member, whose program one slot keeps; else each is looked up by name.
    const otherSlot = shape.memberSources.tellsOtherNamesApart ? null : this.constant(new MemberSlot());
    const other =
      otherSlot === null ? `${programs}.named(${shapeConstant}, ${lookup}.table, name, H)(${value})` : `(${otherSlot}.program ?? ${programs}.fill(${otherSlot}, ${shapeConstant}, name, H))(${value})`;
    const known =
      unlisted.entries.size === 0
        ? `        r = ${other};\n`
        : `        const entry = ${lookup}.entries.get(name);
        if (entry === undefined) r = ${other};
        else {
${presenceOf('entry.bit', shape.presenceWords)}          r = (entry.program ?? ${programs}.fill(entry, ${shapeConstant}, name, H))(${value});
        }
`;
    const dead = listed.length > 0 ? deadFlags(shape) : null;
    let cases = '';
    listed.forEach((name, index) => {
      const bit = shape.presenceBits.get(name);
      // A repeated key is refused (RFC 7493 §2.3), as by the checker; a parsed value has none.
      const repeated = text ? `if ((k${index >> 5} & ${1 << (index & 31)}) !== 0) return -1; k${index >> 5} |= ${1 << (index & 31)}; ` : '';
      const presence = bit !== undefined ? `s${bit >> 5} |= ${1 << (bit & 31)}; ` : '';
      // Written on first call, as every other program: writing them all now would recurse as deep
      // as the schema nests, and through its cycles.
      const slot = this.constant(new MemberSlot());
      const literal = JSON.stringify(name);
      const whole = `(${slot}.program ?? ${programs}.fill(${slot}, ${shapeConstant}, ${literal}, H))`;
      // `relevant` is -1 until the first call with a flag set has worked it out: a member none of
      // whose subschemas fails to a flag of word 0 then costs one test.
      const program = dead === null ? whole : `((dead & ${slot}.relevant) === 0 ? ${whole} : ${programs}.live(${slot}, ${shapeConstant}, ${literal}, H, dead))`;
      cases += `      case ${text ? index : literal}: ${repeated}${presence}r = ${program}(${value}); break;\n`;
    });
    const dispatch = `    let r;
${dead === null ? '' : `    const dead = ${dead};\n`}${text ? nameIndex(listed) : ''}    switch (${text ? 'n' : 'name'}) {
${cases}      default: {
${text ? `        if (!(keys ??= T.keysAt(d)).add(name)) return -1;\n` : ''}${known}      }
    }
    if (r < 0) return -1;
`;
    if (text) {
      code += `  i++;
  ${WHITESPACE}
  if (c === ${Ch.CloseBrace}) i++;
  else for (;;) {
    if (c !== ${Ch.Quote} || ++count > ${limits.maxProperties}) return -1;
    const to = T.reader.stringEnd(t, i + 1, ${limits.maxKeyLength});
    if (to < 0) return -1;
    const name = T.reader.escaped ? ${this.constant(decodeString)}(t, i + 1, to) : t.slice(i + 1, to);
    i = to + 1;
    ${WHITESPACE}
    if (c !== ${Ch.Colon}) return -1;
    i++;
    ${WHITESPACE}
${dispatch}    i = r;
${nextOrClose(Ch.CloseBrace)}  }
`;
    } else {
      code += `  for (const name in v) {
    // Every own property counts against maxProperties (as Object.keys); one whose value is
    // undefined is not there (as JSON.stringify).
    if (++count > ${limits.maxProperties}) return -1;
    const x = v[name];
    if (x === undefined) continue;
    if (name.length > ${limits.maxKeyLength}) return -1;
    members++;
${dispatch}  }
`;
    }
    for (let i = 0; i < shape.presenceMasks.length; i++) {
      const fail = this.fail(shape.presenceTargets[i]!);
      const trigger = shape.presenceTriggers[i]!;
      const all = shape.presenceMasks[i]!.map((mask, word) => `(s${word} & ${mask}) === ${mask}`).join(' && ') || 'true';
      const holds = trigger >= 0 ? `(s${trigger >> 5} & ${1 << (trigger & 31)}) === 0 || (${all})` : all;
      code += `  if (!(${holds})) { ${fail} }\n`;
    }
    const members = text ? 'count' : 'members';
    for (let i = 0; i < shape.propertyTargets.length; i++) {
      const fail = this.fail(shape.propertyTargets[i]!);
      code += `  if (${members} < ${shape.propertyBounds[2 * i]} || ${members} > ${shape.propertyBounds[2 * i + 1]}) { ${fail} }\n`;
    }
    const decisions = this.decisions(shape, OBJECT, shape.presenceWords);
    if (decisions === null) return null;
    return code + decisions + (text ? '  return i;' : '  return 0;');
  }

  private arrayCode(shape: Shape): string | null {
    if (shape.unsure || (shape.judgedWhole & ARRAY) !== 0 || shape.extras || shape.itemSources.rules.length > 0) {
      return '  return -1;';
    }
    const text = this.programs.mode === 'text';
    const flags = this.flagWords(shape);
    let code = `  ${flags}\n`;
    for (const target of shape.arrayFails) {
      const fail = this.fail(target);
      code += `  ${fail}\n`;
    }
    const itemAt = (index: string): string => `${this.constant(this.programs)}.item(${this.constant(shape)}, ${this.constant([])}, ${index})`;
    // Past the items the keywords tell apart, one program judges every item: asked for once.
    const {alikeFrom} = shape.itemSources;
    let item = itemAt('length');
    if (alikeFrom !== Infinity) {
      item = `(length < ${alikeFrom} ? ${item} : (alike ??= ${itemAt(String(alikeFrom))}))`;
      code += '  let alike = null;\n';
    }
    if (text) {
      code += `  let length = 0, c = 0;
  i++;
  ${WHITESPACE}
  if (c === ${Ch.CloseBracket}) i++;
  else for (;;) {
    const r = ${item}(t, i, H, d + 1, T);
    length++;
    if (r < 0) return -1;
    i = r;
${nextOrClose(Ch.CloseBracket)}  }
`;
    } else {
      // The length read at each item, as the checker and the evaluator read it: a getter may grow the array.
      code += `  let length = 0;
  for (; length < v.length; length++) {
    if (${item}(v[length], H, d + 1, T) < 0) return -1;
  }
`;
    }
    for (let i = 0; i < shape.itemTargetsOfBounds.length; i++) {
      const fail = this.fail(shape.itemTargetsOfBounds[i]!);
      code += `  if (length < ${shape.itemBounds[2 * i]} || length > ${shape.itemBounds[2 * i + 1]}) { ${fail} }\n`;
    }
    const decisions = this.decisions(shape, ARRAY, null);
    if (decisions === null) return null;
    return code + decisions + (text ? '  return i;' : '  return 0;');
  }
}

/** Whitespace skipped (RFC 8259 §2), the next character in `c`. */
const WHITESPACE = `while ((c = t.charCodeAt(i)) === ${Ch.Space} || c === ${Ch.LF} || c === ${Ch.CR} || c === ${Ch.Tab}) i++;`;

/** After a member or item: a comma and the next, or `close` and the container's end (RFC 8259 §4, §5). */
function nextOrClose(close: number): string {
  return `    ${WHITESPACE}
    if (c === ${Ch.Comma}) {
      i++;
      ${WHITESPACE}
      continue;
    }
    if (c !== ${close}) return -1;
    i++;
    break;
`;
}

/** Some keyword of `node` has no `accepts`: it is there for objects or arrays (`properties`, `items`...). */
const judgesContainers = (node: SchemaNode): boolean => node.keywords.some((keyword) => keyword.definition.accepts === undefined);

/** Code that sets presence bit `bit` (an expression; -1: none) among `words` words s0, s1... */
function presenceOf(bit: string, words: number): string {
  if (words === 0) return '';
  const cases = Array.from({length: words}, (_, word) => `case ${word}: s${word} |= 1 << (${bit} & 31); break; `).join('');
  return `          if (${bit} >= 0) switch (${bit} >> 5) { ${cases}}\n`;
}

/**
 * Text programs: the index in `names` of the key `name`, in `n` (-1 for none), found by its length,
 * then by a character that tells names of one length apart, then by one comparison. A key sliced
 * from the text is not an interned string, so a switch on it compared it with each name in turn.
 * Keys of a parsed value (value mode) are interned: a switch on them compares pointers.
 */
function nameIndex(names: readonly string[]): string {
  const byLength = new Map<number, number[]>();
  names.forEach((name, index) => byLength.set(name.length, [...(byLength.get(name.length) ?? []), index]));
  const compare = (indexes: readonly number[]): string =>
    indexes.map((index) => `if (name === ${JSON.stringify(names[index])}) n = ${index};`).join(' else ');
  let code = '    let n = -1;\n    switch (name.length) {\n';
  for (const [length, indexes] of byLength) {
    if (indexes.length === 1) {
      code += `      case ${length}: ${compare(indexes)} break;\n`;
      continue;
    }
    // The position where the names of this length differ most.
    let position = 0;
    let most = 0;
    for (let at = 0; at < length; at++) {
      const distinct = new Set(indexes.map((index) => names[index]!.charCodeAt(at))).size;
      if (distinct > most) [position, most] = [at, distinct];
    }
    const byCode = new Map<number, number[]>();
    for (const index of indexes) {
      const code = names[index]!.charCodeAt(position);
      byCode.set(code, [...(byCode.get(code) ?? []), index]);
    }
    code += `      case ${length}: switch (name.charCodeAt(${position})) {\n`;
    for (const [charCode, group] of byCode) code += `        case ${charCode}: ${compare(group)} break;\n`;
    code += '      } break;\n';
  }
  return `${code}    }\n`;
}

/** A member's target as a bit of word 0 of the enclosing object's flags, or 0 (the document, another word, another level). */
function flagBit(target: Target): number {
  return target !== DOCUMENT && levelsUp(target) === 1 && flagOf(target) < 32 ? 1 << flagOf(target) : 0;
}

/**
 * The flags of word 0 of `shape`'s objects that no longer matter, as an expression on `f` (see
 * Programs.live), or null where the shape has none to read: those set, and the flag of each `if`'s
 * `then` once the `if` has failed, where no other decision reads it.
 */
function deadFlags(shape: Shape): string | null {
  if (shape.flagWords === 0) return null;
  const readers = new Map<number, number>();
  const read = (flag: number): void => void readers.set(flag, (readers.get(flag) ?? 0) + 1);
  for (const decision of shape.decisions) {
    decision.masks.forEach((mask, word) => {
      for (let bit = 0; bit < 32; bit++) if ((mask & (1 << bit)) !== 0) read(word * 32 + bit);
    });
    for (const flag of [decision.flag, decision.thenFlag, decision.elseFlag]) if (flag >= 0) read(flag);
  }
  let code = 'f[0]';
  for (const decision of shape.decisions) {
    const {flag, thenFlag} = decision;
    if (decision.mode !== DECIDE_IF || flag >= 32 || thenFlag < 0 || thenFlag >= 32 || readers.get(thenFlag) !== 1) continue;
    code += ` | ((f[0] & ${1 << flag}) !== 0 ? ${1 << thenFlag} : 0)`;
  }
  return code;
}

/** The property names of objects of `shape` the schema knows: those with a presence bit, and those its keywords name (Sources.names). */
function namesOf(shape: Shape): string[] {
  const names = new Set<string>(shape.presenceBits.keys());
  for (const name of shape.memberSources.names) names.add(name);
  return [...names];
}
