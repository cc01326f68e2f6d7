/** The passkeys list and ceremonies (Profile Settings, and signing in with one). */
import type { FreshProof } from '../../../shared/account-security';
import { answer, request } from '../../lib/api-request';
import { product } from '../../lib/api';

/** The WebAuthn options and answers, as JSON (SimpleWebAuthn's shapes, passed through). */
type WebAuthnJson = Record<string, unknown>;

/**
 * Passkeys (CONTRACT.md §5): the ceremonies are better-auth's, the list the product's; an
 * addition's options come after a fresh proof (decision 0048).
 */
export const passkeysApi = {
  list: () => answer(product.passkeys.$get()),
  rename: (id: string, name: string) =>
    answer(product.passkeys[':id'].$patch({ param: { id }, json: { name } })),
  remove: (id: string, proof: FreshProof) =>
    answer(product.passkeys[':id'].$delete({ param: { id }, json: proof })),
  registrationOptions: (proof: FreshProof) =>
    request<WebAuthnJson>('POST', '/passkeys/registration-options', proof),
  /** Without a name, the server names the passkey by this device. */
  register: (response: WebAuthnJson) =>
    request<unknown>('POST', '/auth/passkey/verify-registration', { response }),
  signInOptionsChallenge: () =>
    request<WebAuthnJson>('GET', '/auth/passkey/generate-authenticate-options'),
  signIn: (response: WebAuthnJson) =>
    request<unknown>('POST', '/auth/passkey/verify-authentication', { response }),
};
