// Which regular expressions can take time exponential in the length of the string on a
// backtracking engine (V8's), for the `refuseExponentialPatterns` option (docs/security.md, ReDoS).
// A backtracking engine tries every way a string can be cut into the iterations of a repeated
// group before it gives up, so a group whose iterations can be cut in more than one way costs
// twice as much per character more: `(a+)+`, `(a|a)*`, `(a|ab)*`. A repeated group is accepted
// here when its iterations can only be cut one way:
//
// - it holds no quantifier and no alternation (`(ab)+`): each iteration is one fixed string; or
// - every alternative begins with a literal character, each a different one, and no quantified
//   atom in the group can match any of them (`(-[a-z]+)*`, `(a|b)+`): an iteration can only start
//   at one of those characters, and never inside another iteration's repeated part; or the same
//   with the characters that end the alternatives (`([a-z0-9]+\.)*`).
//
// Anything else in a repeated group is refused, as is a backreference (what it matches is not
// known from the pattern): the check is conservative, and refuses some patterns that are safe. It
// does not refuse patterns that cost polynomial time (`\d*\d*x`, `.*a.*b`): those are bounded by
// `limits.maxStringLength`.
//
// The pattern has compiled with the `u` flag already, so its syntax is valid ECMA-262 Unicode mode
// (§22.2.1): a `{` after an atom is a quantifier, classes do not nest, and there are no Annex B
// leniencies.

/** One atom of a pattern, with its quantifier. */
interface Term {
  readonly atom: Atom;
  /** The source of the atom alone (a character, a class, an escape, a group). */
  readonly source: string;
  readonly min: number;
  readonly max: number;
}

type Atom =
  /** A literal character. */
  | {readonly kind: 'character'; readonly character: string}
  /** Any other atom that matches one character: a class, `.`, `\d`, `\p{L}`, `\u0041`... */
  | {readonly kind: 'set'}
  /** A group (capturing or not) or a lookaround: its alternatives. */
  | {readonly kind: 'group'; readonly alternatives: readonly (readonly Term[])[]; readonly lookaround: boolean}
  /** `^`, `$`, `\b`, `\B`: match no character. */
  | {readonly kind: 'assertion'}
  | {readonly kind: 'backreference'};

/** Characters that stand for themselves only when escaped (ECMA-262 §22.2.1, SyntaxCharacter). */
const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const CONTROL_ESCAPES: Readonly<Record<string, string>> = {t: '\t', n: '\n', v: '\v', f: '\f', r: '\r'};

class Parser {
  private at = 0;

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
      default:
        // A surrogate pair is one character in Unicode mode.
        if (char >= '\ud800' && char <= '\udbff' && this.at < this.source.length) return {kind: 'character', character: char + this.source[this.at++]};
        return {kind: 'character', character: char};
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
      else this.at = this.source.indexOf('>', this.at) + 1;
    }
    const alternatives = this.alternatives();
    this.at++; // `)`
    return {kind: 'group', alternatives, lookaround};
  }

  private escape(): Atom {
    const char = this.source[this.at++]!;
    if (char === 'b' || char === 'B') return {kind: 'assertion'};
    if (char >= '1' && char <= '9') return {kind: 'backreference'};
    if (char === 'k') {
      this.at = this.source.indexOf('>', this.at) + 1;
      return {kind: 'backreference'};
    }
    if (SYNTAX.has(char) || char === '-') return {kind: 'character', character: char};
    if (char in CONTROL_ESCAPES) return {kind: 'character', character: CONTROL_ESCAPES[char]!};
    // `\p{…}`, `\u{…}`: to the brace; `\uXXXX`, `\xHH`, `\cX`, `\0`, `\d`...: their own length.
    if ((char === 'p' || char === 'P' || char === 'u') && this.source[this.at] === '{') this.at = this.source.indexOf('}', this.at) + 1;
    else if (char === 'u') this.at += 4;
    else if (char === 'x') this.at += 2;
    else if (char === 'c') this.at += 1;
    return {kind: 'set'};
  }

  private skipClass(): void {
    while (this.source[this.at] !== ']') this.at += this.source[this.at] === '\\' ? 2 : 1;
    this.at++;
  }

  /** The bounds of the quantifier after an atom ([1, 1] when there is none); a lazy `?` is read too. */
  private quantifier(): [number, number] {
    const char = this.source[this.at];
    let bounds: [number, number];
    if (char === '*') bounds = [0, Infinity];
    else if (char === '+') bounds = [1, Infinity];
    else if (char === '?') bounds = [0, 1];
    else if (char === '{') {
      const close = this.source.indexOf('}', this.at);
      const [low, high] = this.source.slice(this.at + 1, close).split(',');
      bounds = [Number(low), high === undefined ? Number(low) : high === '' ? Infinity : Number(high)];
      this.at = close;
    } else return [1, 1];
    this.at++;
    if (this.source[this.at] === '?') this.at++;
    return bounds;
  }
}

