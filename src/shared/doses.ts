/**
 * Today's doses and the dose log (CONTRACT.md §4 "Today's doses"): which doses of a
 * medication are due on a day, what a mark says, and adherence, worked out the same way by
 * the server and the web app. A dose is due in each time of day the medication is marked
 * for, on each day from its start to its end; a weekly one on its start's weekday; an
 * 'As Needed' one never (it is logged when taken); one taken at no set time once a day, at
 * 'Any time'. A due dose left unmarked is 'missed' once its day is over, from the day the
 * medication was added on: derived, never written by a nightly job. Days before then are
 * 'not tracked', unless the user marks their doses afterwards (up to BACKFILL_DAYS back).
 */
import { key } from './i18n/translate';
import { addDays, CALENDAR_SLACK_DAYS, calendarDayOf } from './date-values';
import { ANY_TIME_LABEL, TIMES_OF_DAY } from './records/medication-times';

export { addDays };

/** The times of day a dose is taken at (and reminded at). */
export const DOSE_SLOTS = ['Morning', 'Noon', 'Evening', 'Night'] as const;
export type DoseSlot = (typeof DOSE_SLOTS)[number];
/** The one dose of a day of a medication taken at no set time. */
export const ANY_TIME = ANY_TIME_LABEL;
export type ScheduledSlot = DoseSlot | typeof ANY_TIME;
export const AS_NEEDED = key('As Needed');
export type LoggedSlot = ScheduledSlot | typeof AS_NEEDED;
export const DOSE_STATUSES = ['taken', 'skipped'] as const;
export type DoseStatus = (typeof DOSE_STATUSES)[number];

/** The days adherence looks back over, and the days its strip shows. */
export const ADHERENCE_DAYS = 30;
export const STRIP_DAYS = 14;
/** How far back a past day's doses may be marked taken or skipped. */
export const BACKFILL_DAYS = 30;

export const DOSE_DAY_FUTURE_MESSAGE = key('Day cannot be in the future');
/** A key: the English names BACKFILL_DAYS. */
export const DOSE_DAY_TOO_OLD_MESSAGE = key('Day can be at most 30 days back');

/** The earliest day whose doses may still be marked (with the server's day of slack). */
export const earliestMarkableDay = (now: Date = new Date()) =>
  addDays(calendarDayOf(now), -BACKFILL_DAYS - CALENDAR_SLACK_DAYS);

export const LOGGED_SLOTS = [...DOSE_SLOTS, ANY_TIME, AS_NEEDED] as const;

/** What a medication's schedule needs. */
export interface Schedule {
  frequency: string | null;
  start_date: string | null;
  end_date: string | null;
  time_morning: boolean;
  time_noon: boolean;
  time_evening: boolean;
  time_night: boolean;
}

const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

/**
 * The doses of a medication due on a day, in the day's order: one per time of day ticked,
 * or one at 'Any time' for a medication taken on a schedule at no set time.
 */
export function dueSlots(medication: Schedule, day: string): ScheduledSlot[] {
  if (medication.frequency === AS_NEEDED) return [];
  if (medication.start_date !== null && day < medication.start_date) return [];
  if (medication.end_date !== null && day > medication.end_date) return [];
  if (medication.frequency === 'Weekly') {
    if (medication.start_date === null) return [];
    if ((dayNumber(day) - dayNumber(medication.start_date)) % 7 !== 0) return [];
  }
  const times = TIMES_OF_DAY.filter(({ field }) => medication[field]).map(({ label }) => label);
  if (times.length === 0 && medication.frequency !== null) return [ANY_TIME];
  return times;
}

/** The time of day whose reminder names a dose: 'Any time' is reminded in the Morning. */
export const remindedIn = (slot: ScheduledSlot): DoseSlot => (slot === ANY_TIME ? 'Morning' : slot);

/**
 * The first day a medication's unmarked doses count as missed: the later of its start and
 * the day it was added. The day it was added is read in the zone where that moment is the
 * latest (UTC+14), so that a day which had ended for the user before they added it is never
 * called missed, wherever they are.
 */
export function trackedFrom(medication: { start_date: string | null; created_at: string }): string {
  const added = new Date(Date.parse(medication.created_at) + 14 * 3_600_000)
    .toISOString()
    .slice(0, 10);
  return medication.start_date !== null && medication.start_date > added
    ? medication.start_date
    : added;
}

