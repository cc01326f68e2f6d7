/**
 * An authenticator app for the tests: the codes it shows for a setup key, made with
 * better-auth's own TOTP code. A code works once, so each call hands out a code the server
 * still accepts and this app has not handed out before: the current step's, then the next
 * step's, then the previous one's.
 */
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';

export const PERIOD_SECONDS = 30;

export function authenticator(secret: string) {
  return createOTP(base32.decode(secret.replace(/\s/g, '').toUpperCase()), {
    period: PERIOD_SECONDS,
  });
}

const handedOut = new Map<string, Set<string>>();

/** A code the server accepts now and that no earlier call returned for this secret. */
export async function unusedCode(secret: string): Promise<string> {
  const used = handedOut.get(secret) ?? new Set<string>();
  handedOut.set(secret, used);
  const step = Math.floor(Date.now() / 1000 / PERIOD_SECONDS);
  for (const offset of [0, 1, -1]) {
    const code = await authenticator(secret).hotp(step + offset);
    if (!used.has(code)) {
      used.add(code);
      return code;
    }
  }
  throw new Error('every code the server accepts now has been used: wait for the next step');
}
