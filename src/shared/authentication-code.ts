/**
 * An authenticator app's code as it is typed: six digits, typed into an input that keeps
 * only digits. Apart from account-security.ts, which checks it with zod: the sign-in page's
 * first load takes this, and zod is not in that load.
 */
export const AUTHENTICATION_CODE_LENGTH = 6;

/** What the authentication-code input keeps of what was typed or pasted. */
export function filterAuthenticationCodeInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, AUTHENTICATION_CODE_LENGTH);
}
