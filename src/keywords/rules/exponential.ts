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

import {isQuantified, matchesOne, parsePattern, type Term} from './patternSyntax.js';

/**
 * The part of `source` (a valid Unicode-mode pattern) that can make matching take time exponential
 * in the string, with why, or undefined when there is none.
 */
export function exponentialPart(source: string): string | undefined {
  const alternatives = parsePattern(source);
  // Refused, as the check is conservative: what it cannot read it cannot call safe.
  if (alternatives === undefined) return 'the pattern itself, which this check cannot read through';
  return alternativesPart(alternatives);
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

function quantifierText(term: Term): string {
  if (term.min === 0 && term.max === Infinity) return '*';
  if (term.min === 1 && term.max === Infinity) return '+';
  if (term.min === 0 && term.max === 1) return '?';
  return `{${term.min},${term.max === Infinity ? '' : term.max}}`;
}
