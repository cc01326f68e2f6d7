/**
 * The growth engine against the published tables. Each case is a value printed in a
 * percentile column of a published file, at its age; the engine, from the LMS tables we
 * ship, must place it on that percentile.
 * - WHO: the CDC's redistribution of the WHO Child Growth Standards by month
 *   (WHO-Boys-Weight-for-age-Percentiles.csv and its siblings, columns 5th/50th/95th).
 * - CDC: wtage.csv, statage.csv and bmiagerev.csv (columns P5/P50/P95).
 */
import { describe, expect, it } from 'vitest';
import type { Sex } from '../family-members';
import {
  ageInMonths,
  assess,
  chartAgeRange,
  growthChart,
  type GrowthChartDefinition,
  loadGrowthTables,
  percentileCurves,
} from './charts';
import { formatPercentile, percentileFromZ, zFromPercentile } from './lms';

type Case = [sex: Sex, ageMonths: number, p5: number, p50: number, p95: number];

const published: Record<GrowthChartDefinition['id'], { source: string; cases: Case[] }> = {
  weight: {
    source: 'WHO to 24 months, CDC wtage.csv after',
    cases: [
      ['male', 0, 2.603994, 3.3464, 4.214527],
      ['male', 6, 6.611702, 7.934, 9.481939],
      ['male', 12, 8.052577, 9.6479, 11.53526],
      ['male', 23, 9.914417, 11.9514, 14.41108],
      ['female', 3, 4.745935, 5.8458, 7.188096],
      ['female', 9, 6.750018, 8.2254, 10.08429],
      ['female', 18, 8.399952, 10.2315, 12.59804],
      ['male', 36.5, 12.09962308, 14.40262749, 17.51092666],
      ['male', 120.5, 24.94392079, 32.08799062, 46.15753154],
      ['male', 215.5, 53.06405769, 67.10641956, 91.82816795],
      ['female', 30.5, 10.98581228, 13.04357164, 15.99164336],
      ['female', 90.5, 19.16378421, 24.25789074, 33.75001097],
      ['female', 180.5, 40.76838955, 52.13568193, 75.82804673],
    ],
  },
  'length-height': {
    source: 'WHO length to 24 months, CDC statage.csv after',
    cases: [
      ['male', 1, 51.52262, 54.7244, 57.92618],
      ['male', 12, 71.84023, 75.7488, 79.65737],
      ['male', 20, 79.57106, 84.1996, 88.82814],
      ['female', 6, 62.00319, 65.7311, 69.45901],
      ['female', 15, 73.00432, 77.5099, 82.01548],
      ['female', 23, 80.3, 85.5202, 90.7404],
      ['male', 36.5, 89.20472611, 95.27359106, 101.9323762],
      ['male', 120.5, 128.1624542, 138.8234114, 149.9053151],
      ['male', 215.5, 164.1750527, 176.1347593, 187.7616702],
      ['female', 30.5, 84.16952943, 90.33341722, 96.57635253],
      ['female', 90.5, 115.9026074, 124.8956114, 134.7038082],
      ['female', 180.5, 151.2611287, 161.8979913, 172.6083849],
    ],
  },
  'head-circumference': {
    source: 'WHO',
    cases: [
      ['male', 2, 37.19961, 39.1285, 41.05739],
      ['male', 18, 45.18938, 47.3711, 49.55282],
      ['female', 4, 38.49974, 40.5817, 42.66366],
      ['female', 12, 42.66112, 44.8965, 47.13188],
    ],
  },
  bmi: {
    source: 'CDC bmiagerev.csv',
    cases: [
      ['male', 24, 14.73731947, 16.57502768, 19.33801062],
      ['male', 120.5, 14.21865508, 16.64613844, 22.15409238],
      ['male', 200.5, 17.51489451, 21.01686433, 28.02724061],
      ['female', 24.5, 14.3801866, 16.38804056, 19.05823845],
      ['female', 60.5, 13.52091027, 15.15188405, 18.25738105],
      ['female', 150.5, 15.06558978, 18.42002284, 25.78730634],
    ],
  },
};

describe.each(Object.entries(published))('%s for age', (id, { cases }) => {
  const chart = growthChart(id as GrowthChartDefinition['id']);
  it.each(cases)('%s at %s months: the published 5th, 50th and 95th', async (...row) => {
    const [sex, age, p5, p50, p95] = row;
    const tables = await loadGrowthTables(chart);
    const at = (value: number) => assess(chart, tables, sex, age, value);
    const expectedSource = age < 24 ? 'who' : chart.id === 'head-circumference' ? 'who' : 'cdc';
    for (const [value, percentile] of [
      [p5, 5],
      [p50, 50],
      [p95, 95],
    ] as const) {
      const result = at(value);
      expect(result?.source).toBe(expectedSource);
      // WHO's daily table read at a whole month (30.4375 × n days) agrees with its monthly
      // table to a few thousandths of a z-score; the CDC's to the printed digits.
      expect(result!.z).toBeCloseTo(zFromPercentile(percentile), 2);
      expect(formatPercentile(result!.percentile)).toBe(formatPercentile(percentile));
    }
  });
});