/** A mark of the log, as the API returns it. */
export interface DoseMark {
  id: string;
  medication_id: string;
  day: string;
  slot: LoggedSlot;
  status: DoseStatus;
  /** When it was marked, a UTC timestamp: 'Taken at h:mm a' in the reader's time. */
  marked_at: string;
}

/** A medication of today's list, and whose it is. */
export interface TodayMedication {
  medication_id: string;
  medication_name: string;
  dosage: string | null;
  /** The account that keeps the medication: the user's own, or a shared person's owner. */
  user_id: string;
  family_member_id: string | null;
  family_member_name: string | null;
  family_member_color: string | null;
}

/** One due dose of today's checklist, marked or not. */
export interface TodayDose extends TodayMedication {
  slot: ScheduledSlot;
  mark: DoseMark | null;
}

/** An 'As Needed' medication of today's list, with the doses logged today. */
export interface AsNeededMedication extends TodayMedication {
  taken: DoseMark[];
}

export interface TodayDoses {
  day: string;
  doses: TodayDose[];
  as_needed: AsNeededMedication[];
}

/** A due dose of a day: marked, missed, still due (today), or from before it was tracked. */
export type DoseState = 'taken' | 'skipped' | 'missed' | 'due' | 'untracked';

export type StripDay = 'taken' | 'partly' | 'skipped' | 'missed' | 'due' | 'untracked' | 'none';

export interface Adherence {
  /** Taken ÷ due, over the tracked doses whose day is over or that are marked; null when none. */
  ratio: number | null;
  taken: number;
  skipped: number;
  missed: number;
  /** Doses due before the medication was tracked, never marked: neither taken nor missed. */
  not_tracked: number;
  /** The first day whose unmarked doses count as missed. */
  tracked_from: string;
  /** The last STRIP_DAYS days, oldest first, each with its due doses. */
  strip: { day: string; status: StripDay; doses: { slot: ScheduledSlot; state: DoseState }[] }[];
}

function stripStatus(counts: Record<DoseState, number>): StripDay {
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  if (total === 0) return 'none';
  if (counts.taken === total) return 'taken';
  if (counts.taken > 0) return 'partly';
  if (counts.missed > 0) return 'missed';
  if (counts.skipped > 0) return 'skipped';
  if (counts.untracked > 0) return 'untracked';
  return 'due';
}

/**
 * Adherence of one medication over the ADHERENCE_DAYS days ending today. A day before the
 * medication was tracked counts only when one of its doses was marked afterwards: then
 * that day is tracked, and its unmarked doses are missed.
 */
export function adherenceOf(
  medication: Schedule & { created_at: string },
  marks: readonly Pick<DoseMark, 'day' | 'slot' | 'status'>[],
  today: string,
): Adherence {
  const marked = new Map(marks.map((mark) => [`${mark.day} ${mark.slot}`, mark.status]));
  const markedDays = new Set(marks.map((mark) => mark.day));
  const from = trackedFrom(medication);
  const totals = { taken: 0, skipped: 0, missed: 0, untracked: 0 };
  const strip: Adherence['strip'] = [];
  for (let back = ADHERENCE_DAYS - 1; back >= 0; back -= 1) {
    const day = addDays(today, -back);
    const tracked = day >= from || markedDays.has(day);
    const counts: Record<DoseState, number> = {
      taken: 0,
      skipped: 0,
      missed: 0,
      due: 0,
      untracked: 0,
    };
    const doses: Adherence['strip'][number]['doses'] = [];
    for (const slot of dueSlots(medication, day)) {
      const state: DoseState =
        marked.get(`${day} ${slot}`) ?? (day >= today ? 'due' : tracked ? 'missed' : 'untracked');
      counts[state] += 1;
      doses.push({ slot, state });
    }
    totals.taken += counts.taken;
    totals.skipped += counts.skipped;
    totals.missed += counts.missed;
    totals.untracked += counts.untracked;
    if (back < STRIP_DAYS) strip.push({ day, status: stripStatus(counts), doses });
  }
  const { taken, skipped, missed, untracked } = totals;
  const counted = taken + skipped + missed;
  return {
    ratio: counted === 0 ? null : taken / counted,
    taken,
    skipped,
    missed,
    not_tracked: untracked,
    tracked_from: from,
    strip,
  };
}
