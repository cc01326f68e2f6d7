/**
 * The household (CONTRACT.md §4 Household): an owner lets another account see (Viewer) or
 * also keep (Editor) one person's records, until an optional last day. The same schema
 * checks the 'Share Access' form in the browser and the request on the server.
 */
import { key, tr } from './i18n/translate';
import { z } from 'zod';
import { emailAddress } from './auth';
import type { Sex } from './family-members';
import { isCalendarDate } from './dates';
import { isTimeZone } from './reminders';

export const GRANT_ROLES = ['viewer', 'editor'] as const;
export type GrantRole = (typeof GRANT_ROLES)[number];
export const GRANT_ROLE_LABELS: Record<GrantRole, string> = {
  viewer: key('Viewer'),
  editor: key('Editor'),
};

/** 'Alert when a dose is missed' (CONTRACT §6 'Notifications'): after how many minutes. */
export const MISSED_DOSE_ALERT_LABEL = key('Alert when a dose is missed');
export const ALERT_AFTER_LABEL = key('Alert after (minutes)');
export const DEFAULT_ALERT_AFTER_MINUTES = 60;
export const MIN_ALERT_AFTER_MINUTES = 5;
export const MAX_ALERT_AFTER_MINUTES = 1440;
/** A key: the English names ALERT_AFTER_LABEL and the bounds below. */
export const ALERT_AFTER_RANGE_MESSAGE = key(
  'Alert after (minutes) must be a whole number from 5 to 1440',
);

export const grantSchema = z.object({
  personId: z
    .string({ error: () => tr('Person is required') })
    .min(1, { error: () => tr('Person is required') }),
  email: emailAddress,
  role: z.enum(GRANT_ROLES, { error: () => tr('Role must be Viewer or Editor') }),
  accessEnds: z
    .string()
    .optional()
    .transform((value) => value?.trim() || null)
    .refine((value) => value === null || isCalendarDate(value), {
      error: () => tr('Access Ends must be a date'),
    }),
  allowExport: z.boolean().optional().default(false),
  missedDoseAlert: z
    .boolean({
      error: () => tr('{label} must be on or off', { label: tr(MISSED_DOSE_ALERT_LABEL) }),
    })
    .optional()
    .default(false),
  alertAfterMinutes: z.coerce
    .number({ error: () => tr(ALERT_AFTER_RANGE_MESSAGE) })
    .int({ error: () => tr(ALERT_AFTER_RANGE_MESSAGE) })
    .min(MIN_ALERT_AFTER_MINUTES, { error: () => tr(ALERT_AFTER_RANGE_MESSAGE) })
    .max(MAX_ALERT_AFTER_MINUTES, { error: () => tr(ALERT_AFTER_RANGE_MESSAGE) })
    .optional()
    .default(DEFAULT_ALERT_AFTER_MINUTES),
  timeZone: z
    .string()
    .optional()
    .refine((value) => value === undefined || isTimeZone(value), {
      error: () => tr('Time zone must be a time zone'),
    }),
});
export type GrantInput = z.input<typeof grantSchema>;
export type GrantValues = z.output<typeof grantSchema>;

/**
 * Whether the account with the grant's email has entered its acceptance code: until then
 * the grant gives nothing.
 */
export type GrantStatus = 'pending' | 'accepted';

/** A grant the user gave: who may see or keep one of their persons. */
export interface Grant {
  id: string;
  personId: string;
  email: string;
  role: GrantRole;
  allowExport: boolean;
  /** The last day of access (YYYY-MM-DD), or null for no end. */
  accessEnds: string | null;
  /**
   * Minutes after a dose's reminder time (the owner's) that the grantee is alerted of a dose
   * of the person still unmarked; null: no alerts.
   */
  alertAfterMinutes: number | null;
  createdAt: string;
  status: GrantStatus;
  /** The name of the account that accepted it, or null while pending. */
  acceptedBy: string | null;
}

/**
 * The answer to 'Grant Access': the grant, and for a new or still pending grant the
 * one-time code the owner passes on (shown this once; the server keeps only its hash).
 * Null for a change to accepted access, or once mail sends the code instead.
 */
export interface GivenGrant extends Grant {
  acceptanceCode: string | null;
}

/** The code's alphabet: no 0/O, 1/I/L look-alikes. Ten characters: about 50 bits. */
export const ACCEPTANCE_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const ACCEPTANCE_CODE_LENGTH = 10;

/** A code as typed: case, spaces and dashes do not matter. */
export const normalizeAcceptanceCode = (code: string): string =>
  code.toUpperCase().replace(/[\s-]/g, '');

/** 'ABCDE-FGHJK': a code as shown, in two groups of five. */
export const formatAcceptanceCode = (code: string): string =>
  `${code.slice(0, 5)}-${code.slice(5)}`;

export const acceptGrantSchema = z.object({
  code: z
    .string({ error: () => tr('Acceptance Code is required') })
    .transform(normalizeAcceptanceCode)
    .refine((code) => code.length > 0, { error: () => tr('Acceptance Code is required') })
    .refine((code) => code.length <= 64, { error: () => tr('Acceptance Code is too long') }),
});
export type AcceptGrantInput = z.input<typeof acceptGrantSchema>;

export const WRONG_ACCEPTANCE_CODE_MESSAGE = key(
  'Acceptance Code is not right, or not for the email you signed in with',
);

/** A person someone else shared with the user. */
export interface SharedPerson {
  grantId: string;
  /** The member's id, or the owner's own when the owner shared themself. */
  personId: string;
  ownerId: string;
  familyMemberId: string | null;
  name: string;
  color: string;
  dateOfBirth: string | null;
  /** The member's sex, when recorded (growth charts need it); an owner themself has none. */
  sex: Sex | null;
  ownerName: string;
  role: GrantRole;
  allowExport: boolean;
  accessEnds: string | null;
}

export interface Household {
  given: Grant[];
  received: SharedPerson[];
  /**
   * How many grants to the user's email wait for their Acceptance Code (not who made them,
   * nor of whom: the email is not yet proved to be theirs).
   */
  pendingForYou: number;
}

export const SELF_SHARE_MESSAGE = key('Email is your own: you already have access');
export const PAST_END_MESSAGE = key('Access Ends must be today or later');
