/**
 * The trends of /vitals: what GET /api/persons/{personId}/vitals answers, and each
 * 'Measure' the screen offers as a series of points in the user's units.
 */
import { key } from './i18n/translate';
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
  { label: key('Weight'), column: 'weight_kg', measure: 'weight' },
  { label: key('Height'), column: 'height_cm', measure: 'height' },
  {
    label: key('Head Circumference'),
    column: 'head_circumference_cm',
    measure: 'head_circumference',
  },
  { label: key('Blood Pressure'), column: 'systolic_mmhg', measure: 'systolic' },
  { label: key('Heart Rate'), column: 'heart_rate_per_min', measure: 'heart_rate' },
  { label: key('Temperature'), column: 'temperature_c', measure: 'temperature' },
  {
    label: key('Oxygen Saturation'),
    column: 'oxygen_saturation_pct',
    measure: 'oxygen_saturation',
  },
  { label: key('Blood Glucose'), column: 'blood_glucose_mg_dl', measure: 'blood_glucose' },
  { label: key('BMI'), column: null, measure: 'bmi' },
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

/** A number as a measure's value is shown: 'en-US' grouping, its unit's decimals at most. */
const numberFormats = new Map<number, Intl.NumberFormat>();
function formattedNumber(value: number, decimals: number): string {
  // One formatter for each count of decimals: `toLocaleString` with options makes a new one
  // on every call, tens of microseconds each, which years of daily weights add up.
  let format = numberFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: decimals });
    numberFormats.set(decimals, format);
  }
  return format.format(value);
}

/** A measure's point before it is written out: its time, value (and diastolic), in the user's units. */
type TrendPoint = Omit<TrendRow, 'text'>;

/** One measure's points, oldest first, in the user's units, and how a point reads. */
function trendPoints(
  label: TrendMeasureLabel,
  answer: VitalsTrendAnswer,
  units: UnitSystem,
): { points: TrendPoint[]; unit: string; text: (point: TrendPoint) => string } {
  const spec = TREND_MEASURES.find((item) => item.label === label) ?? TREND_MEASURES[0];
  const unit = unitOf(spec.measure, units);
  const shown = (value: number) => round(fromCanonical(spec.measure, value, units), unit.decimals);
  const text = (point: TrendPoint) =>
    point.value2 === undefined
      ? `${formattedNumber(point.value, unit.decimals)} ${unit.symbol}`
      : `${point.value}/${point.value2} mmHg`;
  if (spec.column === null) {
    const points = bmiSeries(answer.entries, answer.person.date_of_birth);
    return { points, unit: unit.symbol, text };
  }
  const points: TrendPoint[] = [];
  for (const entry of answer.entries) {
    const value = entry[spec.column];
    if (value === undefined) continue;
    if (spec.column === 'systolic_mmhg') {
      const diastolic = entry.diastolic_mmhg;
      if (diastolic === undefined) continue;
      points.push({ at: entry.measured_at, value, value2: diastolic });
    } else {
      points.push({ at: entry.measured_at, value: shown(value) });
    }
  }
  return { points, unit: unit.symbol, text };
}

/** One measure's points, oldest first, in the user's units. */
export function trendOf(
  label: TrendMeasureLabel,
  answer: VitalsTrendAnswer,
  units: UnitSystem,
): { rows: TrendRow[]; unit: string } {
  const { points, unit, text } = trendPoints(label, answer, units);
  return { rows: points.map((point) => ({ ...point, text: text(point) })), unit };
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
    // Only the newest point is written out: the person may have years of daily weights.
    const { points, text } = trendPoints(measure, answer, units);
    let newest: TrendPoint | null = null;
    let newestAt = 0;
    for (const point of points) {
      const at = Date.parse(point.at);
      // Of two taken at the same moment, the later in the entries' order.
      if (newest === null || at >= newestAt) {
        newest = point;
        newestAt = at;
      }
    }
    if (newest) latest.push({ measure, value: text(newest), measured_at: newest.at });
  }
  return latest;
}
