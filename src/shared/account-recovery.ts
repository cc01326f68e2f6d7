/**
 * Account recovery as both sides see it (CONTRACT.md §5 'Account recovery'): asking for a
 * reset link by email, and setting a new password with it.
 */
import { z } from 'zod';
import { emailAddress, newPassword } from './auth';

/** How long a reset link works. */
export const PASSWORD_RESET_LINK_MINUTES = 60;

/** The one answer to every request for a link, whether or not an account has the email. */
export const RESET_LINK_SENT_MESSAGE =
  'If an account exists for that email, a reset link is on its way.';
export const PASSWORD_RESET_DONE_MESSAGE = 'Password reset. Sign in with your new password.';
export const EMAIL_NOT_SET_UP_MESSAGE =
  'Email is not set up on this server, so no reset link can be sent. Ask the person who runs Kin Health for one.';
export const RESET_LINK_INVALID_MESSAGE =
  'This reset link has expired or has already been used. Ask for a new one.';

export const passwordResetRequestSchema = z.object({ email: emailAddress });

export const passwordResetSchema = z.object({
  token: z
    .string({ error: 'The reset link is incomplete' })
    .min(1, { error: 'The reset link is incomplete' })
    .max(200, { error: 'The reset link is incomplete' }),
  newPassword: newPassword('New Password'),
});
export type PasswordResetInput = z.input<typeof passwordResetSchema>;

/** What the sign-in screen needs to know before offering a reset by email. */
export interface AccountRecoveryOptions {
  email: boolean;
}

/** Profile Settings' 'Password' section: the current password, and a new one. */
export const passwordChangeSchema = z.object({
  currentPassword: z
    .string({ error: 'Current Password is required' })
    .min(1, { error: 'Current Password is required' })
    .max(128, { error: 'Current Password must be at most 128 characters' }),
  newPassword: newPassword('New Password'),
});
export type PasswordChangeInput = z.input<typeof passwordChangeSchema>;

export const PASSWORD_CHANGED_MESSAGE = 'Password changed. Your other devices are signed out.';

/** Profile Settings' 'Email' section: the new address, confirmed by a link sent to it. */
export const emailChangeSchema = z.object({
  newEmail: z
    .string({ error: 'New Email is required' })
    .trim()
    .min(1, { error: 'New Email is required' })
    .pipe(z.email({ error: 'New Email must be a valid email address' })),
});
export type EmailChangeInput = z.input<typeof emailChangeSchema>;

/** Where the confirmation link leads once followed. */
export const EMAIL_CHANGED_PATH = '/profile-settings?email=changed';
export const emailChangeSentMessage = (newEmail: string) =>
  `Check ${newEmail} for a link to confirm the change. Until it is followed, your email stays as it is.`;
export const EMAIL_CHANGE_NOT_SET_UP_MESSAGE =
  'Email is not set up on this server, so the email address cannot be changed here.';
