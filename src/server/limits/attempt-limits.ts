/**
 * How many times something that checks a secret (a password, a passcode, a code, a token)
 * may be tried: per account, per email, per link, besides better-auth's per-address limits.
 * Counted in the database, so every instance shares the count, in one atomic statement on
 * either engine: of many requests racing, exactly `max` are let through per window.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { key } from '../../shared/i18n/translate';

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

export interface DelayedAttemptDecision extends AttemptDecision {
  /** Whether this attempt is the window's first over the limit: the delays start now. */
  limitReached: boolean;
}

/** The first pause once a growing delay's limit is reached; each attempt after it doubles it. */
export const FIRST_DELAY_MS = 1000;

export const TOO_MANY_ATTEMPTS_MESSAGE = key(
  'Too many attempts. Please wait a minute and try again.',
);

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

    /**
     * Counts one attempt, like `consume`, but once the window has had its `max` attempts it
     * slows them down rather than stopping them: one more may go ahead only after a pause
     * (1 s, then 2 s, 4 s… never longer than the window), and any other in the meantime is
     * refused without being counted. So at most `max` plus a dozen or so attempts go ahead
     * per window, however many addresses they come from and however many race.
     *
     * The row is claimed first (an upsert that, on PostgreSQL, locks it until the
     * transaction ends) and the decision taken in the same transaction, so racing requests
     * take their turns.
     */
    async consumeWithGrowingDelay(
      key: AttemptKey,
      now = Date.now(),
    ): Promise<DelayedAttemptDecision> {
      if (!rule) return { allowed: true, retryAfterSeconds: 0, limitReached: false };
      const windowMs = rule.windowSeconds * 1000;
      const decision = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('attempt_limits')
          .values({ ...key, window_started_at: now, attempts: 0 })
          .onConflict((conflict) =>
            conflict
              .columns(['scope', 'subject', 'action'])
              .doUpdateSet({ attempts: sql<number>`"attempt_limits"."attempts"` }),
          )
          .returning(['attempts', 'window_started_at', 'blocked_until', 'delay_ms'])
          .executeTakeFirstOrThrow();
        const windowOver = Number(row.window_started_at) + windowMs <= now;
        const current = windowOver
          ? { attempts: 0, window_started_at: now, blocked_until: 0, delay_ms: 0 }
          : {
              attempts: Number(row.attempts),
              window_started_at: Number(row.window_started_at),
              blocked_until: Number(row.blocked_until),
              delay_ms: Number(row.delay_ms),
            };
        const overLimit = current.attempts >= rule.max;
        if (overLimit && now < current.blocked_until) {
          return {
            allowed: false,
            retryAfterSeconds: Math.max(1, Math.ceil((current.blocked_until - now) / 1000)),
            limitReached: false,
          };
        }
        const delay = overLimit
          ? Math.min(current.delay_ms ? current.delay_ms * 2 : FIRST_DELAY_MS, windowMs)
          : 0;
        await trx
          .updateTable('attempt_limits')
          .set({
            attempts: current.attempts + 1,
            window_started_at: current.window_started_at,
            blocked_until: overLimit ? now + delay : 0,
            delay_ms: delay,
          })
          .where('scope', '=', key.scope)
          .where('subject', '=', key.subject)
          .where('action', '=', key.action)
          .execute();
        return { allowed: true, retryAfterSeconds: 0, limitReached: current.attempts === rule.max };
      });
      await clearOldRows(now);
      return decision;
    },

    /**
     * Takes back one attempt that turned out not to be a guess (the right passcode): only
     * wrong ones use up the window. A pause already begun stays.
     */
    async refund(key: AttemptKey): Promise<void> {
      if (!rule) return;
      await db
        .updateTable('attempt_limits')
        .set({ attempts: sql<number>`case when "attempts" > 0 then "attempts" - 1 else 0 end` })
        .where('scope', '=', key.scope)
        .where('subject', '=', key.subject)
        .where('action', '=', key.action)
        .execute();
    },

    /** Forgets every count against these subjects (an account being deleted). */
    async forget(subjects: readonly string[]): Promise<void> {
      if (subjects.length === 0) return;
      await db.deleteFrom('attempt_limits').where('subject', 'in', subjects).execute();
    },
  };
}

export type AttemptLimits = ReturnType<typeof createAttemptLimits>;
