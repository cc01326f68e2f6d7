/**
 * One person's health summary, gathered from their records as they stand at a moment: what a
 * doctor needs on one read, and nothing of the past that no longer matters (ended
 * medications, past visits, notes). Rows are read through `personRecords`, so whose records
 * they are is decided where every other read decides it.
 *
 *   allergies             every allergy: Active first, then by substance
 *   current medications   not ended before today (a medication to start later included), by name
 *   conditions            the person's own, with their status, by name
 *   family history        family-history conditions recorded for the person, by name
 *   immunizations         shots given (isShotGiven: dated today or earlier, or undated); the
 *                         latest first
 *   lab results           collected in the twelve months up to today: out of range first,
 *                         then the newest first
 *   latest vitals         the newest value of each vital sign (BMI derived), in the account
 *                         owner's units
 *   recent symptoms       those that started in the 30 days up to now, the newest first
 *   vaccines overdue      the doses the owner's vaccine schedule has overdue today
 *   upcoming visits       visits from now on, the soonest first
 *   insurance             current policies first, then past ones, by type and provider
 *   care team             the contacts that care for the person (and, when asked for, the
 *                         whole family's), by name
 */
import { subDays } from 'date-fns/subDays';
import type { Kysely } from 'kysely';
import {
  emptyPersonSummary,
  type PersonSummary,
  type TimeOfDay,
} from '../../shared/person-summary';
import { labFlag, outOfRangeFirst, twelveMonthsBefore } from '../../shared/labs/lab-flag';
import { TIMES_OF_DAY } from '../../shared/records/medications';
import { isShotGiven } from '../../shared/records/shots';
import { insuranceStatusOf } from '../../shared/records/insurance';
import { latestVitals, vitalsEntryOf, type VitalsEntry } from '../../shared/vitals-trend';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import type { FhirRows } from '../fhir/fhir-source';
import { personRecords, type Person } from '../persons/person-records';
import { overdueDoses } from '../vaccines/member-plans';

/** The present the summary is made at, given rather than read from a clock. */
export interface SummaryClock {
  /** A UTC ISO timestamp: visits from this moment on are upcoming; the summary's date. */
  now: string;
  /** The reader's calendar date, `YYYY-MM-DD`: medications and shots split at it. */
  today: string;
}

/** The types the summary reads. */
type SummaryType =
  | 'allergy'
  | 'medication'
  | 'condition'
  | 'shot'
  | 'lab_result'
  | 'vital'
  | 'symptom'
  | 'visit'
  | 'insurance'
  | 'contact';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const byText = (a: string | null, b: string | null) => collator.compare(a ?? '', b ?? '');
/** Undated last, whichever the direction. */
const byDate = (a: string | null, b: string | null, direction: 1 | -1) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -direction : direction;

/** How far back the summary's 'Recent Symptoms' reach. */
export const RECENT_SYMPTOM_DAYS = 30;

const ALLERGY_STATUS_ORDER = { Active: 0, Inactive: 1, Resolved: 2 } as const;

/** The person's stored records of one type, as its definition makes them. */
type Rows = <K extends SummaryType>(type: K) => AsyncGenerator<FhirRows[K]>;

/** What each section is read with: the person's records, the moment, the summary it fills. */
interface Reading {
  db: Kysely<DB>;
  userId: string;
  person: Person;
  clock: SummaryClock;
  rows: Rows;
  summary: PersonSummary;
}

async function readAllergies({ rows, summary }: Reading) {
  for await (const allergy of rows('allergy')) {
    summary.allergies.push({
      substance: allergy.substance,
      reaction: allergy.reaction,
      severity: allergy.severity,
      category: allergy.category,
      status: allergy.status,
      noted_date: allergy.noted_date,
    });
  }
  summary.allergies.sort(
    (a, b) =>
      ALLERGY_STATUS_ORDER[a.status] - ALLERGY_STATUS_ORDER[b.status] ||
      byText(a.substance, b.substance),
  );
}

async function readCurrentMedications({ rows, clock, summary }: Reading) {
  for await (const medication of rows('medication')) {
    if (medication.end_date !== null && medication.end_date < clock.today) continue;
    summary.current_medications.push({
      medication_name: medication.medication_name,
      dosage: medication.dosage,
      frequency: medication.frequency,
      times_of_day: TIMES_OF_DAY.filter(({ field }) => medication[field]).map(
        ({ label }): TimeOfDay => label,
      ),
      start_date: medication.start_date,
      condition: medication.condition,
      prescribed_doctor: medication.prescribed_doctor,
    });
  }
  summary.current_medications.sort((a, b) => byText(a.medication_name, b.medication_name));
}

/** The person's own conditions, and the family history recorded for them. */
async function readConditions({ rows, summary }: Reading) {
  for await (const condition of rows('condition')) {
    if (condition.is_family_history) {
      summary.family_history.push({
        condition_name: condition.condition_name,
        relation: condition.relation,
        status: condition.status,
        diagnosis_date: condition.diagnosis_date,
      });
    } else {
      summary.conditions.push({
        condition_name: condition.condition_name,
        status: condition.status,
        diagnosis_date: condition.diagnosis_date,
        notes: condition.notes,
      });
    }
  }
  summary.conditions.sort((a, b) => byText(a.condition_name, b.condition_name));
  summary.family_history.sort(
    (a, b) => byText(a.condition_name, b.condition_name) || byText(a.relation, b.relation),
  );
}

async function readImmunizations({ rows, clock, summary }: Reading) {
  for await (const shot of rows('shot')) {
    if (!isShotGiven(shot.date_administered, clock.today)) continue;
    summary.immunizations.push({
      shot_name: shot.shot_name,
      date_administered: shot.date_administered,
      location: shot.location,
    });
  }
  summary.immunizations.sort(
    (a, b) =>
      byDate(a.date_administered, b.date_administered, -1) || byText(a.shot_name, b.shot_name),
  );
}

