/**
 * Account security as both sides see it: the second sign-in step's inputs, the two-factor
 * factor, active sessions, and the security events of the audit log with their wording.
 */
import { key, tr } from './i18n/translate';
import { z } from 'zod';
import { AUTHENTICATION_CODE_LENGTH } from './authentication-code';

export const AUTHENTICATION_CODE_MESSAGE = key('Authentication Code must be exactly 6 digits');
export const BACKUP_CODE_MESSAGE = key('Backup Code is required');
/** An authenticator-app code works once; the next one comes within 30 seconds. */
export const REUSED_CODE_MESSAGE = key(
  'This code has already been used. Wait for the next code in your authenticator app.',
);

/** The 6-digit code of an authenticator app (TOTP). */
export const authenticationCodeSchema = z
  .string({ error: () => tr(AUTHENTICATION_CODE_MESSAGE) })
  .regex(new RegExp(`^\\d{${AUTHENTICATION_CODE_LENGTH}}$`), {
    error: () => tr(AUTHENTICATION_CODE_MESSAGE),
  });

/** A one-time backup code (`ABCDE-23456`), taken in any case: it is put in capitals. */
export const backupCodeSchema = z
  .string({ error: () => tr(BACKUP_CODE_MESSAGE) })
  .trim()
  .min(1, { error: () => tr(BACKUP_CODE_MESSAGE) })
  .max(64, { error: () => tr('Backup Code is too long') })
  .transform((code) => code.toUpperCase());

export const verifyAuthenticationCodeSchema = z.object({ code: authenticationCodeSchema });
export const verifyBackupCodeSchema = z.object({ code: backupCodeSchema });

const password = z
  .string({ error: () => tr('Password is required') })
  .min(1, { error: () => tr('Password is required') })
  .max(128, { error: () => tr('Password must be at most 128 characters') });

export const passwordConfirmationSchema = z.object({ password });

/**
 * A fresh proof that the signed-in person is the account's owner, before something that
 * cannot be undone or that opens a way in: the password, and with two-factor sign-in on, a
 * code from the authenticator app or a backup code. An account with no password (single
 * sign-on, passkeys) gives none: its proof is a sign-in within RECENT_SIGN_IN_MINUTES.
 */
export const freshProofSchema = z.object({
  password: password.optional(),
  code: z
    .string({ error: () => tr('Authentication Code must be text') })
    .trim()
    .max(64, { error: () => tr('Authentication Code is too long') })
    .optional()
    .transform((value) => value || undefined),
});
export type FreshProof = z.input<typeof freshProofSchema>;

export const WRONG_PASSWORD_MESSAGE = key('The password is not correct');
export const PASSWORD_REQUIRED_MESSAGE = key('Password is required');
/** How recent a sign-in proves an account with no password (decision 0048). */
export const RECENT_SIGN_IN_MINUTES = 10;
/** A key: the English names RECENT_SIGN_IN_MINUTES. */
export const RECENT_SIGN_IN_NEEDED_MESSAGE = key(
  'Your account has no password, so this needs a sign-in within the last 10 minutes. Sign out, sign in again, and come back.',
);

/** What a fresh proof of this account takes (GET /api/fresh-proof). */
export interface FreshProofNeeds {
  /** The account has a password: it is asked. */
  password: boolean;
  /** Two-factor sign-in is on: a code is asked as well. */
  code: boolean;
  /** Without a password: until when this session's sign-in counts as the proof (or null: it no longer does). */
  recent_sign_in_until: string | null;
}
export const CODE_REQUIRED_MESSAGE = key(
  'Authentication Code is required: two-factor sign-in is on for this account',
);
export const WRONG_CODE_MESSAGE = key('The authentication code is not correct');

/** A second factor, in SPEC.md §3's words (factor_type, status, friendly_name). */
export interface TwoFactorFactor {
  id: string;
  friendly_name: string;
  factor_type: 'totp';
  status: 'verified' | 'unverified';
}

export const TOTP_FRIENDLY_NAME = key('Authenticator app');

export interface ActiveSession {
  id: string;
  user_agent: string | null;
  ip_address: string | null;
  created_at: string;
  /** When the session was last renewed; sessions renew at most once a day. */
  last_active_at: string;
  expires_at: string;
  current: boolean;
}

export const auditEvents = [
  'sign_up',
  'sign_in',
  'sign_in_challenged',
  'sign_in_failed',
  'sign_out',
  'password_changed',
  'two_factor_enabled',
  'two_factor_disabled',
  'session_revoked',
  'account_deleted',
  'sign_up_failed',
  'verification_failed',
  'too_many_attempts',
  'calendar_link_created',
  'calendar_link_revoked',
  'calendar_feed_read',
  'share_link_created',
  'share_link_revoked',
  'reminders_device_added',
  'reminders_device_removed',
  'access_granted',
  'access_accepted',
  'access_changed',
  'access_removed',
  'shared_records_read',
  'shared_records_changed',
  'password_reset_requested',
  'password_reset',
  'password_reset_link_created',
  'mail_failed',
  'email_change_requested',
  'email_changed',
  'passkey_added',
  'passkey_removed',
  'sso_linked',
  'passkeys_removed',
  'signed_out_everywhere',
  'import_undone',
  'portal_connected',
  'portal_connect_failed',
  'portal_disconnected',
  'notification_channel_added',
  'notification_channel_removed',
  'dose_marked_from_notification',
] as const;
export type AuditEvent = (typeof auditEvents)[number];

