/**
 * Timestamps as the API stores and answers them: ISO 8601 in UTC to the millisecond
 * (`2026-11-21T10:00:00.000Z`). Every such string has the same length and layout, so sorting
 * or comparing them as text sorts or compares the moments: the database compares validity
 * windows as text on both engines.
 */

/** RFC 3339 date-time with a time zone (what JSON Schema's `date-time` accepts). */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * The canonical form of an RFC 3339 date-time with a time zone, or undefined when `text` is
 * not one or names no moment of the years 0000–9999 in UTC (a 30 February, a leap second).
 * Other offsets are converted to UTC; digits past the millisecond are dropped.
 */
export function canonicalTimestamp(text: string): string | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const millisecond = Number((match[7] ?? '').slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (match[8] === undefined) {
    const offsetHours = Number(match[10]);
    const offsetRest = Number(match[11] ?? '0');
    if (offsetHours > 23 || offsetRest > 59) return undefined;
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetRest);
  }
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, millisecond);
  const canonical = new Date(local.getTime() - offsetMinutes * 60_000).toISOString();
  return /^\d{4}-/.test(canonical) ? canonical : undefined;
}

/** What a client is told when a timestamp is refused. */
export const TIMESTAMP_RULE = 'must be an ISO 8601 date-time with a time zone, such as 2026-11-21T10:00:00Z';

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
