/**
 * The checks the schemas make on dates: whether a value is a calendar date (`YYYY-MM-DD`) or
 * a timestamp with its offset, the one stored form of a timestamp, and today's date. They
 * need no date library, and live apart from the formatting in dates.ts so that a screen
 * that only checks dates or asks for today's (the sign-in form's schema, the API client)
 * does not load it.
 */
export const CALENDAR_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_PATTERN =
  /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** A moment's calendar day in local time (`YYYY-MM-DD`). */
function localCalendarDate(moment: Date): string {
  const year = String(moment.getFullYear()).padStart(4, '0');
  return `${year}-${twoDigits(moment.getMonth() + 1)}-${twoDigits(moment.getDate())}`;
}

/** A moment's local wall time to the minute (`YYYY-MM-DDTHH:mm`), as a datetime-local field holds it. */
export function localDateTime(moment: Date): string {
  const time = `${twoDigits(moment.getHours())}:${twoDigits(moment.getMinutes())}`;
  return `${localCalendarDate(moment)}T${time}`;
}

/** Today's calendar date in the time zone of the machine (the browser, in the web app). */
export function localToday(now: Date = new Date()): string {
  return localCalendarDate(now);
}

/** The calendar day a timestamp falls on in the local time zone. */
export function localDayOf(timestamp: string): string {
  return localCalendarDate(new Date(timestamp));
}

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

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

/** The calendar date `days` after (or, negative, before) a calendar date. */
export function addDays(day: string, days: number): string {
  return new Date((dayNumber(day) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from one calendar date to another. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The earliest year a date of the records may have. */
export const EARLIEST_YEAR = 1900;

/**
 * Where a date rule is checked. In the browser the user's own calendar holds: today is the
 * local date and a visit falls on its local day. The server does not know the user's time
 * zone, so it reads dates in UTC and allows a day either way: somewhere on Earth it is
 * already tomorrow (UTC+14) or still yesterday (UTC−12).
 */
const IN_BROWSER = typeof window !== 'undefined' && typeof document !== 'undefined';
export const CALENDAR_SLACK_DAYS = IN_BROWSER ? 0 : 1;

const pad = (value: number) => String(value).padStart(2, '0');
const localDay = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The calendar day a moment falls on: the local day in the browser, the UTC day on the server. */
export function calendarDayOf(moment: Date | string): string {
  const date = typeof moment === 'string' ? new Date(moment) : moment;
  return IN_BROWSER ? localDay(date) : date.toISOString().slice(0, 10);
}

/** The latest calendar date that is not yet in the future, wherever the user is. */
export function latestToday(now: Date = new Date()): string {
  return addDays(calendarDayOf(now), CALENDAR_SLACK_DAYS);
}