export const auditEventLabels: Record<AuditEvent, string> = {
  sign_up: key('Account created'),
  sign_in: key('Signed in'),
  sign_in_challenged: key('Password accepted, code requested'),
  sign_in_failed: key('Sign-in failed'),
  sign_out: key('Signed out'),
  password_changed: key('Password changed'),
  two_factor_enabled: key('Two-factor sign-in turned on'),
  two_factor_disabled: key('Two-factor sign-in turned off'),
  session_revoked: key('Another session signed out'),
  account_deleted: key('Account deleted'),
  sign_up_failed: key('Sign-up refused'),
  verification_failed: key('Password or code refused'),
  too_many_attempts: key('Too many attempts, refused'),
  calendar_link_created: key('Calendar link created'),
  calendar_link_revoked: key('Calendar link revoked'),
  calendar_feed_read: key('Calendar read from a new address'),
  share_link_created: key('Share link created'),
  share_link_revoked: key('Share link revoked'),
  reminders_device_added: key('Reminders turned on for a device'),
  reminders_device_removed: key('Reminders turned off for a device'),
  access_granted: key('Access to a person shared'),
  access_accepted: key('Shared access accepted with its code'),
  access_changed: key('Shared access changed'),
  access_removed: key('Shared access removed'),
  shared_records_read: key('Shared records viewed'),
  shared_records_changed: key('Shared records changed'),
  password_reset_requested: key('Password reset link asked for'),
  password_reset: key('Password reset with an emailed link'),
  password_reset_link_created: key('Password reset link made by the server operator'),
  mail_failed: key('An email could not be sent'),
  email_change_requested: key('Email change asked for, link sent to the new address'),
  email_changed: key('Email changed with the emailed link'),
  passkey_added: key('Passkey added'),
  passkey_removed: key('Passkey removed'),
  sso_linked: key('Single sign-on linked to the account, with its password'),
  passkeys_removed: key('Passkeys removed'),
  signed_out_everywhere: key('Signed out everywhere'),
  import_undone: key('An import undone'),
  portal_connected: key('A patient portal connected'),
  portal_connect_failed: key('A patient portal connection refused'),
  portal_disconnected: key('A patient portal disconnected'),
  notification_channel_added: key('Reminders sent to an ntfy topic or webhook'),
  notification_channel_removed: key('Reminders no longer sent to an ntfy topic or webhook'),
  dose_marked_from_notification: key('A dose marked from a reminder’s button'),
};

/** How a sign-in succeeded, or why it failed: the `detail` of those events. */
export const signInDetails = {
  password: key('Password and passcode'),
  authenticator_app: key('Authenticator app'),
  backup_code: key('Backup code'),
  passkey: key('Passkey'),
  passkey_refused: key('Passkey not accepted'),
  passkey_passcode_changed: key('Passkey not accepted until a sign-in with the new passcode'),
  passcode_changed: key('The passcode changed: the new one asked for'),
  single_sign_on: key('Single sign-on'),
  single_sign_on_refused: key('Single sign-on refused'),
  wrong_password: key('Wrong email or password'),
  wrong_passcode: key('Wrong Friends & Family Passcode'),
  wrong_code: key('Wrong authentication code'),
  wrong_backup_code: key('Wrong backup code'),
  reused_code: key('Authentication code used twice'),
  too_many_attempts: key('Too many wrong codes'),
  locked: key('Two-factor sign-in temporarily locked'),
  refused: key('Refused'),
} as const;

/**
 * What a password, passcode or code was being checked for: the `detail` of a refused
 * verification and of too many attempts.
 */
export const verificationPurposes = {
  'sign-in': key('Sign-in'),
  'sign-up': key('Sign-up'),
  'two-factor': key('Authentication code'),
  'two-factor-enable': key('Turning two-factor sign-in on'),
  'two-factor-disable': key('Turning two-factor sign-in off'),
  'two-factor-setup': key('Confirming an authenticator app'),
  'password-confirmation': key('Password confirmation'),
  'account-deletion': key('Deleting the account'),
  'grant-acceptance': key('Acceptance Code for shared access'),
  'calendar-feed': key('Calendar link'),
  'password-reset': key('Password reset link'),
  'password-change': key('Changing the password'),
  'passkey-removal': key('Removing a passkey'),
  'passkey-addition': key('Adding a passkey'),
  'email-change': key('Changing the email address'),
  'sign-out-everywhere': key('Signing out everywhere and removing passkeys'),
} as const;
export type VerificationPurpose = keyof typeof verificationPurposes;
export type SignInDetail = keyof typeof signInDetails;

export interface SecurityActivityEntry {
  id: string;
  event: AuditEvent;
  detail: string | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
}

/** The words for one event's detail: a sign-in method or failure, or a device. */
export function describeAuditDetail(entry: Pick<SecurityActivityEntry, 'detail'>): string | null {
  const { detail } = entry;
  if (!detail) return null;
  if (Object.hasOwn(signInDetails, detail)) return signInDetails[detail as SignInDetail];
  if (Object.hasOwn(verificationPurposes, detail)) {
    return verificationPurposes[detail as VerificationPurpose];
  }
  return detail;
}

export const SECURITY_ACTIVITY_LIMIT = 20;
