/**
 * Small factories of valid record input, one per type, for the API tests. Each gives the
 * fewest fields a record needs, plus what a test overrides.
 */
import type { RecordType } from '../../shared/records/definition';

type Input = Record<string, unknown>;

const samples: Record<RecordType, () => Input> = {
  visit: () => ({
    visit_name: 'Annual checkup',
    doctor_name: 'Dr. Patel',
    visit_date: '2030-03-04T09:30:00.000Z',
    frequency: 'Yearly',
    office_name: 'Riverside Clinic',
    notes: 'Bring the list of medications.',
  }),
  medication: () => ({
    medication_name: 'Lisinopril',
    dosage: '10 mg',
    frequency: 'Daily',
    time_morning: true,
    time_noon: false,
    time_evening: false,
    time_night: true,
    start_date: '2026-01-10',
    end_date: null,
    condition: 'Blood pressure',
    prescribed_doctor: 'Dr. Patel',
    notes: 'With food.',
  }),
  shot: () => ({
    shot_name: 'Flu vaccine',
    date_administered: '2026-10-01',
    location: 'Pharmacy',
    notes: 'Left arm.',
  }),
  note: () => ({
    title: 'Referral letter',
    note_type: 'Referral',
    note_date: '2026-02-03',
    content: 'Referred to cardiology.',
  }),
  condition: () => ({
    condition_name: 'Asthma',
    diagnosis_date: '2018-06-01',
    status: 'Active',
    is_family_history: false,
    relation: null,
    notes: 'Mild.',
  }),
  insurance: () => ({
    insurance_type: 'Dental',
    provider_name: 'SmileCare',
    policy_number: 'SC-123',
    group_number: 'G-9',
    coverage_details: 'Two cleanings a year.',
    deductible: '$50',
    copay: '$10',
    effective_date: '2026-01-01',
    expiry_date: '2026-12-31',
    status: 'current',
  }),
  allergy: () => ({
    substance: 'Peanuts',
    reaction: 'Hives',
    severity: 'Severe',
    category: 'Food',
    status: 'Active',
    noted_date: '2024-05-02',
    notes: 'Carries an epinephrine pen.',
  }),
  lab_result: () => ({
    test_name: 'LDL Cholesterol',
    loinc_code: '18262-6',
    result: '162',
    unit: 'mg/dL',
    range_low: null,
    range_high: '100',
    collected_date: '2026-03-04',
    lab: 'Quest Diagnostics',
    ordered_by: 'Dr. Patel',
    notes: 'Fasting.',
  }),
  vital: () => ({
    measured_at: '2026-03-04T08:15:00.000Z',
    weight_kg: 72.5,
    systolic_mmhg: 120,
    diastolic_mmhg: 80,
    notes: 'After breakfast.',
  }),
  symptom: () => ({
    symptom: 'Headache',
    severity: 6,
    started_at: '2026-03-04T07:00:00.000Z',
    ended_at: '2026-03-04T11:30:00.000Z',
    notes: 'Behind the eyes.',
  }),
  contact: () => ({
    contact_name: 'Dr. Priya Patel',
    contact_type: 'Specialist',
    specialty: 'Cardiology',
    phone_number: '+1 555 0100',
    email: 'priya@example.com',
    address: '1 Main St',
    notes: 'Tuesdays only.',
  }),
};

export function sampleRecord(type: RecordType, overrides: Input = {}): Input {
  return { ...samples[type](), ...overrides };
}

/** One text field of each type that a test may change and check. */
export const editableTextField: Record<RecordType, string> = {
  visit: 'doctor_name',
  medication: 'dosage',
  shot: 'location',
  note: 'content',
  condition: 'notes',
  allergy: 'reaction',
  lab_result: 'lab',
  insurance: 'policy_number',
  vital: 'notes',
  symptom: 'notes',
  contact: 'specialty',
};
