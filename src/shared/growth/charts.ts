/**
 * The growth charts of CONTRACT §5 and the engine that places a child's measurements on
 * them (decision 0032). Which reference applies at which age is data (each chart's
 * segments), not conditions in code: the WHO Child Growth Standards under 24 months, the
 * CDC 2000 growth charts from 24 months to 20 years, as the CDC recommends; head
 * circumference on the WHO standard to 36 months; BMI on the CDC's from 2 years.
 */
import { key } from '../i18n/translate';
import type { Sex } from '../family-members';
import { formatPercentile, percentileFromZ, valueFromLms, zFromLms, zFromPercentile } from './lms';
import { DAYS_PER_MONTH, lmsAt, loadTable, type LmsTable, type TableId } from './reference';

export const GROWTH_SOURCES = {
  who: {
    name: key('WHO Child Growth Standards'),
    /** The percentiles the WHO's own percentile charts draw. */
    curves: [3, 15, 50, 85, 97],
  },
  cdc: {
    name: key('CDC 2000 growth charts'),
    /** The percentiles of the CDC's clinical charts (set 1). */
    curves: [5, 10, 25, 50, 75, 90, 95],
  },
} as const;

export type GrowthSource = keyof typeof GROWTH_SOURCES;

/** What a chart measures, by the name `useGrowthMeasurements` gives it. */
export type GrowthMeasure = 'weightKg' | 'heightCm' | 'headCircumferenceCm' | 'bmi';

export interface GrowthSegment {
  source: GrowthSource;
  table: TableId;
  /** Ages in months this segment covers: from `fromMonths` up to, not including, `toMonths`. */
  fromMonths: number;
  toMonths: number;
  /**
   * What the segment's reference measured, where a chart's segments differ: recumbent
   * 'Length' on the WHO's standard, standing 'Height' on the CDC's (decision 0032). A vitals
   * entry does not record the position, so the screen names which one each value is read as.
   */
  measured?: 'Length' | 'Height';
}

export interface GrowthChartDefinition {
  id: 'weight' | 'length-height' | 'head-circumference' | 'bmi';
  /** The 'Chart' select's option (CONTRACT §5). */
  label: string;
  measure: GrowthMeasure;
  /** The canonical unit the measure is stored and computed in. */
  unit: string;
  segments: GrowthSegment[];
}

export const GROWTH_CHARTS: readonly GrowthChartDefinition[] = [
  {
    id: 'weight',
    label: key('Weight for age'),
    measure: 'weightKg',
    unit: 'kg',
    segments: [
      { source: 'who', table: 'who-weight-for-age', fromMonths: 0, toMonths: 24 },
      { source: 'cdc', table: 'cdc-weight-for-age', fromMonths: 24, toMonths: 240 },
    ],
  },
  {
    id: 'length-height',
    label: key('Length/height for age'),
    measure: 'heightCm',
    unit: 'cm',
    // Recumbent length on the WHO standard, standing height (stature) on the CDC's.
    segments: [
      {
        source: 'who',
        table: 'who-length-for-age',
        fromMonths: 0,
        toMonths: 24,
        measured: key('Length'),
      },
      {
        source: 'cdc',
        table: 'cdc-stature-for-age',
        fromMonths: 24,
        toMonths: 240,
        measured: key('Height'),
      },
    ],
  },
  {
    id: 'head-circumference',
    label: key('Head circumference for age'),
    measure: 'headCircumferenceCm',
    unit: 'cm',
    segments: [
      { source: 'who', table: 'who-head-circumference-for-age', fromMonths: 0, toMonths: 36 },
    ],
  },
  {
    id: 'bmi',
    label: key('BMI for age'),
    measure: 'bmi',
    unit: 'kg/m²',
    segments: [{ source: 'cdc', table: 'cdc-bmi-for-age', fromMonths: 24, toMonths: 240 }],
  },
];

export function growthChart(id: GrowthChartDefinition['id']): GrowthChartDefinition {
  const chart = GROWTH_CHARTS.find((candidate) => candidate.id === id);
  if (!chart) throw new Error(`No growth chart '${id}'`);
  return chart;
}

/** The ages in months any growth chart covers; a person older than this has none. */
export const GROWTH_AGE_LIMIT_MONTHS = Math.max(
  ...GROWTH_CHARTS.flatMap((chart) => chart.segments.map((segment) => segment.toMonths)),
);

/** Whether a person has growth charts today: a date of birth, a sex, and an age a chart covers. */
export function hasGrowthCharts(
  person: { date_of_birth?: string | null; sex?: Sex | null },
  today: string,
): person is { date_of_birth: string; sex: Sex } {
  if (!person.date_of_birth || !person.sex) return false;
  const age = ageInMonths(person.date_of_birth, today);
  return age >= 0 && age < GROWTH_AGE_LIMIT_MONTHS;
}

