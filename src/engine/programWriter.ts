// The source of generated programs (src/engine/programs.ts): a Writer reads one member's shape as
// the checker reads it (src/engine/checker.ts) and writes, rule for rule, the code that does what
// the checker does with it, with the helpers that code calls. Programs makes functions of that
// source, keeps them and hands them out; this file only writes text.
//
// Property names and other text of the schema reach the code only as JSON string literals; every
// other constant (a keyword, its `accepts`, a shape) is passed in, never written into the source.

import {ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, type CompiledKeyword, type SchemaNode} from '../schema/node.js';
import {HeldScalar} from './scalar.js';
import {
  DECIDE_IF,
  DECIDE_NONE,
  DECIDE_ONE,
  DECIDE_SOME,
  DECIDE_UNEVALUATED,
  DECIDE_UNEVALUATED_ITEMS,
  DECIDE_WHEN,
  DOCUMENT,
  type Member,
  type Shape,
  type Target,
  bitCount,
  flagOf,
  levelsUp,
  masksOf,
  wordsFor,
} from './shape.js';
import {Ch} from '../json/grammar.js';
import {decodeString} from '../json/scanner.js';
import {failsAtClose} from './decisions.js';
import {isWithinDoubleRange, numberEnd} from '../json/numbers.js';
import type {Limits} from '../types.js';
import type {Accepts, ScalarPlans} from './scalarPlan.js';

/** Property names a program lists in its code; past these, it looks each up in a map (NameLookup). */
const MAX_LISTED_NAMES = 24;

/**
 * What a Writer reads of the Programs it writes for (src/engine/programs.ts), which is handed to
 * the code as a constant, and whose methods the code calls to find the programs it calls in turn.
 */
export interface WriterContext {
  readonly mode: 'value' | 'text';
  readonly limits: Required<Limits>;
  /** How deep a value may nest before the checker (and its bound) takes over: the code recurses. */
  readonly maxDepth: number;
  readonly plans: ScalarPlans;
  shape(member: Member): Shape;
  /** Where the programs for names of `shape` not in `listed` are found (a NameLookup). */
  lookup(shape: Shape, listed: readonly string[]): {readonly entries: ReadonlyMap<string, unknown>};
  /** A slot for the program of a name the code lists (a MemberSlot). */
  slot(): unknown;
  /** The member of items at `index` (an alike index: Sources.alike) in arrays of `shape`. */
  itemMemberOf(shape: Shape, index: number): Member;
}

/** Writes one program's source: a function per value kind, from the member's shape. */
export class Writer {
  /** The values the code refers to as C0, C1...: given to the function made from it (Programs.written). */
  readonly constants: unknown[] = [];

  constructor(
    private readonly programs: WriterContext,
    private readonly member: Member,
    /** Only the objects and arrays at the member: a leaf's scalars are its own program's. */
    private readonly containersOnly = false,
  ) {}

  private constant(value: unknown): string {
    this.constants.push(value);
    return `C${this.constants.length - 1}`;
  }

  /**
   * What a failure to `target` does, from the code of a value at depth `d` (or of a container at
   * `d` for its member `below` levels down): -1 at the document, else the flag set, in the value's
   * own flags (`f`) or in those of a container some levels up.
   */
  private fail(target: Target, below = 0): string {
    if (target === DOCUMENT) return 'return -1;';
    const up = levelsUp(target) - below;
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
      return `
${helpers}
return function program(t, i, H, d, T) {
  let kind;
  let end;
${this.textKind(`if (d >= ${depth}) return -1;
    return c === ${Ch.OpenBrace} ? judgeObject(t, i, H, d, T) : judgeArray(t, i, H, d, T);`)}
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
${this.valueKind(`if (d >= ${depth}) return -1;
      return isArray(x) ? judgeArray(x, H, d, T) : judgeObject(x, H, d, T);`)}
${scalar}
  return 0;
};`;
  }

