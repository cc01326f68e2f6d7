/**
 * The newest value of each vital sign (the summary PDF's 'Latest Vitals') among years of
 * entries: each measure's own newest, whatever the entries' order, written as the /vitals
 * table writes that value.
 */
import { describe, expect, it } from 'vitest';
import {
  LATEST_VITAL_MEASURES,
  latestVitals,
  trendOf,
  type VitalsEntry,
  type VitalsTrendAnswer,
} from './vitals-trend';

const DAY_MS = 86_400_000;
const person = { id: 'p1', name: 'Rosa Diaz', date_of_birth: '1980-03-01' };

/**
 * Ten years of daily weigh-ins, each at 07:00 UTC: blood pressure every third day, a pulse
 * every other, a height twice a year; the last blood pressure, pulse and height lie days and
 * weeks before the last weight.
 */
function tenYears(): VitalsEntry[] {
  const start = Date.parse('2016-06-01T07:00:00Z');
  const entries: VitalsEntry[] = [];
  for (let day = 0; day < 3650; day++) {
    const at = new Date(start + day * DAY_MS).toISOString();
    const entry: VitalsEntry = { id: `v${day}`, measured_at: at, weight_kg: 60 + (day % 300) / 10 };
    if (day % 3 === 0 && day < 3640) {
      entry.systolic_mmhg = 110 + (day % 30);
      entry.diastolic_mmhg = 70 + (day % 15);
    }
    if (day % 2 === 0 && day < 3645) entry.heart_rate_per_min = 60 + (day % 25);
    if (day % 182 === 0) entry.height_cm = 170 + day / 1000;
    entries.push(entry);
  }
  return entries;
}

/** A shuffle that is the same on every run. */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  let state = 7;
  for (let i = copy.length - 1; i > 0; i--) {
    state = (state * 48271) % 2147483647;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

describe('latestVitals', () => {
  const entries = tenYears();
  const answer: VitalsTrendAnswer = { person, entries };

  it('takes the newest value of each measure among ten years of entries', () => {
    expect(latestVitals(answer, 'metric')).toEqual([
      // Day 3649: 60 + 49 / 10.
      { measure: 'Weight', value: '64.9 kg', measured_at: '2026-05-29T07:00:00.000Z' },
      // Day 3640, the last of every 182nd.
      { measure: 'Height', value: '173.6 cm', measured_at: '2026-05-20T07:00:00.000Z' },
      // The last weight, with that height nine days before it: 64.9 / 1.7364².
      { measure: 'BMI', value: '21.5 kg/m²', measured_at: '2026-05-29T07:00:00.000Z' },
      // Day 3639, the last third day before 3640; day 3644 the last second one before 3645.
      { measure: 'Blood Pressure', value: '119/79 mmHg', measured_at: '2026-05-19T07:00:00.000Z' },
      { measure: 'Heart Rate', value: '79 /min', measured_at: '2026-05-24T07:00:00.000Z' },
    ]);
  });

  it('finds the same newest values whatever order the entries come in', () => {
    const inAnyOrder = { person, entries: shuffled(entries) };
    for (const units of ['metric', 'us'] as const) {
      expect(latestVitals(inAnyOrder, units)).toEqual(latestVitals(answer, units));
    }
  });

  it("writes each value as the measure's trend writes it, in either system of units", () => {
    for (const units of ['metric', 'us'] as const) {
      const latest = latestVitals(answer, units);
      for (const measure of LATEST_VITAL_MEASURES) {
        const newest = trendOf(measure, answer, units).rows.at(-1);
        const found = latest.find((vital) => vital.measure === measure);
        expect(found && { value: found.value, at: found.measured_at }).toEqual(
          newest && { value: newest.text, at: newest.at },
        );
      }
    }
    expect(latestVitals(answer, 'us')[0]).toEqual({
      measure: 'Weight',
      value: '143.1 lb',
      measured_at: '2026-05-29T07:00:00.000Z',
    });
  });

  it('takes the later of two entries made at the same moment', () => {
    const at = '2026-06-01T08:00:00Z';
    const twice = {
      person,
      entries: [
        { id: 'a', measured_at: at, weight_kg: 70 },
        { id: 'b', measured_at: '2026-06-01T08:00:00.000Z', weight_kg: 71 },
        { id: 'c', measured_at: '2026-05-01T08:00:00Z', weight_kg: 72 },
      ],
    };
    expect(latestVitals(twice, 'metric')[0]).toMatchObject({ measure: 'Weight', value: '71 kg' });
  });
});
