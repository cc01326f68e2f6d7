/**
 * How many times something that checks a secret (a password, a passcode, a code, a token)
 * may be tried: per account, per email, per link, besides better-auth's per-address limits.
 * Counted in the database, so every instance shares the count, in one atomic statement on
 * either engine: of many requests racing, exactly `max` are let through per window.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';

export interface AttemptRule {
  max: number;
  windowSeconds: number;
}

export interface AttemptKey {
  /** What kind of thing the attempts are against: 'account', 'email', 'share-link', … */
  scope: string;
  /** Which one: a user id, an email, a link id. */
  subject: string;
  /** What is being tried: 'sign-in', 'two-factor', 'account-deletion', … */
  action: string;
}

export interface AttemptDecision {
  allowed: boolean;
  /** Seconds until the window ends, when refused. */
  retryAfterSeconds: number;
}

export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many attempts. Please wait a minute and try again.';

/** How long rows of ended windows are kept before they are cleared. */
const CLEAR_AFTER_MS = 24 * 60 * 60 * 1000;

export function createAttemptLimits(db: Kysely<DB>, rule: AttemptRule | null) {
  let lastCleared = 0;

  async function clearOldRows(now: number) {
    if (now - lastCleared < 60_000) return;
    lastCleared = now;
    await db
      .deleteFrom('attempt_limits')
      .where('window_started_at', '<', now - CLEAR_AFTER_MS)
      .execute();
  }

  return {
    rule,

    /**
     * Counts one attempt and says whether it may go ahead. With limits off (AUTH_RATE_LIMIT
     * =off), every attempt may.
     */
    async consume(key: AttemptKey, now = Date.now()): Promise<AttemptDecision> {
      if (!rule) return { allowed: true, retryAfterSeconds: 0 };
      const windowMs = rule.windowSeconds * 1000;
      const expired = now - windowMs;
      // A window that has ended starts again at one; otherwise the count goes up by one.
      const row = await db
        .insertInto('attempt_limits')
        .values({ ...key, window_started_at: now, attempts: 1 })
        .onConflict((conflict) =>
          conflict.columns(['scope', 'subject', 'action']).doUpdateSet({
            attempts: sql<number>`case when "attempt_limits"."window_started_at" <= ${expired} then 1 else "attempt_limits"."attempts" + 1 end`,
            window_started_at: sql<number>`case when "attempt_limits"."window_started_at" <= ${expired} then ${now} else "attempt_limits"."window_started_at" end`,
          }),
        )
        .returning(['attempts', 'window_started_at'])
        .executeTakeFirstOrThrow();
      await clearOldRows(now);
      const allowed = Number(row.attempts) <= rule.max;
      const endsAt = Number(row.window_started_at) + windowMs;
      return {
        allowed,
        retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((endsAt - now) / 1000)),
      };
    },

    /** Forgets every count against these subjects (an account being deleted). */
    async forget(subjects: readonly string[]): Promise<void> {
      if (subjects.length === 0) return;
      await db.deleteFrom('attempt_limits').where('subject', 'in', subjects).execute();
    },
  };
}

export type AttemptLimits = ReturnType<typeof createAttemptLimits>;
