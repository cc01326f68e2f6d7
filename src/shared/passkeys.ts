/**
 * Passkeys as both sides see them (CONTRACT.md §5 'Passkeys and single sign-on'): the list
 * in Profile Settings, a passkey's name, and the messages of the sign-in with one.
 */
import { z } from 'zod';

export const PASSKEY_NAME_MAX_LENGTH = 60;

/** A passkey's name: the device's by default ('Chrome on Android'), renamable. */
export const passkeyNameSchema = z
  .string({ error: 'Passkey Name is required' })
  .trim()
  .min(1, { error: 'Passkey Name is required' })
  .max(PASSKEY_NAME_MAX_LENGTH, {
    error: `Passkey Name must be at most ${PASSKEY_NAME_MAX_LENGTH} characters`,
  });

export const passkeyRenameSchema = z.object({ name: passkeyNameSchema });

export interface PasskeyListItem {
  id: string;
  name: string;
  created_at: string;
  /** When it last signed in; null before its first sign-in. */
  last_used_at: string | null;
}

export const PASSKEY_NOT_VERIFIED_MESSAGE =
  'This passkey did not check that it is you (a fingerprint, face or PIN); use one that does';
export const PASSKEY_NOT_FOUND_MESSAGE = 'Passkey not found';
export const PASSKEY_UNKNOWN_MESSAGE =
  'This passkey is not known here: it may have been removed. Sign in with your password.';
