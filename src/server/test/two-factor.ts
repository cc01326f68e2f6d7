/**
 * Two-factor helpers for the API tests: an authenticator app's codes, computed from the
 * otpauth URI the server hands out with better-auth's own TOTP code, and a user who has
 * turned two-factor sign-in on.
 */
import { authenticator, PERIOD_SECONDS, unusedCode } from './authenticator';
import type { TestClient, TestServer } from './harness';
import { signedUpClient } from './harness';

/** The base32 secret inside an `otpauth://totp/...?secret=...` URI. */
export function secretOf(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${totpURI}`);
  return secret;
}

/** The code an authenticator app shows now, each call one not used before (see unusedCode). */
export const currentCode = unusedCode;

/** A well-formed code that no time step near now accepts. */
export async function wrongCode(secret: string): Promise<string> {
  const step = Math.floor(Date.now() / 1000 / PERIOD_SECONDS);
  const near = new Set(
    await Promise.all([-2, -1, 0, 1, 2].map((offset) => authenticator(secret).hotp(step + offset))),
  );
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

export interface EnabledTwoFactor {
  totpURI: string;
  secret: string;
  backupCodes: string[];
}

/** Turns two-factor sign-in on for a signed-in client, as the settings screen does. */
export async function enableTwoFactor(
  client: TestClient,
  password: string,
): Promise<EnabledTwoFactor> {
  const enabled = await client.post<{ totpURI: string; backupCodes: string[] }>(
    '/api/auth/two-factor/enable',
    { password },
  );
  if (enabled.status !== 200) throw new Error(`enable failed: ${JSON.stringify(enabled.body)}`);
  const secret = secretOf(enabled.body.totpURI);
  const verified = await client.post('/api/auth/two-factor/verify-totp', {
    code: await currentCode(secret),
  });
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
  return { ...enabled.body, secret };
}

/** A signed-in user with two-factor sign-in on. */
export async function twoFactorUser(server: TestServer, name = 'Two Factor User') {
  const user = await signedUpClient(server, name);
  return { ...user, ...(await enableTwoFactor(user.client, user.password)) };
}
