/**
 * Mail goes out from a queue in the database, never from inside the request that asked for
 * it: a slow or stopped mail server slows no page, and a crash between asking and sending
 * loses nothing (docs/decisions/0027-mail-queue-and-password-reset.md).
 *
 * - `createMailOutbox` is what the rest of the server calls: `enqueue(...)` writes a row
 *   (inside the caller's transaction, when given one), or nothing at all when mail is not
 *   set up (no SMTP_URL).
 * - `createMailSender` sends: it claims due rows one at a time with a conditional update
 *   (several instances on one PostgreSQL database never send one row twice), renders the
 *   template, sends through nodemailer, and deletes the row. A failed send is tried again
 *   after a growing pause; after the last try the row is dropped and the account's security
 *   activity says that a mail could not be sent. A claim lasts CLAIM_MS: an instance that
 *   dies while sending leaves a row another one takes up after that.
 */
import { AsyncResource } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { MailConfig } from '../config';
import type { DB, MailQueueTable } from '../db/schema';
import { newId } from '../ids';
import type { Logger } from '../logger';
import { systemClock, type Clock, type Timer } from '../operations/backup-scheduler';
import { recordAuditEventOrLog } from '../audit/audit-log';
import {
  isMailTemplate,
  renderMail,
  type MailTemplate,
  type MailTemplates,
} from './mail-templates';

/** The pauses before each new try of a failed send; after the last, the mail is dropped. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 4 * 60 * 60_000];
/** How long a claim on a row lasts: longer than any one send may take. */
const CLAIM_MS = 2 * 60_000;
/** How often the queue is looked at when nothing in this process has queued anything. */
const POLL_MS = 15_000;
/** Rows taken per look; the rest wait for the next. */
const BATCH = 20;
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export interface QueuedMail<T extends MailTemplate = MailTemplate> {
  to: string;
  template: T;
  params: MailTemplates[T];
  /** The account the mail is about, when there is one: its row goes with it. */
  userId?: string | null;
}

export interface MailOutbox {
  /** Whether mail is set up (SMTP_URL); without it, nothing is queued. */
  readonly enabled: boolean;
  /**
   * Queues a mail; `executor` may be the caller's transaction, so the mail goes or stays
   * with the change it tells of. Says whether it was queued (false: mail is not set up).
   */
  enqueue<T extends MailTemplate>(mail: QueuedMail<T>, executor?: Kysely<DB>): Promise<boolean>;
  /** Called after each mail queued here: the sender looks at once instead of at its next poll. */
  onQueued(listener: () => void): void;
}

export function createMailOutbox(db: Kysely<DB>, enabled: boolean): MailOutbox {
  const listeners: Array<() => void> = [];
  return {
    enabled,
    async enqueue(mail, executor = db) {
      if (!enabled) return false;
      const now = new Date().toISOString();
      await executor
        .insertInto('mail_queue')
        .values({
          id: newId(),
          user_id: mail.userId ?? null,
          recipient: mail.to,
          template: mail.template,
          params: JSON.stringify(mail.params),
          attempts: 0,
          next_attempt_at: now,
          claimed_until: null,
          last_error: null,
          created_at: now,
        })
        .execute();
      for (const listener of listeners) listener();
      return true;
    },
    onQueued(listener) {
      listeners.push(listener);
    },
  };
}

/**
 * A template whose values are made only when the mail is sent (a reset link: its token is
 * made then, so no usable token ever waits in the queue). Null: nothing to send (no account
 * has the address); the row is dropped.
 */
export type MailPreparer<T extends MailTemplate> = (
  row: Readonly<MailQueueTable>,
) => Promise<{ params: MailTemplates[T]; userId: string } | null>;

export interface MailSenderOptions {
  db: Kysely<DB>;
  outbox: MailOutbox;
  mail: MailConfig;
  /** BASE_URL: the server's address, in every mail. */
  baseUrl: string;
  logger: Logger;
  prepare?: { [T in MailTemplate]?: MailPreparer<T> };
  clock?: Clock;
  pollMs?: number;
}

export interface MailRun {
  sent: number;
  failed: number;
}

