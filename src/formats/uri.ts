// URI formats: `uri` and `uri-reference` (RFC 3986), `iri` and `iri-reference` (RFC 3987). One
// checker serves both: it splits a reference into its RFC 3986 §3 components and checks each against
// character classes that differ only in what is unreserved and where private use is allowed.

import { isIpv6 } from './ip.js';
import { isIprivate, isUcschar } from './iri-characters.js';

type CharacterClass = (codePoint: number) => boolean;

/** The character classes of one grammar, built once (besides pct-encoded, RFC 3986 §2.1). */
interface ReferenceGrammar {
  /** §3.2.1 userinfo = *( unreserved / pct-encoded / sub-delims / ":" ) */
  readonly isUserinfoCharacter: CharacterClass;
  /** §3.2.2 reg-name = *( unreserved / pct-encoded / sub-delims ) */
  readonly isRegNameCharacter: CharacterClass;
  /** §3.3 path: pchar and "/" */
  readonly isPathCharacter: CharacterClass;
  /** §3.4 query = *( pchar / "/" / "?" ); RFC 3987 adds iprivate */
  readonly isQueryCharacter: CharacterClass;
  /** §3.5 fragment = *( pchar / "/" / "?" ) */
  readonly isFragmentCharacter: CharacterClass;
}

function isAsciiAlphaDigit(codePoint: number): boolean {
  return (
    (codePoint >= 0x61 && codePoint <= 0x7a) ||
    (codePoint >= 0x41 && codePoint <= 0x5a) ||
    (codePoint >= 0x30 && codePoint <= 0x39)
  );
}

/** RFC 3986 §2.3: ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUriUnreserved(codePoint: number): boolean {
  return isAsciiAlphaDigit(codePoint) || codePoint === 0x2d || codePoint === 0x2e || codePoint === 0x5f || codePoint === 0x7e;
}

/** RFC 3986 §2.2 sub-delims. */
const subDelims = new Set([...`!$&'()*+,;=`].map((character) => character.codePointAt(0)!));

/**
 * Builds a grammar from its unreserved set (RFC 3986 §2.3, or RFC 3987 §2.2 iunreserved) and what
 * else its query allows (RFC 3987 §2.2 iprivate).
 */
function grammarOf(isUnreserved: CharacterClass, isQueryExtra: CharacterClass): ReferenceGrammar {
  const isRegNameCharacter: CharacterClass = (codePoint) => isUnreserved(codePoint) || subDelims.has(codePoint);
  // §3.3 pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
  const isPchar: CharacterClass = (codePoint) => isRegNameCharacter(codePoint) || codePoint === 0x3a || codePoint === 0x40;
  const isFragmentCharacter: CharacterClass = (codePoint) => isPchar(codePoint) || codePoint === 0x2f || codePoint === 0x3f;
  return {
    isUserinfoCharacter: (codePoint) => isRegNameCharacter(codePoint) || codePoint === 0x3a,
    isRegNameCharacter,
    isPathCharacter: (codePoint) => isPchar(codePoint) || codePoint === 0x2f,
    isQueryCharacter: (codePoint) => isFragmentCharacter(codePoint) || isQueryExtra(codePoint),
    isFragmentCharacter,
  };
}

const uriGrammar = grammarOf(isUriUnreserved, () => false);
const iriGrammar = grammarOf((codePoint) => isUriUnreserved(codePoint) || isUcschar(codePoint), isIprivate);

/**
 * Whether `text` is a sequence of pct-encoded triplets (RFC 3986 §2.1) and code points accepted by
 * `isAllowed`.
 */
function isPercentEncodedRun(text: string, isAllowed: CharacterClass): boolean {
  for (let index = 0; index < text.length; ) {
    const codePoint = text.codePointAt(index)!;
    if (codePoint === 0x25) {
      if (!/^[0-9a-fA-F]{2}$/.test(text.slice(index + 1, index + 3))) return false;
      index += 3;
      continue;
    }
    if (!isAllowed(codePoint)) return false;
    index += codePoint > 0xffff ? 2 : 1;
  }
  return true;
}

/** RFC 3986 §3.2.2 IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ). */
function isIpvFuture(literal: string): boolean {
  return /^[vV][0-9a-fA-F]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/.test(literal);
}

