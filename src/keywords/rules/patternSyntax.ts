// The syntax of a `pattern` as the checks on patterns read it (exponential.ts, inPlacePattern.ts):
// its alternatives, each a list of atoms with their quantifiers.
//
// The pattern has compiled with the `u` flag already, so its syntax is valid ECMA-262 Unicode mode
// (§22.2.1): a `{` after an atom is a quantifier, classes do not nest, and there are no Annex B
// leniencies.

/** One atom of a pattern, with its quantifier. */
export interface Term {
  readonly atom: Atom;
  /** The source of the atom alone (a character, a class, an escape, a group). */
  readonly source: string;
  readonly min: number;
  readonly max: number;
}

export type Atom =
  /** A literal character. */
  | {readonly kind: 'character'; readonly character: string}
  /** Any other atom that matches one character: a class, `.`, `\d`, `\p{L}`, `\u0041`... */
  | {readonly kind: 'set'}
  /** A group (capturing or not) or a lookaround: its alternatives. */
  | {readonly kind: 'group'; readonly alternatives: readonly (readonly Term[])[]; readonly lookaround: boolean}
  /** `^`, `$`, `\b`, `\B`: match no character. */
  | {readonly kind: 'assertion'}
  | {readonly kind: 'backreference'};

/** The term repeats or may be absent: it has a quantifier other than `{1}`. */
export const isQuantified = (term: Term): boolean => term.min !== 1 || term.max !== 1;

/** Characters that stand for themselves only when escaped (ECMA-262 §22.2.1, SyntaxCharacter). */
const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const CONTROL_ESCAPES: Readonly<Record<string, string>> = {t: '\t', n: '\n', v: '\v', f: '\f', r: '\r'};

/** Thrown where the parser cannot read the source through: no check may then answer for it. */
class Unread extends Error {}

class Parser {
  at = 0;

  constructor(private readonly source: string) {}

  /** Alternatives up to the end of the source or the `)` that closes the group being read. */
  alternatives(): Term[][] {
    const alternatives: Term[][] = [[]];
    while (this.at < this.source.length) {
      const char = this.source[this.at]!;
      if (char === ')') break;
      if (char === '|') {
        this.at++;
        alternatives.push([]);
        continue;
      }
      alternatives[alternatives.length - 1]!.push(this.term());
    }
    return alternatives;
  }

  private term(): Term {
    const start = this.at;
    const atom = this.atom();
    const source = this.source.slice(start, this.at);
    const [min, max] = this.quantifier();
    return {atom, source, min, max};
  }

  private atom(): Atom {
    const char = this.source[this.at++]!;
    switch (char) {
      case '^':
      case '$':
        return {kind: 'assertion'};
      case '.':
        return {kind: 'set'};
      case '[':
        this.skipClass();
        return {kind: 'set'};
      case '(':
        return this.group();
      case '\\':
        return this.escape();
      default: {
        // A surrogate pair is one character in Unicode mode; a lone surrogate is one by itself.
        const next = this.source.charCodeAt(this.at);
        if (char >= '\ud800' && char <= '\udbff' && next >= 0xdc00 && next <= 0xdfff) return {kind: 'character', character: char + this.source[this.at++]};
        return {kind: 'character', character: char};
      }
    }
  }

  private group(): Atom {
    let lookaround = false;
    if (this.source[this.at] === '?') {
      const kind = this.source[this.at + 1];
      if (kind === ':') this.at += 2;
      else if (kind === '=' || kind === '!') ((this.at += 2), (lookaround = true));
      else if (kind === '<' && (this.source[this.at + 2] === '=' || this.source[this.at + 2] === '!')) ((this.at += 3), (lookaround = true));
      // A named group: `(?<name>`.
      else this.at = this.after('>');
    }
    const alternatives = this.alternatives();
    if (this.source[this.at] !== ')') throw new Unread();
    this.at++;
    return {kind: 'group', alternatives, lookaround};
  }

  private escape(): Atom {
    const char = this.source[this.at++]!;
    if (char === 'b' || char === 'B') return {kind: 'assertion'};
    if (char >= '1' && char <= '9') return {kind: 'backreference'};
    if (char === 'k') {
      this.at = this.after('>');
      return {kind: 'backreference'};
    }
    if (SYNTAX.has(char) || char === '-') return {kind: 'character', character: char};
    if (char in CONTROL_ESCAPES) return {kind: 'character', character: CONTROL_ESCAPES[char]!};
    // `\p{…}`, `\u{…}`: to the brace; `\uXXXX`, `\xHH`, `\cX`, `\0`, `\d`...: their own length.
    if ((char === 'p' || char === 'P' || char === 'u') && this.source[this.at] === '{') this.at = this.after('}');
    else if (char === 'u') this.at += 4;
    else if (char === 'x') this.at += 2;
    else if (char === 'c') this.at += 1;
    if (this.at > this.source.length) throw new Unread();
    return {kind: 'set'};
  }

  private skipClass(): void {
    while (this.source[this.at] !== ']') {
      if (this.at >= this.source.length) throw new Unread();
      this.at += this.source[this.at] === '\\' ? 2 : 1;
    }
    this.at++;
  }

  /** Where the next `char` from here ends. */
  private after(char: string): number {
    const at = this.source.indexOf(char, this.at);
    if (at < 0) throw new Unread();
    return at + 1;
  }

  /** The bounds of the quantifier after an atom ([1, 1] when there is none); a lazy `?` is read too. */
  private quantifier(): [number, number] {
    const char = this.source[this.at];
    let bounds: [number, number];
    if (char === '*') bounds = [0, Infinity];
    else if (char === '+') bounds = [1, Infinity];
    else if (char === '?') bounds = [0, 1];
    else if (char === '{') {
      const close = this.after('}') - 1;
      const [low, high] = this.source.slice(this.at + 1, close).split(',');
      bounds = [Number(low), high === undefined ? Number(low) : high === '' ? Infinity : Number(high)];
      this.at = close;
    } else return [1, 1];
    this.at++;
    if (this.source[this.at] === '?') this.at++;
    return bounds;
  }
}

/**
 * The alternatives of `source`, a pattern that compiled with the `u` flag; undefined where this
 * reader cannot read it through (a form it does not know, a nesting past the stack), so that no
 * check answers for it.
 */
export function parsePattern(source: string): Term[][] | undefined {
  const parser = new Parser(source);
  try {
    const alternatives = parser.alternatives();
    return parser.at === source.length ? alternatives : undefined;
  } catch (error) {
    // A RangeError: groups nested past the stack, which V8's own parser takes.
    if (error instanceof Unread || error instanceof RangeError) return undefined;
    throw error;
  }
}

/** The single-character atom `source` matches `character`. */
export function matchesOne(source: string, character: string): boolean {
  return new RegExp(`^(?:${source})$`, 'u').test(character);
}
