// A `pattern` anchored at both ends (`^X$`, the usual form) matched where a plain JSON string stands
// in the text, without copying its characters out: `(?:X)(?=")`, sticky, run from the string's
// first character. JSON parsed first hands ajv every string made; a text read in place makes only
// the strings a keyword reads, and this spares `pattern` most of those.
//
// The twin gives the pattern's verdict only when X cannot match a quote (no `.`, no class or escape
// that takes `"`, no `"`). A plain string (no escape) holds no quote, so X cannot read past its
// closing quote, and what follows in the text is never reached: matching it costs what matching the
// copy does, and a pattern cannot be made to run over the rest of a document. X also holds no
// assertion that would look past the string's ends (`^`, `$`, `\b`, `\B`, a lookaround), and no
// alternative at its top (`^a|b$` is `(^a)|(b$)`). Then X matches the string's characters
// exactly when it matches from its first one up to the quote after its last: the verdict of
// `^X$` on the copy (ECMA-262 §22.2.2: `$` without the `m` flag is the end of the input, here the
// quote). Anything else has no twin and is run on the copy.

import {isQuantified, matchesOne, parsePattern, type Term} from './patternSyntax.js';

/** `pattern` as a sticky expression to run from a plain string's first character in the text; null where it cannot give the same verdict. */
export function inPlaceTwin(pattern: RegExp): RegExp | null {
  // The flags a compile gives (KeywordContext.regExp); another flag (`m`, `s`...) changes what was reasoned above.
  if (pattern.flags !== 'u') return null;
  const {source} = pattern;
  const alternatives = parsePattern(source);
  if (alternatives === undefined || alternatives.length !== 1) return null;
  const terms = alternatives[0]!;
  const first = terms[0];
  const last = terms[terms.length - 1];
  if (terms.length < 2 || first?.source !== '^' || last?.source !== '$' || isQuantified(first) || isQuantified(last)) return null;
  if (!terms.slice(1, -1).every(staysInString)) return null;
  return new RegExp(`(?:${source.slice(1, -1)})(?=")`, 'uy');
}

/** The term matches no quote and looks at nothing outside what it matches. */
function staysInString(term: Term): boolean {
  const {atom} = term;
  switch (atom.kind) {
    case 'character':
      return atom.character !== '"';
    case 'set':
      return !matchesOne(term.source, '"');
    case 'group':
      return !atom.lookaround && atom.alternatives.every((alternative) => alternative.every(staysInString));
    case 'backreference':
      // It matches what its group matched: characters of the string, by the group's own terms.
      return true;
    case 'assertion':
      return false;
  }
}
