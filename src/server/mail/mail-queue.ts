/**
 * Mail goes out from a queue in the database, never from inside the request that asked for
 * it: a slow or stopped mail server slows no page, and a crash between asking and sending
 * loses nothing (docs/decisions/0027-mail-queue-and-password-reset.md).
 *
 * - `createMailOutbox` is what the rest of the server calls: `enqueue(...)` writes a row
 *   (inside the caller's transaction, when given one), or nothing at all when mail is not
 *   set up (no SMTP_URL).
 * - `createMailSender` sends, through the retry queue every queued sending shares
 *   (runtime/job-queue.ts): it renders the template and sends through nodemailer. After the
 *   last try the row is dropped and the account's security activity says that a mail could
 *   not be sent.
 */
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { MailConfig } from '../config';
import type { DB, MailQueueTable } from '../db/schema';
import { newId } from '../ids';
import type { Logger } from '../logger';
import type { Clock } from '../operations/backup-scheduler';
import { recordAuditEventOrLog } from '../audit/audit-log';
import { createAccountRepository } from '../account/account-repository';
import { languageOrDefault } from '../../shared/i18n/languages';
import { inLanguage, languageInForce } from '../i18n/server-language';
import { createRetryQueue, queuedListeners, type QueueRun } from '../runtime/job-queue';
import {
  isMailTemplate,
  renderMail,
  type MailTemplate,
  type MailTemplates,
} from './mail-templates';

export { RETRY_DELAYS_MS } from '../runtime/job-queue';
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
  const listeners = queuedListeners();
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
          language: languageInForce(),
        })
        .execute();
      listeners.queued();
      return true;
    },
    onQueued: listeners.onQueued,
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

export type MailRun = QueueRun;

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
  const transport = createSmtpTransport(mail);
  const accounts = createAccountRepository(db);

  async function send(row: MailQueueTable): Promise<'sent' | 'dropped'> {
    if (!isMailTemplate(row.template)) throw new Error(`no mail template "${row.template}"`);
    const template = row.template;
    const preparer = options.prepare?.[template];
    const prepared = preparer
      ? await preparer(row)
      : { params: JSON.parse(row.params) as MailTemplates[typeof template], userId: row.user_id };
    if (!prepared) return 'dropped';
    // The account's language when the mail is about one that chose one; else the language
    // it was asked for in (a reset link asked for at the sign-in screen: the request's).
    const userId = prepared.userId ?? row.user_id;
    const asked = languageOrDefault(row.language);
    const language = userId ? await accounts.languageOf(userId, asked) : asked;
    const rendered = await inLanguage(language, () =>
      renderMail(template, prepared.params, baseUrl),
    );
    await transport.sendMail({ from: mail.from, to: row.recipient, ...rendered });
    return 'sent';
  }

  const queue = createRetryQueue({
    db,
    table: 'mail_queue',
    what: 'mail',
    logger,
    send,
    async gaveUp(row) {
      if (!row.user_id) return;
      await recordAuditEventOrLog(db, logger, null, {
        event: 'mail_failed',
        userId: row.user_id,
        detail: row.template,
      });
    },
    onQueued: outbox.onQueued,
    clock: options.clock,
    pollMs: options.pollMs,
  });

  return {
    runOnce: queue.runOnce,
    /** Looks now, then every poll and whenever a mail is queued in this process, until stopped. */
    start: () => queue.start(() => transport.close()),
  };
}
