/**
 * Summaries for tests and the benchmark: one with every field filled (names in several
 * scripts, quotes, ampersands and URL-like text), an empty one, and a busy person with
 * thousands of records.
 */
import {
  emptyPersonSummary,
  type PersonSummary,
  type SummaryList,
  type TimeOfDay,
} from '../../shared/person-summary';
import { LATEST_VITAL_MEASURES } from '../../shared/vitals-trend';

/** The headings of the summary's sections, in order (CONTRACT.md §4 names all but one). */
export const SUMMARY_HEADINGS = [
  'Allergies',
  'Current Medications',
  'Conditions',
  'Family History',
  'Immunizations',
  'Upcoming Visits',
  'Insurance',
  'Care Team',
] as const;

export function emptySummary(overrides: Partial<PersonSummary> = {}): PersonSummary {
  return {
    ...emptyPersonSummary(
      { id: 'person-1', name: 'Zoë Ødegård', date_of_birth: '1990-03-04' },
      '2030-03-04T08:15:00.000Z',
    ),
    ...overrides,
  };
}

export function fullSummary(): PersonSummary {
  return emptySummary({
    allergies: [
      {
        substance: 'Penicillin',
        reaction: 'Hives & swelling ("severe")',
        severity: 'Severe',
        category: 'Medication',
        status: 'Active',
        noted_date: '2015-06-01',
      },
    ],
    current_medications: [
      {
        medication_name: 'Lisinopril',
        dosage: '10 mg',
        frequency: 'Twice Daily',
        times_of_day: ['Morning', 'Evening'],
        start_date: '2029-01-15',
        condition: 'Hypertension',
        prescribed_doctor: 'Dr. Ελένη Παπαδοπούλου',
      },
    ],
    conditions: [
      {
        condition_name: 'Hypertension',
        status: 'Chronic',
        diagnosis_date: '2028-11-30',
        notes: "Check <b>BP</b> at home; see https://example.com/bp & 'log'",
      },
    ],
    family_history: [
      {
        condition_name: 'Type 2 diabetes',
        relation: 'Father (Иван)',
        status: 'Active',
        diagnosis_date: '1999-12-31',
      },
    ],
    immunizations: [
      { shot_name: 'Tetanus (Td)', date_administered: '2027-09-09', location: 'Øst Clinic, Oslo' },
    ],
    upcoming_visits: [
      {
        visit_name: 'Annual check-up',
        doctor_name: 'Dr. Иван Петров',
        visit_date: '2030-03-04T08:30:00.000Z',
        office_name: 'Smith & Sons Family Practice',
      },
    ],
    insurance: [
      {
        insurance_type: 'Medical',
        provider_name: 'Acme Health',
        policy_number: 'POL-778899',
        group_number: 'GRP-4455',
        status: 'current',
        effective_date: '2030-01-01',
        expiry_date: '2030-12-31',
      },
    ],
    care_team: [
      {
        contact_name: 'Dr. Ελένη Παπαδοπούλου',
        contact_type: 'Doctor',
        specialty: 'Cardiology',
        phone_number: '+47 22 33 44 55',
        email: 'eleni@clinic.example',
        address: 'Storgata 1, 0155 Oslo',
      },
    ],
  });
}

/** The counts of a busy person, as the benchmark renders them. */
export const BUSY_COUNTS = {
  allergies: 300,
  current_medications: 600,
  conditions: 800,
  family_history: 200,
  immunizations: 400,
  // None by default: the budgets were set on summaries without any.
  vaccines_overdue: 0,
  // None by default either, for the same reason.
  lab_results: 0,
  latest_vitals: 0,
  recent_symptoms: 0,
  upcoming_visits: 300,
  insurance: 20,
  care_team: 100,
} as const satisfies Record<SummaryList, number>;

const TIMES: readonly TimeOfDay[] = ['Morning', 'Noon', 'Evening', 'Night'];
const day = (i: number) => {
  const date = new Date(Date.UTC(2000, 0, 1) + i * 86_400_000);
  return date.toISOString().slice(0, 10);
};