/** nodemailer's SMTP transport for SMTP_URL. */
export function createSmtpTransport(mail: MailConfig) {
  return nodemailer.createTransport({
    host: mail.host,
    port: mail.port,
    secure: mail.secure,
    requireTLS: !mail.secure && mail.starttls === 'required',
    ignoreTLS: !mail.secure && mail.starttls === 'off',
    auth: mail.user ? { user: mail.user, pass: mail.password ?? '' } : undefined,
    tls: mail.trustedCertificate ? { ca: [mail.trustedCertificate] } : undefined,
    ...SMTP_TIMEOUTS,
  });
}

export function createMailSender(options: MailSenderOptions) {
  const { db, outbox, mail, baseUrl, logger } = options;
  const clock = options.clock ?? systemClock;
  const pollMs = options.pollMs ?? POLL_MS;
  const transport = createSmtpTransport(mail);

  /** Takes a row for this instance; null when another has it (or it is gone). */
  async function claim(id: string, now: Date): Promise<MailQueueTable | null> {
    const at = now.toISOString();
    const row = await db
      .updateTable('mail_queue')
      .set((eb) => ({
        claimed_until: new Date(now.getTime() + CLAIM_MS).toISOString(),
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', id)
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  async function send(row: MailQueueTable): Promise<'sent' | 'dropped'> {
    if (!isMailTemplate(row.template)) throw new Error(`no mail template "${row.template}"`);
    const template = row.template;
    const preparer = options.prepare?.[template];
    const prepared = preparer
      ? await preparer(row)
      : { params: JSON.parse(row.params) as MailTemplates[typeof template], userId: row.user_id };
    if (!prepared) return 'dropped';
    const rendered = renderMail(template, prepared.params, baseUrl);
    await transport.sendMail({ from: mail.from, to: row.recipient, ...rendered });
    return 'sent';
  }

  async function failed(
    row: MailQueueTable,
    error: unknown,
    now: Date,
  ): Promise<'retry' | 'failed'> {
    const message = error instanceof Error ? error.message : String(error);
    const delay = RETRY_DELAYS_MS[row.attempts - 1];
    if (delay !== undefined) {
      logger.warn(
        { err: error, template: row.template, attempts: row.attempts },
        'mail not sent; will try again',
      );
      await db
        .updateTable('mail_queue')
        .set({
          claimed_until: null,
          next_attempt_at: new Date(now.getTime() + delay).toISOString(),
          last_error: message.slice(0, 500),
        })
        .where('id', '=', row.id)
        .execute();
      return 'retry';
    }
    logger.error({ err: error, template: row.template }, 'mail could not be sent; given up');
    await db.deleteFrom('mail_queue').where('id', '=', row.id).execute();
    if (row.user_id) {
      await recordAuditEventOrLog(db, logger, null, {
        event: 'mail_failed',
        userId: row.user_id,
        detail: row.template,
      });
    }
    return 'failed';
  }

  /** One look at the queue: every due row this instance can claim, sent or put back. */
  async function runOnce(now: Date = clock.now()): Promise<MailRun> {
    const at = now.toISOString();
    // The queue's own upkeep, across accounts: which rows are due.
    const due = await db
      .selectFrom('mail_queue')
      .select('id')
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
      .orderBy('next_attempt_at')
      .limit(BATCH)
      .execute();
    const run: MailRun = { sent: 0, failed: 0 };
    for (const { id } of due) {
      const row = await claim(id, now);
      if (!row) continue;
      try {
        if ((await send(row)) === 'sent') run.sent += 1;
        await db.deleteFrom('mail_queue').where('id', '=', row.id).execute();
      } catch (error) {
        if ((await failed(row, error, now)) === 'failed') run.failed += 1;
      }
    }
    return run;
  }

  /** Looks now, then every poll and whenever a mail is queued in this process, until stopped. */
  function start(): { settled(): Promise<void>; stop(): Promise<void> } {
    let timer: Timer | null = null;
    let stopped = false;
    let running: Promise<void> | null = null;
    let again = false;
    // A mail queued by a request wakes the sender up, but the sender's work is no part of
    // that request: it runs in the context the sender started in.
    const ownContext = new AsyncResource('kin-mail-sender');
    const tick = () => {
      timer?.cancel();
      timer = null;
      running = runOnce()
        .then(
          () => undefined,
          (error: unknown) => logger.error({ err: error }, 'mail queue run failed'),
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
    outbox.onQueued(() => {
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
        transport.close();
      },
    };
  }

  return { runOnce, start };
}
