/**
 * The server-wide limit on wrong Friends & Family Passcodes (PASSCODE_GUESS_LIMIT, 50 an
 * hour by default). The per-address and per-email limits do not stop a guesser who brings a
 * new email to every sign-up and many addresses; this one counts every wrong passcode on
 * the server, at sign-up and sign-in alike, in the database so that every instance shares
 * the count. Over the limit, each further check waits a growing delay (attempt-limits.ts),
 * for everyone: a check asked for during the pause is refused unchecked with 429 and
 * Retry-After. The moment the limit is reached is written to the log and to the server's
 * audit log (a row with no user: the operator's).
 *
 * At 50 an hour and the delays after them (1 s, 2 s, … up to an hour, about a dozen more),
 * the million six-digit passcodes take some 16,000 hours (close to two years) to try.
 */
import { APIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { RateLimitConfig } from '../config';
import type { DB } from '../db/schema';
import {
  createAttemptLimits,
  TOO_MANY_ATTEMPTS_MESSAGE,
  type AttemptKey,
} from '../limits/attempt-limits';
import type { Logger } from '../logger';

const WRONG_PASSCODES: AttemptKey = {
  scope: 'server',
  subject: 'family-passcode',
  action: 'passcode-check',
};

export function passcodeGuessLimit(options: {
  db: Kysely<DB>;
  limit: RateLimitConfig | null;
  logger: Logger;
}) {
  const { db, limit, logger } = options;
  const limits = createAttemptLimits(db, limit);

  return {
    /**
     * Runs `check` (the passcode's hash check) unless the server is pausing checks, and
     * counts it as a guess unless it finds the passcode right.
     */
    async guarded<T>(headers: Headers | undefined, check: () => Promise<T | null>) {
      const decision = await limits.consumeWithGrowingDelay(WRONG_PASSCODES);
      if (decision.limitReached && limit) {
        logger.warn(
          { max: limit.max, windowSeconds: limit.windowSeconds },
          'too many wrong Friends & Family Passcodes on this server: every passcode check waits a growing delay',
        );
        await recordAuditEventOrLog(db, logger, headers, {
          event: 'passcode_guesses_limited',
          detail: `${limit.max}/${limit.windowSeconds}`,
        });
      }
      if (!decision.allowed) {
        throw new APIError(
          'TOO_MANY_REQUESTS',
          { message: TOO_MANY_ATTEMPTS_MESSAGE },
          { 'Retry-After': String(decision.retryAfterSeconds) },
        );
      }
      const result = await check();
      if (result !== null) await limits.refund(WRONG_PASSCODES);
      return result;
    },
  };
}
