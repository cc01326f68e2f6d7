import { format } from 'date-fns/format';
import { afterEach, describe, expect, it } from 'vitest';
import { englishTranslator, setTranslatorSource } from './i18n/translate';
import {
  formatDate,
  formatList,
  LOCALE_FORMATS,
  type DatePattern,
  fromDateTimeLocalInput,
  isCalendarDate,
  isTimestamp,
  localDayOf,
  localToday,
  toDateTimeLocalInput,
} from './dates';

const originalZone = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalZone;
});

describe('calendar dates', () => {
  it.each(['2026-01-31', '2024-02-29', '1800-01-01', '2999-12-31'])('accepts %s', (value) => {
    expect(isCalendarDate(value)).toBe(true);
  });
  it.each([
    '2026-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-1-1',
    '26-01-01',
    '2026-01-01T00:00',
    '1799-12-31',
    '',
  ])('refuses %j', (value) => {
    expect(isCalendarDate(value)).toBe(false);
  });
});

describe('timestamps', () => {
  it.each([
    '2026-01-31T10:00:00Z',
    '2026-01-31T10:00Z',
    '2026-01-31T10:00:00.123+05:30',
    '2026-01-31T23:59:59-08:00',
  ])('accepts %s', (value) => {
    expect(isTimestamp(value)).toBe(true);
  });
  it.each([
    '2026-01-31T10:00:00',
    '2026-01-31',
    '2026-02-30T10:00:00Z',
    '2026-01-31T24:00:00Z',
    'now',
  ])('refuses %j', (value) => {
    expect(isTimestamp(value)).toBe(false);
  });
});

describe('time zones', () => {
  it('today is the local calendar date, east and west of UTC', () => {
    const moment = new Date('2026-06-15T23:30:00.000Z');
    process.env.TZ = 'Pacific/Auckland';
    expect(localToday(moment)).toBe('2026-06-16');
    process.env.TZ = 'America/Los_Angeles';
    expect(localToday(moment)).toBe('2026-06-15');
  });

  it('a visit falls on its local day', () => {
    process.env.TZ = 'Asia/Tokyo';
    expect(localDayOf('2026-06-15T20:00:00.000Z')).toBe('2026-06-16');
    process.env.TZ = 'America/New_York';
    expect(localDayOf('2026-06-16T02:00:00.000Z')).toBe('2026-06-15');
  });

  it('calendar dates never shift, whatever the zone', () => {
    for (const zone of ['Pacific/Kiritimati', 'UTC', 'Pacific/Pago_Pago', 'America/Sao_Paulo']) {
      process.env.TZ = zone;
      expect(formatDate('2026-03-01', 'MMM d, yyyy'), zone).toBe('Mar 1, 2026');
    }
  });

  it('the visit form round-trips local wall time through UTC', () => {
    process.env.TZ = 'Europe/Berlin';
    expect(fromDateTimeLocalInput('2026-07-01T09:30')).toBe('2026-07-01T07:30:00.000Z');
    expect(toDateTimeLocalInput('2026-07-01T07:30:00.000Z')).toBe('2026-07-01T09:30');
    process.env.TZ = 'America/Denver';
    expect(fromDateTimeLocalInput('2026-01-10T18:00')).toBe('2026-01-11T01:00:00.000Z');
    expect(toDateTimeLocalInput('2026-01-11T01:00:00.000Z')).toBe('2026-01-10T18:00');
  });
});

describe('formatDate in English', () => {
  const patterns = Object.keys(LOCALE_FORMATS) as DatePattern[];

  it.each(['America/Los_Angeles', 'Europe/London', 'Asia/Kolkata'])(
    'writes every pattern as date-fns does, every 47 minutes of 2026 in %s',
    (zone) => {
      process.env.TZ = zone;
      const start = Date.parse('2026-01-01T00:00:00Z');
      const mismatches: string[] = [];
      for (let at = start; at < start + 366 * 86_400_000; at += 47 * 60_000) {
        const timestamp = new Date(at).toISOString();
        for (const pattern of patterns) {
          const expected = format(new Date(at), pattern);
          if (formatDate(timestamp, pattern) !== expected)
            mismatches.push(`${timestamp} ${pattern}`);
        }
      }
      expect(mismatches.slice(0, 5)).toEqual([]);
    },
  );

  it('writes a calendar date as the day it names, midnight and noon as English does', () => {
    process.env.TZ = 'Pacific/Kiritimati';
    expect(formatDate('2026-01-05', 'MMMM d, yyyy')).toBe('January 5, 2026');
    expect(formatDate('2026-01-05', "EEEE, MMMM d, yyyy 'at' h:mm a")).toBe(
      'Monday, January 5, 2026 at 12:00 AM',
    );
    process.env.TZ = 'UTC';
    expect(formatDate('2026-01-05T12:00:00.000Z', 'h:mm a')).toBe('12:00 PM');
    expect(formatDate('2026-13-40', 'MMM d')).toBe('');
  });
});

describe('formatList', () => {
  afterEach(() => setTranslatorSource(() => englishTranslator));

  it('writes English as the screens always did, another language its own way', () => {
    expect(formatList(['Morning', 'Evening'])).toBe('Morning, Evening');
    setTranslatorSource(() => ({ language: 'zh-CN', t: (key) => key }));
    expect(formatList(['早上', '晚上'])).toBe('早上和晚上');
    setTranslatorSource(() => ({ language: 'es', t: (key) => key }));
    expect(formatList(['Mañana', 'Noche'])).toBe('Mañana y Noche');
  });
});
