// RFC 5892 §2-§3: the IDNA2008 derived property of a code point, computed from the Unicode
// properties JavaScript exposes (the Unicode version of the running engine).

export type DerivedProperty = 'PVALID' | 'CONTEXTJ' | 'CONTEXTO' | 'DISALLOWED' | 'UNASSIGNED';

/** RFC 5892 §2.6 Exceptions (F). */
const exceptions = new Map<number, DerivedProperty>([
  // PVALID: sharp s, final sigma, Tibetan tsheg, ideographic zero, two Arabic signs.
  [0x00df, 'PVALID'], [0x03c2, 'PVALID'], [0x06fd, 'PVALID'], [0x06fe, 'PVALID'], [0x0f0b, 'PVALID'], [0x3007, 'PVALID'],
  // CONTEXTO: each has a rule in RFC 5892 Appendix A (see idna-context.ts).
  [0x00b7, 'CONTEXTO'], [0x0375, 'CONTEXTO'], [0x05f3, 'CONTEXTO'], [0x05f4, 'CONTEXTO'], [0x30fb, 'CONTEXTO'],
  ...Array.from({ length: 10 }, (_, digit): [number, DerivedProperty] => [0x0660 + digit, 'CONTEXTO']),
  ...Array.from({ length: 10 }, (_, digit): [number, DerivedProperty] => [0x06f0 + digit, 'CONTEXTO']),
  // DISALLOWED: tatweel, NKo lajanyalan, Hangul tone marks, vertical kana repeat marks, vertical ideographic iteration mark.
  [0x0640, 'DISALLOWED'], [0x07fa, 'DISALLOWED'], [0x302e, 'DISALLOWED'], [0x302f, 'DISALLOWED'],
  [0x3031, 'DISALLOWED'], [0x3032, 'DISALLOWED'], [0x3033, 'DISALLOWED'], [0x3034, 'DISALLOWED'],
  [0x3035, 'DISALLOWED'], [0x303b, 'DISALLOWED'],
]);

const unassignedPattern = /^\p{Cn}$/u;
const noncharacterPattern = /^\p{Noncharacter_Code_Point}$/u;
const ldhPattern = /^[a-z0-9-]$/;
const joinControlPattern = /^\p{Join_Control}$/u;
// §2.3 IgnorableProperties (C).
const ignorablePropertiesPattern = /^[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Noncharacter_Code_Point}]$/u;
// §2.1 LetterDigits (A).
const letterDigitsPattern = /^[\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}]$/u;
const cherokeePattern = /^\p{Script=Cherokee}$/u;

/**
 * Unicode full case folding (CaseFolding.txt, statuses C and F), which JavaScript has no API for.
 * Lowercasing the uppercase form agrees with it except for two cases: Cherokee folds to uppercase,
 * and dotless i has only a Turkic folding, so it folds to itself. (Checked against Python's
 * str.casefold for every code point of Unicode 14.)
 */
function caseFold(text: string): string {
  if (text === '\u0131') return text;
  if (cherokeePattern.test(text)) return text.toUpperCase();
  return text.toUpperCase().toLowerCase();
}

/** §2.2 Unstable (B): toNFKC(toCaseFold(toNFKC(cp))) != cp. */
function isUnstable(character: string): boolean {
  return caseFold(character.normalize('NFKC')).normalize('NFKC') !== character;
}

/** §2.4 IgnorableBlocks (D). */
function isInIgnorableBlock(codePoint: number): boolean {
  return (
    (codePoint >= 0x20d0 && codePoint <= 0x20ff) || // Combining Diacritical Marks for Symbols
    (codePoint >= 0x1d100 && codePoint <= 0x1d1ff) || // Musical Symbols
    (codePoint >= 0x1d200 && codePoint <= 0x1d24f) // Ancient Greek Musical Notation
  );
}

/** §2.5 OldHangulJamo (I): Hangul_Syllable_Type L, V or T (HangulSyllableType.txt). */
function isOldHangulJamo(codePoint: number): boolean {
  return (
    (codePoint >= 0x1100 && codePoint <= 0x11ff) ||
    (codePoint >= 0xa960 && codePoint <= 0xa97c) ||
    (codePoint >= 0xd7b0 && codePoint <= 0xd7c6) ||
    (codePoint >= 0xd7cb && codePoint <= 0xd7fb)
  );
}

/** RFC 5892 §3 calculation of the derived property value, rule by rule in the RFC's order. */
export function derivedProperty(codePoint: number): DerivedProperty {
  const exception = exceptions.get(codePoint);
  if (exception !== undefined) return exception;
  // §2.7 BackwardCompatible (G) is empty.
  const character = String.fromCodePoint(codePoint);
  if (unassignedPattern.test(character) && !noncharacterPattern.test(character)) return 'UNASSIGNED';
  if (ldhPattern.test(character)) return 'PVALID';
  if (joinControlPattern.test(character)) return 'CONTEXTJ';
  if (isUnstable(character)) return 'DISALLOWED';
  if (ignorablePropertiesPattern.test(character)) return 'DISALLOWED';
  if (isInIgnorableBlock(codePoint) || isOldHangulJamo(codePoint)) return 'DISALLOWED';
  if (letterDigitsPattern.test(character)) return 'PVALID';
  return 'DISALLOWED';
}
