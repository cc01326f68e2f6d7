/**
 * Account recovery as both sides see it (CONTRACT.md §5 'Account recovery'): asking for a
 * reset link by email, and setting a new password with it.
 */
import { key, tr } from './i18n/translate';
import { z } from 'zod';
import { freshProofSchema } from './account-security';
import { emailAddress, newPassword } from './auth';

/** How long a reset link works. */
export const PASSWORD_RESET_LINK_MINUTES = 60;

/** The one answer to every request for a link, whether or not an account has the email. */
export const RESET_LINK_SENT_MESSAGE = key(
  'If an account exists for that email, a reset link is on its way.',
);
export const PASSWORD_RESET_DONE_MESSAGE = key('Password reset. Sign in with your new password.');
export const EMAIL_NOT_SET_UP_MESSAGE = key(
  'Email is not set up on this server, so no reset link can be sent. Ask the person who runs Kin Health for one.',
);
export const RESET_LINK_INVALID_MESSAGE = key(
  'This reset link has expired or has already been used. Ask for a new one.',
);

export const passwordResetRequestSchema = z.object({ email: emailAddress });

const resetToken = z
  .string({ error: () => tr('The reset link is incomplete') })
  .min(1, { error: () => tr('The reset link is incomplete') })
  .max(200, { error: () => tr('The reset link is incomplete') });

/**
 * Passkeys a reset removes (decision 0048): every one, or those named. A copied session may
 * have added one; a reset is when its owner, back in, can see and end it.
 */
export const removePasskeysSchema = z.union(
  [
    z.literal('all'),
    z
      .array(z.string().min(1).max(200), { error: () => tr('Remove Passkeys must name passkeys') })
      .max(100, { error: () => tr('Remove Passkeys names too many passkeys') }),
  ],
  { error: "Remove Passkeys must be 'all' or a list of passkeys" },
);

export const passwordResetSchema = z.object({
  token: resetToken,
  newPassword: newPassword('New Password'),
  removePasskeys: removePasskeysSchema.optional(),
});
export type PasswordResetInput = z.input<typeof passwordResetSchema>;

/** The reset page's question: which passkeys the account has (the link is the proof). */
export const resetPasskeysRequestSchema = z.object({ token: resetToken });

/** The answer of a reset: whether it worked, and how many passkeys went with it. */
export interface PasswordResetResult {
  status: boolean;
  passkeys_removed: number;
}
export const passkeysRemovedMessage = (count: number) =>
  tr('{count} passkeys were removed.', { count });

/** What the sign-in screen needs to know before offering a reset by email. */
export interface AccountRecoveryOptions {
  email: boolean;
}

/** Profile Settings' 'Password' section: the current password, and a new one. */
export const passwordChangeSchema = z.object({
  currentPassword: z
    .string({ error: () => tr('Current Password is required') })
    .min(1, { error: () => tr('Current Password is required') })
    .max(128, { error: () => tr('Current Password must be at most 128 characters') }),
  newPassword: newPassword('New Password'),
});
export type PasswordChangeInput = z.input<typeof passwordChangeSchema>;

export const PASSWORD_CHANGED_MESSAGE = key('Password changed. Your other devices are signed out.');

/** Profile Settings' 'Email' section: the new address, confirmed by a link sent to it. */
export const emailChangeSchema = z.object({
  newEmail: z
    .string({ error: () => tr('New Email is required') })
    .trim()
    .min(1, { error: () => tr('New Email is required') })
    .pipe(z.email({ error: () => tr('New Email must be a valid email address') })),
});
export type EmailChangeInput = z.input<typeof emailChangeSchema>;

/** The change as Profile Settings sends it: with a fresh proof (decision 0048). */
export const emailChangeRequestSchema = z.object({
  ...emailChangeSchema.shape,
  ...freshProofSchema.shape,
});
export type EmailChangeRequest = z.input<typeof emailChangeRequestSchema>;
export const SAME_EMAIL_MESSAGE = key('New Email is the address the account has now');

/** Where the confirmation link leads once followed. */
export const EMAIL_CHANGED_PATH = '/profile-settings?email=changed';
export const emailChangeSentMessage = (newEmail: string) =>
  tr(
    'Check {email} for a link to confirm the change. Until it is followed, your email stays as it is.',
    { email: newEmail },
  );
export const EMAIL_CHANGE_NOT_SET_UP_MESSAGE = key(
  'Email is not set up on this server, so the email address cannot be changed here.',
);
