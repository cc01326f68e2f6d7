/**
 * Dates as the PDF summary prints them: calendar dates as 'March 4, 2030', never moved by a
 * time zone, and moments (a visit, the time of printing) as 'March 4, 2030, 9:30 AM' in the
 * reader's time zone.
 */
import { CALENDAR_DATE_PATTERN } from '../../shared/date-values';
import { currentLanguage, currentLocale } from '../../shared/i18n/translate';

/**
 * In another language than English, dates are written as its locale writes them ('4 de marzo
 * de 2030', '2030年3月4日'): one formatter per locale, time zone and kind, kept.
 */
const localeFormats = new Map<string, Intl.DateTimeFormat>();

function localeFormat(
  kind: 'date' | 'day' | 'moment',
  timeZone: string,
): Intl.DateTimeFormat | null {
  if (currentLanguage() === 'en') return null;
  const locale = currentLocale();
  const cacheKey = `${locale} ${kind} ${timeZone}`;
  let format = localeFormats.get(cacheKey);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone,
      dateStyle: 'long',
      ...(kind === 'moment' ? { timeStyle: 'short' } : {}),
    });
    localeFormats.set(cacheKey, format);
  }
  return format;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * A calendar date (`YYYY-MM-DD`) in words. It is read as the three numbers it is, not as a
 * moment, so no time zone can move it to the day before. A value that is not a calendar date
 * is shown as it is rather than hidden.
 */
export function formatCalendarDate(value: string | null): string {
  if (!value) return '';
  const match = CALENDAR_DATE_PATTERN.exec(value);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || !month) return value;
  const localized = localeFormat('date', 'UTC');
  if (localized) {
    return localized.format(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  }
  return `${month} ${Number(match[3])}, ${match[1]}`;
}

// Building an Intl formatter costs far more than using one: one per time zone, kept.
const momentFormats = new Map<string, Intl.DateTimeFormat>();

function momentFormat(timeZone: string): Intl.DateTimeFormat {
  let format = momentFormats.get(timeZone);
  if (!format) {
    // Throws a RangeError for a time zone that does not exist, before anything is cached.
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    });
    momentFormats.set(timeZone, format);
  }
  return format;
}

interface MomentParts {
  date: string;
  time: string;
}

function momentParts(timestamp: string, timeZone: string): MomentParts | null {
  const moment = new Date(timestamp);
  if (Number.isNaN(moment.getTime())) return null;
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of momentFormat(timeZone).formatToParts(moment)) parts[part.type] = part.value;
  // Assembled from parts: ICU's own joining words ('at') and spaces (U+202F) vary by version.
  return {
    date: `${parts.month} ${parts.day}, ${parts.year}`,
    time: `${parts.hour}:${parts.minute} ${parts.dayPeriod}`,
  };
}

/** A moment's date and time in a time zone: 'March 4, 2030, 9:30 AM'. */
export function formatDateTime(timestamp: string, timeZone: string): string {
  const localized = localeFormat('moment', timeZone);
  const moment = new Date(timestamp);
  if (localized && !Number.isNaN(moment.getTime())) return localized.format(moment);
  const parts = momentParts(timestamp, timeZone);
  return parts ? `${parts.date}, ${parts.time}` : timestamp;
}

/** The calendar day a moment falls on in a time zone: 'March 4, 2030'. */
export function formatDay(timestamp: string, timeZone: string): string {
  const localized = localeFormat('day', timeZone);
  const moment = new Date(timestamp);
  if (localized && !Number.isNaN(moment.getTime())) return localized.format(moment);
  return momentParts(timestamp, timeZone)?.date ?? timestamp;
}

/** Refuses a time zone that does not exist (a RangeError naming it). */
export function checkTimeZone(timeZone: string): void {
  momentFormat(timeZone);
}
