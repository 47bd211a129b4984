// Look-ups into the generated tables of unicode-data.ts, with the defaults those tables leave out.

import { bidiClassRuns, joiningTypeRuns, viramaRuns } from './unicode-data.js';

/** The value of the run containing `codePoint`, by binary search, or undefined outside every run. */
function findRun(runs: readonly (readonly [number, number, string])[], codePoint: number): string | undefined {
  let low = 0;
  let high = runs.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [first, last, value] = runs[middle]!;
    if (codePoint < first) high = middle - 1;
    else if (codePoint > last) low = middle + 1;
    else return value;
  }
  return undefined;
}

const markPattern = /^[\p{Mn}\p{Me}]$/u;
const markOrFormatPattern = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

export type BidiClass = 'L' | 'R' | 'AL' | 'AN' | 'EN' | 'ES' | 'CS' | 'ET' | 'ON' | 'BN' | 'NSM';

/**
 * UAX #9 Bidi_Class of the classes RFC 5893 §2 uses. Other classes (B, S, WS, the embedding controls)
 * only occur on code points IDNA disallows, and come out as L.
 */
export function bidiClass(codePoint: number): BidiClass {
  const listed = findRun(bidiClassRuns, codePoint);
  if (listed !== undefined) return listed as BidiClass;
  return markPattern.test(String.fromCodePoint(codePoint)) ? 'NSM' : 'L';
}

export type JoiningType = 'D' | 'L' | 'R' | 'C' | 'T' | 'U';

/** ArabicShaping.txt Joining_Type; unlisted marks and format characters are Transparent. */
export function joiningType(codePoint: number): JoiningType {
  const listed = findRun(joiningTypeRuns, codePoint);
  if (listed !== undefined) return listed as JoiningType;
  return markOrFormatPattern.test(String.fromCodePoint(codePoint)) ? 'T' : 'U';
}

/** Canonical_Combining_Class is Virama (9). */
export function isVirama(codePoint: number): boolean {
  return findRun(viramaRuns, codePoint) !== undefined;
}
