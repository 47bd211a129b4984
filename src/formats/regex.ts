// JSON Schema validation §7.3.8 (2020-12), §7.3.8 (draft 7): a regular expression in the ECMA-262
// dialect. Compiling with the `u` flag makes the engine apply the strict Unicode-mode grammar
// (ECMA-262 §22.2.1), which rejects Annex B leniencies such as the identity escape `\a`.
//
// The engine builds the code point set of every property escape (`\p{…}`, `\P{…}`) as it parses:
// hundreds of ranges for `\p{L}`, so 100 KB of them took seconds. Whether such an escape is valid
// depends on its name and value alone (ECMA-262 §22.2.1.1, early errors of
// UnicodePropertyValueExpression), and where it may stand depends only on its being a
// CharacterClassEscape (in Unicode mode a class range with one at either end is an error whichever
// it is). So each distinct escape is checked once on its own, and the engine parses the pattern
// with every valid one replaced by `\d`: a CharacterClassEscape too, whose set is one range and
// needs no property lookup.

const REPLACEMENT = '\\d';

/**
 * Property escapes found valid, as written (`p{L}`). Only valid ones are kept: ECMA-262 accepts
 * only the property names, aliases and values its tables list, exactly as spelt (no loose
 * matching), a couple of thousand spellings at most; the cap only guards against an engine that
 * accepts more.
 */
const validEscapes = new Set<string>();
const MAX_REMEMBERED_ESCAPES = 4096;

function isValidPropertyEscape(escape: string): boolean {
  if (validEscapes.has(escape)) return true;
  if (!compiles(`\\${escape}`)) return false;
  if (validEscapes.size < MAX_REMEMBERED_ESCAPES) validEscapes.add(escape);
  return true;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * `pattern` with each valid property escape replaced (see above), or undefined when one is
 * invalid (the pattern is then invalid too). Escapes are read pairwise, so `\\p{L}` is an escaped
 * backslash and the text `p{L}`, which the engine judges as written.
 */
function withCheapPropertyEscapes(pattern: string): string | undefined {
  let rebuilt = '';
  let copiedUpTo = 0;
  for (let index = pattern.indexOf('\\'); index !== -1; index = pattern.indexOf('\\', index)) {
    const letter = pattern[index + 1];
    if ((letter !== 'p' && letter !== 'P') || pattern[index + 2] !== '{') {
      index += 2;
      continue;
    }
    const close = pattern.indexOf('}', index + 3);
    if (close === -1) break;
    if (!isValidPropertyEscape(pattern.slice(index + 1, close + 1))) return undefined;
    rebuilt += pattern.slice(copiedUpTo, index) + REPLACEMENT;
    copiedUpTo = index = close + 1;
  }
  return copiedUpTo === 0 ? pattern : rebuilt + pattern.slice(copiedUpTo);
}

export function isRegex(value: string): boolean {
  const pattern = withCheapPropertyEscapes(value);
  return pattern !== undefined && compiles(pattern);
}
