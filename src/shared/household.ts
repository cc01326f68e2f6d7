/**
 * The household (CONTRACT.md §4 Household): an owner lets another account see (Viewer) or
 * also keep (Editor) one person's records, until an optional last day. The same schema
 * checks the 'Share Access' form in the browser and the request on the server.
 */
import { z } from 'zod';
import { emailAddress } from './auth';
import { isCalendarDate } from './dates';
import { isTimeZone } from './reminders';

export const GRANT_ROLES = ['viewer', 'editor'] as const;
export type GrantRole = (typeof GRANT_ROLES)[number];
export const GRANT_ROLE_LABELS: Record<GrantRole, string> = { viewer: 'Viewer', editor: 'Editor' };

export const grantSchema = z.object({
  personId: z.string({ error: 'Person is required' }).min(1, { error: 'Person is required' }),
  email: emailAddress,
  role: z.enum(GRANT_ROLES, { error: 'Role must be Viewer or Editor' }),
  accessEnds: z
    .string()
    .optional()
    .transform((value) => value?.trim() || null)
    .refine((value) => value === null || isCalendarDate(value), {
      error: 'Access Ends must be a date',
    }),
  allowExport: z.boolean().optional().default(false),
  timeZone: z
    .string()
    .optional()
    .refine((value) => value === undefined || isTimeZone(value), {
      error: 'Time zone must be a time zone',
    }),
});
export type GrantInput = z.input<typeof grantSchema>;
export type GrantValues = z.output<typeof grantSchema>;

/** A grant the user gave: who may see or keep one of their persons. */
export interface Grant {
  id: string;
  personId: string;
  email: string;
  role: GrantRole;
  allowExport: boolean;
  /** The last day of access (YYYY-MM-DD), or null for no end. */
  accessEnds: string | null;
  createdAt: string;
}

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
  ownerName: string;
  role: GrantRole;
  allowExport: boolean;
  accessEnds: string | null;
}

export interface Household {
  given: Grant[];
  received: SharedPerson[];
}

export const SELF_SHARE_MESSAGE = 'Email is your own: you already have access';
export const PAST_END_MESSAGE = 'Access Ends must be today or later';
