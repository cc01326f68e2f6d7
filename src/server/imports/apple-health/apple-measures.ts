/**
 * What Apple Health measures Kin keeps as vitals, and how each of its units becomes the
 * measure's canonical one (src/shared/units.ts). Apple names a measure by its HealthKit
 * quantity type and writes the unit as the user's phone shows it (`lb`, `degF`, `count/min`,
 * glucose as `mmol<180.15588…>/L` with the molar mass inside), so each reading is converted
 * here, once, and one outside the measure's plausible range is not kept.
 */
import { MEASURES, round, type MeasureName } from '../../../shared/units';
import type { VitalColumn } from '../../../shared/records/vitals';
import { key, tr } from '../../../shared/i18n/translate';

export interface AppleMeasure {
  /** The short name in source ids and notes: `heart_rate`. */
  key: string;
  measure: MeasureName;
  column: VitalColumn;
  /** Said in the reasons a reading is skipped: 'Heart rate'. */
  label: string;
  /** Readings gathered by the hour (SampleHours) rather than one entry each. */
  hourly: boolean;
  /** Notes on every entry of this measure (resting heart rate shares the pulse's column). */
  note?: string;
}

const PREFIX = 'HKQuantityTypeIdentifier';

/** Each HealthKit quantity type read, by its identifier. */
export const APPLE_MEASURES: ReadonlyMap<string, AppleMeasure> = new Map(
  (
    [
      ['BodyMass', 'body_mass', 'weight', 'weight_kg', 'Weight', false],
      ['Height', 'height', 'height', 'height_cm', 'Height', false],
      ['BloodPressureSystolic', 'systolic', 'systolic', 'systolic_mmhg', 'Systolic', false],
      ['BloodPressureDiastolic', 'diastolic', 'diastolic', 'diastolic_mmhg', 'Diastolic', false],
      ['HeartRate', 'heart_rate', 'heart_rate', 'heart_rate_per_min', key('Heart rate'), true],
      [
        'RestingHeartRate',
        'resting_heart_rate',
        'heart_rate',
        'heart_rate_per_min',
        key('Resting heart rate'),
        false,
        'Resting heart rate',
      ],
      [
        'OxygenSaturation',
        'oxygen_saturation',
        'oxygen_saturation',
        'oxygen_saturation_pct',
        key('Oxygen saturation'),
        true,
      ],
      ['BodyTemperature', 'body_temperature', 'temperature', 'temperature_c', 'Temperature', false],
      [
        'BloodGlucose',
        'blood_glucose',
        'blood_glucose',
        'blood_glucose_mg_dl',
        key('Blood glucose'),
        true,
      ],
      [
        'RespiratoryRate',
        'respiratory_rate',
        'respiratory_rate',
        'respiratory_rate_per_min',
        key('Respiratory rate'),
        true,
      ],
    ] as const
  ).map(([type, key, measure, column, label, hourly, note]) => [
    `${PREFIX}${type}`,
    { key, measure, column, label, hourly, ...(note ? { note } : {}) },
  ]),
);

/** Factors to the canonical unit of each Apple unit Kin reads, per canonical unit. */
const FACTORS: Record<string, Record<string, number>> = {
  kg: { kg: 1, g: 0.001, lb: 0.45359237, st: 6.35029318 },
  cm: { cm: 1, m: 100, mm: 0.1, in: 2.54, ft: 30.48 },
  'mm[Hg]': { mmHg: 1 },
  '/min': { 'count/min': 1, 'count/s': 60 },
  // Apple writes oxygen saturation as a fraction (0.97) with the unit '%'.
  '%': { '%': 100 },
  'mg/dL': { 'mg/dL': 1 },
};

/** Why a reading could not be kept, said once per measure and reason in the preview. */
export type Refusal = 'unit' | 'range' | 'value';

/**
 * A reading in its measure's canonical unit (pulses and pressures whole, others to four
 * decimals), or why it is not kept.
 */
export function canonicalReading(
  measure: AppleMeasure,
  unit: string,
  text: string,
): number | Refusal {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) return 'value';
  const spec = MEASURES[measure.measure];
  let exact: number;
  if (spec.canonical === 'Cel' && (unit === 'degC' || unit === 'degF')) {
    exact = unit === 'degC' ? value : ((value - 32) * 5) / 9;
  } else if (spec.canonical === 'mg/dL' && unit.startsWith('mmol')) {
    // 'mmol<180.1558800000541>/L': the molar mass Apple converts with; else glucose's own.
    const molar = Number(/^mmol<([\d.]+)>\/L$/.exec(unit)?.[1] ?? 180.16);
    if (!/^mmol(<[\d.]+>)?\/L$/.test(unit) || !Number.isFinite(molar)) return 'unit';
    exact = (value * molar) / 10;
  } else {
    const factor = FACTORS[spec.canonical]?.[unit];
    if (factor === undefined) return 'unit';
    exact = value * factor;
  }
  const canonical = 'whole' in spec && spec.whole ? Math.round(exact) : round(exact, 4);
  return canonical >= spec.min && canonical <= spec.max ? canonical : 'range';
}

/** The sentence a skipped reading is counted under: 'Heart rate readings out of range (20–300 /min)'. */
export function refusalReason(measure: AppleMeasure, refusal: Refusal, unit: string): string {
  const spec = MEASURES[measure.measure];
  const symbol = spec.units.metric.ucum === spec.canonical ? spec.units.metric : spec.units.us;
  const label = tr(measure.label);
  if (refusal === 'unit')
    return tr('{label} readings in a unit Kin Health does not read ({unit})', { label, unit });
  if (refusal === 'value') return tr('{label} readings without a number', { label });
  return tr('{label} readings out of range ({min}–{max} {unit})', {
    label,
    min: spec.min,
    max: spec.max,
    unit: symbol.symbol,
  });
}
