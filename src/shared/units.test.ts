/**
 * The units table against @lhncbc/ucum-lhc, the reference: each shown unit converts to its
 * measure's canonical unit by the same factor the library computes from the UCUM definitions.
 */
import ucum from '@lhncbc/ucum-lhc';
import { describe, expect, it } from 'vitest';
import {
  GLUCOSE_MOLAR_MASS,
  MEASURES,
  formatMeasure,
  fromCanonical,
  outOfRangeMessage,
  toCanonical,
  toInputValue,
  type MeasureName,
} from './units';
import { bmi, bmiSeries, bmiWindowDays } from './bmi';

const utils = ucum.UcumLhcUtils.getInstance();

function reference(from: string, value: number, to: string): number {
  const answer = utils.convertUnitTo(from, value, to, { molecularWeight: GLUCOSE_MOLAR_MASS });
  if (answer.status !== 'succeeded') throw new Error(`${from} → ${to}: ${answer.msg.join('; ')}`);
  return answer.toVal;
}

describe('units', () => {
  const rows = (
    Object.entries(MEASURES) as [MeasureName, (typeof MEASURES)[MeasureName]][]
  ).flatMap(([name, measure]) =>
    Object.values(measure.units)
      .filter((unit) => unit.ucum !== measure.canonical)
      .map((unit) => [name, unit.ucum, measure.canonical] as const),
  );

  it.each(rows)('%s: %s converts to %s as ucum-lhc does', (name, shown, canonical) => {
    const system = MEASURES[name].units.us.ucum === shown ? 'us' : 'metric';
    for (const value of [1, 37, 98.6, 154, 250]) {
      expect(toCanonical(name, value, system)).toBeCloseTo(reference(shown, value, canonical), 3);
      expect(fromCanonical(name, value, system)).toBeCloseTo(reference(canonical, value, shown), 6);
    }
  });

  it('covers every conversion the issue names', () => {
    expect(rows.map(([, shown, canonical]) => `${shown}>${canonical}`).sort()).toEqual(
      ['[degF]>Cel', '[in_i]>cm', '[in_i]>cm', '[lb_av]>kg', 'mmol/L>mg/dL'].sort(),
    );
  });

  it('reads back what was typed, and shows values in the chosen units', () => {
    expect(toInputValue('weight', toCanonical('weight', 154, 'us'), 'us')).toBe('154');
    expect(toInputValue('temperature', toCanonical('temperature', 98.6, 'us'), 'us')).toBe('98.6');
    expect(
      toInputValue('blood_glucose', toCanonical('blood_glucose', 5.5, 'metric'), 'metric'),
    ).toBe('5.5');
    expect(formatMeasure('weight', 72.5, 'metric')).toBe('72.5 kg');
    expect(formatMeasure('weight', 72.5, 'us')).toBe('159.8 lb');
    expect(formatMeasure('temperature', 37, 'us')).toBe('98.6 °F');
    expect(formatMeasure('blood_glucose', 90.08, 'metric')).toBe('5 mmol/L');
    expect(formatMeasure('oxygen_saturation', 98, 'us')).toBe('98%');
    expect(outOfRangeMessage('Weight', 'weight', 'us')).toBe(
      'Weight must be between 0.4 and 1102.3 lb',
    );
  });
});

describe('BMI', () => {
  it('is kg/m² to one decimal (CDC: 70 kg, 175 cm is 22.9)', () => {
    expect(bmi(70, 175)).toBe(22.9);
    expect(bmi(68, 165)).toBe(25);
  });

  it('pairs a weight with the nearest height within the window for the age', () => {
    const entries = [
      { measured_at: '2020-01-01T09:00:00Z', height_cm: 170 },
      { measured_at: '2020-06-01T09:00:00Z', weight_kg: 70 },
      { measured_at: '2021-06-01T09:00:00Z', weight_kg: 72 },
    ];
    // An adult: a height within a year counts; the second weight is too far from it.
    expect(bmiSeries(entries, '1980-01-01')).toEqual([{ at: '2020-06-01T09:00:00Z', value: 24.2 }]);
    // A child: only a height within 30 days.
    expect(bmiSeries(entries, '2012-01-01')).toEqual([]);
    expect(bmiWindowDays('2024-01-01', Date.parse('2024-06-01'))).toBe(7);
    expect(bmiWindowDays('2012-01-01', Date.parse('2024-06-01'))).toBe(30);
    expect(bmiWindowDays('1980-01-01', Date.parse('2024-06-01'))).toBe(365);
  });

  it('derives 3,650 daily weights in a few milliseconds', () => {
    const entries = Array.from({ length: 3650 }, (_, day) => ({
      measured_at: new Date(Date.UTC(2015, 0, 1 + day, 8)).toISOString(),
      weight_kg: 70 + (day % 10) / 10,
      height_cm: day % 30 === 0 ? 175 : null,
    }));
    const started = performance.now();
    const series = bmiSeries(entries, '1980-01-01');
    expect(series).toHaveLength(3650);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
