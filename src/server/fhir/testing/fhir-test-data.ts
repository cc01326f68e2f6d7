/**
 * Test data for the FHIR mapping: a fixed clock, a person with every field of every record
 * type filled (every enum value, unicode, markup characters, texts at their length limits),
 * and a person with nothing. Rows are made by the record types' own zod schemas, so they
 * are exactly what the API would return.
 */
import { v7 } from 'uuid';
import {
  LONG_TEXT_MAX_LENGTH,
  NAME_MAX_LENGTH,
  SHORT_TEXT_MAX_LENGTH,
} from '../../../shared/constants';
import {
  contactDefinition,
  conditionDefinition,
  insuranceDefinition,
  labResultDefinition,
  medicationDefinition,
  noteDefinition,
  shotDefinition,
  symptomDefinition,
  visitDefinition,
  vitalDefinition,
} from '../../../shared/records';
import { CONTACT_TYPES } from '../../../shared/records/contacts';
import { CONDITION_STATUSES } from '../../../shared/records/conditions';
import { INSURANCE_STATUSES, INSURANCE_TYPES } from '../../../shared/records/insurance';
import { MEDICATION_FREQUENCIES } from '../../../shared/records/medications';
import { NOTE_TYPES } from '../../../shared/records/notes';
import { GLUCOSE_TIMINGS } from '../../../shared/records/vitals';
import {
  ALLERGY_CATEGORIES,
  ALLERGY_SEVERITIES,
  ALLERGY_STATUSES,
} from '../../../shared/records/allergies';
import {
  type FhirClock,
  type FhirPerson,
  type FhirRecordType,
  type FhirRows,
  type FhirSource,
  type FhirValues,
} from '../fhir-source';

export const CLOCK: FhirClock = { now: '2026-06-15T12:00:00.000Z', today: '2026-06-15' };

/** Text that tests escaping and unicode: markup characters, accents, CJK, an emoji. */
export const TRICKY = `Zoë's <b>"Ünïcødé"</b> & 漢字 🙂`;

/** A text of exactly `length` code units, with surrogate pairs and markup along the way. */
export function longText(length: number): string {
  const text = `${TRICKY}\nLine two.\t`.repeat(Math.ceil(length / 20));
  let cut = text.slice(0, length);
  // Never end on half an emoji: the schemas refuse an unpaired surrogate.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = `${cut.slice(0, -1)}x`;
  return cut.trimEnd().padEnd(length, 'x');
}

const NAME = longText(NAME_MAX_LENGTH);
const LONG = longText(LONG_TEXT_MAX_LENGTH);

export const MEMBER_ID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

export const fullPerson: FhirPerson = {
  id: MEMBER_ID,
  name: `Élodie ${TRICKY}`,
  date_of_birth: '2012-02-29',
};

/** An account holder: an auth-library id (not a UUID), an email, no date of birth. */
export const accountHolder: FhirPerson = {
  id: 'x7Rk2pQa9ZbW3cLm8NvT4yHs6JdF1gEu',
  name: 'Sam Rivera',
  email: 'sam@example.org',
};

export const emptyPerson: FhirPerson = {
  id: '0190a1b2-c3d4-7e5f-8a9b-000000000000',
  name: 'Nobody',
};

interface Schema {
  parse(input: unknown): object;
}

let clockTick = 0;
function stored<V extends object>(
  values: V,
  id: string = v7(),
): V & {
  id: string;
  created_at: string;
  updated_at: string;
} {
  clockTick += 1;
  const created = new Date(Date.parse('2026-01-01T00:00:00.000Z') + clockTick * 1000).toISOString();
  return { ...values, id, created_at: created, updated_at: created };
}

/** Stored rows of one type, each input checked by that type's schema first. */
export function rowsOf<K extends Exclude<FhirRecordType, 'allergy'>>(
  _type: K,
  schema: Schema,
  inputs: Record<string, unknown>[],
): FhirRows[K][] {
  return inputs.map((input) => stored(schema.parse(input)) as FhirRows[K]);
}

export function allergyRows(inputs: Partial<FhirValues['allergy']>[]): FhirRows['allergy'][] {
  return inputs.map((input) =>
    stored({
      substance: 'Peanuts',
      reaction: null,
      severity: null,
      category: null,
      status: 'Active',
      noted_date: null,
      notes: null,
      family_member_id: null,
      ...input,
    }),
  );
}

