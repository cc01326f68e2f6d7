/**
 * Passkey helpers for the API tests: adding one as Profile Settings does (a fresh proof,
 * then the device's answer to the options), and signing in with one as the Sign In tab
 * does, with a software authenticator (software-authenticator.ts).
 */
import type { FreshProof } from '../../shared/account-security';
import type { TestClient, TestResponse, TestServer } from './harness';
import type { SoftwareAuthenticator } from './software-authenticator';

export interface RegisterOptions {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string; displayName: string };
  authenticatorSelection: { residentKey: string; userVerification: string };
}

/** The options of an addition, after the fresh proof (the password, and a code if asked). */
export function registrationOptions(client: TestClient, proof: FreshProof) {
  return client.post<RegisterOptions>('/api/passkeys/registration-options', proof);
}

/** Adds a passkey of `authenticator` to the signed-in client's account. */
export async function addPasskey(
  client: TestClient,
  proof: FreshProof,
  authenticator: SoftwareAuthenticator,
  name?: string,
): Promise<TestResponse<{ id?: string; name?: string; message?: string; field?: string }>> {
  const options = await registrationOptions(client, proof);
  if (options.status !== 200) {
    throw new Error(`registration options refused: ${JSON.stringify(options.body)}`);
  }
  return client.post('/api/auth/passkey/verify-registration', {
    response: authenticator.register(options.body),
    ...(name ? { name } : {}),
  });
}

/** Signs a client (a new one, with no cookies, unless given) in with `authenticator`'s passkey. */
export async function signInWithPasskey(
  server: TestServer,
  authenticator: SoftwareAuthenticator,
  client = server.client(),
) {
  const options = await client.get<{ challenge: string; rpId: string; allowCredentials?: unknown }>(
    '/api/auth/passkey/generate-authenticate-options',
  );
  if (options.status !== 200) throw new Error(`sign-in options: ${options.status}`);
  const response = await client.post<{ message?: string } & Record<string, unknown>>(
    '/api/auth/passkey/verify-authentication',
    { response: authenticator.authenticate(options.body) },
  );
  return { client, options, response };
}
