/**
 * Reminders by web push (CONTRACT.md §4 "Calendar and reminders"): an account's settings
 * (its time zone and the times of the four times of day), and what a device asks for when
 * it turns 'Medication reminders' or 'Visit reminders' on.
 */
import { key, tr } from './i18n/translate';
import { z } from 'zod';
import type { DoseSlot } from './doses';
import { DEFAULT_REFILL_DAYS, MAX_REFILL_DAYS } from './medication-supply';

/** The times of the times of day unless the user chooses others. */
export const DEFAULT_SLOT_TIMES: Readonly<Record<DoseSlot, string>> = {
  Morning: '08:00',
  Noon: '12:00',
  Evening: '18:00',
  Night: '22:00',
};

/** A visit is reminded this long before it: the day before, and two hours before. */
export const VISIT_REMINDER_LEADS = [
  { key: '24h', ms: 24 * 60 * 60 * 1000 },
  { key: '2h', ms: 2 * 60 * 60 * 1000 },
] as const;

/** What a notification with hidden names says. */
export const HIDDEN_MEDICATION_TITLE = key('Medication due');
export const HIDDEN_VISIT_TITLE = key('Visit reminder');
export const HIDDEN_VACCINE_TITLE = key('Vaccine due');
/** A household grant's alert of a dose not taken (CONTRACT §6), with names hidden. */
export const HIDDEN_MISSED_DOSE_TITLE = key('Missed dose');

/** What a refill reminder's title says with hidden names. */
export const HIDDEN_REFILL_TITLE = key('Refill due');
export const REFILL_DAYS_LABEL = key('Days Before Running Out');
/** A key: the English names REFILL_DAYS_LABEL and MAX_REFILL_DAYS. */
export const REFILL_DAYS_MESSAGE = key(
  'Days Before Running Out must be a whole number from 1 to 60',
);

/** A vaccine dose is reminded this many days before its due date (and when it becomes overdue). */
export const VACCINE_REMINDER_DAYS_BEFORE = 7;

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** A missing value is named as missing, anything else that is not a time as not a time. */
const time = (name: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? tr('{label} is required', { label: tr(name) })
          : tr('{label} must be a time (HH:MM)', { label: tr(name) }),
    })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, {
      error: () => tr('{label} must be a time (HH:MM)', { label: tr(name) }),
    });

export const reminderSettingsSchema = z.object({
  time_zone: z
    .string({ error: () => tr('Time zone: choose a time zone') })
    .refine(isTimeZone, { error: () => tr('Time zone: choose a time zone') }),
  time_morning: time('Morning'),
  time_noon: time('Noon'),
  time_evening: time('Evening'),
  time_night: time('Night'),
  hide_names: z.boolean({ error: () => tr('Hide names on the lock screen must be true or false') }),
  /** Reminders by email too, where mail is set up (for phones without web push). */
  email_reminders: z
    .boolean({ error: () => tr('Email reminders must be true or false') })
    .optional()
    .default(false),
  /** Before a medication runs out, and when the next supply needs a new prescription. */
  refill_reminders: z
    .boolean({ error: () => tr('Refill reminders must be true or false') })
    .optional()
    .default(true),
  refill_days: z
    .number({ error: () => tr(REFILL_DAYS_MESSAGE) })
    .int({ error: () => tr(REFILL_DAYS_MESSAGE) })
    .min(1, { error: () => tr(REFILL_DAYS_MESSAGE) })
    .max(MAX_REFILL_DAYS, { error: () => tr(REFILL_DAYS_MESSAGE) })
    .optional()
    .default(DEFAULT_REFILL_DAYS),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/, error: () => tr('Endpoint must be a URL') }).max(2048),
  keys: z.object({
    p256dh: z.string().min(1).max(200),
    auth: z.string().min(1).max(100),
  }),
  medication_reminders: z.boolean(),
  visit_reminders: z.boolean(),
  vaccine_reminders: z.boolean().default(false),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

export const endpointSchema = z.object({ endpoint: z.string().min(1).max(2048) });

/** A subscription the browser replaced (pushsubscriptionchange): same choices, new address. */
export const renewedSubscriptionSchema = pushSubscriptionSchema
  .pick({ endpoint: true, keys: true })
  .extend({ old_endpoint: z.string().min(1).max(2048) });
export type RenewedSubscription = z.infer<typeof renewedSubscriptionSchema>;

/** GET /api/reminders: the settings (defaults until saved) and the devices subscribed. */
export interface RemindersState {
  settings: ReminderSettings;
  /** Whether settings were saved (else the time zone is the browser's to fill in). */
  saved: boolean;
  /** The server's VAPID public key, for PushManager.subscribe. */
  public_key: string;
  subscriptions: {
    endpoint: string;
    medication_reminders: boolean;
    visit_reminders: boolean;
    vaccine_reminders: boolean;
  }[];
}

/** What a push message carries to the service worker. */
export interface ReminderPayload {
  title: string;
  body: string;
  /** Where a click on the notification opens the app. */
  url: string;
  tag: string;
}

/** Profile Settings, 'Email reminders', where the server has no mail. */
export const EMAIL_REMINDERS_NOT_SET_UP_MESSAGE = key(
  'Email is not set up on this server, so reminders cannot be sent by email.',
);
