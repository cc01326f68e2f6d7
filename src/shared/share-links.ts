/**
 * Share links (SMART Health Links, CONTRACT.md §4 "Share"), as the server and both web
 * pages (the owner's Share screen and the link's viewer) see them.
 *
 * The owner's browser encrypts the person's FHIR bundle as a JWE (`dir`, `A256GCM`) with a
 * random 32-byte key and uploads only the JWE; the key goes into the link's fragment, as a
 * `shlink:/` payload, and never reaches the server.
 */
import { key, tr } from './i18n/translate';
import { z } from 'zod';
import { EMERGENCY_CARD_EXPIRY_DAYS, EMERGENCY_CARD_SCOPE } from './emergency-card';

/** The lifetimes a link can have, in days; 7 by default. */
export const SHARE_LINK_EXPIRY_CHOICES = [1, 7, 30] as const;
export type ShareLinkExpiryDays = (typeof SHARE_LINK_EXPIRY_CHOICES)[number];
export const DEFAULT_SHARE_LINK_EXPIRY_DAYS: ShareLinkExpiryDays = 7;

/** Wrong passcodes a link takes over its whole life before it locks. */
export const SHARE_LINK_PASSCODE_ATTEMPTS = 10;
/** How long a file address in a manifest stays good. */
export const SHARE_LINK_FILE_SECONDS = 60 * 60;

/** The record types a link can include, as FHIR $everything reads them (`?types=`). */
export const SHAREABLE_RECORD_TYPES = [
  'allergy',
  'medication',
  'condition',
  'lab_result',
  'vital',
  'symptom',
  'shot',
  'visit',
  'insurance',
  'contact',
  'note',
] as const;
export type ShareableRecordType = (typeof SHAREABLE_RECORD_TYPES)[number];

export const SHAREABLE_RECORD_LABELS: Record<ShareableRecordType, string> = {
  allergy: key('Allergies'),
  medication: key('Medications'),
  condition: key('Conditions'),
  lab_result: key('Lab Results'),
  vital: key('Vitals'),
  symptom: key('Symptoms'),
  // The app's name for them (the PDF's heading stays 'Immunizations', as CONTRACT.md fixes).
  shot: key('Shots'),
  visit: key('Visits'),
  insurance: key('Insurance'),
  contact: key('Care Team'),
  note: key('Notes'),
};

/** `?types=allergy,medication`: only these types; absent, all of them. */
export const shareTypesParam = z
  .string()
  .optional()
  .transform((value, context) => {
    if (value === undefined) return undefined;
    const types = value.split(',').filter(Boolean);
    for (const type of types) {
      if (!(SHAREABLE_RECORD_TYPES as readonly string[]).includes(type)) {
        context.addIssue({ code: 'custom', message: `types: unknown record type '${type}'` });
        return z.NEVER;
      }
    }
    return types as ShareableRecordType[];
  });

/** The most documents one link carries (each is one file, at most MAX_DOCUMENT_MB). */
export const MAX_SHARED_DOCUMENTS = 50;

/** `?documents=id,id`: these documents of the person, with their files (a share link's choice). */
export const shareDocumentsParam = z
  .string()
  .optional()
  .transform((value, context) => {
    if (value === undefined) return undefined;
    const ids = [...new Set(value.split(',').filter(Boolean))];
    if (ids.length > MAX_SHARED_DOCUMENTS || ids.some((id) => id.length > 64)) {
      context.addIssue({
        code: 'custom',
        message: `documents: at most ${MAX_SHARED_DOCUMENTS} document ids`,
      });
      return z.NEVER;
    }
    return ids;
  });

/** A JWE in compact form: five base64url parts. */
const COMPACT_JWE =
  /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** A share link's ciphertext: 48 MiB, about 36 MB of FHIR JSON (a very long history). */
export const MAX_SHARE_LINK_JWE_CHARS = 48 * 1024 * 1024;

/**
 * What the chosen documents' files may weigh in all: each is base64 in the bundle, and the
 * bundle base64 again in the JWE (16/9 of the bytes), with room left for the records.
 */
