/**
 * Passkeys as both sides see them (CONTRACT.md §5 'Passkeys and single sign-on'): the list
 * in Profile Settings, a passkey's name, and the messages of the sign-in with one.
 */
import { key, tr } from './i18n/translate';
import { z } from 'zod';

export const PASSKEY_NAME_MAX_LENGTH = 60;

/** A passkey's name: the device's by default ('Chrome on Android'), renamable. */
export const passkeyNameSchema = z
  .string({ error: () => tr('Passkey Name is required') })
  .trim()
  .min(1, { error: () => tr('Passkey Name is required') })
  .max(PASSKEY_NAME_MAX_LENGTH, {
    error: () =>
      tr('{label} must be at most {max} characters', {
        label: tr('Passkey Name'),
        max: PASSKEY_NAME_MAX_LENGTH,
      }),
  });

export const passkeyRenameSchema = z.object({ name: passkeyNameSchema });

export interface PasskeyListItem {
  id: string;
  name: string;
  created_at: string;
  /** When it last signed in; null before its first sign-in. */
  last_used_at: string | null;
}

export const PASSKEY_NOT_VERIFIED_MESSAGE = key(
  'This passkey did not check that it is you (a fingerprint, face or PIN); use one that does',
);
export const PASSKEY_NOT_FOUND_MESSAGE = key('Passkey not found');
export const PASSKEY_UNKNOWN_MESSAGE = key(
  'This passkey is not known here: it may have been removed. Sign in with your password.',
);
/** A passkey sign-in of an account that has not passed the passcode since it changed. */
export const PASSKEY_PASSCODE_CHANGED_MESSAGE = key(
  'The Friends & Family Passcode has changed. Sign in once with your password and the new passcode; then your passkeys work again.',
);
export const PASSKEY_REGISTRATION_MALFORMED_MESSAGE = key('response is not a passkey registration');
export const PASSKEY_REGISTRATION_STALE_MESSAGE = key(
  'This passkey answer is for an earlier request. Add the passkey again.',
);
export const PASSKEY_REGISTRATION_FAILED_MESSAGE = key(
  'This passkey could not be verified. Add it again, or use another device.',
);
/** A passkey made for another name than this server's (its relying party). */
export const passkeyWrongRelyingPartyMessage = (rpId: string) =>
  tr(
    'This passkey was made for another site, not for {site}. Add it again from this page at {site}.',
    {
      site: rpId,
    },
  );
/** A passkey made on a page of another origin. */
export const passkeyWrongOriginMessage = (origin: string, expected: string) =>
  tr('This passkey was made on {origin}, not on {expected}. Add it again from {expected}.', {
    origin,
    expected,
  });
