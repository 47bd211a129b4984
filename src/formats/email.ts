// E-mail address formats: `email` (RFC 5321 §4.1.2 Mailbox) and `idn-email` (RFC 6531 §3.3, which
// extends the same grammar with UTF-8 and U-label domains).

import { isHostname, isIdnHostname } from './hostname.js';
import { isIpv4, isIpv6 } from './ip.js';

/** The parts of the Mailbox grammar that RFC 6531 extends. */
interface MailboxGrammar {
  /** Extra code points allowed in atext and qtextSMTP: RFC 6531 §3.3 UTF8-non-ascii, or none. */
  readonly isExtraText: (codePoint: number) => boolean;
  /** RFC 5321 §4.1.2 Domain, or RFC 6531 §3.3 Domain with U-labels. */
  readonly isDomain: (domain: string) => boolean;
}

/** RFC 5321 §4.5.3.1.1: a local-part is at most 64 octets. */
const maxLocalPartOctets = 64;
const utf8 = new TextEncoder();

/** RFC 5322 §3.2.3 atext: ALPHA / DIGIT / "!#$%&'*+-/=?^_`{|}~". */
const atextPunctuation = new Set([..."!#$%&'*+-/=?^_`{|}~"].map((character) => character.codePointAt(0)!));

function isAsciiAtext(codePoint: number): boolean {
  return (
    (codePoint >= 0x61 && codePoint <= 0x7a) ||
    (codePoint >= 0x41 && codePoint <= 0x5a) ||
    (codePoint >= 0x30 && codePoint <= 0x39) ||
    atextPunctuation.has(codePoint)
  );
}

/** RFC 5321 §4.1.2 Dot-string = Atom *("." Atom). */
function isDotString(localPart: string, grammar: MailboxGrammar): boolean {
  return localPart.split('.').every(
    (atom) =>
      atom.length > 0 &&
      Array.from(atom).every((character) => {
        const codePoint = character.codePointAt(0)!;
        return isAsciiAtext(codePoint) || grammar.isExtraText(codePoint);
      }),
  );
}

/**
 * RFC 5321 §4.1.2 Quoted-string = DQUOTE *QcontentSMTP DQUOTE, where qtextSMTP is %d32-33 / %d35-91 /
 * %d93-126 and quoted-pairSMTP is "\" followed by %d32-126.
 */
function isQuotedString(localPart: string, grammar: MailboxGrammar): boolean {
  if (localPart.length < 2 || !localPart.startsWith('"') || !localPart.endsWith('"')) return false;
  const content = Array.from(localPart.slice(1, -1), (character) => character.codePointAt(0)!);
  for (let index = 0; index < content.length; index++) {
    const codePoint = content[index]!;
    if (codePoint === 0x5c) {
      const escaped = content[++index];
      if (escaped === undefined || escaped < 32 || escaped > 126) return false;
    } else if (codePoint === 0x22 || ((codePoint < 32 || codePoint > 126) && !grammar.isExtraText(codePoint))) {
      return false;
    }
  }
  return true;
}

/** RFC 5321 §4.1.3 address-literal: IPv4 or "IPv6:" IPv6 in brackets. */
function isAddressLiteral(domain: string): boolean {
  if (!domain.startsWith('[') || !domain.endsWith(']')) return false;
  const literal = domain.slice(1, -1);
  // RFC 5234 §2.3: quoted ABNF strings such as "IPv6:" are case-insensitive.
  if (/^ipv6:/i.test(literal)) return isIpv6(literal.slice(5));
  return isIpv4(literal);
}

/** RFC 5321 §4.1.2 Mailbox = Local-part "@" ( Domain / address-literal ). */
function isMailbox(value: string, grammar: MailboxGrammar): boolean {
  // A quoted local part may contain "@"; the domain never does.
  const at = value.lastIndexOf('@');
  if (at <= 0) return false;
  // Each UTF-16 code unit is at least one octet: a long local part is rejected before it is encoded.
  if (at > maxLocalPartOctets) return false;
  const localPart = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (utf8.encode(localPart).length > maxLocalPartOctets) return false;
  if (!isDotString(localPart, grammar) && !isQuotedString(localPart, grammar)) return false;
  return isAddressLiteral(domain) || grammar.isDomain(domain);
}

const asciiMailbox: MailboxGrammar = {
  isExtraText: () => false,
  isDomain: isHostname,
};

const internationalizedMailbox: MailboxGrammar = {
  isExtraText: (codePoint) => codePoint >= 0x80,
  // RFC 6530 §10.1 leaves normalization to the mail system, so a domain that becomes valid U-labels
  // once NFC-normalized is accepted.
  isDomain: (domain) => isIdnHostname(domain.normalize('NFC')),
};

export function isEmail(value: string): boolean {
  return isMailbox(value, asciiMailbox);
}

export function isIdnEmail(value: string): boolean {
  return isMailbox(value, internationalizedMailbox);
}
