/**
 * The sign-in screen's calls (better-auth's routes and the product's sign-in options), apart
 * from the product's typed client so that the first screen loads none of it.
 */
import type { SignInInput, SignUpInput } from '../../shared/auth';
import { SSO_PROVIDER_ID } from '../../shared/single-sign-on';
import type { SignInOptions } from '../../shared/sign-in-options';
import type { PasskeyListItem } from '../../shared/passkeys';
import type {
  AccountRecoveryOptions,
  PasswordResetInput,
  PasswordResetResult,
} from '../../shared/account-recovery';
import { request } from './api-request';

export interface SessionData {
  session: { id: string; expiresAt: string };
  user: { id: string; email: string; name: string };
}

/** A sign-in that still needs its second step answers with `twoFactorRedirect`. */
export interface SignInResult {
  twoFactorRedirect?: boolean;
  twoFactorMethods?: string[];
}

export const authApi = {
  getSession: () => request<SessionData | null>('GET', '/auth/get-session'),
  signIn: (input: SignInInput) => request<SignInResult>('POST', '/auth/sign-in/email', input),
  /** The second sign-in step: a code from the authenticator app, or a backup code. */
  verifyAuthenticationCode: (code: string) =>
    request<unknown>('POST', '/auth/two-factor/verify-totp', { code }),
  verifyBackupCode: (code: string) =>
    request<unknown>('POST', '/auth/two-factor/verify-backup-code', { code }),
  signUp: (input: SignUpInput) => request<unknown>('POST', '/auth/sign-up/email', input),
  signOut: () => request<unknown>('POST', '/auth/sign-out', {}),
  /** Whether a reset link can be sent by email (CONTRACT.md §5 'Account recovery'). */
  accountRecovery: () => request<AccountRecoveryOptions>('GET', '/account-recovery'),
  requestPasswordReset: (email: string) =>
    request<{ message: string }>('POST', '/auth/request-password-reset', { email }),
  resetPassword: (input: PasswordResetInput) =>
    request<PasswordResetResult>('POST', '/auth/reset-password', input),
  /** The passkeys of the account a reset link is for (the link is the proof). */
  resetPasswordPasskeys: (token: string) =>
    request<{ passkeys: PasskeyListItem[] }>('POST', '/auth/reset-password/passkeys', { token }),
  /** What the Sign In tab offers besides the password: passkeys, single sign-on. */
  signInOptions: () => request<SignInOptions>('GET', '/sign-in-options'),
  /** Where to send the browser to sign in with the identity provider. */
  startSingleSignOn: () =>
    request<{ url: string }>('POST', '/auth/sign-in/social', { provider: SSO_PROVIDER_ID }),
  /** A first single sign-on's passcode: the account is made. */
  finishSingleSignOn: (passcode: string) =>
    request<unknown>('POST', '/auth/sso/finish-sign-up', { passcode }),
  /** The existing account's password, once: it is linked to the identity provider. */
  linkSingleSignOn: (password: string) => request<unknown>('POST', '/auth/sso/link', { password }),
};
