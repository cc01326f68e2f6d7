/**
 * How much and how long: the credential endpoints' rate limit (AUTH_RATE_LIMIT), the whole
 * server's limit on wrong passcodes (PASSCODE_GUESS_LIMIT), how long a session lasts
 * (SESSION_MAX_AGE_DAYS) and how long audit rows are kept (AUDIT_RETENTION_DAYS).
 */
import { z } from 'zod';
import { checked, unsetIfEmpty } from './env';

export interface RateLimitConfig {
  /** Attempts allowed per window, per client address, on each credential endpoint. */
  max: number;
  windowSeconds: number;
}

/** The default of PASSCODE_GUESS_LIMIT: 50 wrong passcodes an hour on the whole server. */
export const DEFAULT_PASSCODE_GUESS_LIMIT: RateLimitConfig = { max: 50, windowSeconds: 3600 };

const RATE_LIMIT = /^(\d+)\/(\d+)$/;

/**
 * A limit such as `AUTH_RATE_LIMIT` or `PASSCODE_GUESS_LIMIT`: `off` or `max/seconds`, e.g.
 * `10/60`, with at least one second.
 */
export function rateLimitVariable(name: string, fallback: () => RateLimitConfig) {
  return unsetIfEmpty(
    checked(
      (value) => {
        const match = RATE_LIMIT.exec(value);
        return value === 'off' || (match !== null && Number(match[2]) >= 1);
      },
      (value) => `${name} must be "off" or "max/seconds", not "${value}"`,
    )
      .transform((value): RateLimitConfig | null => {
        const match = RATE_LIMIT.exec(value);
        return match ? { max: Number(match[1]), windowSeconds: Number(match[2]) } : null;
      })
      .default(fallback),
  );
}

/** A whole number of days from 1 up, or the default when unset. */
function daysVariable(name: string, fallback: number) {
  return unsetIfEmpty(
    checked(
      (value) => /^\d+$/.test(value) && Number.isSafeInteger(Number(value)) && Number(value) >= 1,
      (value) => `${name} must be a whole number of days (1 or more), not "${value}"`,
    )
      .transform(Number)
      .default(fallback),
  );
}

export const limitsEnv = z
  .object({
    AUTH_RATE_LIMIT: rateLimitVariable('AUTH_RATE_LIMIT', () => ({ max: 10, windowSeconds: 60 })),
    PASSCODE_GUESS_LIMIT: rateLimitVariable(
      'PASSCODE_GUESS_LIMIT',
      () => DEFAULT_PASSCODE_GUESS_LIMIT,
    ),
    SESSION_MAX_AGE_DAYS: daysVariable('SESSION_MAX_AGE_DAYS', 30),
    AUDIT_RETENTION_DAYS: daysVariable('AUDIT_RETENTION_DAYS', 365),
  })
  .transform((env) => ({
    rateLimit: env.AUTH_RATE_LIMIT,
    passcodeGuessLimit: env.PASSCODE_GUESS_LIMIT,
    sessionMaxAgeDays: env.SESSION_MAX_AGE_DAYS,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
  }));
