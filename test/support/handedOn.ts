// What the ways that hand a value on (parseText, a session with `parse`) must say of a text, beside
// what validateText says. A number JSON.parse rounds is judged there as the double handed on
// (HeldScalar.numbersAsDoubles), and may pass or fail where its text does not. Elsewhere the two
// agree.

import type {Validator} from '../../src/types.js';

/** JSON number text, as RFC 8259 §6 writes it. */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/g;

/**
 * Some number in `text` may differ from its double: longer than a double holds exactly (15
 * characters) or written with an exponent. Digits inside strings count too: it only widens
 * the texts `handedOnVerdict` asks a session about.
 */
export function mayRound(text: string): boolean {
  for (const [number] of text.matchAll(NUMBER)) if (number.length > 15 || /[eE]/.test(number)) return true;
  return false;
}

/**
 * The verdict parseText must give `text`: validateText's (`asWritten`) where no number may round,
 * else that of a session with `parse` given it whole, another reader with the same rule.
 */
export function handedOnVerdict(validator: Validator, text: string, asWritten: boolean): boolean {
  if (!mayRound(text)) return asWritten;
  const session = validator.session({parse: true});
  session.write(text);
  return session.end().valid;
}
