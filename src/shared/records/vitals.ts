/**
 * Vitals (CONTRACT §5): one moment's measurements of one person, any of them, at least one.
 * Each number is stored in its measure's canonical UCUM unit (src/shared/units.ts) and typed
 * and shown in the account's units; BMI is derived (src/shared/bmi.ts), never stored.
 */
import { key, tr } from '../i18n/translate';
import { choice, dateTime, familyMember, measurement, textarea } from './fields';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';
import { formatMeasure, type UnitSystem } from '../units';
import { VITAL_COLUMNS, vitalColumns, type VitalColumn } from './vital-columns';

// Where they were first defined: the server and the forms still find them here.
export { VITAL_COLUMNS, vitalColumns, type VitalColumn };

export const GLUCOSE_TIMINGS = ['Fasting', 'Before Meal', 'After Meal', 'Random'] as const;

const fields = {
  measured_at: dateTime('Measured At', {
    required: true,
    happened: true,
    sinceBirth: true,
    startsNow: true,
  }),
  weight_kg: measurement('Weight', 'weight'),
  height_cm: measurement('Height', 'height'),
  head_circumference_cm: measurement('Head Circumference', 'head_circumference'),
  systolic_mmhg: measurement('Systolic', 'systolic'),
  diastolic_mmhg: measurement('Diastolic', 'diastolic'),
  heart_rate_per_min: measurement('Heart Rate', 'heart_rate'),
  respiratory_rate_per_min: measurement('Respiratory Rate', 'respiratory_rate'),
  temperature_c: measurement('Temperature', 'temperature'),
  oxygen_saturation_pct: measurement('Oxygen Saturation', 'oxygen_saturation'),
  pain_score: measurement('Pain Score', 'pain_score'),
  blood_glucose_mg_dl: measurement('Blood Glucose', 'blood_glucose'),
  glucose_timing: choice('Glucose Timing', GLUCOSE_TIMINGS),
  notes: textarea('Notes'),
  family_member_id: familyMember(),
};

export const AT_LEAST_ONE_MEASUREMENT = key('Enter at least one measurement');
export const SYSTOLIC_ABOVE_DIASTOLIC = key('Systolic must be above Diastolic');

type VitalValues = Record<VitalColumn, number | null> & { glucose_timing: string | null };

export const hasMeasurement = (values: Partial<Record<VitalColumn, unknown>>) =>
  vitalColumns.some((column) => typeof values[column] === 'number');

export const vitalDefinition = defineRecord({
  ...recordCatalogue.vital,
  titleField: 'measured_at',
  pairs: [
    ['weight_kg', 'height_cm'],
    ['systolic_mmhg', 'diastolic_mmhg'],
    ['heart_rate_per_min', 'respiratory_rate_per_min'],
    ['temperature_c', 'oxygen_saturation_pct'],
    ['blood_glucose_mg_dl', 'glucose_timing'],
  ],
  fields,
  schema: objectSchema(fields).superRefine((values: VitalValues, context) => {
    const issue = (message: string, path: string) =>
      context.addIssue({ code: 'custom', message: tr(message), path: [path] });
    if (!hasMeasurement(values)) issue(AT_LEAST_ONE_MEASUREMENT, 'weight_kg');
    const { systolic_mmhg: systolic, diastolic_mmhg: diastolic } = values;
    if (systolic !== null && diastolic === null)
      issue(key('Diastolic is required with Systolic'), 'diastolic_mmhg');
    if (diastolic !== null && systolic === null)
      issue(key('Systolic is required with Diastolic'), 'systolic_mmhg');
    if (systolic !== null && diastolic !== null && systolic <= diastolic)
      issue(SYSTOLIC_ABOVE_DIASTOLIC, 'systolic_mmhg');
    if (values.glucose_timing !== null && values.blood_glucose_mg_dl === null)
      issue(key('Glucose Timing needs a Blood Glucose'), 'glucose_timing');
  }),
  memberLinked: true,
  order: [{ column: 'measured_at', direction: 'desc' }],
  timeline: { dateField: 'measured_at' },
  // Found by the notes and the glucose timing, and by each measure's names and values as
  // a person types them: 'weight', 'blood pressure', '120/80', '72.5 kg' (decision 0047).
  search: {
    fields: ['notes', 'glucose_timing'],
    dateField: 'measured_at',
    measures: {
      weight_kg: 'Weight',
      height_cm: 'Height Length',
      head_circumference_cm: 'Head Circumference',
      systolic_mmhg: 'Blood Pressure BP Systolic',
      diastolic_mmhg: 'Diastolic',
      heart_rate_per_min: 'Heart Rate Pulse',
      respiratory_rate_per_min: 'Respiratory Rate Breaths',
      temperature_c: 'Temperature Temp',
      oxygen_saturation_pct: 'Oxygen Saturation SpO2',
      pain_score: 'Pain Score',
      blood_glucose_mg_dl: 'Blood Glucose Sugar',
    },
  },
  afterEdit: 'detail',
  messages: {
    ...standardMessages('Vitals', 'vitals', { created: 'added', deletedDescription: 'removed' }),
    created: { title: 'Vitals added', description: 'The vitals have been added successfully.' },
    updated: { title: 'Vitals updated', description: 'The vitals have been updated successfully.' },
    deleted: { title: 'Vitals deleted', description: 'The vitals have been removed successfully.' },
  },
});

/** Short names of the measures, as a summary lists them. */
const SHORT_NAMES: Partial<Record<VitalColumn, string>> = {
  weight_kg: key('Weight'),
  height_cm: key('Height'),
  head_circumference_cm: key('Head'),
  heart_rate_per_min: key('Pulse'),
  respiratory_rate_per_min: key('Breaths'),
  temperature_c: key('Temp'),
  oxygen_saturation_pct: key('SpO2'),
  pain_score: key('Pain'),
  blood_glucose_mg_dl: key('Glucose'),
};

/**
 * One vitals entry in a line, in the user's units: 'Weight 72.5 kg · BP 120/80 mmHg', in the
 * language in force.
 * The timeline, the PDF and the share viewer name an entry with it.
 */
export function summariseVitals(
  values: Partial<Record<VitalColumn, unknown>>,
  units: UnitSystem,
): string {
  const parts: string[] = [];
  const number = (column: VitalColumn) =>
    typeof values[column] === 'number' ? (values[column] as number) : null;
  for (const column of vitalColumns) {
    const value = number(column);
    if (value === null) continue;
    if (column === 'systolic_mmhg') {
      const diastolic = number('diastolic_mmhg');
      parts.push(
        tr('BP {systolic}/{diastolic} mmHg', { systolic: value, diastolic: diastolic ?? '?' }),
      );
      continue;
    }
    if (column === 'diastolic_mmhg') {
      if (number('systolic_mmhg') === null)
        parts.push(tr('BP {systolic}/{diastolic} mmHg', { systolic: '?', diastolic: value }));
      continue;
    }
    parts.push(
      tr('{measure} {value}', {
        measure: tr(SHORT_NAMES[column] ?? ''),
        value: formatMeasure(VITAL_COLUMNS[column], value, units),
      }),
    );
  }
  return parts.length ? parts.join(' · ') : tr('Vitals');
}