async function readLabResults({ rows, clock, summary }: Reading) {
  const since = twelveMonthsBefore(clock.today);
  for await (const lab of rows('lab_result')) {
    if (lab.collected_date <= since || lab.collected_date > clock.today) continue;
    summary.lab_results.push({
      test_name: lab.test_name,
      result: lab.result,
      unit: lab.unit,
      range_low: lab.range_low,
      range_high: lab.range_high,
      flag: labFlag(lab),
      collected_date: lab.collected_date,
      lab: lab.lab,
    });
  }
  summary.lab_results.sort(
    (a, b) =>
      outOfRangeFirst(a, b) ||
      byDate(a.collected_date, b.collected_date, -1) ||
      byText(a.test_name, b.test_name),
  );
}

async function readLatestVitals({ db, userId, rows, summary }: Reading) {
  const vitals: VitalsEntry[] = [];
  for await (const entry of rows('vital')) vitals.push(vitalsEntryOf(entry));
  if (vitals.length) {
    // The owner's units: the summary is theirs, whoever reads it.
    const owner = await ownedRows(db, 'user', userId).select('units').executeTakeFirst();
    vitals.sort((a, b) => Date.parse(a.measured_at) - Date.parse(b.measured_at));
    summary.latest_vitals = latestVitals(
      { person: summary.person, entries: vitals },
      owner?.units === 'us' ? 'us' : 'metric',
    );
  }
}

async function readRecentSymptoms({ rows, clock, summary }: Reading) {
  const recentFrom = subDays(new Date(clock.now), RECENT_SYMPTOM_DAYS).getTime();
  for await (const symptom of rows('symptom')) {
    const started = Date.parse(symptom.started_at);
    if (started < recentFrom || started > Date.parse(clock.now)) continue;
    summary.recent_symptoms.push({
      symptom: symptom.symptom,
      severity: symptom.severity,
      started_at: symptom.started_at,
      ended_at: symptom.ended_at,
      notes: symptom.notes,
    });
  }
  summary.recent_symptoms.sort(
    (a, b) => Date.parse(b.started_at) - Date.parse(a.started_at) || byText(a.symptom, b.symptom),
  );
}

/** A family member's overdue vaccine doses; the account holder has no schedule. */
async function readVaccinesOverdue({ db, userId, person, clock, summary }: Reading) {
  if (person.family_member_id && person.date_of_birth) {
    summary.vaccines_overdue = (
      await overdueDoses(db, userId, person.family_member_id, clock.today)
    ).map(({ vaccine, dose, of, due }) => ({ vaccine, dose, of, due }));
  }
}

async function readUpcomingVisits({ rows, clock, summary }: Reading) {
  const now = Date.parse(clock.now);
  for await (const visit of rows('visit')) {
    if (Date.parse(visit.visit_date) < now) continue;
    summary.upcoming_visits.push({
      visit_name: visit.visit_name,
      doctor_name: visit.doctor_name,
      visit_date: visit.visit_date,
      office_name: visit.office_name,
    });
  }
  summary.upcoming_visits.sort(
    (a, b) =>
      Date.parse(a.visit_date) - Date.parse(b.visit_date) || byText(a.visit_name, b.visit_name),
  );
}

async function readInsurance({ rows, summary }: Reading) {
  for await (const policy of rows('insurance')) {
    summary.insurance.push({
      insurance_type: policy.insurance_type,
      provider_name: policy.provider_name,
      policy_number: policy.policy_number,
      group_number: policy.group_number,
      status: insuranceStatusOf(policy.status),
      effective_date: policy.effective_date,
      expiry_date: policy.expiry_date,
    });
  }
  summary.insurance.sort(
    (a, b) =>
      (a.status === b.status ? 0 : a.status === 'current' ? -1 : 1) ||
      byText(a.insurance_type, b.insurance_type) ||
      byText(a.provider_name, b.provider_name),
  );
}

async function readCareTeam({ rows, summary }: Reading) {
  for await (const contact of rows('contact')) {
    summary.care_team.push({
      contact_name: contact.contact_name,
      contact_type: contact.contact_type,
      specialty: contact.specialty,
      phone_number: contact.phone_number,
      email: contact.email,
      address: contact.address,
    });
  }
  summary.care_team.sort((a, b) => byText(a.contact_name, b.contact_name));
}

/** The sections in the order they are read (the order the records were always read in). */
const SECTIONS = [
  readAllergies,
  readCurrentMedications,
  readConditions,
  readImmunizations,
  readLabResults,
  readLatestVitals,
  readRecentSymptoms,
  readVaccinesOverdue,
  readUpcomingVisits,
  readInsurance,
  readCareTeam,
];

/** The summary of `person`, read from the database as of `clock`. */
export async function buildPersonSummary(
  db: Kysely<DB>,
  userId: string,
  person: Person,
  clock: SummaryClock,
  options: { wholeFamilyContacts?: boolean } = {},
): Promise<PersonSummary> {
  async function* rows<K extends SummaryType>(type: K) {
    for await (const row of personRecords(db, userId, person, type, options)) {
      // The rows are the type's stored records, as its definition makes them.
      yield row as unknown as FhirRows[K];
    }
  }
  const summary = emptyPersonSummary(
    { id: person.id, name: person.name, date_of_birth: person.date_of_birth },
    clock.now,
  );
  const reading: Reading = { db, userId, person, clock, rows, summary };
  for (const section of SECTIONS) await section(reading);
  return summary;
}
