/**
 * Today's doses and the dose log (CONTRACT.md §4 "Today's doses"): which doses of a
 * medication are due on a day, what a mark says, and adherence, worked out the same way by
 * the server and the web app. A dose is due in each time of day the medication is marked
 * for, on each day from its start to its end; a weekly one on its start's weekday; an
 * 'As Needed' one never (it is logged when taken). A due dose left unmarked is 'missed'
 * once its day is over: derived, never written by a nightly job.
 */
import { z } from 'zod';
import { isCalendarDate } from './date-values';
import { TIMES_OF_DAY } from './records/medications';

export const DOSE_SLOTS = ['Morning', 'Noon', 'Evening', 'Night'] as const;
export type DoseSlot = (typeof DOSE_SLOTS)[number];
export const AS_NEEDED = 'As Needed';
export type LoggedSlot = DoseSlot | typeof AS_NEEDED;
export const DOSE_STATUSES = ['taken', 'skipped'] as const;
export type DoseStatus = (typeof DOSE_STATUSES)[number];

/** The days adherence looks back over, and the days its strip shows. */
export const ADHERENCE_DAYS = 30;
export const STRIP_DAYS = 14;

const calendarDate = (name: string) =>
  z.string().refine(isCalendarDate, { error: `${name} must be a date (YYYY-MM-DD)` });

export const doseMarkSchema = z.object({
  medication_id: z.uuid({ error: 'Medication: choose a medication' }),
  day: calendarDate('Day'),
  slot: z.enum([...DOSE_SLOTS, AS_NEEDED], {
    error: `Slot must be one of: ${[...DOSE_SLOTS, AS_NEEDED].join(', ')}`,
  }),
  status: z.enum(DOSE_STATUSES, { error: 'Status must be taken or skipped' }),
});
export type DoseMarkInput = z.infer<typeof doseMarkSchema>;

export const dosesQuerySchema = z.object({ today: calendarDate('today') });

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

export function addDays(day: string, days: number): string {
  return new Date((dayNumber(day) + days) * 86_400_000).toISOString().slice(0, 10);
}

/** The doses of a medication due on a day, in the day's order. */
export function dueSlots(medication: Schedule, day: string): DoseSlot[] {
  if (medication.frequency === AS_NEEDED) return [];
  if (medication.start_date !== null && day < medication.start_date) return [];
  if (medication.end_date !== null && day > medication.end_date) return [];
  if (medication.frequency === 'Weekly') {
    if (medication.start_date === null) return [];
    if ((dayNumber(day) - dayNumber(medication.start_date)) % 7 !== 0) return [];
  }
  return TIMES_OF_DAY.filter(({ field }) => medication[field]).map(({ label }) => label);
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
  slot: DoseSlot;
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

export type StripDay = 'taken' | 'partly' | 'skipped' | 'missed' | 'due' | 'none';

export interface Adherence {
  /** Taken ÷ due, over the due doses whose day is over or that are marked; null when none. */
  ratio: number | null;
  taken: number;
  skipped: number;
  missed: number;
  /** The last STRIP_DAYS days, oldest first. */
  strip: { day: string; status: StripDay }[];
}

/** Adherence of one medication over the ADHERENCE_DAYS days ending today. */
export function adherenceOf(
  medication: Schedule,
  marks: readonly Pick<DoseMark, 'day' | 'slot' | 'status'>[],
  today: string,
): Adherence {
  const marked = new Map(marks.map((mark) => [`${mark.day} ${mark.slot}`, mark.status]));
  let taken = 0;
  let skipped = 0;
  let missed = 0;
  const strip: Adherence['strip'] = [];
  for (let back = ADHERENCE_DAYS - 1; back >= 0; back -= 1) {
    const day = addDays(today, -back);
    const counts = { taken: 0, skipped: 0, missed: 0, due: 0 };
    for (const slot of dueSlots(medication, day)) {
      const status = marked.get(`${day} ${slot}`);
      if (status) counts[status] += 1;
      else if (day < today) counts.missed += 1;
      else counts.due += 1;
    }
    taken += counts.taken;
    skipped += counts.skipped;
    missed += counts.missed;
    if (back < STRIP_DAYS) {
      const total = counts.taken + counts.skipped + counts.missed + counts.due;
      const status: StripDay =
        total === 0
          ? 'none'
          : counts.taken === total
            ? 'taken'
            : counts.taken > 0
              ? 'partly'
              : counts.missed > 0
                ? 'missed'
                : counts.skipped > 0
                  ? 'skipped'
                  : 'due';
      strip.push({ day, status });
    }
  }
  const counted = taken + skipped + missed;
  return { ratio: counted === 0 ? null : taken / counted, taken, skipped, missed, strip };
}
