/**
 * What the growth chart draws for a person and a chart: the percentile curves of each
 * reference over the ages the child's measurements span, and the child's own points, on one
 * shared age axis (uPlot's data layout: one x array, a y array per series). The axis counts
 * calendar months (ages.ts), so a point sits at the age the table states: on the '12' tick
 * on the first birthday. A curve's value at an age is the reference's at that many of its
 * own months (days over 30.4375), which differ from calendar months by three days at most.
 */
import {
  chartAgeRange,
  GROWTH_SOURCES,
  type GrowthChartDefinition,
  type GrowthSource,
  type GrowthTables,
  percentileCurves,
  sampleAges,
} from '../../../shared/growth/charts';
import type { GrowthRow } from '../../../shared/growth/growth-rows';
import type { Sex } from '../../../shared/family-members';

/** Points along each curve: smooth at a phone's width, cheap to compute and draw. */
const CURVE_SAMPLES = 81;

export interface GrowthChartData {
  /** Ages in calendar months, ascending. */
  ages: number[];
  curves: { label: string; percentile: number; source: GrowthSource; values: (number | null)[] }[];
  /** The child's values at `ages` (null where no measurement was taken). */
  points: (number | null)[];
  /** The references drawn, by name, in age order. */
  sources: string[];
  fromMonths: number;
  toMonths: number;
}

/**
 * The chart's data; with no measurement, the curves of the stage of life the child is in
 * today (`ageToday` in calendar months). Null when the chart covers none of those ages.
 */
export function growthChartData(
  chart: GrowthChartDefinition,
  tables: GrowthTables,
  sex: Sex,
  rows: readonly GrowthRow[],
  ageToday: number,
): GrowthChartData | null {
  const range = chartAgeRange(
    chart,
    rows.length ? rows.map((row) => row.calendarMonths) : [ageToday],
  );
  if (!range) return null;
  const valueAt = new Map<number, number>();
  for (const row of rows) valueAt.set(row.calendarMonths, row.value);
  const ages = [
    ...new Set([...sampleAges(range.fromMonths, range.toMonths, CURVE_SAMPLES), ...valueAt.keys()]),
  ].sort((a, b) => a - b);
  const sources = chart.segments
    .filter((segment) => segment.fromMonths < range.toMonths && segment.toMonths > range.fromMonths)
    .map((segment) => GROWTH_SOURCES[segment.source].name);
  return {
    ages,
    // A reference whose ages only touch the range's end draws no curve there.
    curves: percentileCurves(chart, tables, sex, ages).filter(
      (curve) => curve.values.filter((value) => value !== null).length > 1,
    ),
    points: ages.map((age) => valueAt.get(age) ?? null),
    sources,
    fromMonths: range.fromMonths,
    toMonths: range.toMonths,
  };
}
