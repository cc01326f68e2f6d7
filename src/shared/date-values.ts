/**
 * The checks the schemas make on dates: whether a value is a calendar date (`YYYY-MM-DD`) or
 * a timestamp with its offset, and the one stored form of a timestamp. They need no date
 * library, and live apart from the formatting in dates.ts so that a screen that only checks
 * dates (the sign-in form's schema) does not load one.
 */

export const CALENDAR_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_PATTERN =
  /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const MIN_YEAR = 1800;
const MAX_YEAR = 2999;

export function isCalendarDate(value: string): boolean {
  const match = CALENDAR_DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < MIN_YEAR || year > MAX_YEAR) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An ISO 8601 moment with its offset (`…Z` or `…+02:00`). */
export function isTimestamp(value: string): boolean {
  const match = TIMESTAMP_PATTERN.exec(value);
  if (!match || !isCalendarDate(match[1] ?? '')) return false;
  const [hours, minutes, seconds] = [Number(match[2]), Number(match[3]), Number(match[4] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return false;
  return !Number.isNaN(Date.parse(value));
}

/** The one stored form of a timestamp: UTC with milliseconds, so strings sort in time order. */
export function toUtcTimestamp(value: string): string {
  return new Date(value).toISOString();
}
