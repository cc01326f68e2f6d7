/**
 * The better-auth endpoints a browser may reach, and no others: the ones the web app calls.
 * better-auth defines some forty (password checks, user updates, email changes, OAuth
 * callbacks…); each one mounted is one more way in, so every other path answers 404 before
 * better-auth sees the request. Server-side calls (`auth.api.*`) are not affected.
 */
import { PASSKEY_HTTP_ROUTES } from './passkeys';
import { SSO_PROVIDER_ID } from '../../shared/single-sign-on';

/** better-auth's path of an identity provider's return. */
const SSO_CALLBACK_PATH = '/callback/:id';

export interface AuthRoute {
  method: 'GET' | 'POST';
  /** The path under /api/auth, as better-auth names it. */
  path: string;
}

export const AUTH_HTTP_ROUTES: readonly AuthRoute[] = [
  { method: 'GET', path: '/get-session' },
  { method: 'POST', path: '/sign-up/email' },
  { method: 'POST', path: '/sign-in/email' },
  { method: 'POST', path: '/sign-out' },
  { method: 'POST', path: '/two-factor/enable' },
  { method: 'POST', path: '/two-factor/disable' },
  { method: 'POST', path: '/two-factor/verify-totp' },
  { method: 'POST', path: '/two-factor/verify-backup-code' },
  { method: 'POST', path: '/request-password-reset' },
  { method: 'POST', path: '/reset-password' },
  // The reset page's list of the account's passkeys, to remove with the reset.
  { method: 'POST', path: '/reset-password/passkeys' },
  { method: 'POST', path: '/change-password' },
  // Not /change-email: Profile Settings changes the email through POST /api/account/email,
  // which asks a fresh proof first and then calls it (email-change.ts).
  // The link in the mail that confirms a new email address.
  { method: 'GET', path: '/verify-email' },
  // Adding a passkey (its options come from the product's route, after a fresh proof) and
  // signing in with one (passkeys.ts).
  ...PASSKEY_HTTP_ROUTES,
  // Single sign-on (single-sign-on.ts): the start, the identity provider's return (for its
  // one provider, /callback/oidc), and the passcode or password a first sign-in may need.
  { method: 'POST', path: '/sign-in/social' },
  { method: 'GET', path: SSO_CALLBACK_PATH },
  { method: 'POST', path: '/sso/finish-sign-up' },
  { method: 'POST', path: '/sso/link' },
];

const allowed = new Set(AUTH_HTTP_ROUTES.map((route) => `${route.method} ${route.path}`));

/** Whether a request to /api/auth{path} may go on to better-auth. */
export function isAllowedAuthRoute(method: string, path: string): boolean {
  const route = path === `/callback/${SSO_PROVIDER_ID}` ? SSO_CALLBACK_PATH : path;
  return allowed.has(`${method} ${route}`);
}