  /**
   * Text mode: the kind of the JSON value at `i` in `kind`, and where it ends in `end`, a scalar
   * held by H (RFC 8259 §3, §6, §7, read as the TextScanner reads them); what the scanner refuses
   * returns -1; `container`: the code for an object or array, whose first character is `c`.
   */
  private textKind(container: string): string {
    const {limits} = this.programs;
    const reader = 'T.reader';
    const inexact = limits.inexactNumbers === 'reject' ? `    if (!${this.constant(isWithinDoubleRange)}(t.slice(i, end))) return -1;\n` : '';
    return `  const c = t.charCodeAt(i);
  if (c === ${Ch.Quote}) {
    end = ${reader}.stringEnd(t, i + 1, ${limits.maxStringLength});
    if (end < 0) return -1;
    kind = ${STRING};
    H.holdRange(t, i + 1, end, ${reader}.escaped);
    end++;
  } else if (c === ${Ch.OpenBrace} || c === ${Ch.OpenBracket}) {
    ${container}
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
  } else return -1;`;
  }

  /**
   * Value mode: the kind of the parsed value `x` in `kind`, a scalar held by H; what is not JSON
   * within the limits returns -1; `object`: the code for an object or array.
   */
  private valueKind(object: string): string {
    return `  switch (typeof x) {
    case 'string':
      if (x.length > ${this.programs.limits.maxStringLength}) return -1;
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
      ${object}
    default:
      return -1;
  }`;
  }

  /**
   * A scalar (in `kind`, held by H) at this member: its `accepts` in one run (the common leaf),
   * else as the checker's judgeScalar does from the shape, with flags of its own level.
   */
  private scalar(): string | null {
    const {member} = this;
    if (member.accepts !== null) return this.memberAccepts(member, 0, '  ');
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
    code += this.acceptsCode(shape.scalarAccepts, shape.scalarAcceptsKeywords, shape.scalarAcceptsTargets, 0, '  ');
    const decisions = this.decisions(shape, 0, null);
    if (decisions === null) return null;
    return code + decisions;
  }

  /**
   * The `accepts` of `member`, the leaf that judges property names (`propertyNames`), run on
   * `name` in the code of its object: its failures go to flags from one level below. A name the
   * code lists (`listed`) that passes them now needs no code: the verdict is the name's alone,
   * unless a function of the caller's gives it (acceptsKeepable), as the checker keeps it.
   */
  private nameCheck(member: Member, listed: string | null): string {
    const accepts = member.accepts!;
    if (listed !== null && member.acceptsKeepable) {
      const held = new HeldScalar();
      held.holdString(listed);
      if (accepts.every((accept, i) => accept(member.acceptsKeywords[i]!, STRING, held))) return '';
    }
    return `H.holdString(name);\n${this.memberAccepts(member, 1, '        ', String(STRING))}`;
  }

  /**
   * Each of `accepts` (with its keyword) on the scalar of `kind` (an expression) held by H, its
   * failure to its target: from the code of the scalar's own value, or of its container `below`
   * levels up.
   */
  private acceptsCode(accepts: readonly Accepts[], keywords: readonly CompiledKeyword[], targets: readonly Target[], below: number, indent: string, kind = 'kind'): string {
    let code = '';
    for (let i = 0; i < accepts.length; i++) {
      const fail = this.fail(targets[i]!, below);
      code += `${indent}if (!${this.constant(accepts[i])}(${this.constant(keywords[i])}, ${kind}, H)) { ${fail} }\n`;
    }
    return code;
  }