export const MAX_SHARED_DOCUMENT_BYTES =
  Math.floor((MAX_SHARE_LINK_JWE_CHARS * 9) / 16) - 4 * 1024 * 1024;
/** A key: the English names MAX_SHARED_DOCUMENT_BYTES in MB. */
export const SHARED_DOCUMENTS_TOO_LARGE = key(
  'The chosen documents are too large for one link: at most 23 MB in all',
);
export const SHARED_RECORDS_TOO_LARGE = key('The shared records are too large');

export const LINK_PASSCODE_MESSAGE = key('Link Passcode must be 4 to 64 characters');
export const SHARE_LABEL_MAX = 80;

/** POST /api/share-links: what the owner's browser uploads. */
export const createShareLinkSchema = z
  .object({
    person_id: z
      .string({ error: () => tr('Person is required') })
      .min(1, { error: () => tr('Person is required') }),
    expires_in_days: z.union(
      [...SHARE_LINK_EXPIRY_CHOICES, EMERGENCY_CARD_EXPIRY_DAYS].map((days) => z.literal(days)),
      { error: () => tr('Expires must be 1, 7 or 30 days') },
    ),
    /** An emergency card's link: the only kind that may last a year (decision 0063). */
    purpose: z
      .literal(EMERGENCY_CARD_SCOPE, { error: `purpose must be '${EMERGENCY_CARD_SCOPE}'` })
      .optional(),
    passcode: z
      .string()
      .max(64, { error: () => tr(LINK_PASSCODE_MESSAGE) })
      .optional()
      .transform((value) => value || undefined)
      .refine((value) => value === undefined || value.length >= 4, {
        error: () => tr(LINK_PASSCODE_MESSAGE),
      }),
    label: z
      .string()
      .trim()
      .min(1)
      .max(SHARE_LABEL_MAX, { error: () => tr('Label is too long') }),
    jwe: z
      .string({ error: () => tr('jwe is required') })
      .max(MAX_SHARE_LINK_JWE_CHARS, { error: () => tr(SHARED_RECORDS_TOO_LARGE) })
      .regex(COMPACT_JWE, { error: () => tr('jwe must be a compact JWE') }),
  })
  .refine(
    (input) =>
      input.expires_in_days !== EMERGENCY_CARD_EXPIRY_DAYS ||
      input.purpose === EMERGENCY_CARD_SCOPE,
    { error: () => tr('Expires must be 1, 7 or 30 days'), path: ['expires_in_days'] },
  );
export type CreateShareLinkInput = z.input<typeof createShareLinkSchema>;

/** The answer to creating a link: what the payload needs besides the key. */
export interface CreatedShareLink {
  id: string;
  /** The manifest URL (the payload's `url`). */
  url: string;
  /** Seconds since the epoch. */
  exp: number;
  flag: '' | 'P';
  label: string;
}

/**
 * A link in 'Active Share Links': the user's own, or one that an account they shared a
 * person with made of that person (`made_by`: that account's name; null for the user's own).
 */
export interface ShareLinkSummary {
  id: string;
  person_id: string;
  person_name: string;
  label: string;
  made_by: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  opened_count: number;
  has_passcode: boolean;
  locked: boolean;
}

export type ShareAccessOutcome = 'opened' | 'wrong passcode' | 'refused';

export interface ShareLinkAccess {
  id: string;
  created_at: string;
  recipient: string;
  outcome: ShareAccessOutcome;
}

/** POST /api/shl/{manifestId}: the SMART Health Links manifest request. */
export const manifestRequestSchema = z.object({
  recipient: z
    .string({ error: () => tr('recipient is required') })
    .trim()
    .min(1, { error: () => tr('recipient is required') })
    .max(200, { error: () => tr('recipient is too long') }),
  passcode: z.string().max(200).optional(),
  embeddedLengthMax: z.number().int().nonnegative().optional(),
});

export {
  decodeShlink,
  encodeShlink,
  NO_LONGER_AVAILABLE,
  SHLINK_PREFIX,
  viewerUrl,
  VIEWER_PATH,
  WRONG_PASSCODE,
  type ShlinkPayload,
} from './shlink';