/** A chart's tables, loaded (each once). */
export type GrowthTables = Partial<Record<TableId, LmsTable>>;

export async function loadGrowthTables(chart: GrowthChartDefinition): Promise<GrowthTables> {
  const entries = await Promise.all(
    chart.segments.map(async (segment) => [segment.table, await loadTable(segment.table)] as const),
  );
  return Object.fromEntries(entries);
}

/** The segment of a chart that covers an age, if any. */
export function segmentAt(chart: GrowthChartDefinition, ageMonths: number): GrowthSegment | null {
  return (
    chart.segments.find(
      (segment) => ageMonths >= segment.fromMonths && ageMonths < segment.toMonths,
    ) ?? null
  );
}

function calendarDayNumber(date: string): number {
  const [year, month, day] = date.slice(0, 10).split('-').map(Number);
  return Date.UTC(year!, month! - 1, day!) / 86_400_000;
}

/**
 * Age in months on a calendar day (both `YYYY-MM-DD`): whole days since birth over the
 * average month, as the WHO's and the CDC's programs compute it.
 */
export function ageInMonths(dateOfBirth: string, onDay: string): number {
  return (calendarDayNumber(onDay) - calendarDayNumber(dateOfBirth)) / DAYS_PER_MONTH;
}

export interface GrowthAssessment {
  source: GrowthSource;
  /** 'Length' or 'Height' on the length/height chart: what the value is read as. */
  measured?: GrowthSegment['measured'];
  z: number;
  percentile: number;
}

/** Where a measurement stands on a chart at an age; null outside the chart's ages. */
export function assess(
  chart: GrowthChartDefinition,
  tables: GrowthTables,
  sex: Sex,
  ageMonths: number,
  value: number,
): GrowthAssessment | null {
  const segment = segmentAt(chart, ageMonths);
  const table = segment ? tables[segment.table] : undefined;
  if (!segment || !table || !(value > 0)) return null;
  const lms = lmsAt(table[sex], ageMonths);
  if (!lms) return null;
  const z = zFromLms(lms, value);
  return {
    source: segment.source,
    ...(segment.measured ? { measured: segment.measured } : {}),
    z,
    percentile: percentileFromZ(z),
  };
}

export interface GrowthCurve {
  source: GrowthSource;
  percentile: number;
  /** '3rd', '50th', … */
  label: string;
  /** The value at each of the ages asked for; null where the curve's source does not apply. */
  values: (number | null)[];
}

/**
 * Each source's percentile curves over the given ages (ascending, in months), for drawing
 * behind a child's points. A curve has values only on its own source's segment.
 */
export function percentileCurves(
  chart: GrowthChartDefinition,
  tables: GrowthTables,
  sex: Sex,
  ages: readonly number[],
): GrowthCurve[] {
  return chart.segments.flatMap((segment) => {
    const table = tables[segment.table];
    if (!table) return [];
    const lmsByAge = ages.map((age) =>
      age >= segment.fromMonths && age <= segment.toMonths ? lmsAt(table[sex], age) : null,
    );
    return GROWTH_SOURCES[segment.source].curves.map((percentile) => {
      const z = zFromPercentile(percentile);
      return {
        source: segment.source,
        percentile,
        label: formatPercentile(percentile),
        values: lmsByAge.map((lms) => {
          const value = lms ? valueFromLms(lms, z) : Number.NaN;
          return Number.isFinite(value) ? value : null;
        }),
      };
    });
  });
}

/** How far past the last measurement a chart reaches, and the step its end is rounded up to. */
const AGE_RANGE_PAD_MONTHS = 6;

/**
 * The ages a chart spans for a person: from the start of the reference segment of their
 * first measurement (or of their age today) to a little past the last one, rounded up to
 * half a year and never past the end of the last segment reached.
 */
export function chartAgeRange(
  chart: GrowthChartDefinition,
  ages: readonly number[],
): { fromMonths: number; toMonths: number } | null {
  const covered = ages.filter((age) => segmentAt(chart, age) !== null);
  if (covered.length === 0) return null;
  const first = segmentAt(chart, Math.min(...covered))!;
  const lastAge = Math.max(...covered);
  const last = segmentAt(chart, lastAge)!;
  const padded =
    Math.ceil((lastAge + AGE_RANGE_PAD_MONTHS) / AGE_RANGE_PAD_MONTHS) * AGE_RANGE_PAD_MONTHS;
  return { fromMonths: first.fromMonths, toMonths: Math.min(padded, last.toMonths) };
}

/** Evenly spaced ages across a range, both ends included. */
export function sampleAges(fromMonths: number, toMonths: number, count: number): number[] {
  const step = (toMonths - fromMonths) / (count - 1);
  return Array.from({ length: count }, (_, index) =>
    index === count - 1 ? toMonths : fromMonths + step * index,
  );
}
