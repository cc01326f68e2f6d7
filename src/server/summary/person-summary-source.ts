/**
 * One person's health summary, gathered from their records as they stand at a moment: what a
 * doctor needs on one read, and nothing of the past that no longer matters (ended
 * medications, past visits, notes). Rows are read through `personRecords`, so whose records
 * they are is decided where every other read decides it.
 *
 *   allergies             every allergy: Active first, then the most severe, then by substance
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
 *
 * Given `rowsPerSection`, each list keeps its first rows in that order and counts the rest
 * (`not_shown`), holding no more than twice that many rows while it reads: a person with a
 * hundred thousand imported allergies has a summary of bounded size. Given `only`, a list
 * keeps only the rows it passes, before it counts or cuts (the emergency card's own rows).
 */
import { subDays } from 'date-fns/subDays';
import type { Kysely } from 'kysely';
import {
  emptyPersonSummary,
  type PersonSummary,
  type SummaryList,
  type TimeOfDay,
} from '../../shared/person-summary';
import { labFlag, outOfRangeFirst, twelveMonthsBefore } from '../../shared/labs/lab-flag';
import { TIMES_OF_DAY } from '../../shared/records/medications';
import { isShotGiven } from '../../shared/records/shots';
import { mostSevereFirst } from '../../shared/records/allergies';
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
  /** The most rows a list keeps (Infinity: all). */
  rowsPerSection: number;
  only: SummaryRowsOnly;
}

/** Which rows of each list a summary keeps (every row of a list not named). */
export type SummaryRowsOnly = { [L in SummaryList]?: (row: Row<L>) => boolean };

type Row<L extends SummaryList> = PersonSummary[L][number];

/**
 * A list's rows as they are read: `add` each, then `done` puts the first `rowsPerSection` in
 * `order` in the summary and counts the rest. Sorted and cut whenever twice that many are in
 * hand; the sort is stable, so the rows kept are those a sort of them all would put first.
 */
function sectionRows<L extends SummaryList>(
  { summary, rowsPerSection, only }: Reading,
  list: L,
  order: (a: Row<L>, b: Row<L>) => number,
) {
  const rows: Row<L>[] = [];
  const keeps = only[list] as ((row: Row<L>) => boolean) | undefined;
  let left = 0;
  const cut = () => {
    rows.sort(order);
    if (rows.length > rowsPerSection) {
      left += rows.length - rowsPerSection;
      rows.length = rowsPerSection;
    }
  };
  return {
    add(row: Row<L>) {
      if (keeps && !keeps(row)) return;
      if (rows.push(row) >= 2 * rowsPerSection) cut();
    },
    done() {
      cut();
      (summary[list] as Row<L>[]) = rows;
      if (left > 0) summary.not_shown[list] = left;
    },
  };
}

async function readAllergies(reading: Reading) {
  const allergies = sectionRows(
    reading,
    'allergies',
    (a, b) =>
      ALLERGY_STATUS_ORDER[a.status] - ALLERGY_STATUS_ORDER[b.status] ||
      mostSevereFirst(a, b) ||
      byText(a.substance, b.substance),
  );
  for await (const allergy of reading.rows('allergy')) {
    allergies.add({
      substance: allergy.substance,
      reaction: allergy.reaction,
      severity: allergy.severity,
      category: allergy.category,
      status: allergy.status,
      noted_date: allergy.noted_date,
    });
  }
  allergies.done();
}

