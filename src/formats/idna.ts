// IDNA2008 label validation: RFC 5891 §5.3-§5.4 (A-labels and U-labels) with the code point rules of
// RFC 5892 and, across a whole name, the Bidi Rule of RFC 5893.

import { satisfiesContextRule } from './idna-context.js';
import { derivedProperty } from './idna-properties.js';
import { decodePunycode, encodePunycode } from './punycode.js';

/** RFC 5890 §2.3.2.1: the ACE prefix, matched case-insensitively. */
const acePrefixPattern = /^xn--/i;
const combiningMarkPattern = /^\p{M}/u;
/** RFC 1123 §2.1 (and RFC 952): letters, digits and hyphens, not starting or ending with a hyphen. */
const ldhLabelPattern = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const asciiPattern = /^[\x00-\x7f]*$/;

export function isAscii(text: string): boolean {
  return asciiPattern.test(text);
}

export function hasAcePrefix(label: string): boolean {
  return acePrefixPattern.test(label);
}

/** RFC 1123 §2.1 host name label, at most 63 octets (RFC 1034 §3.1). */
export function isLdhLabel(label: string): boolean {
  return ldhLabelPattern.test(label);
}

/**
 * RFC 5891 §5.4 and §4.2.3-§4.2.4: a U-label is NFC, has no "--" in positions 3-4, does not start
 * or end with a hyphen, does not start with a combining mark, and has only PVALID code points and
 * CONTEXTJ/CONTEXTO code points whose rules hold.
 */
export function isULabel(label: string): boolean {
  if (label === '' || label.normalize('NFC') !== label) return false;
  const codePoints = Array.from(label, (character) => character.codePointAt(0)!);
  if (codePoints[2] === 0x2d && codePoints[3] === 0x2d) return false;
  if (label.startsWith('-') || label.endsWith('-') || combiningMarkPattern.test(label)) return false;
  return codePoints.every((codePoint, position) => {
    const property = derivedProperty(codePoint);
    if (property === 'PVALID') return true;
    if (property === 'CONTEXTJ' || property === 'CONTEXTO') return satisfiesContextRule(codePoints, position);
    return false;
  });
}

/**
 * RFC 5891 §5.3: an A-label is "xn--" and Punycode that decodes to a valid U-label with some
 * non-ASCII code point, and that the U-label encodes back to exactly (the round trip of §5.3).
 * Returns that U-label, or undefined if the label is not a valid A-label.
 */
export function uLabelOfALabel(label: string): string | undefined {
  if (!hasAcePrefix(label) || !isLdhLabel(label)) return undefined;
  const encoded = label.slice(4).toLowerCase();
  const decoded = decodePunycode(encoded);
  if (decoded === undefined || isAscii(decoded)) return undefined;
  if (encodePunycode(decoded) !== encoded || !isULabel(decoded)) return undefined;
  return decoded;
}

/** RFC 5891 §4.2.4: the A-label form of a U-label must fit the 63-octet DNS label limit. */
export function aLabelOf(uLabel: string): string {
  return `xn--${encodePunycode(uLabel)}`;
}
