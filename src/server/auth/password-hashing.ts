/**
 * Password and passcode hashing: better-auth's own scrypt, one hash at a time. Each hash
 * holds 32 MiB while it runs on the thread pool, and the pool runs four: a handful of
 * sign-ins at once took the server from 115 MB to 260 MB. A family signs in a few times a
 * day (and each address at most ten times a minute), a hash takes a tenth of a second, so
 * waiting for the one before costs no one a noticeable delay, and a burst costs no memory.
 */
import { hashPassword, verifyPassword } from 'better-auth/crypto';

export const HASHES_AT_ONCE = 1;

/** Runs the tasks given to it at most `limit` at a time, in the order they came. */
export function concurrencyLimit(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

const oneAtATime = concurrencyLimit(HASHES_AT_ONCE);

export const hashSecret = (secret: string): Promise<string> =>
  oneAtATime(() => hashPassword(secret));

export const verifySecret = (data: { hash: string; password: string }): Promise<boolean> =>
  oneAtATime(() => verifyPassword(data));