const isQuantified = (term: Term): boolean => term.min !== 1 || term.max !== 1;

/**
 * The part of `source` (a valid Unicode-mode pattern) that can make matching take time exponential
 * in the string, with why, or undefined when there is none.
 */
export function exponentialPart(source: string): string | undefined {
  return alternativesPart(new Parser(source).alternatives());
}

function alternativesPart(alternatives: readonly (readonly Term[])[]): string | undefined {
  for (const alternative of alternatives) {
    for (const term of alternative) {
      const {atom} = term;
      if (atom.kind === 'backreference') return `the backreference ${term.source}`;
      if (atom.kind !== 'group') continue;
      if (term.max > 1) {
        const why = repeatedGroupPart(term, atom.alternatives);
        if (why !== undefined) return why;
      }
      const inner = alternativesPart(atom.alternatives);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** Why the iterations of a repeated group can be cut more than one way, or undefined. */
function repeatedGroupPart(group: Term, alternatives: readonly (readonly Term[])[]): string | undefined {
  const quantified: Term[] = [];
  for (const alternative of alternatives) {
    for (const term of alternative) {
      const why = branchingWithin(term, quantified);
      if (why !== undefined) return `the repeated group ${group.source}${quantifierText(group)} holds ${why}`;
    }
  }
  if (quantified.length === 0 && alternatives.length === 1) return undefined;
  if (cutOneWay(alternatives, quantified, (alternative) => alternative[0]) || cutOneWay(alternatives, quantified, (alternative) => alternative[alternative.length - 1])) return undefined;
  const what = quantified.length > 0 ? `the quantified ${quantified[0]!.source}${quantifierText(quantified[0]!)}` : 'alternatives';
  return `the repeated group ${group.source}${quantifierText(group)} holds ${what}, and its iterations can be cut more than one way`;
}

/**
 * Collects the quantified atoms of `term` (within a repeated group) into `quantified`; says what
 * the check refuses outright there: a quantified group, an alternation below the group's own, a
 * lookaround that quantifies, a backreference.
 */
function branchingWithin(term: Term, quantified: Term[]): string | undefined {
  const {atom} = term;
  if (atom.kind === 'backreference') return `the backreference ${term.source}`;
  if (atom.kind !== 'group') {
    if (isQuantified(term)) quantified.push(term);
    return undefined;
  }
  if (isQuantified(term)) return `the quantified group ${term.source}${quantifierText(term)}`;
  if (atom.alternatives.length > 1) return `the alternation ${term.source}`;
  for (const inner of atom.alternatives[0]!) {
    const why = branchingWithin(inner, quantified);
    if (why !== undefined) return why;
  }
  return undefined;
}

/**
 * Every alternative has at its `end` (first or last term) one literal character, met exactly once,
 * each a different one, and no quantified atom of the group matches any of them.
 */
function cutOneWay(alternatives: readonly (readonly Term[])[], quantified: readonly Term[], end: (alternative: readonly Term[]) => Term | undefined): boolean {
  const delimiters = new Set<string>();
  for (const alternative of alternatives) {
    const term = end(alternative);
    if (term === undefined || term.atom.kind !== 'character' || isQuantified(term) || delimiters.has(term.atom.character)) return false;
    delimiters.add(term.atom.character);
  }
  return quantified.every((term) => ![...delimiters].some((delimiter) => matchesOne(term.source, delimiter)));
}

/** The single-character atom `source` matches `character`. */
function matchesOne(source: string, character: string): boolean {
  return new RegExp(`^(?:${source})$`, 'u').test(character);
}

function quantifierText(term: Term): string {
  if (term.min === 0 && term.max === Infinity) return '*';
  if (term.min === 1 && term.max === Infinity) return '+';
  if (term.min === 0 && term.max === 1) return '?';
  return `{${term.min},${term.max === Infinity ? '' : term.max}}`;
}
