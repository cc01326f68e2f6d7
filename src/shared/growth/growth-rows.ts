/**
 * A child's measurements on one growth chart: each with its age, its value in the chart's
 * measure and its percentile, as the /growth table lists them and the chart plots them.
 */
import { ageInCalendarMonths } from '../ages';
import { localDayOf } from '../dates';
import type { Sex } from '../family-members';
import {
  ageInMonths,
  assess,
  type GrowthAssessment,
  type GrowthChartDefinition,
  type GrowthMeasure,
  type GrowthTables,
  segmentAt,
} from './charts';

/** One moment's measurements, in canonical units (a vitals entry, as the growth page reads it). */
export interface GrowthMeasurement {
  /** UTC timestamp of the moment measured. */
  measuredAt: string;
  weightKg?: number;
  heightCm?: number;
  headCircumferenceCm?: number;
}

export interface GrowthPerson {
  dateOfBirth: string;
  sex: Sex;
}

export interface GrowthRow {
  measuredAt: string;
  /** The calendar day measured, in the browser's time zone. */
  day: string;
  /** The exact age the percentile is read at: days since birth over the references' month. */
  ageMonths: number;
  /** The age the table states and the chart plots at: calendar months (ages.ts). */
  calendarMonths: number;
  value: number;
  assessment: GrowthAssessment;
}

/**
 * A measurement's value in a chart's measure. BMI is derived, never typed: weight over the
 * square of the height taken at the same moment (one vitals entry).
 */
export function measureValue(
  measurement: GrowthMeasurement,
  measure: GrowthMeasure,
): number | undefined {
  if (measure !== 'bmi') return measurement[measure];
  const { weightKg, heightCm } = measurement;
  if (weightKg === undefined || heightCm === undefined || !(heightCm > 0)) return undefined;
  return weightKg / (heightCm / 100) ** 2;
}

/**
 * The rows of a chart for a person, oldest first: only measurements that carry the chart's
 * measure at an age the chart covers; `outside` counts those left out for their age.
 */
export function growthRows(
  chart: GrowthChartDefinition,
  tables: GrowthTables,
  person: GrowthPerson,
  measurements: readonly GrowthMeasurement[],
): { rows: GrowthRow[]; outside: number } {
  const rows: GrowthRow[] = [];
  let outside = 0;
  for (const measurement of measurements) {
    const value = measureValue(measurement, chart.measure);
    if (value === undefined) continue;
    const day = localDayOf(measurement.measuredAt);
    const ageMonths = ageInMonths(person.dateOfBirth, day);
    const assessment = segmentAt(chart, ageMonths)
      ? assess(chart, tables, person.sex, ageMonths, value)
      : null;
    if (!assessment) {
      outside += 1;
      continue;
    }
    rows.push({
      measuredAt: measurement.measuredAt,
      day,
      ageMonths,
      calendarMonths: ageInCalendarMonths(person.dateOfBirth, day),
      value,
      assessment,
    });
  }
  rows.sort((a, b) => a.measuredAt.localeCompare(b.measuredAt));
  return { rows, outside };
}