  /** The `accepts` of leaf `member` (Member.accepts), as acceptsCode writes them. */
  private memberAccepts(member: Member, below: number, indent: string, kind = 'kind'): string {
    return this.acceptsCode(member.accepts!, member.acceptsKeywords, member.acceptsTargets, below, indent, kind);
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
        case DECIDE_UNEVALUATED_ITEMS:
          // The members held back in `h` (objectCode, arrayCode), as the checker decides on them.
          if (kind !== (decision.mode === DECIDE_UNEVALUATED ? OBJECT : ARRAY)) continue;
          failed = `h !== null && ${this.constant(failsAtClose)}(${this.constant(decision)}, ${kind}, f, ${kind === OBJECT ? 'h.seen' : this.constant(NO_PRESENCE)}, h.rules, h.conditions)`;
          break;
        default:
          return null;
      }
      code += `  if (${failed}) { ${fail} }\n`;
    }
    return code;
  }

  private objectCode(shape: Shape): string | null {
    if (shape.unsure || (shape.judgedWhole & OBJECT) !== 0) return '  return -1;';
    const text = this.programs.mode === 'text';
    const {limits} = this.programs;
    const flags = this.flagWords(shape);
    const names = namesOf(shape);
    // A switch compares a name with each case in turn: past a few dozen, a map finds it sooner.
    const listed = names.length <= MAX_LISTED_NAMES ? names : [];
    const words = (count: number, letter: string): string => (count > 0 ? `let ${Array.from({length: count}, (_, word) => `${letter}${word} = 0`).join(', ')};` : '');
    const {rules, ruleFlags} = shape.memberSources;
    let code = `  let count = 0;
  ${flags}
  ${words(shape.presenceWords, 's')}
  ${text ? `${words(wordsFor(listed.length), 'k')}\n  let c = 0, keys = null;` : 'const prototype = getPrototypeOf(v);\n  if (prototype !== objectPrototype && prototype !== null) return -1;\n  let members = 0;'}
  ${rules.length > 0 ? 'let h = null;' : ''}
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
    // `propertyNames`: each name judged as a string, as the value of a member would be, one level
    // below the object (Shape.keyNamesMemberOf): where that member is a leaf, by its `accepts`
    // here (nameCheck), else by its program, which a text program has read the name again from
    // its quote.
    const keyNames = shape.keyNameNodes.length === 0 ? null : shape.keyNamesMemberOf(this.programs.plans);
    let keyNamesCall = '';
    if (keyNames !== null && keyNames.accepts === null) {
      const slot = this.constant({program: null});
      keyNamesCall = `    if ((${slot}.program ?? ${programs}.keyNames(${slot}, ${shapeConstant}))(${text ? 't, i' : 'name'}, H, d + 1, T) < 0) return -1;\n`;
    }
    const nameCheck = (name: string | null): string => (keyNames === null || keyNames.accepts === null ? '' : this.nameCheck(keyNames, name));
    // With `unevaluatedProperties` beside conditional sources, the member of each name (M) is
    // wanted when its value failed the rule's subschema (see held).
    const member = (expression: string): string => (rules.length > 0 ? `M = ${expression}; ` : '');
    // A name the schema does not know: where no source tells such names apart, all of them have
    // one member, whose program one slot keeps; else each is looked up by name.
    const otherSlot = shape.memberSources.tellsOtherNamesApart ? null : this.constant(this.programs.slot());
    const other =
      otherSlot === null
        ? `r = ${programs}.named(${shapeConstant}, ${lookup}.table, name, H)(${value}); ${member('null')}`
        : `r = (${otherSlot}.program ?? ${programs}.fill(${otherSlot}, ${shapeConstant}, name, H))(${value}); ${member(`${otherSlot}.member`)}`;
    const known =
      unlisted.entries.size === 0
        ? `        ${other}\n`
        : `        const entry = ${lookup}.entries.get(name);
        if (entry === undefined) { ${other} }
        else {
${presenceOf('entry.bit', shape.presenceWords)}          r = (entry.program ?? ${programs}.fill(entry, ${shapeConstant}, name, H))(${value}); ${member('entry.member')}
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
      const slot = this.constant(this.programs.slot());
      const literal = JSON.stringify(name);
      const whole = `(${slot}.program ?? ${programs}.fill(${slot}, ${shapeConstant}, ${literal}, H))`;
      // `relevant` is -1 until the first call with a flag set has worked it out: a member none of
      // whose subschemas fails to a flag of word 0 then costs one test.
      const program = dead === null ? whole : `((dead & ${slot}.relevant) === 0 ? ${whole} : ${programs}.live(${slot}, ${shapeConstant}, ${literal}, H, dead))`;
      cases += `      case ${text ? index : literal}: ${repeated}${presence}${nameCheck(name)}r = ${program}(${value}); ${member(`${slot}.member`)}break;\n`;
    });
    // An UnevaluatedRule's subschema failed on the value: the member is held back, and the rule's
    // flags are cleared for the next, as the checker's memberEnded and keyValue do.
    const held =
      rules.length === 0
        ? ''
        : `    if (${someSet(ruleFlags)}) {
      h = ${programs}.hold(h ?? T.heldAt(d), ${shapeConstant}, M, name, H, f);
${clearFlags(ruleFlags, '      ')}    }
`;
    const dispatch = `    let r;
${rules.length > 0 ? '    let M = null;\n' : ''}${dead === null ? '' : `    const dead = ${dead};\n`}${text ? nameIndex(listed) : ''}    switch (${text ? 'n' : 'name'}) {
${cases}      default: {
${text ? `        if (!(keys ??= T.keysAt(d)).add(name)) return -1;\n` : ''}${keyNames === null ? '' : `        ${nameCheck(null)}\n`}${known}      }
    }
    if (r < 0) return -1;
${held}`;
    if (text) {
      code += `  i++;
  ${WHITESPACE}
  if (c === ${Ch.CloseBrace}) i++;
  else for (;;) {
    if (c !== ${Ch.Quote} || ++count > ${limits.maxProperties}) return -1;
    const to = T.reader.stringEnd(t, i + 1, ${limits.maxKeyLength});
    if (to < 0) return -1;
    const name = T.reader.escaped ? ${this.constant(decodeString)}(t, i + 1, to) : t.slice(i + 1, to);
${keyNamesCall}    i = to + 1;
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
${keyNamesCall}${dispatch}  }
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
    // The decision on the members held back reads the presence bits (a `dependentSchemas` trigger).
    if (rules.length > 0 && shape.presenceWords > 0) {
      code += `  if (h !== null) { const S = h.seenFor(${shape.presenceWords}); ${Array.from({length: shape.presenceWords}, (_, word) => `S[${word}] = s${word};`).join(' ')} }\n`;
    }
    const decisions = this.decisions(shape, OBJECT, shape.presenceWords);
    if (decisions === null) return null;
    return code + decisions + (text ? '  return i;' : '  return 0;');
  }

  private arrayCode(shape: Shape): string | null {
    if (shape.unsure || (shape.judgedWhole & ARRAY) !== 0) return '  return -1;';
    const text = this.programs.mode === 'text';
    const flags = this.flagWords(shape);
    const {rules, ruleFlags} = shape.itemSources;
    const {tallyBits, distinctTargets} = shape;
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
    // `contains` counts the items that pass its subschema, whose failure goes to the tally's flag;
    // an UnevaluatedRule's subschema fails to the rule's: both are the item's own, cleared as it
    // begins (the checker's itemBegins).
    const clear = clearFlags([...tallyBits, ...ruleFlags], '    ');
    code += tallyBits.map((_, index) => `  let q${index} = 0;\n`).join('');
    if (rules.length > 0) code += '  let h = null;\n';
    if (distinctTargets.length > 0) code += '  const U = T.distinctAt(d);\n';
    // After an item that passed: its value must be new (uniqueItems: the checker decides on a
    // repeated one, or one it cannot tell apart here); the tallies it counts for; the rules that
    // hold it back.
    const index = text ? 'length - 1' : 'length';
    let after = '';
    if (distinctTargets.length > 0) {
      after += text
        ? `    if (!${this.constant(distinctText)}(U, H, t, at, ${this.programs.limits.maxUniqueItems})) return -1;\n`
        : `    if (!${this.constant(distinctValue)}(U, x, ${this.programs.limits.maxUniqueItems})) return -1;\n`;
    }
    tallyBits.forEach((bit, tally) => (after += `    if ((f[${bit >> 5}] & ${1 << (bit & 31)}) === 0) q${tally}++;\n`));
    if (rules.length > 0) {
      after += `    if (${someSet(ruleFlags)}) h = ${this.constant(this.programs)}.holdItem(h ?? T.heldAt(d), ${this.constant(shape)}, ${index}, H, f);\n`;
    }
    // Where every item has one member that is a leaf (`items: {type: 'number'}`), a scalar item is
    // read and judged here by its `accepts`, as its program would, without a call per item: ajv's
    // loop tests an item's type inline too. Objects and arrays still go to the program.
    const leaf = alikeFrom === 0 ? this.programs.itemMemberOf(shape, 0) : null;
    const inline = leaf !== null && leaf.accepts !== null && leaf.acceptsTargets.every((target) => target === DOCUMENT || levelsUp(target) >= 1);
    const indent = (code: string): string => code.replace(/^(?=.)/gm, '    ');
    if (text) {
      const judged = inline
        ? `    let kind = 0, end = -1, r;
    {
${indent(this.textKind(''))}
    }
    if (kind === 0) r = ${item}(t, i, H, d + 1, T);
    else {
${this.memberAccepts(leaf, 1, '      ')}      r = end;
    }
`
        : `    const r = ${item}(t, i, H, d + 1, T);\n`;
      code += `  let length = 0, c = 0;
  i++;
  ${WHITESPACE}
  if (c === ${Ch.CloseBracket}) i++;
  else for (;;) {
${clear}${distinctTargets.length > 0 ? '    const at = i;\n' : ''}${judged}    length++;
    if (r < 0) return -1;
${after}    i = r;
${nextOrClose(Ch.CloseBracket)}  }
`;
    } else {
      const judged = inline
        ? `    let kind = 0;
${indent(this.valueKind('kind = 0;\n      break;'))}
    if (kind === 0) {
      if (${item}(x, H, d + 1, T) < 0) return -1;
    } else {
${this.memberAccepts(leaf, 1, '      ')}    }
`
        : `    if (${item}(x, H, d + 1, T) < 0) return -1;\n`;
      // The length read at each item, as the checker and the evaluator read it: a getter may grow the array.
      code += `  let length = 0;
  for (; length < v.length; length++) {
${clear}    const x = v[length];
${judged}${after}  }
`;
    }
    for (let i = 0; i < shape.itemTargetsOfBounds.length; i++) {
      const fail = this.fail(shape.itemTargetsOfBounds[i]!);
      code += `  if (length < ${shape.itemBounds[2 * i]} || length > ${shape.itemBounds[2 * i + 1]}) { ${fail} }\n`;
    }
    for (let i = 0; i < shape.tallyTargets.length; i++) {
      const fail = this.fail(shape.tallyTargets[i]!);
      code += `  if (q${i} < ${shape.tallyBounds[2 * i]} || q${i} > ${shape.tallyBounds[2 * i + 1]}) { ${fail} }\n`;
    }
    const decisions = this.decisions(shape, ARRAY, null);
    if (decisions === null) return null;
    return code + decisions + (text ? '  return i;' : '  return 0;');
  }
}

/** An array's presence bits, for the decisions on its items held back: it has none, so no condition on a name's presence holds. */
const NO_PRESENCE = new Int32Array(0);

/** Code that tests whether some of the flags `bits` is set in `f`. */
function someSet(bits: readonly number[]): string {
  const words = masksOf(bits).flatMap((mask, word) => (mask === 0 ? [] : [`(f[${word}] & ${mask})`]));
  return `(${words.join(' | ')}) !== 0`;
}

/** Code that clears the flags `bits` in `f`, a line per word. */
function clearFlags(bits: readonly number[], indent: string): string {
  return masksOf(bits)
    .map((mask, word) => (mask === 0 ? '' : `${indent}f[${word}] &= ${~mask};\n`))
    .join('');
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
export function flagBit(target: Target): number {
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
export function namesOf(shape: Shape): string[] {
  const names = new Set<string>(shape.presenceBits.keys());
  for (const name of shape.memberSources.names) names.add(name);
  return [...names];
}

/**
 * `uniqueItems` in the code: the item a text program just passed, starting at `at` (held in
 * `held`), is new among `seen`. Equal JSON values give equal keys: a string its decoded text, a
 * number its double (1.0 and 1, 0 and -0 alike). Values the keys cannot tell apart (a number past
 * a double's precision), containers, and items past `max` (limits.maxUniqueItems) are left to the
 * checker, which fingerprints them: only a pass is trusted.
 */
function distinctText(seen: Set<unknown>, held: HeldScalar, text: string, at: number, max: number): boolean {
  let key: unknown;
  switch (text.charCodeAt(at)) {
    case Ch.Quote:
      key = held.text;
      break;
    case Ch.OpenBrace:
    case Ch.OpenBracket:
      return false;
    case Ch.LowerT:
      key = true;
      break;
    case Ch.LowerF:
      key = false;
      break;
    case Ch.LowerN:
      key = null;
      break;
    default:
      key = held.number();
  }
  return isNew(seen, key, max);
}

/** The same for an item of a parsed value. */
function distinctValue(seen: Set<unknown>, value: unknown, max: number): boolean {
  return (typeof value !== 'object' || value === null) && isNew(seen, value, max);
}

function isNew(seen: Set<unknown>, key: unknown, max: number): boolean {
  if (seen.size >= max || seen.has(key)) return false;
  seen.add(key);
  return true;
}
