/**
 * What a request about doses may say (a dose marked taken or skipped, the day asked for),
 * checked by the server; apart from doses.ts so that the screens showing doses do not load
 * the validation library with it.
 */
import { tr } from './i18n/translate';
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
  z.string().refine(isCalendarDate, {
    error: () => tr('{label} must be a date (YYYY-MM-DD)', { label: tr(name) }),
  });

export const doseMarkSchema = z.object({
  medication_id: z.uuid({ error: () => tr('Medication: choose a medication') }),
  day: calendarDate('Day')
    .refine((day) => day <= latestToday(), { error: () => tr(DOSE_DAY_FUTURE_MESSAGE) })
    .refine((day) => day >= earliestMarkableDay(), { error: () => tr(DOSE_DAY_TOO_OLD_MESSAGE) }),
  slot: z.enum(LOGGED_SLOTS, {
    error: () =>
      tr('{label} must be one of: {choices}', {
        label: tr('Slot'),
        choices: LOGGED_SLOTS.map((slot) => tr(slot)).join(', '),
      }),
  }),
  status: z.enum(DOSE_STATUSES, { error: () => tr('Status must be taken or skipped') }),
});
export type DoseMarkInput = z.infer<typeof doseMarkSchema>;

export const dosesQuerySchema = z.object({ today: calendarDate('today') });

/** 'Refilled': the pack added to what is on hand. */
export const refillSchema = z.object({
  pack_size: amount(PACK_SIZE_LABEL, { min: 0.01, max: SUPPLY_MAX }).schema.refine(
    (value) => value !== null,
    { error: () => tr('{label} is required', { label: tr(PACK_SIZE_LABEL) }) },
  ),
});
export type RefillInput = { pack_size: number };
