/**
 * Date rules. Two kinds of date live in the product:
 * - calendar dates (`YYYY-MM-DD`: start_date, note_date, …), which mean the same day
 *   everywhere and are compared as strings, never through a Date in some time zone;
 * - timestamps (visit_date), stored as UTC ISO strings and shown in the browser's zone.
 */
// Each function from its own module: the package's root loads all of date-fns (about a
// thousand modules), which on Node 24 took the server from 43 MB to 390 MB of memory.
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';
import { CALENDAR_DATE_PATTERN } from './date-values';

export { isCalendarDate, isTimestamp, toUtcTimestamp } from './date-values';

/** Today's calendar date in the time zone of the machine (the browser, in the web app). */
export function localToday(now: Date = new Date()): string {
  return format(now, 'yyyy-MM-dd');
}

/** The calendar day a timestamp falls on in the local time zone. */
export function localDayOf(timestamp: string): string {
  return format(new Date(timestamp), 'yyyy-MM-dd');
}

/** Formats a calendar date or a timestamp with a date-fns pattern, in local time. */
export function formatDate(value: string | null | undefined, pattern: string): string {
  if (!value) return '';
  const date = CALENDAR_DATE_PATTERN.test(value) ? parseISO(value) : new Date(value);
  return isValid(date) ? format(date, pattern) : '';
}

/** The value a `<input type="datetime-local">` shows for a stored UTC timestamp. */
export function toDateTimeLocalInput(timestamp: string | null | undefined): string {
  if (!timestamp) return '';
  const date = new Date(timestamp);
  return isValid(date) ? format(date, "yyyy-MM-dd'T'HH:mm") : '';
}

/** The UTC timestamp of what a `<input type="datetime-local">` holds, read in local time. */
export function fromDateTimeLocalInput(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return isValid(date) ? date.toISOString() : value;
}

export const DAY_GROUP_FORMAT = 'MMM d, yyyy';
export const CARD_DAY_FORMAT = 'MMM d';
export const CARD_TIME_FORMAT = 'h:mm a';
export const LONG_DATE_FORMAT = 'MMMM d, yyyy';
export const LONG_DATE_TIME_FORMAT = "EEEE, MMMM d, yyyy 'at' h:mm a";
