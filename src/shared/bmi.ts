/**
 * BMI, derived and never stored: each weight of a person with the height of the same person
 * measured closest in time, if that height is recent enough for the person's age. A child
 * grows, so their height must be close to the weight; an adult's height keeps (decision 0030).
 */
import { round } from './units';

const DAY_MS = 86_400_000;

/** How far apart a weight and the height it is paired with may be, by age at the weight. */
export const BMI_WINDOWS = [
  { underYears: 2, days: 7 },
  { underYears: 20, days: 30 },
  { underYears: Infinity, days: 365 },
] as const;

export interface BmiSource {
  measured_at: string;
  weight_kg?: number | null;
  height_cm?: number | null;
}

export interface BmiPoint {
  at: string;
  value: number;
}

/** kg/m², to one decimal. */
export function bmi(weightKg: number, heightCm: number): number {
  const metres = heightCm / 100;
  return round(weightKg / (metres * metres), 1);
}

function ageInYears(dateOfBirth: string, at: number): number {
  return (at - Date.parse(`${dateOfBirth.slice(0, 10)}T00:00:00Z`)) / (365.25 * DAY_MS);
}

/** The window in days for a weight at `at` (ms), given the person's date of birth if known. */
export function bmiWindowDays(dateOfBirth: string | null | undefined, at: number): number {
  // Without a date of birth, the person is read as a child: the stricter window.
  const age = dateOfBirth ? ageInYears(dateOfBirth, at) : 19;
  return (BMI_WINDOWS.find((window) => age < window.underYears) ?? BMI_WINDOWS[2]).days;
}

/**
 * The BMI of every weight that has a height close enough, oldest first. Entries may come in
 * any order; the search for the nearest height is a binary search, so ten years of daily
 * weights take milliseconds.
 */
export function bmiSeries(entries: readonly BmiSource[], dateOfBirth?: string | null): BmiPoint[] {
  const heights = entries
    .filter((entry) => typeof entry.height_cm === 'number')
    .map((entry) => ({ at: Date.parse(entry.measured_at), cm: entry.height_cm as number }))
    .sort((a, b) => a.at - b.at);
  const points: BmiPoint[] = [];
  for (const entry of entries) {
    if (typeof entry.weight_kg !== 'number') continue;
    if (typeof entry.height_cm === 'number') {
      points.push({ at: entry.measured_at, value: bmi(entry.weight_kg, entry.height_cm) });
      continue;
    }
    const at = Date.parse(entry.measured_at);
    const height = nearest(heights, at);
    if (!height || Math.abs(height.at - at) / DAY_MS > bmiWindowDays(dateOfBirth, at)) continue;
    points.push({ at: entry.measured_at, value: bmi(entry.weight_kg, height.cm) });
  }
  return points.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

function nearest(sorted: readonly { at: number; cm: number }[], at: number) {
  if (sorted.length === 0) return null;
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] as { at: number }).at < at) low = middle + 1;
    else high = middle;
  }
  const after = sorted[low] as { at: number; cm: number };
  const before = sorted[low - 1];
  return before && at - before.at <= after.at - at ? before : after;
}
