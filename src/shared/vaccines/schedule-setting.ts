/**
 * The account's 'Vaccine Schedule' setting (CONTRACT §5): which schedule the Schedule tab
 * follows, or none, and what the tab is answered. Kept apart from the schedules' data, and
 * from the setting's form field (account-settings.ts), so the web bundle stays small.
 */
export const VACCINE_SCHEDULE_CHOICES = ['none', 'us-cdc'] as const;
export type VaccineScheduleChoice = (typeof VACCINE_SCHEDULE_CHOICES)[number];
export const DEFAULT_VACCINE_SCHEDULE: VaccineScheduleChoice = 'us-cdc';

/** What GET /api/persons/{personId}/vaccine-schedule answers. */
export interface VaccineScheduleAnswer {
  schedule: VaccineScheduleChoice;
  /** The source the advice comes from, as the screen names it. */
  source?: string;
  doses: {
    vaccine: string;
    dose: number;
    of: number;
    earliest: string;
    due: string;
    status: 'Done' | 'Overdue' | 'Due' | 'Upcoming';
    given?: string;
    matchedByName?: boolean;
    /** The CVX code a shot recording this dose is kept with. */
    cvx: string;
  }[];
  /** What the person's record needs before a plan can be made. */
  missing?: 'date_of_birth';
  /** False when the schedule is turned off for this person ('Not tracked for {name}'). */
  tracked?: boolean;
  /** The person's name, as the tab says it. */
  name?: string;
  /** The vaccines the person is presumed immune to by their date of birth (CDSi). */
  immune?: { vaccine: string; bornBefore: string; exclusions: string[] }[];
}

/** PUT /api/persons/{personId}/vaccine-schedule/tracking: the schedule on or off for a person. */
export interface VaccineTracking {
  tracked: boolean;
}

/** One person's doses on the timeline's 'Vaccines due' (due within 30 days, or overdue). */
export interface PersonDosesDue {
  personId: string;
  name: string;
  overdue: number;
  /** Due now (their recommended date has come). */
  due: number;
  /** Due within the next 30 days. */
  soon: number;
}

/** The Schedule tab of /shots, showing a person (the timeline and reminders link to it). */
export const scheduleTabLink = (personId: string) =>
  `/shots?${new URLSearchParams({ tab: 'schedule', person: personId })}`;
