/**
 * Single sign-on with the household's identity provider (OpenID Connect; CONTRACT.md §5
 * 'Passkeys and single sign-on'): what the server and the Sign In tab share.
 */
import { tr } from './i18n/translate';

/**
 * The `error` the server sends the browser back to /auth with when a single sign-on needs
 * one more step: the passcode for a new account, the password to link an existing one.
 */
export const SSO_PASSCODE_NEEDED = 'sso_passcode_needed';
export const SSO_PASSWORD_NEEDED = 'sso_password_needed';
/**
 * An account whose single sign-on waits for the new Friends & Family Passcode: it has not
 * passed the passcode since it changed (decision 0048).
 */
export const SSO_PASSCODE_CHANGED = 'sso_passcode_changed';
/** A new account, or a link, with an email the provider has not confirmed. */
export const SSO_EMAIL_UNVERIFIED = 'sso_email_unverified';

/** The one provider the product signs in with; better-auth's id for it. */
export const SSO_PROVIDER_ID = 'oidc';

export const SSO_LINK_PASSCODE_CHANGED_MESSAGE = (name: string) =>
  tr(
    'The Friends & Family Passcode has changed. Sign in once with your password and the new passcode, then sign in with {name} again.',
    { name },
  );

export const SSO_PENDING_EXPIRED_MESSAGE = (name: string) =>
  tr('This sign-in with {name} has expired. Sign in with {name} again.', { name });

/** Why a single sign-on was refused, in words, from the `error` the server sent back. */
export function singleSignOnRefusal(error: string, name: string): string {
  switch (error) {
    case 'state_mismatch':
    case 'state_not_found':
    case 'state_invalid':
    case 'state_security_mismatch':
    case 'please_restart_the_process':
      return tr(
        "This sign-in with {name} was not started in this browser, or took too long (its state did not match). Nothing was signed in. Start again with 'Sign in with {name}'.",
        { name },
      );
    case 'invalid_code':
    case 'no_code':
      return tr(
        '{name} did not accept the sign-in code: it has expired or was already used. Nothing was signed in. Sign in with {name} again.',
        { name },
      );
    case 'unable_to_get_user_info':
    case 'nonce_binding_missing':
    case 'issuer_mismatch':
      return tr(
        'The answer from {name} could not be verified (its ID token was not signed by {name} for this server). Nothing was signed in.',
        { name },
      );
    case 'account_not_linked':
    case SSO_EMAIL_UNVERIFIED:
      return tr(
        '{name} has not confirmed that this email address is yours, so it cannot sign in here. Confirm your email with {name}, then try again.',
        { name },
      );
    case 'email_not_found':
      return tr('{name} did not share an email address, so no account could be found or made.', {
        name,
      });
    case 'access_denied':
      return tr('The sign-in with {name} was cancelled.', { name });
    case 'account_already_linked_to_different_user':
      return tr('This {name} account already signs in to another account here.', { name });
    default:
      return tr('The sign-in with {name} did not complete. Try again.', { name });
  }
}
