/**
 * Date rules. Two kinds of date live in the product:
 * - calendar dates (`YYYY-MM-DD`: start_date, note_date, …), which mean the same day
 *   everywhere and are compared as strings, never through a Date in some time zone;
 * - timestamps (visit_date), stored as UTC ISO strings and shown in the browser's zone.
 */
// Each function from its own module: the package's root loads all of date-fns (about a
// thousand modules), which on Node 24 took the server from 43 MB to 390 MB of memory.
import { isValid } from 'date-fns/isValid';
import { CALENDAR_DATE_PATTERN, localDateTime } from './date-values';
import { currentLanguage, currentLocale } from './i18n/translate';

export { isCalendarDate, isTimestamp, localDayOf, localToday, toUtcTimestamp } from './date-values';

/**
 * The ways a screen writes a date or a time, named by the date-fns pattern English shows
 * ('Jan 5, 2026', '3:05 PM'): every language writes the same parts through Intl, in its own
 * order and words ('5 ene 2026', '2026年1月5日', '15:05'). US English by Intl is exactly the
 * pattern (dates.test.ts holds it to date-fns' `format` minute by minute over a year), so the
 * screens carry no date library's English words.
 */
export const LOCALE_FORMATS = {
  'MMM d, yyyy': { year: 'numeric', month: 'short', day: 'numeric' },
  'MMM d': { month: 'short', day: 'numeric' },
  'h:mm a': { hour: 'numeric', minute: '2-digit' },
  'MMM d, h:mm a': { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
  'MMMM d, yyyy': { dateStyle: 'long' },
  "EEEE, MMMM d, yyyy 'at' h:mm a": { dateStyle: 'full', timeStyle: 'short' },
  'MMM d, yyyy, h:mm a': { dateStyle: 'medium', timeStyle: 'short' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

/** A way of writing a date that every language knows. */
export type DatePattern = keyof typeof LOCALE_FORMATS;

const localeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The zone a Node process was told to use (`TZ`, which the tests change), part of a kept
 * formatter's key: a formatter keeps the zone it was made in. A browser's zone is fixed.
 */
const processZone = () => (typeof process === 'object' ? (process.env.TZ ?? '') : '');

function localeFormat(locale: string, pattern: DatePattern, zone?: 'UTC'): Intl.DateTimeFormat {
  const cacheKey = `${locale} ${pattern} ${zone ?? processZone()}`;
  let formatter = localeFormats.get(cacheKey);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...LOCALE_FORMATS[pattern], timeZone: zone });
    localeFormats.set(cacheKey, formatter);
  }
  return formatter;
}

/**
 * The narrow no-break space ICU puts before 'AM'/'PM' in English (U+202F): written as the
 * plain space English has always shown ('3:05 PM'), which the outside browser tests read.
 */
const NARROW_SPACE = /\u202f/g;

/**
 * Formats a calendar date or a timestamp as the language in force writes it: a timestamp in
 * local time, a calendar date as the day it names, in no zone (it never shifts).
 */
export function formatDate(value: string | null | undefined, pattern: DatePattern): string {
  if (!value) return '';
  const calendarDate = CALENDAR_DATE_PATTERN.test(value);
  const date = calendarDate ? new Date(`${value}T00:00:00Z`) : new Date(value);
  if (!isValid(date)) return '';
  const written = localeFormat(currentLocale(), pattern, calendarDate ? 'UTC' : undefined).format(
    date,
  );
  return currentLanguage() === 'en' ? written.replace(NARROW_SPACE, ' ') : written;
}

/**
 * A short list as the language in force writes one: 'Morning, Evening' in English (as the
 * screens always wrote it), 'Mañana y Tarde', '早上和晚上', 'الصباح والمساء'. Intl's 'unit'
 * lists would match English, but write Chinese with no separator at all.
 */
export function formatList(items: readonly string[]): string {
  if (currentLanguage() === 'en') return items.join(', ');
  return new Intl.ListFormat(currentLocale(), { type: 'conjunction', style: 'long' }).format(items);
}

/** Choices as the language in force offers them: 'kg or lb', 'kg o lb', 'kg 或 lb'. */
export function formatChoices(items: readonly string[]): string {
  if (currentLanguage() === 'en') return items.join(' or ');
  return new Intl.ListFormat(currentLocale(), { type: 'disjunction', style: 'long' }).format(items);
}

/** A number as the language in force writes it ('1,234.5', '1.234,5', '1 234,5'). */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(currentLocale(), options).format(value);
}

/** The value a `<input type="datetime-local">` shows for a stored UTC timestamp. */
export function toDateTimeLocalInput(timestamp: string | null | undefined): string {
  if (!timestamp) return '';
  const date = new Date(timestamp);
  return isValid(date) ? localDateTime(date) : '';
}

/** The UTC timestamp of what a `<input type="datetime-local">` holds, read in local time. */
export function fromDateTimeLocalInput(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return isValid(date) ? date.toISOString() : value;
}

export const DAY_GROUP_FORMAT: DatePattern = 'MMM d, yyyy';
export const CARD_DAY_FORMAT: DatePattern = 'MMM d';
export const CARD_TIME_FORMAT: DatePattern = 'h:mm a';
export const LONG_DATE_FORMAT: DatePattern = 'MMMM d, yyyy';
export const LONG_DATE_TIME_FORMAT: DatePattern = "EEEE, MMMM d, yyyy 'at' h:mm a";
