// RFC 6570 URI Template syntax (§2), up to level 4. Only the syntax is checked; nothing is expanded.

import { isIprivate, isUcschar } from './iri-characters.js';

/**
 * RFC 6570 §2.1 literals: no CTL, SP, DQUOTE, "%" (outside pct-encoded), "<", ">", "\", "^", "`",
 * "{", "|", "}"; non-ASCII must be ucschar or iprivate. §2.1 also leaves out "'", yet "'" is an
 * RFC 3986 §2.2 sub-delim that a URI may carry as is; like the JSON Schema test suite, we accept it.
 */
function isLiteralCodePoint(codePoint: number): boolean {
  if (codePoint <= 0x20 || codePoint === 0x7f) return false;
  if (codePoint < 0x80) return !`"%<>\\^\`{|}`.includes(String.fromCodePoint(codePoint));
  return isUcschar(codePoint) || isIprivate(codePoint);
}

// §2.3 varname = varchar *( ["."] varchar ); varchar = ALPHA / DIGIT / "_" / pct-encoded.
const varchar = '(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})';
// §2.4 modifier-level4 = prefix / explode; prefix = ":" max-length (1-9999 without leading zero).
const varspec = `${varchar}(?:\\.?${varchar})*(?::[1-9][0-9]{0,3}|\\*)?`;
// §2.2 operator = op-level2 / op-level3 / op-reserve. The op-reserve characters "=,!@|" have no
// expansion yet, but the grammar allows them, and this format is about syntax.
const expressionPattern = new RegExp(`^[+#./;?&=,!@|]?${varspec}(?:,${varspec})*$`);

function isExpression(body: string): boolean {
  return expressionPattern.test(body);
}

/** §2 URI-Template = *( literals / expression ). */
export function isUriTemplate(value: string): boolean {
  for (let index = 0; index < value.length; ) {
    const codePoint = value.codePointAt(index)!;
    if (codePoint === 0x7b) {
      const close = value.indexOf('}', index);
      if (close === -1 || !isExpression(value.slice(index + 1, close))) return false;
      index = close + 1;
    } else if (codePoint === 0x25) {
      // §2.1 pct-encoded
      if (!/^[0-9A-Fa-f]{2}$/.test(value.slice(index + 1, index + 3))) return false;
      index += 3;
    } else {
      if (!isLiteralCodePoint(codePoint)) return false;
      index += codePoint > 0xffff ? 2 : 1;
    }
  }
  return true;
}
