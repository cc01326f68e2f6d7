/**
 * Ages as people count them (CONTRACT.md §6 'Ages'): in calendar months, not in days over an
 * average month. A month is complete on the same day of the month as the birth; for a birth
 * on a day a shorter month does not have (the 29th to the 31st), on that month's last day,
 * as date-fns' `addMonths` counts (born 31 January: one month old on 28 February, or the
 * 29th in a leap year; born 29 February: a year old on 28 February). Dates are calendar
 * dates (`YYYY-MM-DD`), read as numbers, never through a Date in some time zone.
 *
 * What is shown is `formatAge`; the growth chart plots at `ageInCalendarMonths`, which never
 * leaves the month the table states. Percentiles are not computed from these: the growth
 * references count ages in days (growth/charts.ts `ageInMonths`).
 */
import { tr } from './i18n/translate';

function partsOf(date: string): [year: number, month: number, day: number] {
  const [year, month, day] = date.slice(0, 10).split('-').map(Number);
  return [year!, month!, day!];
}

/** Days in a month (1–12) of a year. */
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The day number (days since 1970-01-01) of a year, month (any whole number) and day. */
function dayNumber(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

/** The day a person born on `dateOfBirth` completes `months` months, as a day number. */
function monthiversary(dateOfBirth: string, months: number): number {
  const [year, month, day] = partsOf(dateOfBirth);
  const index = year * 12 + (month - 1) + months;
  const [y, m] = [Math.floor(index / 12), (index % 12) + 1];
  return dayNumber(y, m, Math.min(day, daysInMonth(y, m)));
}

/** The whole calendar months from a birth to a day on or after it ('11' the day before the first birthday). */
export function completedMonths(dateOfBirth: string, onDay: string): number {
  const [birthYear, birthMonth] = partsOf(dateOfBirth);
  const [year, month] = partsOf(onDay);
  const months = (year - birthYear) * 12 + (month - birthMonth);
  // This month's anniversary, or the month's last day when it is shorter, may be yet to come.
  return dayNumber(...partsOf(onDay)) < monthiversary(dateOfBirth, months) ? months - 1 : months;
}

/**
 * The age on a day in calendar months, with the days into the month under way as a fraction
 * of it: a whole number on each monthiversary (12 on the first birthday), and never as much
 * as the next one before it comes. Where the growth chart plots a measurement.
 */
export function ageInCalendarMonths(dateOfBirth: string, onDay: string): number {
  const months = completedMonths(dateOfBirth, onDay);
  const start = monthiversary(dateOfBirth, months);
  const end = monthiversary(dateOfBirth, months + 1);
  return months + (dayNumber(...partsOf(onDay)) - start) / (end - start);
}

/**
 * An age in months as it is shown: under 2 years '{n} mo' ('0 mo' in the first month, '12
 * mo' on the first birthday), from 2 years '{y} y {m} mo' ('2 y 0 mo', '7 y 3 mo'). A part
 * of a month (an age from `ageInCalendarMonths`) is not yet a month.
 */
export function formatAge(months: number): string {
  const whole = Math.floor(months);
  if (whole < 24) return tr('{months} mo', { months: whole });
  return tr('{years} y {months} mo', { years: Math.floor(whole / 12), months: whole % 12 });
}
