// Host name formats: `hostname` (RFC 1123 §2.1, with RFC 5890 A-labels checked as IDNA2008 requires)
// and `idn-hostname` (RFC 5890 §2.3.2.3 internationalized host names: U-labels or A-labels).

import { satisfiesBidiRule } from './idna-bidi.js';
import { aLabelOf, hasAcePrefix, isAscii, isLdhLabel, isULabel, uLabelOfALabel } from './idna.js';

/** RFC 1034 §3.1: 255 octets on the wire, which is 253 characters in dotted text without a final dot. */
const maxNameLength = 253;
const maxLabelLength = 63;
/**
 * A name is at most 253 octets in its A-label form, and each code point is at least one octet of
 * that form (RFC 3492 §3.1: Punycode writes each code point as a basic code point or as at least
 * one digit); a code point is at most two UTF-16 code units. Longer text is rejected before its
 * labels are looked at: the RFC 5892 contextual rules read a whole label per code point.
 */
const maxIdnNameUnits = 2 * maxNameLength;
/** The same for a label: "xn--" and at least one octet per code point fit in 63 octets. */
const maxULabelUnits = 2 * (maxLabelLength - 'xn--'.length);

/** RFC 3490 §3.1 (kept by RFC 5895 §2): label separators in internationalized names. */
const idnLabelSeparators = /[.\u3002\uff0e\uff61]/;

/** An LDH label, and if it carries the ACE prefix, a valid A-label. Returns its U-label form. */
function uLabelOfAsciiLabel(label: string): string | undefined {
  if (!isLdhLabel(label)) return undefined;
  return hasAcePrefix(label) ? uLabelOfALabel(label) : label;
}

/**
 * RFC 1123 §2.1 host name: dot-separated LDH labels of 1-63 characters, at most 253 in all. A final
 * dot (the DNS root) is not accepted, as the JSON Schema test suite expects. Labels with the ACE
 * prefix must be A-labels (RFC 5891 §5.3), so Bidi domain names must follow RFC 5893.
 */
export function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > maxNameLength || !isAscii(value)) return false;
  const uLabels: string[] = [];
  for (const label of value.split('.')) {
    const uLabel = uLabelOfAsciiLabel(label);
    if (uLabel === undefined) return false;
    uLabels.push(uLabel);
  }
  return satisfiesBidiRule(uLabels);
}

/** A label of an internationalized name as both forms, or undefined if it is neither kind. */
function labelForms(label: string): { uLabel: string; aLabel: string } | undefined {
  if (isAscii(label)) {
    const uLabel = uLabelOfAsciiLabel(label);
    return uLabel === undefined ? undefined : { uLabel, aLabel: label };
  }
  if (label.length > maxULabelUnits || !isULabel(label)) return undefined;
  const aLabel = aLabelOf(label);
  return aLabel.length > maxLabelLength ? undefined : { uLabel: label, aLabel };
}

/**
 * RFC 5890 §2.3.2.3 internationalized host name: labels that are each an NR-LDH label, an A-label or a
 * U-label (RFC 5891 §5), at most 253 characters in A-label form, and the RFC 5893 Bidi Rule.
 */
export function isIdnHostname(value: string): boolean {
  if (value.length === 0 || value.length > maxIdnNameUnits) return false;
  const uLabels: string[] = [];
  const aLabels: string[] = [];
  for (const label of value.split(idnLabelSeparators)) {
    const forms = labelForms(label);
    if (forms === undefined) return false;
    uLabels.push(forms.uLabel);
    aLabels.push(forms.aLabel);
  }
  return aLabels.join('.').length <= maxNameLength && satisfiesBidiRule(uLabels);
}
