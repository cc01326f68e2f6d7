/**
 * The server's one durable job queue: jobs kept in a table of the database, survive a
 * restart, and are shared by every instance on one PostgreSQL database. Every job table is
 * worked the same way:
 *
 * - a job is claimed with a lease, by one conditional update that also counts the try: an
 *   instance that dies mid-job leaves a lease that runs out, and the job is taken up again
 *   (by another instance, or by this one after its restart); two instances never hold one
 *   job at once;
 * - a failed try is put back with its next try after a pause (`retryDelay`: the pauses are
 *   the queue's own), and after the last it is given up;
 * - accounts may take turns (`claimFairly`, decision 0050): the job claimed is the oldest of
 *   the account whose last job was taken up longest ago (or never), so one account's
 *   hundred jobs do not hold another's one behind them.
 *
 * Two kinds of table use it (decision 0069). A retry queue of things to send
 * (`createRetryQueue`): mail (mail/mail-queue.ts) and notifications to an account's ntfy
 * topic or webhook (notifications/notification-queue.ts), sent off the request that queued
 * them, a row deleted once sent (or found to need no sending), after the last try dropped
 * with `gaveUp` saying so. And a table of one job per thing with its status kept
 * (`claimFairly`): the reading of a document's text (documents/text/document-text.ts), the
 * job's row then holding its answer.
 */
import { AsyncResource } from 'node:async_hooks';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, Engine } from '../db/schema';
import type { Logger } from '../logger';
import { systemClock, type Clock, type Timer } from '../operations/backup-scheduler';

/** The pauses before each new try of a failed send; after the last, the row is dropped. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 4 * 60 * 60_000];
/** How long a claim on a row of a retry queue lasts: longer than any one send may take. */
const CLAIM_MS = 2 * 60_000;
/** How often the queue is looked at when nothing in this process has queued anything. */
const POLL_MS = 15_000;
/** Rows taken per look; the rest wait for the next. */
const BATCH = 20;

/**
 * The pause before the try after a job's `attempts`-th failed one (the first pause after the
 * first try), or none: the job is given up.
 */
export function retryDelay(attempts: number, delays: readonly number[]): number | undefined {
  return delays[attempts - 1];
}

/** The moment a lease taken `now` runs out, as the job tables keep it. */
export function leaseEnd(now: Date, leaseMs: number): string {
  return new Date(now.getTime() + leaseMs).toISOString();
}

/**
 * A table of one job per thing (`key` names it), its status kept: `waiting` until claimed,
 * `claimed` while a lease is held, then whatever its worker settles it as. Its rows have
 * `user_id`, `attempts`, `claimed_until`, `claimed_at`, `created_at` and `updated_at`.
 */
export interface FairJobTable {
  table: 'document_texts';
  key: 'document_id';
  waiting: string;
  claimed: string;
  leaseMs: number;
}

export interface FairlyClaimedJob {
  key: string;
  user_id: string;
  attempts: number;
}

const PLAIN_NAME = /^[a-z_][a-z0-9_]*$/;

/** A table's or column's name as it is written into the statement: only plain ones. */
function plainName(name: string) {
  if (!PLAIN_NAME.test(name)) throw new Error(`job queue: "${name}" is not a plain name`);
  return sql.raw(name);
}

/**
 * Takes a job waiting (or whose lease ran out), or none: the oldest of the account whose
 * latest claim is the oldest (an account never served first). One statement, so safe across
 * instances; on PostgreSQL the chosen row is locked `FOR UPDATE SKIP LOCKED`, so two
 * instances claiming at once take two jobs, never one twice.
 */
export async function claimFairly(
  db: Kysely<DB>,
  engine: Engine,
  jobs: FairJobTable,
  now = new Date(),
): Promise<FairlyClaimedJob | undefined> {
  const at = now.toISOString();
  const until = leaseEnd(now, jobs.leaseMs);
  const table = plainName(jobs.table);
  const key = plainName(jobs.key);
  const lock = engine === 'postgres' ? sql`for update skip locked` : sql``;
  // '' before any moment: an account with no claim yet comes first, on both engines.
  const { rows } = await sql<Record<string, unknown>>`update ${table}
    set status = ${sql.lit(jobs.claimed)}, claimed_until = ${until}, claimed_at = ${at},
      attempts = attempts + 1, updated_at = ${at}
    where ${key} = (
      select t.${key} from ${table} t
      where (t.status = ${sql.lit(jobs.waiting)} and (t.claimed_until is null or t.claimed_until <= ${at}))
         or (t.status = ${sql.lit(jobs.claimed)} and t.claimed_until <= ${at})
      order by coalesce(
          (select max(s.claimed_at) from ${table} s where s.user_id = t.user_id), ''),
        t.created_at, t.${key}
      limit 1 ${lock}
    )
    returning ${key}, user_id, attempts`.execute(db);
  const row = rows[0];
  return row
    ? {
        key: row[jobs.key] as string,
        user_id: row.user_id as string,
        attempts: Number(row.attempts),
      }
    : undefined;
}

/** The tables that are retry queues: each has the columns of QueueRow. */
export type QueueTable = 'mail_queue' | 'notification_queue';

export interface QueueRow {
  id: string;
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  last_error: string | null;
}

