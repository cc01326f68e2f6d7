/**
 * The emergency card (CONTRACT.md §6 'Emergency card'): what a first responder needs of one
 * person on one page — name, date of birth, allergies with their severity, the medications
 * taken now and their doses, current conditions, emergency contacts and current insurance —
 * and nothing else. The same rule picks the card's records for the page (from the person's
 * summary, src/shared/person-summary.ts) and for its share link (the FHIR bundle's rows):
 * `isOnEmergencyCard`.
 */
import { formatList } from './dates';
import { key, tr } from './i18n/translate';
import { z } from 'zod';
import { insuranceStatusOf } from './records/insurance';
import { mostSevereFirst } from './records/allergies';
import { todayParam } from './records/list-query';
import type { PersonSummary, SummaryList } from './person-summary';

/** The record types on the card, as a share link names them. */
export const EMERGENCY_CARD_TYPES = [
  'allergy',
  'medication',
  'condition',
  'insurance',
  'contact',
] as const;
export type EmergencyCardType = (typeof EMERGENCY_CARD_TYPES)[number];

/** A card's link lasts a year (decision 0063): long enough to live on a lock screen. */
export const EMERGENCY_CARD_EXPIRY_DAYS = 365;
/** With fewer days than this left, the card's page offers to renew its link. */
export const EMERGENCY_CARD_RENEW_DAYS = 30;

/** `?scope=emergency-card` on the FHIR bundle: only what the card holds. */
export const EMERGENCY_CARD_SCOPE = 'emergency-card';

/** The accessible name of the card's QR code (CONTRACT.md §6). */
export const EMERGENCY_CARD_QR_NAME = key('QR code for the emergency card link');

/** The image for a phone's lock screen: portrait, at an iPhone's full resolution. */
export const LOCK_SCREEN_SIZE = { width: 1170, height: 2532 } as const;

/** The card's link's label, as the Share screen lists it. */
const LABEL_START = 'Emergency card of ';
export const emergencyCardLabel = (personName: string) => `${LABEL_START}${personName}`;
/** Whether a link's label is a card's, so the Share screen can say it is the card's link. */
export const isEmergencyCardLabel = (label: string) => label.startsWith(LABEL_START);

/**
 * The fields the rule reads, as both a stored record and a summary's line carry them (a
 * summary has no `is_family_history`: its family history is a list of its own).
 */
interface CardCandidate {
  status?: string | null;
  start_date?: string | null;
  end_date?: string | null;
  is_family_history?: boolean | null;
}

/**
 * Whether a record of the person belongs on their card today: an active allergy, a
 * medication taken today (started, not ended), a condition of their own that is not
 * resolved, a current insurance policy, and every contact that cares for them.
 */
export function isOnEmergencyCard(
  type: EmergencyCardType,
  record: CardCandidate,
  today: string,
): boolean {
  switch (type) {
    case 'allergy':
      return record.status === 'Active';
    case 'medication':
      return (
        (record.start_date == null || record.start_date <= today) &&
        (record.end_date == null || record.end_date >= today)
      );
    case 'condition':
      return !record.is_family_history && record.status !== 'Resolved';
    case 'insurance':
      return insuranceStatusOf(record.status) === 'current';
    case 'contact':
      return true;
  }
}

/** The card's lists, and the summary's list each is made from. */
const CARD_LISTS = {
  allergies: 'allergies',
  medications: 'current_medications',
  conditions: 'conditions',
  emergency_contacts: 'care_team',
  insurance: 'insurance',
} as const satisfies Record<string, SummaryList>;
export type EmergencyCardList = keyof typeof CARD_LISTS;

/**
 * The rows of a summary that can be on the card today, for the summary to keep only those
 * before it bounds its lists (person-summary-source.ts `only`): a bound then never leaves
 * out a card's row for one the card would not show.
 */
export function emergencyCardRows(today: string) {
  const on = (type: EmergencyCardType) => (record: CardCandidate) =>
    isOnEmergencyCard(type, record, today);
  return {
    allergies: on('allergy'),
    current_medications: on('medication'),
    conditions: on('condition'),
    insurance: on('insurance'),
  };
}

export interface EmergencyCard {
  person: PersonSummary['person'];
  /** The date the card is of, `YYYY-MM-DD`. */
  today: string;
  /** Severe first, then Moderate, Mild and unknown; by substance within each. */
  allergies: Pick<PersonSummary['allergies'][number], 'substance' | 'reaction' | 'severity'>[];
  medications: Pick<
    PersonSummary['current_medications'][number],
    'medication_name' | 'dosage' | 'frequency' | 'times_of_day'
  >[];
  conditions: Pick<PersonSummary['conditions'][number], 'condition_name' | 'status'>[];
  emergency_contacts: Pick<
    PersonSummary['care_team'][number],
    'contact_name' | 'contact_type' | 'phone_number'
  >[];
  insurance: Pick<
    PersonSummary['insurance'][number],
    'insurance_type' | 'provider_name' | 'policy_number' | 'group_number'
  >[];
  /**
   * How many rows of a list are left out beyond those it shows; a list with none not named.
   * Absent from a card this device kept before the card had it (read offline).
   */
  not_shown?: Partial<Record<EmergencyCardList, number>>;
}

/** The card of a person, from their summary as of `today`. */
export function emergencyCardOf(summary: PersonSummary, today: string): EmergencyCard {
  const on = emergencyCardRows(today);
  return {
    person: summary.person,
    today,
    allergies: summary.allergies
      .filter(on.allergies)
      .map(({ substance, reaction, severity }) => ({ substance, reaction, severity }))
      // The summary's are in this order already when they are all active; a stable sort
      // keeps its order (by substance) within a severity.
      .sort(mostSevereFirst),
    medications: summary.current_medications
      .filter(on.current_medications)
      .map(({ medication_name, dosage, frequency, times_of_day }) => ({
        medication_name,
        dosage,
        frequency,
        times_of_day,
      })),
    conditions: summary.conditions
      .filter(on.conditions)
      .map(({ condition_name, status }) => ({ condition_name, status })),
    emergency_contacts: summary.care_team.map(({ contact_name, contact_type, phone_number }) => ({
      contact_name,
      contact_type,
      phone_number,
    })),
    insurance: summary.insurance
      .filter(on.insurance)
      .map(({ insurance_type, provider_name, policy_number, group_number }) => ({
        insurance_type,
        provider_name,
        policy_number,
        group_number,
      })),
    not_shown: Object.fromEntries(
      Object.entries(CARD_LISTS).flatMap(([card, list]) => {
        const left = summary.not_shown[list];
        return left ? [[card, left]] : [];
      }),
    ),
  };
}

/** `GET /api/persons/{personId}/emergency-card?today=YYYY-MM-DD`. */
export const emergencyCardQuerySchema = z.object({ today: todayParam });

/** A medication's dose as the card says it: '2 puffs · Twice Daily · Morning, Night'. */
export function doseText(medication: EmergencyCard['medications'][number]): string {
  const times = formatList(medication.times_of_day.map((time) => tr(time)));
  return [medication.dosage, medication.frequency ? tr(medication.frequency) : null, times]
    .filter(Boolean)
    .join(' · ');
}
