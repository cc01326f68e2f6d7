/**
 * Account security: two-factor sign-in, sessions, password and email changes, the security
 * activity.
 */
import type { EmailChangeRequest, PasswordChangeInput } from '../../../shared/account-recovery';
import { answer, request } from '../../lib/api-request';
import { product } from '../../lib/api';

export interface TwoFactorEnrolment {
  /** The otpauth:// URI an authenticator app reads from the QR code. */
  totpURI: string;
  backupCodes: string[];
}

export const securityApi = {
  /** The current password and a new one; every other session ends. */
  changePassword: (input: PasswordChangeInput) =>
    request<unknown>('POST', '/auth/change-password', input),
  /**
   * Sends a confirmation link to the new address, after a fresh proof; the email changes
   * when it is followed.
   */
  changeEmail: (input: EmailChangeRequest) => answer(product.account.email.$post({ json: input })),
  factors: () => answer(product.factors.$get()),
  /** Starts turning two-factor sign-in on; it is on once `confirmTwoFactor` succeeds. */
  enableTwoFactor: (password: string) =>
    request<TwoFactorEnrolment>('POST', '/auth/two-factor/enable', { password }),
  confirmTwoFactor: (code: string) =>
    request<unknown>('POST', '/auth/two-factor/verify-totp', { code }),
  disableTwoFactor: (password: string) =>
    request<unknown>('POST', '/auth/two-factor/disable', { password }),
  sessions: () => answer(product.sessions.$get()),
  endSession: (id: string) => answer(product.sessions[':id'].$delete({ param: { id } })),
  endOtherSessions: () => answer(product.sessions['revoke-others'].$post()),
  activity: () => answer(product['security-activity'].$get()),
};