export interface RetryQueueOptions<T extends QueueTable> {
  db: Kysely<DB>;
  table: T;
  /** What the queue holds, in its log lines ('mail', 'notification'). */
  what: string;
  logger: Logger;
  /** Sends one row: 'dropped' when there turned out to be nothing to send. Throws on failure. */
  send(row: Selectable<DB[T]>): Promise<'sent' | 'dropped'>;
  /** A failed try that will be made again after `delayMs`. */
  retrying?(row: Selectable<DB[T]>, error: unknown, delayMs: number): Promise<void>;
  /** The last try failed: the row is dropped. */
  gaveUp?(row: Selectable<DB[T]>, error: unknown): Promise<void>;
  /** Registers a listener called after each row queued in this process. */
  onQueued(listener: () => void): void;
  clock?: Clock;
  pollMs?: number;
  retryDelaysMs?: readonly number[];
}

export interface QueueRun {
  sent: number;
  failed: number;
}

export function createRetryQueue<T extends QueueTable>(options: RetryQueueOptions<T>) {
  const { table, what, logger } = options;
  // The queue tables share their columns; the query builder is told the one table's name.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = options.db as unknown as Kysely<Record<QueueTable, QueueRow & Record<string, any>>>;
  const clock = options.clock ?? systemClock;
  const pollMs = options.pollMs ?? POLL_MS;
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  type Row = Selectable<DB[T]>;

  /** Takes a row for this instance; null when another has it (or it is gone). */
  async function claim(id: string, now: Date): Promise<Row | null> {
    const at = now.toISOString();
    const row = await db
      .updateTable(table as QueueTable)
      .set((eb) => ({
        claimed_until: leaseEnd(now, CLAIM_MS),
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', id)
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
      .returningAll()
      .executeTakeFirst();
    return (row as Row | undefined) ?? null;
  }

  async function failed(row: Row, error: unknown, now: Date): Promise<'retry' | 'failed'> {
    const { id, attempts } = row as unknown as QueueRow;
    const message = error instanceof Error ? error.message : String(error);
    const delay = retryDelay(attempts, delays);
    if (delay !== undefined) {
      logger.warn({ err: error, attempts }, `${what} not sent; will try again`);
      await db
        .updateTable(table as QueueTable)
        .set({
          claimed_until: null,
          next_attempt_at: new Date(now.getTime() + delay).toISOString(),
          last_error: message.slice(0, 500),
        })
        .where('id', '=', id)
        .execute();
      await options.retrying?.(row, error, delay);
      return 'retry';
    }
    logger.error({ err: error }, `${what} could not be sent; given up`);
    await db
      .deleteFrom(table as QueueTable)
      .where('id', '=', id)
      .execute();
    await options.gaveUp?.(row, error);
    return 'failed';
  }

  /** One look at the queue: every due row this instance can claim, sent or put back. */
  async function runOnce(now: Date = clock.now()): Promise<QueueRun> {
    const at = now.toISOString();
    // The queue's own upkeep, across accounts: which rows are due.
    const due = await db
      .selectFrom(table as QueueTable)
      .select('id')
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
      .orderBy('next_attempt_at')
      .limit(BATCH)
      .execute();
    const run: QueueRun = { sent: 0, failed: 0 };
    for (const { id } of due) {
      const row = await claim(id, now);
      if (!row) continue;
      try {
        if ((await options.send(row)) === 'sent') run.sent += 1;
        await db
          .deleteFrom(table as QueueTable)
          .where('id', '=', id)
          .execute();
      } catch (error) {
        if ((await failed(row, error, now)) === 'failed') run.failed += 1;
      }
    }
    return run;
  }

  /**
   * Looks now, then every poll and whenever a row is queued in this process, until stopped.
   * `onStop`: what to close once the last run is over (a mail transport).
   */
  function start(onStop?: () => void): { settled(): Promise<void>; stop(): Promise<void> } {
    let timer: Timer | null = null;
    let stopped = false;
    let running: Promise<void> | null = null;
    let again = false;
    // A row queued by a request wakes the sender up, but the sender's work is no part of
    // that request: it runs in the context the sender started in.
    const ownContext = new AsyncResource(`kin-${what}-sender`);
    const tick = () => {
      timer?.cancel();
      timer = null;
      running = runOnce()
        .then(
          () => undefined,
          (error: unknown) => logger.error({ err: error }, `${what} queue run failed`),
        )
        .finally(() => {
          running = null;
          if (stopped) return;
          if (again) {
            again = false;
            tick();
          } else {
            timer = clock.setTimer(tick, pollMs);
          }
        });
    };
    options.onQueued(() => {
      if (stopped) return;
      if (running) again = true;
      else ownContext.runInAsyncScope(tick);
    });
    tick();
    return {
      async settled() {
        while (running) await running;
      },
      async stop() {
        stopped = true;
        timer?.cancel();
        while (running) await running;
        onStop?.();
      },
    };
  }

  return { runOnce, start };
}

/** The listeners of a queue's outbox: the sender looks at once instead of at its next poll. */
export function queuedListeners() {
  const listeners: Array<() => void> = [];
  return {
    onQueued(listener: () => void) {
      listeners.push(listener);
    },
    queued() {
      for (const listener of listeners) listener();
    },
  };
}
