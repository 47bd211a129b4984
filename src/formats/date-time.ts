// RFC 3339 §5.6 date and time formats: `date` (full-date), `time` (full-time), `date-time`.

const fullDatePattern = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
// RFC 3339 §5.6 NOTE: "T" and "Z" may be lower case. time-secfrac is "." 1*DIGIT.
const fullTimePattern = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:([zZ])|([+-])([0-9]{2}):([0-9]{2}))$/;

/** RFC 3339 §5.7 and Appendix C: Gregorian leap years. */
function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** RFC 3339 §5.7: date-mday's maximum depends on month and year. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** RFC 3339 §5.6 full-date. */
export function isDate(value: string): boolean {
  const match = fullDatePattern.exec(value);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * RFC 3339 §5.6 full-time. §5.7: second 60 is a leap second, which happens at 23:59:60 UTC, so the
 * local time is shifted back by the offset before checking it.
 */
export function isTime(value: string): boolean {
  const match = fullTimePattern.exec(value);
  if (match === null) return false;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3]);
  const offsetSign = match[5] === '-' ? -1 : 1;
  const offsetHour = match[4] === undefined ? Number(match[6]) : 0;
  const offsetMinute = match[4] === undefined ? Number(match[7]) : 0;
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  const minutesPerDay = 24 * 60;
  const utcMinutes = hour * 60 + minute - offsetSign * (offsetHour * 60 + offsetMinute);
  return ((utcMinutes % minutesPerDay) + minutesPerDay) % minutesPerDay === 23 * 60 + 59;
}

/** RFC 3339 §5.6 date-time = full-date "T" full-time. */
export function isDateTime(value: string): boolean {
  const separator = value.charAt(10);
  if (separator !== 'T' && separator !== 't') return false;
  return isDate(value.slice(0, 10)) && isTime(value.slice(11));
}
