/** Ages in calendar months (CONTRACT.md §6 'Ages'): birthdays, month ends, leap days. */
import { addDays as addDaysToDate } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { format } from 'date-fns/format';
import { describe, expect, it } from 'vitest';
import { ageInCalendarMonths, completedMonths, formatAge } from './ages';

describe('completed months', () => {
  it.each([
    // Birthdays: the first one is 12 months, the day before 11.
    ['2025-06-15', '2025-06-15', 0],
    ['2025-06-15', '2025-07-14', 0],
    ['2025-06-15', '2025-07-15', 1],
    ['2025-06-15', '2026-06-14', 11],
    ['2025-06-15', '2026-06-15', 12],
    ['2025-06-15', '2027-06-14', 23],
    ['2025-06-15', '2027-06-15', 24],
    ['2018-03-10', '2025-06-10', 87],
    // Born on the 31st: a shorter month completes on its last day.
    ['2025-01-31', '2025-02-27', 0],
    ['2025-01-31', '2025-02-28', 1],
    ['2024-01-31', '2024-02-28', 0],
    ['2024-01-31', '2024-02-29', 1],
    ['2025-01-31', '2025-03-30', 1],
    ['2025-01-31', '2025-03-31', 2],
    ['2025-01-31', '2025-04-29', 2],
    ['2025-01-31', '2025-04-30', 3],
    ['2025-01-30', '2025-02-28', 1],
    ['2024-12-31', '2025-01-30', 0],
    ['2024-12-31', '2025-01-31', 1],
    ['2024-12-31', '2025-02-28', 2],
    // Born on 29 February: a year old on 28 February, four on the 29th.
    ['2024-02-29', '2024-03-28', 0],
    ['2024-02-29', '2024-03-29', 1],
    ['2024-02-29', '2025-02-27', 11],
    ['2024-02-29', '2025-02-28', 12],
    ['2024-02-29', '2025-03-01', 12],
    ['2024-02-29', '2028-02-28', 47],
    ['2024-02-29', '2028-02-29', 48],
  ])('born %s, on %s: %i', (born, on, months) => {
    expect(completedMonths(born, on)).toBe(months);
  });

  it("counts as date-fns' addMonths does, every day of two and a half years", () => {
    const day = (date: Date) => format(date, 'yyyy-MM-dd');
    for (const born of ['2023-01-29', '2023-01-30', '2023-01-31', '2023-08-31', '2024-02-29']) {
      const birth = new Date(`${born}T00:00:00`);
      const monthiversaries = Array.from({ length: 32 }, (_, n) => day(addMonths(birth, n + 1)));
      for (let offset = 0; offset < 900; offset += 1) {
        const on = day(addDaysToDate(birth, offset));
        const expected = monthiversaries.filter((date) => date <= on).length;
        expect(completedMonths(born, on), `${born} on ${on}`).toBe(expected);
      }
    }
  });
});

describe('the age in calendar months a chart plots at', () => {
  it('is whole on each monthiversary, and stays in the month the table states', () => {
    expect(ageInCalendarMonths('2025-06-15', '2026-06-15')).toBe(12);
    expect(ageInCalendarMonths('2025-01-31', '2025-02-28')).toBe(1);
    expect(ageInCalendarMonths('2024-02-29', '2025-02-28')).toBe(12);
    expect(ageInCalendarMonths('2025-06-15', '2025-07-01')).toBeCloseTo(16 / 30, 10);
    let before = -1;
    for (let offset = 0; offset < 800; offset += 1) {
      const on = format(addDaysToDate(new Date('2024-01-31T00:00:00'), offset), 'yyyy-MM-dd');
      const age = ageInCalendarMonths('2024-01-31', on);
      expect(Math.floor(age), on).toBe(completedMonths('2024-01-31', on));
      expect(age, on).toBeGreaterThan(before);
      before = age;
    }
  });
});

describe('ages as they are shown', () => {
  it.each([
    [0, '0 mo'],
    [0.97, '0 mo'],
    [1, '1 mo'],
    [11.99, '11 mo'],
    [12, '12 mo'],
    [23.97, '23 mo'],
    [24, '2 y 0 mo'],
    [30.5, '2 y 6 mo'],
    [87, '7 y 3 mo'],
    [239.9, '19 y 11 mo'],
  ])('%s months reads %s', (months, text) => {
    expect(formatAge(months)).toBe(text);
  });

  it.each([
    ['2025-06-15', '2026-06-15', '12 mo'],
    ['2025-06-15', '2026-06-14', '11 mo'],
    ['2025-06-15', '2025-06-20', '0 mo'],
    ['2023-06-15', '2025-06-15', '2 y 0 mo'],
    ['2018-03-10', '2025-06-10', '7 y 3 mo'],
    ['2024-02-29', '2025-02-28', '12 mo'],
  ])('born %s, on %s: %s', (born, on, text) => {
    expect(formatAge(ageInCalendarMonths(born, on))).toBe(text);
  });
});
