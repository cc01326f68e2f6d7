/**
 * Medication supply (CONTRACT §6 'Medication supply'): when what is on hand runs out, and
 * what a refill reminder says, worked out the same way by the server (the detail's
 * forecast, the reminder job) and the tests. Decision 0061.
 *
 * A medication 'runs out' on the first day one of its due doses cannot be taken from the
 * supply: 30 pills of a twice-daily medication begun on a morning last fifteen days, and it
 * runs out on the sixteenth. The count is in calendar days of the user's time zone, so a
 * change of clocks (summer time) or of zone moves nothing; a dose taken has already lowered
 * the quantity, and a dose skipped takes nothing, so both count only through the quantity
 * and today's marks. A medication with no quantity kept, taken as needed, or ending before
 * it would run out has no such day: none is shown.
 */
import { key } from './i18n/translate';
import { addDays } from './date-values';
import { AS_NEEDED, dueSlots, type Schedule, type ScheduledSlot } from './doses';

export interface Supply {
  quantity_on_hand: number | null;
  /** What one dose takes from the supply; 1 when not said. */
  dose_amount: number | null;
  refills_left: number | null;
  prescription_ends: string | null;
}

/** The most a supply can hold: years of a dose taken four times a day. */
export const SUPPLY_MAX = 100_000;
/** The most one dose can take from it. */
export const MAX_DOSE_AMOUNT = 1000;

/** Days before a medication runs out that a refill reminder comes, unless the user says. */
export const DEFAULT_REFILL_DAYS = 7;
export const MAX_REFILL_DAYS = 60;

export const NEW_PRESCRIPTION_MESSAGE = key('Ask the doctor for a new prescription');

/** 'Refilled': what the pack added is, and its bounds. */
export const PACK_SIZE_LABEL = key('Pack Size');

/** A quantity's doses, forgiving the float error of fractional doses (0.1 + 0.2). */
const dosesIn = (quantity: number, amount: number) => Math.floor(quantity / amount + 1e-9);

const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

/**
 * The day the supply runs out, or null when it does not (or cannot be told). `today` is the
 * user's calendar day; `markedToday` the slots of today already marked (taken or skipped:
 * neither is to be taken again).
 */
export function runsOut(
  medication: Schedule & Supply,
  today: string,
  markedToday: ReadonlySet<ScheduledSlot> = new Set(),
): string | null {
  const { quantity_on_hand: quantity, frequency } = medication;
  if (quantity === null || frequency === null || frequency === AS_NEEDED) return null;
  const amount = medication.dose_amount && medication.dose_amount > 0 ? medication.dose_amount : 1;
  const first =
    medication.start_date !== null && medication.start_date > today ? medication.start_date : today;
  let doses = dosesIn(quantity, amount);

  const firstDoses = dueSlots(medication, first).filter(
    (slot) => first !== today || !markedToday.has(slot),
  );
  let day: string;
  if (doses < firstDoses.length) {
    day = first;
  } else {
    doses -= firstDoses.length;
    // Every later due day takes the same doses: a week apart for a weekly one, else daily.
    const weekly = frequency === 'Weekly';
    if (weekly && medication.start_date === null) return null;
    const step = weekly ? 7 : 1;
    const offset = weekly ? (dayNumber(first) - dayNumber(medication.start_date!)) % 7 : 0;
    const nextDue = addDays(first, step - offset);
    const perDay = dueSlots(medication, nextDue).length;
    if (perDay === 0) return null;
    day = addDays(nextDue, Math.floor(doses / perDay) * step);
  }
  return medication.end_date !== null && day > medication.end_date ? null : day;
}

/**
 * Whether the next supply needs the doctor: no refills left, or a prescription that ends
 * before the medication would run out (or has ended).
 */
export function needsNewPrescription(
  medication: Supply,
  outOn: string | null,
  today: string,
): boolean {
  if (medication.refills_left === 0) return true;
  const ends = medication.prescription_ends;
  return ends !== null && (ends <= today || (outOn !== null && ends < outOn));
}

/** The detail's forecast, as the API returns it with adherence. */
export interface SupplyForecast {
  runs_out: string | null;
  new_prescription: boolean;
}

export function supplyForecast(
  medication: Schedule & Supply,
  today: string,
  markedToday: ReadonlySet<ScheduledSlot>,
): SupplyForecast {
  const outOn = runsOut(medication, today, markedToday);
  return {
    runs_out: outOn,
    new_prescription:
      (medication.quantity_on_hand !== null || medication.prescription_ends !== null) &&
      needsNewPrescription(medication, outOn, today),
  };
}