async function readCurrentMedications(reading: Reading) {
  const medications = sectionRows(reading, 'current_medications', (a, b) =>
    byText(a.medication_name, b.medication_name),
  );
  for await (const medication of reading.rows('medication')) {
    if (medication.end_date !== null && medication.end_date < reading.clock.today) continue;
    medications.add({
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
  medications.done();
}

/** The person's own conditions, and the family history recorded for them. */
async function readConditions(reading: Reading) {
  const conditions = sectionRows(reading, 'conditions', (a, b) =>
    byText(a.condition_name, b.condition_name),
  );
  const familyHistory = sectionRows(
    reading,
    'family_history',
    (a, b) => byText(a.condition_name, b.condition_name) || byText(a.relation, b.relation),
  );
  for await (const condition of reading.rows('condition')) {
    if (condition.is_family_history) {
      familyHistory.add({
        condition_name: condition.condition_name,
        relation: condition.relation,
        status: condition.status,
        diagnosis_date: condition.diagnosis_date,
      });
    } else {
      conditions.add({
        condition_name: condition.condition_name,
        status: condition.status,
        diagnosis_date: condition.diagnosis_date,
        notes: condition.notes,
      });
    }
  }
  conditions.done();
  familyHistory.done();
}

async function readImmunizations(reading: Reading) {
  const immunizations = sectionRows(
    reading,
    'immunizations',
    (a, b) =>
      byDate(a.date_administered, b.date_administered, -1) || byText(a.shot_name, b.shot_name),
  );
  for await (const shot of reading.rows('shot')) {
    if (!isShotGiven(shot.date_administered, reading.clock.today)) continue;
    immunizations.add({
      shot_name: shot.shot_name,
      date_administered: shot.date_administered,
      location: shot.location,
    });
  }
  immunizations.done();
}

async function readLabResults(reading: Reading) {
  const { clock } = reading;
  const since = twelveMonthsBefore(clock.today);
  const results = sectionRows(
    reading,
    'lab_results',
    (a, b) =>
      outOfRangeFirst(a, b) ||
      byDate(a.collected_date, b.collected_date, -1) ||
      byText(a.test_name, b.test_name),
  );
  for await (const lab of reading.rows('lab_result')) {
    if (lab.collected_date <= since || lab.collected_date > clock.today) continue;
    results.add({
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
  results.done();
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

async function readRecentSymptoms(reading: Reading) {
  const { clock } = reading;
  const recentFrom = subDays(new Date(clock.now), RECENT_SYMPTOM_DAYS).getTime();
  const symptoms = sectionRows(
    reading,
    'recent_symptoms',
    (a, b) => Date.parse(b.started_at) - Date.parse(a.started_at) || byText(a.symptom, b.symptom),
  );
  for await (const symptom of reading.rows('symptom')) {
    const started = Date.parse(symptom.started_at);
    if (started < recentFrom || started > Date.parse(clock.now)) continue;
    symptoms.add({
      symptom: symptom.symptom,
      severity: symptom.severity,
      started_at: symptom.started_at,
      ended_at: symptom.ended_at,
      notes: symptom.notes,
    });
  }
  symptoms.done();
}

/** A family member's overdue vaccine doses; the account holder has no schedule. */
async function readVaccinesOverdue({ db, userId, person, clock, summary }: Reading) {
  if (person.family_member_id && person.date_of_birth) {
    summary.vaccines_overdue = (
      await overdueDoses(db, userId, person.family_member_id, clock.today)
    ).map(({ vaccine, dose, of, due }) => ({ vaccine, dose, of, due }));
  }
}

async function readUpcomingVisits(reading: Reading) {
  const now = Date.parse(reading.clock.now);
  const visits = sectionRows(
    reading,
    'upcoming_visits',
    (a, b) =>
      Date.parse(a.visit_date) - Date.parse(b.visit_date) || byText(a.visit_name, b.visit_name),
  );
  for await (const visit of reading.rows('visit')) {
    if (Date.parse(visit.visit_date) < now) continue;
    visits.add({
      visit_name: visit.visit_name,
      doctor_name: visit.doctor_name,
      visit_date: visit.visit_date,
      office_name: visit.office_name,
    });
  }
  visits.done();
}

async function readInsurance(reading: Reading) {
  const policies = sectionRows(
    reading,
    'insurance',
    (a, b) =>
      (a.status === b.status ? 0 : a.status === 'current' ? -1 : 1) ||
      byText(a.insurance_type, b.insurance_type) ||
      byText(a.provider_name, b.provider_name),
  );
  for await (const policy of reading.rows('insurance')) {
    policies.add({
      insurance_type: policy.insurance_type,
      provider_name: policy.provider_name,
      policy_number: policy.policy_number,
      group_number: policy.group_number,
      status: insuranceStatusOf(policy.status),
      effective_date: policy.effective_date,
      expiry_date: policy.expiry_date,
    });
  }
  policies.done();
}

async function readCareTeam(reading: Reading) {
  const contacts = sectionRows(reading, 'care_team', (a, b) =>
    byText(a.contact_name, b.contact_name),
  );
  for await (const contact of reading.rows('contact')) {
    contacts.add({
      contact_name: contact.contact_name,
      contact_type: contact.contact_type,
      specialty: contact.specialty,
      phone_number: contact.phone_number,
      email: contact.email,
      address: contact.address,
    });
  }
  contacts.done();
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
  options: { wholeFamilyContacts?: boolean; rowsPerSection?: number; only?: SummaryRowsOnly } = {},
): Promise<PersonSummary> {
  async function* rows<K extends SummaryType>(type: K) {
    for await (const row of personRecords(db, userId, person, type, {
      wholeFamilyContacts: options.wholeFamilyContacts,
    })) {
      // The rows are the type's stored records, as its definition makes them.
      yield row as unknown as FhirRows[K];
    }
  }
  const summary = emptyPersonSummary(
    { id: person.id, name: person.name, date_of_birth: person.date_of_birth },
    clock.now,
  );
  const rowsPerSection = options.rowsPerSection ?? Infinity;
  const only = options.only ?? {};
  const reading: Reading = { db, userId, person, clock, rows, summary, rowsPerSection, only };
  for (const section of SECTIONS) await section(reading);
  return summary;
}
