/**
 * The growth screen's logic without a browser: vitals rows read as measurements, and the
 * table and chart a child's measurements make. Expected percentiles come from the published
 * tables (see src/shared/growth/charts.test.ts for their sources).
 */
import { describe, expect, it } from 'vitest';
import { formatAge } from '../../../shared/ages';
import { growthChart, hasGrowthCharts, loadGrowthTables } from '../../../shared/growth/charts';
import { growthRows, measureValue } from '../../../shared/growth/growth-rows';
import { formatPercentile } from '../../../shared/growth/lms';
import type { VitalsRow } from './growth-api';
import { growthChartData } from './growth-chart-data';
import { toGrowthMeasurements } from './growth-measurements';
import { formatGrowthValue, growthDisplay } from './growth-units';

const row = (measuredAt: string, values: Partial<VitalsRow>): VitalsRow => ({
  id: measuredAt,
  family_member_id: 'member-1',
  measured_at: measuredAt,
  weight_kg: null,
  height_cm: null,
  head_circumference_cm: null,
  ...values,
});

describe('vitals rows as growth measurements', () => {
  it('keeps the growth measures each entry has and leaves out entries without one', () => {
    const rows = [
      row('2024-03-01T10:00:00.000Z', { weight_kg: 6.2, height_cm: 61.5 }),
      row('2024-04-01T10:00:00.000Z', { head_circumference_cm: 40.1 }),
      row('2024-05-01T10:00:00.000Z', {}),
      // PostgreSQL's numeric columns arrive as text.
      row('2024-06-01T10:00:00.000Z', { weight_kg: '7.9' as unknown as number }),
    ];
    expect(toGrowthMeasurements(rows)).toEqual([
      { measuredAt: '2024-03-01T10:00:00.000Z', weightKg: 6.2, heightCm: 61.5 },
      { measuredAt: '2024-04-01T10:00:00.000Z', headCircumferenceCm: 40.1 },
      { measuredAt: '2024-06-01T10:00:00.000Z', weightKg: 7.9 },
    ]);
  });

  it('derives BMI from the weight and height of one entry only', () => {
    expect(measureValue({ measuredAt: 'x', weightKg: 16, heightCm: 100 }, 'bmi')).toBe(16);
    expect(measureValue({ measuredAt: 'x', weightKg: 16 }, 'bmi')).toBeUndefined();
  });
});

describe('a child’s growth table', () => {
  // A girl born 2022-01-15, measured at four ages (noon UTC: the same day in any zone the
  // tests run in from UTC−11 to UTC+11).
  const girl = { dateOfBirth: '2022-01-15', sex: 'female' as const };
  const measurements = toGrowthMeasurements([
    // 91 days ≈ 3 months: WHO's published 50th (5.8458 kg); 3 calendar months and a day.
    row('2022-04-16T12:00:00.000Z', { weight_kg: 5.8458 }),
    // 274 days ≈ 9 months: WHO's published 95th (10.08429 kg).
    row('2022-10-16T12:00:00.000Z', { weight_kg: 10.08429 }),
    // 548 days ≈ 18 months: WHO's published 5th (8.399952 kg).
    row('2023-07-17T12:00:00.000Z', { weight_kg: 8.399952 }),
    // 928 days = 30.49 months: CDC's published 50th at 30.5 months (13.04357164 kg).
    row('2024-07-31T12:00:00.000Z', { weight_kg: 13.04357164, height_cm: 90.3 }),
    // A head circumference only: not on the weight chart.
    row('2024-08-01T12:00:00.000Z', { head_circumference_cm: 48 }),
  ]);

  it('lists each weight with its age and percentile, oldest first, from both sources', async () => {
    const chart = growthChart('weight');
    const tables = await loadGrowthTables(chart);
    const { rows, outside } = growthRows(chart, tables, girl, measurements);
    expect(outside).toBe(0);
    expect(
      rows.map((entry) => [
        entry.day,
        formatAge(entry.calendarMonths),
        entry.value,
        formatPercentile(entry.assessment.percentile),
        entry.assessment.source,
      ]),
    ).toEqual([
      ['2022-04-16', '3 mo', 5.8458, '50th', 'who'],
      ['2022-10-16', '9 mo', 10.08429, '95th', 'who'],
      ['2023-07-17', '18 mo', 8.399952, '5th', 'who'],
      ['2024-07-31', '2 y 6 mo', 13.04357164, '50th', 'cdc'],
    ]);
  });

  it('leaves out what a chart does not cover, and says how many', async () => {
    const bmi = growthChart('bmi');
    const { rows, outside } = growthRows(bmi, await loadGrowthTables(bmi), girl, measurements);
    // Only the entry with both weight and height, at 30 months; BMI 16.0.
    expect(rows.map((entry) => entry.value.toFixed(2))).toEqual(['16.00']);
    expect(outside).toBe(0);
    const hc = growthChart('head-circumference');
    const older = { ...girl, dateOfBirth: '2021-01-15' };
    const hcRows = growthRows(hc, await loadGrowthTables(hc), older, measurements);
    expect(hcRows.rows).toEqual([]);
    expect(hcRows.outside).toBe(1);
  });

  it('draws both references’ curves over the ages measured, with the child’s points', async () => {
    const chart = growthChart('weight');
    const tables = await loadGrowthTables(chart);
    const { rows } = growthRows(chart, tables, girl, measurements);
    const data = growthChartData(chart, tables, girl.sex, rows, 34)!;
    expect(data.sources).toEqual(['WHO Child Growth Standards', 'CDC 2000 growth charts']);
    expect([data.fromMonths, data.toMonths]).toEqual([0, 42]);
    expect(data.curves.map((curve) => curve.label)).toEqual([
      '3rd',
      '15th',
      '50th',
      '85th',
      '97th',
      '5th',
      '10th',
      '25th',
      '50th',
      '75th',
      '90th',
      '95th',
    ]);
    expect(data.points.filter((value) => value !== null)).toEqual(rows.map((entry) => entry.value));
    // Each point at the age the table states, in calendar months.
    expect(rows.map((entry) => data.ages[data.points.indexOf(entry.value)])).toEqual(
      rows.map((entry) => entry.calendarMonths),
    );
    for (const curve of data.curves) expect(curve.values).toHaveLength(data.ages.length);
  });

  it('draws the stage of life the child is in today when nothing is measured yet', async () => {
    const chart = growthChart('weight');
    const data = growthChartData(chart, await loadGrowthTables(chart), 'male', [], 7)!;
    expect(data.sources).toEqual(['WHO Child Growth Standards']);
    expect([data.fromMonths, data.toMonths]).toEqual([0, 18]);
    expect(new Set(data.curves.map((curve) => curve.source))).toEqual(new Set(['who']));
    const bmi = growthChart('bmi');
    expect(growthChartData(bmi, await loadGrowthTables(bmi), 'male', [], 7)).toBeNull();
  });
});

