// RFC 3339 Appendix A: ISO 8601 durations, following the ABNF exactly: each unit may be followed only
// by the next smaller one (dur-year [dur-month [dur-day]]), weeks stand alone, and "T" must precede
// at least one time unit.

const durationTime = '(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)';
const durationDate = '(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)';
const durationPattern = new RegExp(
  `^P(?:${durationDate}(?:T${durationTime})?|T${durationTime}|[0-9]+W)$`,
);

export function isDuration(value: string): boolean {
  return durationPattern.test(value);
}
