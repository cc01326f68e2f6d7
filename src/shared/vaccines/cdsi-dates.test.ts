import { describe, expect, it } from 'vitest';
import { addDuration, fromDay, toDay } from './cdsi-dates';

const add = (date: string, duration: string) => fromDay(addDuration(toDay(date), duration));

describe('CDSi date arithmetic', () => {
  it('adds the pieces of a duration in the order written', () => {
    expect(add('2025-01-15', '12 months - 4 days')).toBe('2026-01-11');
    expect(add('2025-01-15', '16 months + 4 weeks')).toBe('2026-06-12');
    expect(add('2024-02-29', '1 years')).toBe('2025-03-01');
    expect(add('2025-11-10', '0 days')).toBe('2025-11-10');
  });

  it('moves a day the month does not have to the first of the next month', () => {
    expect(add('2025-03-31', '6 months')).toBe('2025-10-01');
    expect(add('2025-08-31', '6 months')).toBe('2026-03-01');
  });

  it('reads and writes calendar dates without a time zone', () => {
    expect(fromDay(toDay('1999-12-31'))).toBe('1999-12-31');
    expect(toDay('1970-01-01')).toBe(0);
  });

  it('writes every day as an ISO date, as Date does', () => {
    const iso = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
    for (let day = toDay('1800-01-01'); day <= toDay('2200-12-31'); day += 1) {
      if (fromDay(day) !== iso(day)) expect(fromDay(day)).toBe(iso(day));
    }
    for (const day of [toDay('0000-01-01'), toDay('0001-03-01'), toDay('9999-12-31')]) {
      expect(fromDay(day)).toBe(iso(day));
      expect(fromDay(day - 1)).toBe(iso(day - 1));
      expect(fromDay(day + 1)).toBe(iso(day + 1));
    }
  });
});
