/**
 * The measured columns of a vitals entry (records/vitals.ts), with no form rules: the trends
 * and a share link's viewer read them without loading the validation library.
 */
import type { MeasureName } from '../units';

/** Each measured column and the measure it holds, in the form's order. */
export const VITAL_COLUMNS = {
  weight_kg: 'weight',
  height_cm: 'height',
  head_circumference_cm: 'head_circumference',
  systolic_mmhg: 'systolic',
  diastolic_mmhg: 'diastolic',
  heart_rate_per_min: 'heart_rate',
  respiratory_rate_per_min: 'respiratory_rate',
  temperature_c: 'temperature',
  oxygen_saturation_pct: 'oxygen_saturation',
  pain_score: 'pain_score',
  blood_glucose_mg_dl: 'blood_glucose',
} as const satisfies Record<string, MeasureName>;

export type VitalColumn = keyof typeof VITAL_COLUMNS;
export const vitalColumns = Object.keys(VITAL_COLUMNS) as VitalColumn[];