/** A person with many records of every kind, texts of realistic lengths. */
export function busySummary(
  counts: Partial<Record<keyof typeof BUSY_COUNTS, number>> = {},
): PersonSummary {
  const n = { ...BUSY_COUNTS, ...counts };
  const times = (count: number) => Array.from({ length: count }, (_, i) => i);
  return emptySummary({
    allergies: times(n.allergies).map((i) => ({
      substance: `Substance ${i + 1}`,
      reaction: i % 3 === 0 ? 'Hives, itching and swelling of the lips' : 'Rash',
      severity: (['Mild', 'Moderate', 'Severe'] as const)[i % 3] ?? null,
      category: (['Food', 'Medication', 'Environment', 'Other'] as const)[i % 4] ?? null,
      status: 'Active',
      noted_date: day(i * 7),
    })),
    lab_results: times(n.lab_results).map((i) => ({
      test_name: `Test ${(i % 40) + 1}`,
      result: String(50 + (i % 120)),
      unit: 'mg/dL',
      range_low: '60',
      range_high: '150',
      flag: i % 120 < 10 ? 'Low' : i % 120 > 100 ? 'High' : 'Normal',
      collected_date: day(i * 2),
      lab: 'City Lab',
    })),
    // Eight measures at most: a longer list only repeats them.
    latest_vitals: times(n.latest_vitals).map((i) => ({
      measure: LATEST_VITAL_MEASURES[i % LATEST_VITAL_MEASURES.length]!,
      value: `${60 + i} kg`,
      measured_at: `${day(i)}T08:00:00.000Z`,
    })),
    recent_symptoms: times(n.recent_symptoms).map((i) => ({
      symptom: `Symptom ${(i % 20) + 1}`,
      severity: (i % 10) + 1,
      started_at: `${day(i)}T08:00:00.000Z`,
      ended_at: i % 3 === 0 ? null : `${day(i)}T18:00:00.000Z`,
      notes: i % 4 === 0 ? 'Worse after meals; better lying down.' : null,
    })),
    vaccines_overdue: times(n.vaccines_overdue).map((i) => ({
      vaccine: `Vaccine ${(i % 16) + 1}`,
      dose: (i % 4) + 1,
      of: 4,
      due: day(i * 30),
    })),
    current_medications: times(n.current_medications).map((i) => ({
      medication_name: `Medication ${i + 1}`,
      dosage: `${(i % 50) + 5} mg`,
      frequency: i % 2 === 0 ? 'Daily' : 'Twice Daily',
      times_of_day: TIMES.filter((_, t) => (i + t) % 2 === 0),
      start_date: day(i * 3),
      condition: i % 4 === 0 ? null : `Condition ${i % 40}`,
      prescribed_doctor: `Dr. Prescriber ${i % 25}`,
    })),
    conditions: times(n.conditions).map((i) => ({
      condition_name: `Condition ${i + 1}`,
      status: i % 2 === 0 ? 'Active' : 'Resolved',
      diagnosis_date: day(i * 5),
      notes: i % 5 === 0 ? 'Followed every six months; last review found it stable.' : null,
    })),
    family_history: times(n.family_history).map((i) => ({
      condition_name: `Inherited condition ${i + 1}`,
      relation: ['Mother', 'Father', 'Sister', 'Grandfather'][i % 4] ?? null,
      status: 'Chronic',
      diagnosis_date: i % 3 === 0 ? null : day(i * 11),
    })),
    immunizations: times(n.immunizations).map((i) => ({
      shot_name: `Vaccine ${i + 1}`,
      date_administered: day(i * 13),
      location: 'City Health Centre',
    })),
    upcoming_visits: times(n.upcoming_visits).map((i) => ({
      visit_name: `Follow-up visit ${i + 1}`,
      doctor_name: `Dr. Visit ${i % 30}`,
      visit_date: new Date(Date.UTC(2030, 3, 1, 9, 30) + i * 86_400_000).toISOString(),
      office_name: 'Northside Medical Centre',
    })),
    insurance: times(n.insurance).map((i) => ({
      insurance_type: 'Medical',
      provider_name: `Provider ${i + 1}`,
      policy_number: `POL-${100000 + i}`,
      group_number: `GRP-${2000 + i}`,
      status: i === 0 ? 'current' : 'past',
      effective_date: day(i * 365),
      expiry_date: day(i * 365 + 364),
    })),
    care_team: times(n.care_team).map((i) => ({
      contact_name: `Dr. Contact ${i + 1}`,
      contact_type: 'Doctor',
      specialty: 'General practice',
      phone_number: `+1 555 010 ${String(i).padStart(4, '0')}`,
      email: `contact${i + 1}@clinic.example`,
      address: `${i + 1} Main Street, Springfield`,
    })),
  });
}
