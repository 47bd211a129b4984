// RFC 5892 Appendix A: the contextual rules for CONTEXTJ and CONTEXTO code points. Each rule sees the
// whole label (as code points) and the position of the code point it judges.

import { isVirama, joiningType } from './unicode-properties.js';

type ContextRule = (label: readonly number[], position: number) => boolean;

const greekPattern = /^\p{Script=Greek}$/u;
const hebrewPattern = /^\p{Script=Hebrew}$/u;
const kanaOrHanPattern = /^[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]$/u;

function hasScript(codePoint: number | undefined, pattern: RegExp): boolean {
  return codePoint !== undefined && pattern.test(String.fromCodePoint(codePoint));
}

/**
 * A.1 ZERO WIDTH NON-JOINER, second condition: the label matches
 * (Joining_Type:{L,D})(Joining_Type:T)*\u200C(Joining_Type:T)*(Joining_Type:{R,D}) around it.
 */
function isBetweenJoiningLetters(label: readonly number[], position: number): boolean {
  let before = position - 1;
  while (before >= 0 && joiningType(label[before]!) === 'T') before--;
  let after = position + 1;
  while (after < label.length && joiningType(label[after]!) === 'T') after++;
  if (before < 0 || after >= label.length) return false;
  const left = joiningType(label[before]!);
  const right = joiningType(label[after]!);
  return (left === 'L' || left === 'D') && (right === 'R' || right === 'D');
}

function isAfterVirama(label: readonly number[], position: number): boolean {
  return position > 0 && isVirama(label[position - 1]!);
}

function labelHasNoneIn(label: readonly number[], first: number, last: number): boolean {
  return label.every((codePoint) => codePoint < first || codePoint > last);
}

const contextRules = new Map<number, ContextRule>([
  // A.1 ZERO WIDTH NON-JOINER
  [0x200c, (label, position) => isAfterVirama(label, position) || isBetweenJoiningLetters(label, position)],
  // A.2 ZERO WIDTH JOINER
  [0x200d, isAfterVirama],
  // A.3 MIDDLE DOT: between two "l" (Catalan ela geminada).
  [0x00b7, (label, position) => label[position - 1] === 0x6c && label[position + 1] === 0x6c],
  // A.4 GREEK LOWER NUMERAL SIGN (KERAIA): followed by Greek.
  [0x0375, (label, position) => hasScript(label[position + 1], greekPattern)],
  // A.5 HEBREW PUNCTUATION GERESH and A.6 GERSHAYIM: preceded by Hebrew.
  [0x05f3, (label, position) => hasScript(label[position - 1], hebrewPattern)],
  [0x05f4, (label, position) => hasScript(label[position - 1], hebrewPattern)],
  // A.7 KATAKANA MIDDLE DOT: the label has some Hiragana, Katakana or Han.
  [0x30fb, (label) => label.some((codePoint) => hasScript(codePoint, kanaOrHanPattern))],
  // A.8 ARABIC-INDIC DIGITS and A.9 EXTENDED ARABIC-INDIC DIGITS: the two sets do not mix.
  ...Array.from({ length: 10 }, (_, digit): [number, ContextRule] => [0x0660 + digit, (label) => labelHasNoneIn(label, 0x06f0, 0x06f9)]),
  ...Array.from({ length: 10 }, (_, digit): [number, ContextRule] => [0x06f0 + digit, (label) => labelHasNoneIn(label, 0x0660, 0x0669)]),
]);

/** Whether the contextual rule for the code point at `position` holds; no rule means it fails. */
export function satisfiesContextRule(label: readonly number[], position: number): boolean {
  const rule = contextRules.get(label[position]!);
  return rule !== undefined && rule(label, position);
}
