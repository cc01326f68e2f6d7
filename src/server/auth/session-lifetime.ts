/**
 * A session's absolute lifetime: it ends SESSION_MAX_AGE_DAYS after its sign-in, however
 * often it is used. better-auth's sliding expiry (renewed once a day of use) stays inside
 * it: the expiry a session is created or renewed with is capped at sign-in + the lifetime,
 * so better-auth's own check of `expiresAt` also enforces this one.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

interface SessionTimes {
  createdAt: Date | string;
  expiresAt: Date | string;
}

export function sessionLifetime(maxAgeDays: number) {
  const maxAgeMs = maxAgeDays * DAY_MS;
  const endOf = (session: Pick<SessionTimes, 'createdAt'>) =>
    new Date(session.createdAt).getTime() + maxAgeMs;
  return {
    maxAgeMs,
    /** The expiry a session may have: its own, or the end of its lifetime if sooner. */
    cap(session: SessionTimes): Date {
      return new Date(Math.min(new Date(session.expiresAt).getTime(), endOf(session)));
    },
    /** Whether the session has outlived its lifetime. */
    isOver(session: Pick<SessionTimes, 'createdAt'>, now = Date.now()): boolean {
      return endOf(session) <= now;
    },
  };
}

export type SessionLifetime = ReturnType<typeof sessionLifetime>;
