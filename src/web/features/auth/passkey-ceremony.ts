/**
 * The browser's side of passkeys: asking the device to make one, or to sign in with one,
 * through SimpleWebAuthn (the browser half of the library better-auth's plugin uses on
 * the server). Loaded only when a passkey is used.
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { FreshProof } from '../../../shared/account-security';
import { key, tr } from '../../../shared/i18n/translate';
import { passkeysApi } from '../profile-settings/passkeys-api';

/** A passkey request the person cancelled, or that timed out: nothing to report. */
export const PASSKEY_CANCELLED_MESSAGE = key('No passkey was used. Try again when you are ready.');
export const PASSKEY_UNSUPPORTED_MESSAGE = key(
  'This browser cannot use passkeys here. Passkeys need a recent browser and a secure (https) address.',
);
export const PASSKEY_ALREADY_ADDED_MESSAGE = key(
  'This device already has a passkey for your account.',
);

/** A passkey request that ended without a passkey: its message in the language in force. */
export class PasskeyCancelledError extends Error {
  constructor() {
    super(tr(PASSKEY_CANCELLED_MESSAGE));
    this.name = 'PasskeyCancelledError';
  }
}

/** A refusal's message in the language in force. */
const refusal = (message: string) => new Error(tr(message));

const loadLibrary = () => import('@simplewebauthn/browser');

/** The browser's refusal, in words a person can act on. */
function describe(error: unknown): Error {
  const name = (error as { name?: string; code?: string } | null)?.name;
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return refusal(PASSKEY_ALREADY_ADDED_MESSAGE);
  }
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return new PasskeyCancelledError();
  }
  if (name === 'NotSupportedError' || name === 'SecurityError') {
    return refusal(PASSKEY_UNSUPPORTED_MESSAGE);
  }
  return error instanceof Error ? error : new Error(String(error));
}

export async function browserSupportsPasskeys(): Promise<boolean> {
  return (await loadLibrary()).browserSupportsWebAuthn();
}

/**
 * Makes a passkey on this device for the signed-in account, after the fresh proof the
 * server asks first (decision 0048); the server names it.
 */
export async function addPasskey(proof: FreshProof): Promise<void> {
  const { startRegistration, browserSupportsWebAuthn } = await loadLibrary();
  if (!browserSupportsWebAuthn()) throw refusal(PASSKEY_UNSUPPORTED_MESSAGE);
  const optionsJSON = (await passkeysApi.registrationOptions(
    proof,
  )) as unknown as PublicKeyCredentialCreationOptionsJSON;
  let response;
  try {
    response = await startRegistration({ optionsJSON });
  } catch (error) {
    throw describe(error);
  }
  await passkeysApi.register(response as unknown as Record<string, unknown>);
}

type Library = Awaited<ReturnType<typeof loadLibrary>>;

/** The device's answer for a sign-in: the passkey the person chose. */
async function chosenPasskey(library: Library, autofill: boolean) {
  if (!library.browserSupportsWebAuthn()) throw refusal(PASSKEY_UNSUPPORTED_MESSAGE);
  if (autofill && !(await library.browserSupportsWebAuthnAutofill())) {
    throw new PasskeyCancelledError();
  }
  const optionsJSON =
    (await passkeysApi.signInOptionsChallenge()) as unknown as PublicKeyCredentialRequestOptionsJSON;
  try {
    return await library.startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
  } catch (error) {
    throw describe(error);
  }
}

/**
 * Signs in with a passkey the device offers (no email asked: the passkey names the
 * account). `autofill`: offered among the email field's suggestions, where the browser
 * can (conditional UI); a request of the button cancels it. That offer is made unasked, on
 * the form's first focus, so whatever ends it before a passkey is chosen (a browser or an
 * address that cannot use passkeys, a refusal) ends it without a word, as a cancel: only
 * the button, which the person pressed, says why passkeys cannot be used here.
 */
export async function signInWithPasskey(options: { autofill?: boolean } = {}): Promise<void> {
  const autofill = options.autofill ?? false;
  const library = await loadLibrary();
  let response;
  try {
    response = await chosenPasskey(library, autofill);
  } catch (error) {
    throw autofill ? new PasskeyCancelledError() : error;
  }
  await passkeysApi.signIn(response as unknown as Record<string, unknown>);
}
