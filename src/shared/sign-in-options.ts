/**
 * What the Sign In tab offers besides the password (GET /api/sign-in-options, no session):
 * passkeys unless PASSKEYS=off, and single sign-on when OIDC_* is set up.
 */
export interface SignInOptions {
  passkeys: boolean;
  /** The button's name ('Sign in with {name}'), or null when single sign-on is not set up. */
  singleSignOn: { name: string } | null;
}
