/**
 * The trends of /vitals: what GET /api/persons/{personId}/vitals answers, and each
 * 'Measure' the screen offers as a series of points in the user's units.
 */
import { bmiSeries } from './bmi';
import { vitalColumns, type VitalColumn } from './records/vital-columns';
import { fromCanonical, round, unitOf, type MeasureName, type UnitSystem } from './units';

/** One entry: only the measures it has (ten years of daily weights stay a small answer). */
export type VitalsEntry = {
  id: string;
  measured_at: string;
  glucose_timing?: string;
} & Partial<Record<VitalColumn, number>>;

/** A vitals row as an entry: its id, time and the measures it holds, none of its nulls. */
export function vitalsEntryOf(
  row: { id: string; measured_at: string; glucose_timing: string | null } & Record<
    VitalColumn,
    number | null
  >,
): VitalsEntry {
  const entry: VitalsEntry = { id: row.id, measured_at: row.measured_at };
  if (row.glucose_timing !== null) entry.glucose_timing = row.glucose_timing;
  for (const column of vitalColumns) {
    const value = row[column];
    if (value !== null) entry[column] = value;
  }
  return entry;
}

export interface VitalsTrendAnswer {
  person: { id: string; name: string; date_of_birth: string | null };
  /** Oldest first. */
  entries: VitalsEntry[];
}

/** The 'Measure' select of /vitals, in CONTRACT §5's order. */
export const TREND_MEASURES = [
  { label: 'Weight', column: 'weight_kg', measure: 'weight' },
  { label: 'Height', column: 'height_cm', measure: 'height' },
  { label: 'Head Circumference', column: 'head_circumference_cm', measure: 'head_circumference' },
  { label: 'Blood Pressure', column: 'systolic_mmhg', measure: 'systolic' },
  { label: 'Heart Rate', column: 'heart_rate_per_min', measure: 'heart_rate' },
  { label: 'Temperature', column: 'temperature_c', measure: 'temperature' },
  { label: 'Oxygen Saturation', column: 'oxygen_saturation_pct', measure: 'oxygen_saturation' },
  { label: 'Blood Glucose', column: 'blood_glucose_mg_dl', measure: 'blood_glucose' },
  { label: 'BMI', column: null, measure: 'bmi' },
] as const satisfies readonly { label: string; column: VitalColumn | null; measure: MeasureName }[];

export type TrendMeasureLabel = (typeof TREND_MEASURES)[number]['label'];

export interface TrendRow {
  at: string;
  value: number;
  /** Blood pressure's diastolic, under its systolic. */
  value2?: number;
  /** 'Weight 160.2 lb', '120/80 mmHg' */
  text: string;
}

/** One measure's points, oldest first, in the user's units. */
export function trendOf(
  label: TrendMeasureLabel,
  answer: VitalsTrendAnswer,
  units: UnitSystem,
): { rows: TrendRow[]; unit: string } {
  const spec = TREND_MEASURES.find((item) => item.label === label) ?? TREND_MEASURES[0];
  const unit = unitOf(spec.measure, units);
  const shown = (value: number) => round(fromCanonical(spec.measure, value, units), unit.decimals);
  const text = (value: number) =>
    `${value.toLocaleString('en-US', { maximumFractionDigits: unit.decimals })} ${unit.symbol}`;
  if (spec.column === null) {
    const rows = bmiSeries(answer.entries, answer.person.date_of_birth).map((point) => ({
      at: point.at,
      value: point.value,
      text: text(point.value),
    }));
    return { rows, unit: unit.symbol };
  }
  const rows: TrendRow[] = [];
  for (const entry of answer.entries) {
    const value = entry[spec.column];
    if (value === undefined) continue;
    if (spec.column === 'systolic_mmhg') {
      const diastolic = entry.diastolic_mmhg;
      if (diastolic === undefined) continue;
      rows.push({
        at: entry.measured_at,
        value,
        value2: diastolic,
        text: `${value}/${diastolic} mmHg`,
      });
    } else {
      const number = shown(value);
      rows.push({ at: entry.measured_at, value: number, text: text(number) });
    }
  }
  return { rows, unit: unit.symbol };
}

/** The measures a summary gives the newest value of, in its order (CONTRACT §5's, BMI after Height). */
export const LATEST_VITAL_MEASURES = [
  'Weight',
  'Height',
  'BMI',
  'Blood Pressure',
  'Heart Rate',
  'Temperature',
  'Oxygen Saturation',
  'Blood Glucose',
] as const satisfies readonly TrendMeasureLabel[];

export interface LatestVital {
  measure: TrendMeasureLabel;
  /** In the user's units: '160.2 lb', '120/80 mmHg'. */
  value: string;
  /** When it was measured: a UTC ISO timestamp. */
  measured_at: string;
}

/**
 * The newest value of each measure the person has, in the user's units; BMI is the newest
 * weight's with a height close enough (src/shared/bmi.ts). Measures never taken are left out.
 */
export function latestVitals(answer: VitalsTrendAnswer, units: UnitSystem): LatestVital[] {
  const latest: LatestVital[] = [];
  for (const measure of LATEST_VITAL_MEASURES) {
    const newest = trendOf(measure, answer, units).rows.reduce<TrendRow | null>(
      (best, row) => (best === null || Date.parse(row.at) >= Date.parse(best.at) ? row : best),
      null,
    );
    if (newest) latest.push({ measure, value: newest.text, measured_at: newest.at });
  }
  return latest;
}