describe('who has growth charts', () => {
  it.each([
    [{ date_of_birth: '2020-05-01', sex: 'male' as const }, true],
    [{ date_of_birth: '2020-05-01', sex: null }, false],
    [{ date_of_birth: null, sex: 'female' as const }, false],
    [{ date_of_birth: '2006-11-28', sex: 'female' as const }, true],
    [{ date_of_birth: '2006-11-27', sex: 'female' as const }, false],
    [{ date_of_birth: '2026-12-01', sex: 'female' as const }, false],
  ])('%o: %s on 2026-11-27', (person, expected) => {
    expect(hasGrowthCharts(person, '2026-11-27')).toBe(expected);
  });
});

describe('a first birthday', () => {
  it('is 12 months in the table and on the chart, the day before 11; the percentile is read at the age in days', async () => {
    const chart = growthChart('weight');
    const tables = await loadGrowthTables(chart);
    const boy = { dateOfBirth: '2025-06-15', sex: 'male' as const };
    const { rows } = growthRows(
      chart,
      tables,
      boy,
      toGrowthMeasurements([
        row('2026-06-14T12:00:00.000Z', { weight_kg: 9.6 }),
        row('2026-06-15T12:00:00.000Z', { weight_kg: 9.6 }),
      ]),
    );
    expect(rows.map((entry) => formatAge(entry.calendarMonths))).toEqual(['11 mo', '12 mo']);
    expect(rows.map((entry) => entry.calendarMonths)).toEqual([11 + 30 / 31, 12]);
    // 365 days over the references' month of 30.4375 days: just under 12.
    expect(rows[1]!.ageMonths).toBeCloseTo(365 / 30.4375, 10);
    const data = growthChartData(chart, tables, boy.sex, rows, 12)!;
    expect(data.ages[data.points.lastIndexOf(9.6)]).toBe(12);
  });
});

describe("the growth screen's units", () => {
  it("shows the account's Units, converted by the units module; BMI is kg/m² in both", () => {
    const usWeight = growthDisplay('weightKg', 'us');
    expect(usWeight.unit).toBe('lb');
    expect(formatGrowthValue(10, usWeight)).toBe('22.05 lb');
    expect(formatGrowthValue(76.2, growthDisplay('heightCm', 'us'))).toBe('30.0 in');
    expect(formatGrowthValue(45.3, growthDisplay('headCircumferenceCm', 'metric'))).toBe('45.3 cm');
    expect(growthDisplay('bmi', 'us').unit).toBe('kg/m²');
  });
});
