/** The summary's dates: calendar dates as written, moments in the reader's time zone. */
import { describe, expect, it } from 'vitest';
import { checkTimeZone, formatCalendarDate, formatDateTime, formatDay } from './summary-dates';

describe('summary dates', () => {
  it('write a calendar date in words, the same day in every time zone', () => {
    const zoneBefore = process.env.TZ;
    try {
      for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC']) {
        process.env.TZ = zone;
        expect(formatCalendarDate('2030-03-04')).toBe('March 4, 2030');
        expect(formatCalendarDate('1999-12-31')).toBe('December 31, 1999');
        expect(formatCalendarDate('2030-01-01')).toBe('January 1, 2030');
      }
    } finally {
      if (zoneBefore === undefined) delete process.env.TZ;
      else process.env.TZ = zoneBefore;
    }
  });

  it('leave nothing for no date, and show a value that is not a date as it is', () => {
    expect(formatCalendarDate(null)).toBe('');
    expect(formatCalendarDate('')).toBe('');
    expect(formatCalendarDate('sometime in 2020')).toBe('sometime in 2020');
    expect(formatCalendarDate('2030-13-01')).toBe('2030-13-01');
  });

  it('show a moment in the time zone asked for, with its time', () => {
    const visit = '2030-03-04T08:30:00.000Z';
    expect(formatDateTime(visit, 'Europe/Oslo')).toBe('March 4, 2030, 9:30 AM');
    expect(formatDateTime(visit, 'America/New_York')).toBe('March 4, 2030, 3:30 AM');
    expect(formatDateTime(visit, 'UTC')).toBe('March 4, 2030, 8:30 AM');
    expect(formatDateTime('2030-07-01T12:05:00.000Z', 'Europe/Oslo')).toBe('July 1, 2030, 2:05 PM');
    expect(formatDateTime('2030-03-04T23:45:00.000Z', 'Asia/Tokyo')).toBe('March 5, 2030, 8:45 AM');
  });

  it('give the calendar day a moment falls on where the reader is', () => {
    const late = '2030-03-04T23:30:00.000Z';
    expect(formatDay(late, 'UTC')).toBe('March 4, 2030');
    expect(formatDay(late, 'Pacific/Auckland')).toBe('March 5, 2030');
    expect(formatDay('2030-03-04T02:00:00.000Z', 'America/Los_Angeles')).toBe('March 3, 2030');
  });

  it('refuse a time zone that does not exist', () => {
    expect(() => checkTimeZone('Mars/Olympus_Mons')).toThrow(RangeError);
    expect(() => checkTimeZone('Europe/Oslo')).not.toThrow();
  });
});
