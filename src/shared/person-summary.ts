/**
 * One person's health summary: what a doctor needs on one read, gathered from their records.
 * The server fills it from the database (current medications, upcoming visits, …) and renders
 * it as a PDF; the web app may show the same shape. Calendar dates are `YYYY-MM-DD` (never
 * shifted by a time zone); timestamps are UTC ISO strings.
 */
import { tr } from './i18n/translate';
import { z } from 'zod';
import { contactsParam, todayParam } from './records/list-query';
import type { LatestVital } from './vitals-trend';

export type AllergySeverity = 'Mild' | 'Moderate' | 'Severe';
export type AllergyCategory = 'Food' | 'Medication' | 'Environment' | 'Other';
export type AllergyStatus = 'Active' | 'Inactive' | 'Resolved';
export type TimeOfDay = 'Morning' | 'Noon' | 'Evening' | 'Night';

export interface PersonSummary {
  person: { id: string; name: string; date_of_birth: string | null };
  /** When the summary was made: a UTC ISO timestamp. */
  generated_at: string;
  allergies: {
    substance: string;
    reaction: string | null;
    severity: AllergySeverity | null;
    category: AllergyCategory | null;
    status: AllergyStatus;
    noted_date: string | null;
  }[];
  current_medications: {
    medication_name: string;
    dosage: string | null;
    frequency: string | null;
    /** In the day's order: Morning, Noon, Evening, Night. */
    times_of_day: TimeOfDay[];
    start_date: string | null;
    condition: string | null;
    prescribed_doctor: string | null;
  }[];
  conditions: {
    condition_name: string;
    status: string | null;
    diagnosis_date: string | null;
    notes: string | null;
  }[];
  family_history: {
    condition_name: string;
    relation: string | null;
    status: string | null;
    diagnosis_date: string | null;
  }[];
  immunizations: { shot_name: string; date_administered: string | null; location: string | null }[];
  /** Lab results of the twelve months up to today: out of range first, then the newest first. */
  lab_results: {
    test_name: string;
    result: string;
    unit: string | null;
    range_low: string | null;
    range_high: string | null;
    /** 'High', 'Low' or 'Normal', from the range; null without one or for a text result. */
    flag: 'High' | 'Low' | 'Normal' | null;
    collected_date: string;
    lab: string | null;
  }[];
  /**
   * The newest value of each vital sign (src/shared/vitals-trend.ts), in the account owner's
   * units, in the measures' order; measures never taken left out.
   */
  latest_vitals: LatestVital[];
  /** Symptoms that started in the 30 days up to the summary's moment, the newest first. */
  recent_symptoms: {
    symptom: string;
    /** 1 to 10. */
    severity: number | null;
    /** UTC ISO timestamps, shown in the reader's time zone. */
    started_at: string;
    ended_at: string | null;
    notes: string | null;
  }[];
  /** The vaccine doses overdue by the owner's schedule, the longest overdue first. */
  vaccines_overdue: { vaccine: string; dose: number; of: number; due: string }[];
  upcoming_visits: {
    visit_name: string;
    doctor_name: string | null;
    /** A UTC ISO timestamp, shown in the reader's time zone. */
    visit_date: string;
    office_name: string | null;
  }[];
  insurance: {
    insurance_type: string;
    provider_name: string;
    policy_number: string | null;
    group_number: string | null;
    status: 'current' | 'past';
    effective_date: string | null;
    expiry_date: string | null;
  }[];
  care_team: {
    contact_name: string;
    contact_type: string;
    specialty: string | null;
    phone_number: string | null;
    email: string | null;
    address: string | null;
  }[];
  /**
   * How many rows of a section were left out beyond the rows it shows (a summary made with
   * a bound on each section's rows: the PDF's); a section with none left out is not named.
   */
  not_shown: Partial<Record<SummaryList, number>>;
}

/**
 * The most rows a section of a summary shows, in the PDF and on the emergency card; a line
 * under the section says how many more there are (decision 0086).
 */
export const ROWS_PER_SECTION = 1000;

/** The summary's sections: its lists of rows. */
export type SummaryList = Exclude<keyof PersonSummary, 'person' | 'generated_at' | 'not_shown'>;

/** A summary of the person with every section empty, to be filled. */
export function emptyPersonSummary(
  person: PersonSummary['person'],
  generatedAt: string,
): PersonSummary {
  return {
    person,
    generated_at: generatedAt,
    allergies: [],
    current_medications: [],
    conditions: [],
    family_history: [],
    immunizations: [],
    lab_results: [],
    latest_vitals: [],
    recent_symptoms: [],
    vaccines_overdue: [],
    upcoming_visits: [],
    insurance: [],
    care_team: [],
    not_shown: {},
  };
}

/**
 * `GET /api/persons/{personId}/summary.pdf?today=YYYY-MM-DD&tz=Europe/Oslo`: the reader's
 * calendar date (where current medications and given shots split) and time zone (the one
 * visit times and the generated date are printed in; UTC when not given).
 */
export const summaryQuerySchema = z.object({
  today: todayParam,
  contacts: contactsParam,
  tz: z
    .string()
    .optional()
    .refine((value) => value === undefined || isTimeZone(value), {
      error: () => tr('tz must be an IANA time zone, such as Europe/Oslo'),
    }),
});

/** Whether a name is a time zone this runtime knows ('Europe/Oslo', 'UTC'). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
