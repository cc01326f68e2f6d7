/**
 * What a request about doses may say (a dose marked taken or skipped, the day asked for),
 * checked by the server; apart from doses.ts so that the screens showing doses do not load
 * the validation library with it.
 */
import { z } from 'zod';
import { isCalendarDate, latestToday } from './date-values';
import { PACK_SIZE_LABEL, SUPPLY_MAX } from './medication-supply';
import { amount } from './records/fields';
import {
  DOSE_DAY_FUTURE_MESSAGE,
  DOSE_DAY_TOO_OLD_MESSAGE,
  DOSE_STATUSES,
  earliestMarkableDay,
  LOGGED_SLOTS,
} from './doses';

const calendarDate = (name: string) =>
  z.string().refine(isCalendarDate, { error: `${name} must be a date (YYYY-MM-DD)` });

export const doseMarkSchema = z.object({
  medication_id: z.uuid({ error: 'Medication: choose a medication' }),
  day: calendarDate('Day')
    .refine((day) => day <= latestToday(), { error: DOSE_DAY_FUTURE_MESSAGE })
    .refine((day) => day >= earliestMarkableDay(), { error: DOSE_DAY_TOO_OLD_MESSAGE }),
  slot: z.enum(LOGGED_SLOTS, {
    error: `Slot must be one of: ${LOGGED_SLOTS.join(', ')}`,
  }),
  status: z.enum(DOSE_STATUSES, { error: 'Status must be taken or skipped' }),
});
export type DoseMarkInput = z.infer<typeof doseMarkSchema>;

export const dosesQuerySchema = z.object({ today: calendarDate('today') });

/** 'Refilled': the pack added to what is on hand. */
export const refillSchema = z.object({
  pack_size: amount(PACK_SIZE_LABEL, { min: 0.01, max: SUPPLY_MAX }).schema.refine(
    (value) => value !== null,
    { error: `${PACK_SIZE_LABEL} is required` },
  ),
});
export type RefillInput = { pack_size: number };
