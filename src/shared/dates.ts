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
import { currentLanguage, currentLocale } from './i18n/translate';

export { isCalendarDate, isTimestamp, toUtcTimestamp } from './date-values';

/** Today's calendar date in the time zone of the machine (the browser, in the web app). */
export function localToday(now: Date = new Date()): string {
  return format(now, 'yyyy-MM-dd');
}

/** The calendar day a timestamp falls on in the local time zone. */
export function localDayOf(timestamp: string): string {
  return format(new Date(timestamp), 'yyyy-MM-dd');
}

/**
 * The patterns a screen shows a date in, as each locale writes them: the English patterns
 * are US English's, and another language writes the same parts in its own order and words
 * ('5 ene 2026', '2026年1月5日', '15:05').
 */
const LOCALE_FORMATS: Readonly<Record<string, Intl.DateTimeFormatOptions>> = {
  'MMM d, yyyy': { year: 'numeric', month: 'short', day: 'numeric' },
  'MMM d': { month: 'short', day: 'numeric' },
  'h:mm a': { hour: 'numeric', minute: '2-digit' },
  'MMMM d, yyyy': { dateStyle: 'long' },
  "EEEE, MMMM d, yyyy 'at' h:mm a": { dateStyle: 'full', timeStyle: 'short' },
  'MMM d, yyyy, h:mm a': { dateStyle: 'medium', timeStyle: 'short' },
};

const localeFormats = new Map<string, Intl.DateTimeFormat>();

function localeFormat(locale: string, pattern: string): Intl.DateTimeFormat | null {
  const options = LOCALE_FORMATS[pattern];
  if (!options) return null;
  const cacheKey = `${locale} ${pattern}`;
  let formatter = localeFormats.get(cacheKey);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, options);
    localeFormats.set(cacheKey, formatter);
  }
  return formatter;
}

/**
 * Formats a calendar date or a timestamp with a date-fns pattern, in local time: in English
 * by the pattern, in another language by that locale's way of writing the same parts.
 */
export function formatDate(value: string | null | undefined, pattern: string): string {
  if (!value) return '';
  const date = CALENDAR_DATE_PATTERN.test(value) ? parseISO(value) : new Date(value);
  if (!isValid(date)) return '';
  const localized = currentLanguage() === 'en' ? null : localeFormat(currentLocale(), pattern);
  return localized ? localized.format(date) : format(date, pattern);
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
