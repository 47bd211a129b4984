// IP address formats: `ipv4` (RFC 2673 §3.2 dotted-quad, as JSON Schema validation §7.3.4 requires)
// and `ipv6` (RFC 4291 §2.2 text representation).

// A decimal octet 0-255 without leading zeros: RFC 3986 §3.2.2 dec-octet, which also settles that
// "01" is not an octet.
const decOctet = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const ipv4Pattern = new RegExp(`^${decOctet}\\.${decOctet}\\.${decOctet}\\.${decOctet}$`);
const hexGroupPattern = /^[0-9a-fA-F]{1,4}$/;
/** The longest form: six groups of four hex digits and a dotted quad ("ffff:…:ffff:255.255.255.255"). */
const maxIpv6Length = 6 * 5 + 15;

export function isIpv4(value: string): boolean {
  return ipv4Pattern.test(value);
}

/** How many 16-bit pieces a colon-separated run of hex groups stands for, or -1 if one is malformed. */
function countHexPieces(run: string): number {
  if (run === '') return 0;
  const groups = run.split(':');
  return groups.every((group) => hexGroupPattern.test(group)) ? groups.length : -1;
}

/**
 * RFC 4291 §2.2 item 3: the low-order 32 bits may be written as an IPv4 dotted quad. Returns the
 * address with such a quad replaced by two hex pieces, or undefined if the quad is malformed.
 */
function withIpv4TailAsHex(value: string): string | undefined {
  const lastColon = value.lastIndexOf(':');
  const last = value.slice(lastColon + 1);
  if (!last.includes('.')) return value;
  return isIpv4(last) ? `${value.slice(0, lastColon + 1)}0:0` : undefined;
}

/**
 * RFC 4291 §2.2: eight 16-bit pieces of 1-4 hex digits; one "::" stands for one or more zero pieces.
 * No zone identifier (that is RFC 6874's URI syntax, not an address) and no prefix length.
 */
export function isIpv6(value: string): boolean {
  if (value.length > maxIpv6Length) return false;
  const address = withIpv4TailAsHex(value);
  if (address === undefined) return false;
  const compression = address.indexOf('::');
  if (compression === -1) return countHexPieces(address) === 8;
  if (address.indexOf('::', compression + 1) !== -1) return false;
  const headPieces = countHexPieces(address.slice(0, compression));
  const tailPieces = countHexPieces(address.slice(compression + 2));
  if (headPieces < 0 || tailPieces < 0) return false;
  return headPieces + tailPieces <= 7;
}