/** RFC 3986 §3.2.2 host = IP-literal / IPv4address / reg-name; IPv4address is a subset of reg-name. */
function isHost(host: string, grammar: ReferenceGrammar): boolean {
  if (host.startsWith('[')) {
    if (!host.endsWith(']')) return false;
    const literal = host.slice(1, -1);
    return isIpv6(literal) || isIpvFuture(literal);
  }
  return isPercentEncodedRun(host, grammar.isRegNameCharacter);
}

/** RFC 3986 §3.2 authority = [ userinfo "@" ] host [ ":" port ]. */
function isAuthority(authority: string, grammar: ReferenceGrammar): boolean {
  const at = authority.indexOf('@');
  const userinfo = at === -1 ? '' : authority.slice(0, at);
  const hostAndPort = authority.slice(at + 1);
  if (!isPercentEncodedRun(userinfo, grammar.isUserinfoCharacter)) return false;
  // The port starts at the last ":" that is not inside an IP-literal's brackets.
  const portColon = hostAndPort.lastIndexOf(':');
  const hasPort = portColon > hostAndPort.lastIndexOf(']');
  const host = hasPort ? hostAndPort.slice(0, portColon) : hostAndPort;
  const port = hasPort ? hostAndPort.slice(portColon + 1) : '';
  // §3.2.3 port = *DIGIT
  return /^[0-9]*$/.test(port) && isHost(host, grammar);
}

/** RFC 3986 §3.1 scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), followed by ":". */
const schemePattern = /^[A-Za-z][A-Za-z0-9+\-.]*:/;

/**
 * RFC 3986 §3 hier-part and §4.2 relative-part share this shape once the scheme is removed:
 * "//" authority path-abempty, or a path that does not start with "//".
 */
function isHierarchicalPart(part: string, grammar: ReferenceGrammar): boolean {
  if (!part.startsWith('//')) return isPercentEncodedRun(part, grammar.isPathCharacter);
  const pathStart = part.indexOf('/', 2);
  const authority = pathStart === -1 ? part.slice(2) : part.slice(2, pathStart);
  const path = pathStart === -1 ? '' : part.slice(pathStart);
  return isAuthority(authority, grammar) && isPercentEncodedRun(path, grammar.isPathCharacter);
}

/** Splits off "#fragment" and "?query" (RFC 3986 §3, Appendix B) and checks them. */
function splitQueryAndFragment(reference: string, grammar: ReferenceGrammar): string | undefined {
  const hash = reference.indexOf('#');
  const beforeFragment = hash === -1 ? reference : reference.slice(0, hash);
  if (hash !== -1 && !isPercentEncodedRun(reference.slice(hash + 1), grammar.isFragmentCharacter)) return undefined;
  const question = beforeFragment.indexOf('?');
  if (question === -1) return beforeFragment;
  const query = beforeFragment.slice(question + 1);
  return isPercentEncodedRun(query, grammar.isQueryCharacter) ? beforeFragment.slice(0, question) : undefined;
}

/** RFC 3986 §3 URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]. */
function isAbsolute(value: string, grammar: ReferenceGrammar): boolean {
  const scheme = schemePattern.exec(value);
  if (scheme === null) return false;
  const hierarchicalPart = splitQueryAndFragment(value.slice(scheme[0].length), grammar);
  return hierarchicalPart !== undefined && isHierarchicalPart(hierarchicalPart, grammar);
}

/** RFC 3986 §4.1 URI-reference = URI / relative-ref. */
function isReference(value: string, grammar: ReferenceGrammar): boolean {
  if (schemePattern.test(value)) return isAbsolute(value, grammar);
  const relativePart = splitQueryAndFragment(value, grammar);
  if (relativePart === undefined) return false;
  // §4.2 path-noscheme: a relative path's first segment must not contain ":".
  const firstSegment = relativePart.startsWith('/') ? '' : relativePart.split('/', 1)[0]!;
  return !firstSegment.includes(':') && isHierarchicalPart(relativePart, grammar);
}

export function isUri(value: string): boolean {
  return isAbsolute(value, uriGrammar);
}

export function isUriReference(value: string): boolean {
  return isReference(value, uriGrammar);
}

/** RFC 3987 §2.2 IRI. */
export function isIri(value: string): boolean {
  return isAbsolute(value, iriGrammar);
}

/** RFC 3987 §2.2 IRI-reference. */
export function isIriReference(value: string): boolean {
  return isReference(value, iriGrammar);
}