/** Every field of every type filled, every enum value used, and the empty edge of each. */
export function fullRecords(memberId: string | null = MEMBER_ID): {
  [K in FhirRecordType]: FhirRows[K][];
} {
  const member = { family_member_id: memberId };
  return {
    visit: rowsOf('visit', visitDefinition.schema, [
      {
        visit_name: NAME,
        doctor_name: `Dr. ${TRICKY}`,
        visit_date: '2026-03-04T09:30:00.000Z',
        frequency: 'Every 6 months',
        office_name: 'Clinique Saint-Éloi',
        notes: LONG,
        ...member,
      },
      {
        visit_name: 'Follow-up',
        doctor_name: 'Dr. Okafor',
        visit_date: '2026-09-01T14:00:00+02:00',
        frequency: 'Yearly',
        office_name: 'Riverside Clinic',
        notes: `Bring ${TRICKY}`,
        ...member,
      },
      { visit_name: 'Walk-in', visit_date: CLOCK.now, ...member },
    ]),
    medication: rowsOf('medication', medicationDefinition.schema, [
      ...MEDICATION_FREQUENCIES.map((frequency, index) => ({
        medication_name: `${frequency} ${TRICKY}`,
        dosage: '500 mg',
        frequency,
        // Daily at two times, Twice Daily at two, Weekly at one; As Needed at none.
        time_morning: index === 0 || index === 2,
        time_noon: index === 1,
        time_evening: index === 0 || index === 1,
        time_night: false,
        start_date: '2025-01-10',
        end_date: index === 0 ? '2026-01-31' : index === 1 ? CLOCK.today : null,
        condition: 'Hypertension',
        prescribed_doctor: 'Dr. Okafor',
        notes: index === 0 ? LONG : 'With food.',
        // A supply kept (a fraction of a pill a dose), one run down to nothing, and none.
        ...(index === 0
          ? {
              quantity_on_hand: 42.5,
              dose_amount: 1.5,
              refills_left: 3,
              prescription_ends: '2026-12-31',
            }
          : index === 1
            ? { quantity_on_hand: 0, dose_amount: 1, refills_left: 0 }
            : {}),
        ...member,
      })),
      { medication_name: 'Vitamin D', start_date: '2026-07-01', ...member },
      { medication_name: NAME, ...member },
    ]),
    shot: rowsOf('shot', shotDefinition.schema, [
      {
        shot_name: NAME,
        date_administered: '2025-10-01',
        location: TRICKY,
        notes: LONG,
        ...member,
      },
      {
        shot_name: 'Tetanus booster',
        date_administered: '2026-06-16',
        location: 'Pharmacy',
        notes: 'Due',
        ...member,
      },
      { shot_name: 'MMR', location: 'School', notes: 'As a child', ...member },
      { shot_name: 'HPV', ...member },
    ]),
    note: rowsOf('note', noteDefinition.schema, [
      ...NOTE_TYPES.map((note_type) => ({
        title: `${note_type} ${TRICKY}`,
        note_type,
        note_date: '2026-02-03',
        content: note_type === 'Other' ? LONG : `Dear ${TRICKY},\nline two`,
        ...member,
      })),
      { title: NAME, ...member },
    ]),
    condition: rowsOf('condition', conditionDefinition.schema, [
      ...CONDITION_STATUSES.map((status) => ({
        condition_name: `${status} ${TRICKY}`,
        diagnosis_date: '2015-06-01',
        status,
        is_family_history: false,
        notes: status === 'Chronic' ? LONG : 'Mild.',
        ...member,
      })),
      { condition_name: NAME, ...member },
      ...(memberId === null
        ? CONDITION_STATUSES.map((status) => ({
            condition_name: `Family ${status}`,
            diagnosis_date: '1990-01-01',
            status,
            is_family_history: true,
            relation: `Grand-mère ${TRICKY}`,
            notes: 'Late onset.',
          }))
        : []),
      ...(memberId === null
        ? [{ condition_name: 'Diabetes', is_family_history: true, relation: 'Father' }]
        : []),
    ]),
    allergy: allergyRows([
      ...ALLERGY_SEVERITIES.flatMap((severity, index) =>
        ALLERGY_STATUSES.map((status) => ({
          substance: `${severity} ${status} ${TRICKY}`,
          reaction: index === 2 ? longText(SHORT_TEXT_MAX_LENGTH) : 'Hives',
          severity,
          category: ALLERGY_CATEGORIES[index] ?? null,
          status,
          noted_date: '2020-05-05',
          notes: 'Carries an epinephrine pen.',
          ...member,
        })),
      ),
      { substance: 'Dust', category: 'Other', severity: 'Mild', ...member },
      { substance: NAME, ...member },
    ]),
    lab_result: rowsOf('lab_result', labResultDefinition.schema, [
      // High, Low, Normal, a text result, a unit that is no UCUM code, no range, no code.
      {
        test_name: 'LDL Cholesterol',
        loinc_code: '18262-6',
        result: '162',
        unit: 'mg/dL',
        range_high: '100',
        collected_date: '2026-03-04',
        lab: `Quest ${TRICKY}`,
        ordered_by: 'Dr. Patel',
        notes: LONG,
        ...member,
      },
      {
        test_name: 'HDL Cholesterol',
        loinc_code: '2085-9',
        result: '35',
        unit: 'mg/dL',
        range_low: '40',
        collected_date: '2026-03-04',
        ...member,
      },
      {
        test_name: 'HbA1c',
        loinc_code: '4548-4',
        result: '5.4',
        unit: '%',
        range_low: '4',
        range_high: '5.6',
        collected_date: '2025-09-01',
        ...member,
      },
      {
        test_name: 'Urine ketones',
        loinc_code: '2514-8',
        result: 'Negative',
        collected_date: '2025-09-01',
        ...member,
      },
      {
        test_name: 'Strep A',
        result: 'Positive',
        unit: 'swab',
        collected_date: '2024-01-02',
        ...member,
      },
      {
        test_name: NAME,
        result: '7',
        unit: 'cells per field',
        collected_date: '2024-01-02',
        ...member,
      },
    ]),
    insurance: rowsOf('insurance', insuranceDefinition.schema, [
      ...INSURANCE_TYPES.map((insurance_type, index) => ({
        insurance_type,
        provider_name: `${insurance_type} ${TRICKY}`,
        policy_number: `P-${index}`,
        group_number: `G-${index}`,
        coverage_details: index === 0 ? LONG : 'Two cleanings a year.',
        deductible: '$500',
        copay: '20%',
        effective_date: '2026-01-01',
        expiry_date: '2026-12-31',
        status: INSURANCE_STATUSES[index % 2],
        ...member,
      })),
      { provider_name: NAME, ...member },
    ]),
    vital: rowsOf('vital', vitalDefinition.schema, [
      {
        measured_at: '2026-03-04T08:15:00.000Z',
        weight_kg: 72.5,
        height_cm: 175.3,
        head_circumference_cm: 56,
        systolic_mmhg: 121,
        diastolic_mmhg: 79,
        heart_rate_per_min: 64,
        respiratory_rate_per_min: 14,
        temperature_c: 37.2,
        oxygen_saturation_pct: 98,
        pain_score: 2,
        blood_glucose_mg_dl: 92,
        glucose_timing: 'Fasting',
        notes: `${TRICKY} after a run`,
        ...member,
      },
      ...GLUCOSE_TIMINGS.filter((timing) => timing !== 'Fasting').map((timing, index) => ({
        measured_at: `2026-04-0${index + 1}T19:00:00+02:00`,
        blood_glucose_mg_dl: 140 + index,
        glucose_timing: timing,
        ...member,
      })),
      { measured_at: '2026-05-01T07:00:00.000Z', weight_kg: 0.2, ...member },
    ]),
    symptom: rowsOf('symptom', symptomDefinition.schema, [
      {
        symptom: NAME,
        severity: 7,
        started_at: '2026-03-03T21:00:00.000Z',
        ended_at: '2026-03-04T06:30:00.000Z',
        notes: `${TRICKY} after a run`,
        ...member,
      },
      { symptom: 'Dizziness', severity: 1, started_at: '2026-04-01T10:00:00+02:00', ...member },
      { symptom: 'Nausea', started_at: '2026-05-01T07:00:00.000Z', ...member },
    ]),
    contact: rowsOf('contact', contactDefinition.schema, [
      ...CONTACT_TYPES.map((contact_type, index) => ({
        contact_name: `${contact_type} ${TRICKY}`,
        contact_type,
        specialty: 'Cardiology',
        phone_number: '+1 555 0100',
        email: `contact${index}@example.com`,
        address: `1 Main St\nSpringfield ${TRICKY}`,
        notes: index === 0 ? LONG : 'Tuesdays only.',
      })),
      { contact_name: NAME },
    ]),
  };
}

/** A source over arrays, each read handed out afresh and counted. */
export function sourceOf(
  person: FhirPerson,
  records: Partial<{ [K in FhirRecordType]: FhirRows[K][] }>,
): FhirSource {
  const rows: FhirSource['rows'] = {};
  for (const [type, list] of Object.entries(records)) {
    (rows as Record<string, () => Iterable<unknown>>)[type] = () => list;
  }
  return { person, rows };
}

/** Everything a test may want: the account holder's full source (with family history). */
export const fullSource = (): FhirSource => sourceOf(accountHolder, fullRecords(null));
export const fullMemberSource = (): FhirSource => sourceOf(fullPerson, fullRecords());
export const emptySource = (): FhirSource => sourceOf(emptyPerson, {});