describe('the reference switch and its limits', () => {
  it('takes the WHO standard before 24 months and the CDC chart from 24 months', async () => {
    const chart = growthChart('weight');
    const tables = await loadGrowthTables(chart);
    expect(assess(chart, tables, 'female', 23.9, 12)?.source).toBe('who');
    expect(assess(chart, tables, 'female', 24, 12)?.source).toBe('cdc');
  });

  it('reads a length/height as lying length before 24 months, standing height from 24, unadjusted', async () => {
    const chart = growthChart('length-height');
    const tables = await loadGrowthTables(chart);
    const before = assess(chart, tables, 'male', 23.9, 87);
    const after = assess(chart, tables, 'male', 24, 87);
    expect(before).toMatchObject({ source: 'who', measured: 'Length' });
    expect(after).toMatchObject({ source: 'cdc', measured: 'Height' });
    // No 0.7 cm conversion: the value is placed as typed on each side of 24 months.
    const whoOnly = { ...chart, segments: chart.segments.slice(0, 1) };
    const cdcOnly = { ...chart, segments: chart.segments.slice(1) };
    expect(before?.z).toBe(assess(whoOnly, tables, 'male', 23.9, 87)?.z);
    expect(after?.z).toBe(assess(cdcOnly, tables, 'male', 24, 87)?.z);
  });

  it('gives no percentile outside a chart’s ages (never extrapolates)', async () => {
    const hc = growthChart('head-circumference');
    const hcTables = await loadGrowthTables(hc);
    expect(assess(hc, hcTables, 'male', 35.9, 50)).not.toBeNull();
    expect(assess(hc, hcTables, 'male', 36, 50)).toBeNull();
    const bmi = growthChart('bmi');
    const bmiTables = await loadGrowthTables(bmi);
    expect(assess(bmi, bmiTables, 'male', 23.9, 16)).toBeNull();
    expect(assess(bmi, bmiTables, 'male', 240, 22)).toBeNull();
    expect(assess(bmi, bmiTables, 'male', -1, 16)).toBeNull();
  });

  it('interpolates between table ages', async () => {
    const chart = growthChart('bmi');
    const tables = await loadGrowthTables(chart);
    // Halfway between 24.5 (M 16.54777487) and 25.5 (M 16.49442763) months, boys.
    const median = (16.54777487 + 16.49442763) / 2;
    expect(assess(chart, tables, 'male', 25, median)!.z).toBeCloseTo(0, 3);
  });
});

describe('ages', () => {
  it('counts whole days over the average month', () => {
    expect(ageInMonths('2024-01-01', '2024-01-01')).toBe(0);
    expect(ageInMonths('2024-01-01', '2026-01-01')).toBeCloseTo(731 / 30.4375, 10);
    expect(ageInMonths('2020-02-29', '2021-02-28')).toBeCloseTo(365 / 30.4375, 10);
  });
});

describe('percentiles', () => {
  it.each([
    [0, 50],
    [1.959964, 97.5],
    [-1.644854, 5],
    [-2.326348, 1],
    [3, 99.865],
  ])('z %s is the %sth', (z, percentile) => {
    expect(percentileFromZ(z)).toBeCloseTo(percentile, 3);
  });

  it.each([3, 5, 10, 15, 25, 50, 75, 85, 90, 95, 97])('inverts the %sth', (percentile) => {
    expect(percentileFromZ(zFromPercentile(percentile))).toBeCloseTo(percentile, 4);
  });

  it.each([
    [50, '50th'],
    [3.2, '3rd'],
    [1.4, '1st'],
    [2, '2nd'],
    [11, '11th'],
    [12.4, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [0.4, '<1st'],
    [99.4, '99th'],
    [99.6, '>99th'],
  ])('%s reads %s', (percentile, text) => {
    expect(formatPercentile(percentile)).toBe(text);
  });
});

describe('percentile curves', () => {
  it('draws each source’s own percentiles on its own ages', async () => {
    const chart = growthChart('length-height');
    const tables = await loadGrowthTables(chart);
    const curves = percentileCurves(chart, tables, 'male', [12, 36.5]);
    expect(curves.filter((curve) => curve.source === 'who').map((curve) => curve.label)).toEqual([
      '3rd',
      '15th',
      '50th',
      '85th',
      '97th',
    ]);
    expect(
      curves.filter((curve) => curve.source === 'cdc').map((curve) => curve.percentile),
    ).toEqual([5, 10, 25, 50, 75, 90, 95]);
    const cdc95 = curves.find((curve) => curve.source === 'cdc' && curve.percentile === 95)!;
    expect(cdc95.values[0]).toBeNull();
    expect(cdc95.values[1]).toBeCloseTo(101.9323762, 3);
    const who50 = curves.find((curve) => curve.source === 'who' && curve.percentile === 50)!;
    expect(who50.values[0]).toBeCloseTo(75.7488, 1);
    expect(who50.values[1]).toBeNull();
  });

  it('spans from the start of the first measurement’s reference to a little past the last', () => {
    const chart = growthChart('weight');
    expect(chartAgeRange(chart, [3, 10])).toEqual({ fromMonths: 0, toMonths: 18 });
    expect(chartAgeRange(chart, [3, 21])).toEqual({ fromMonths: 0, toMonths: 24 });
    expect(chartAgeRange(chart, [3, 30.5])).toEqual({ fromMonths: 0, toMonths: 42 });
    expect(chartAgeRange(chart, [150, 237])).toEqual({ fromMonths: 24, toMonths: 240 });
    expect(chartAgeRange(chart, [250])).toBeNull();
  });
});
