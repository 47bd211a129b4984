// RFC 5893 §2: the Bidi Rule for internationalized domain names.

import { bidiClass, type BidiClass } from './unicode-properties.js';

function classesOf(label: string): BidiClass[] {
  return Array.from(label, (character) => bidiClass(character.codePointAt(0)!));
}

/** RFC 5893 §1.4: an RTL label has a character of class R, AL or AN. */
function isRtlLabel(label: string): boolean {
  return classesOf(label).some((kind) => kind === 'R' || kind === 'AL' || kind === 'AN');
}

/** The last class that is not NSM (rules 3 and 6 allow trailing NSMs). */
function lastNonNsm(classes: readonly BidiClass[]): BidiClass | undefined {
  for (let index = classes.length - 1; index >= 0; index--) if (classes[index] !== 'NSM') return classes[index];
  return undefined;
}

const rtlAllowed = new Set<BidiClass>(['R', 'AL', 'AN', 'EN', 'ES', 'CS', 'ET', 'ON', 'BN', 'NSM']);
const ltrAllowed = new Set<BidiClass>(['L', 'EN', 'ES', 'CS', 'ET', 'ON', 'BN', 'NSM']);

/** The six conditions of RFC 5893 §2 for one label. */
function satisfiesBidiRuleForLabel(label: string): boolean {
  const classes = classesOf(label);
  const first = classes[0];
  const last = lastNonNsm(classes);
  if (first === 'R' || first === 'AL') {
    // 2: allowed classes; 3: end; 4: EN and AN do not mix.
    if (!classes.every((kind) => rtlAllowed.has(kind))) return false;
    if (last !== 'R' && last !== 'AL' && last !== 'EN' && last !== 'AN') return false;
    return !(classes.includes('EN') && classes.includes('AN'));
  }
  if (first === 'L') {
    // 5: allowed classes; 6: end.
    return classes.every((kind) => ltrAllowed.has(kind)) && (last === 'L' || last === 'EN');
  }
  // 1: the first character must be L, R or AL.
  return false;
}

/**
 * RFC 5893 §2: in a Bidi domain name (one with an RTL label, §1.4) every label satisfies the Bidi
 * Rule; other domain names are not subject to it.
 */
export function satisfiesBidiRule(labels: readonly string[]): boolean {
  if (!labels.some(isRtlLabel)) return true;
  return labels.every(satisfiesBidiRuleForLabel);
}
