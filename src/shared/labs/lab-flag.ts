/**
 * Whether a lab result lies outside its reference range: derived, never stored. A result is
 * read as a number only when it is written as one ('5.4', '-1', '120'); a text result
 * ('Negative', '<0.5') has no flag. With a range bound or two, a number below the low bound
 * is 'Low', above the high bound 'High', and otherwise 'Normal' (a bound itself is inside);
 * with no bound at all there is nothing to say.
 */
import { key } from '../i18n/translate';

export type LabFlag = 'High' | 'Low' | 'Normal';

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A decimal number as typed, or null when the text is no plain number. */
export function decimalOf(value: string | number | null | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return DECIMAL.test(trimmed) ? Number(trimmed) : null;
}

export interface RangedResult {
  result: string | number | null | undefined;
  range_low?: string | number | null;
  range_high?: string | number | null;
}

export function labFlag(values: RangedResult): LabFlag | null {
  const value = decimalOf(values.result);
  if (value === null) return null;
  const low = decimalOf(values.range_low);
  const high = decimalOf(values.range_high);
  if (low === null && high === null) return null;
  if (low !== null && value < low) return key('Low');
  if (high !== null && value > high) return key('High');
  return key('Normal');
}

/** 'high' / 'low' for a chart's marked points, undefined inside the range. */
export function outOfRangeOf(values: RangedResult): 'high' | 'low' | undefined {
  const flag = labFlag(values);
  return flag === 'High' ? 'high' : flag === 'Low' ? 'low' : undefined;
}

/** The order that puts out-of-range results first (the summary PDF's). */
export function outOfRangeFirst(a: RangedResult, b: RangedResult): number {
  const rank = (values: RangedResult) => {
    const flag = labFlag(values);
    return flag === 'High' || flag === 'Low' ? 0 : 1;
  };
  return rank(a) - rank(b);
}

/** The first day of the twelve months up to `today` (the summary's lab results). */
export function twelveMonthsBefore(today: string): string {
  const year = Number(today.slice(0, 4)) - 1;
  const monthDay = today.slice(4) === '-02-29' ? '-03-01' : today.slice(4);
  return `${String(year).padStart(4, '0')}${monthDay}`;
}

/** A range as read: '40–100', '≤ 100', '≥ 40', or '' without bounds. */
export function rangeText(
  low: string | number | null | undefined,
  high: string | number | null | undefined,
): string {
  const has = (bound: string | number | null | undefined) =>
    bound !== null && bound !== undefined && bound !== '';
  if (has(low) && has(high)) return `${low}–${high}`;
  if (has(high)) return `≤ ${high}`;
  if (has(low)) return `≥ ${low}`;
  return '';
}
