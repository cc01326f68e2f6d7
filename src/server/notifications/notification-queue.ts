/**
 * Notifications to an account's ntfy topic and webhook go out from a queue in the database,
 * as mail does (runtime/job-queue.ts): the reminder job queues one row per channel the
 * account has, and the sender sends it, tries again after a growing pause when the other end
 * fails, and writes every try to the account's delivery log. A dose reminder's buttons get
 * their tokens as it is sent, never while it waits. 'Send Test' sends at once, bypassing the
 * queue, and says what happened.
 */
import type { Kysely } from 'kysely';
import type { NotificationChannel } from '../../shared/notification-channels';
import { ownedRow } from '../access/scope';
import type { DB, NotificationQueueTable } from '../db/schema';
import { newId } from '../ids';
import type { Logger } from '../logger';
import type { Clock } from '../operations/backup-scheduler';
import { createRetryQueue, queuedListeners, type QueueRun } from '../runtime/job-queue';
import { sendToChannel, type AllowedHosts } from '../reminders/push-endpoints';
import {
  createChannelRepository,
  type ChannelRepository,
  type StoredChannel,
} from './channel-repository';
import {
  AnsweredError,
  failureInWords,
  ntfyRequest,
  webhookRequest,
  type ChannelNotification,
  type NotificationLinks,
} from './channel-requests';
import { createDoseActions, DOSE_ACTIONS_PATH } from './dose-actions';
import { tr } from '../../shared/i18n/translate';
import { inLanguage, languageInForce } from '../i18n/server-language';

const SEND_TIMEOUT_MS = 10_000;

export interface NotificationOutbox {
  /** Queues a notification for each channel the account has, due `now`; says how many. */
  enqueue(userId: string, notification: ChannelNotification, now?: Date): Promise<number>;
  onQueued(listener: () => void): void;
}

export function createNotificationOutbox(
  db: Kysely<DB>,
  channels: ChannelRepository,
): NotificationOutbox {
  const listeners = queuedListeners();
  return {
    async enqueue(userId, notification, due = new Date()) {
      const saved = await channels.channels(userId);
      if (saved.length === 0) return 0;
      const now = due.toISOString();
      await db
        .insertInto('notification_queue')
        .values(
          saved.map(({ channel }) =>
            ownedRow(userId, {
              id: newId(),
              channel,
              payload: JSON.stringify({
                ...notification,
                language: notification.language ?? languageInForce(),
              }),
              attempts: 0,
              next_attempt_at: now,
              claimed_until: null,
              last_error: null,
              created_at: now,
            }),
          ),
        )
        .execute();
      listeners.queued();
      return saved.length;
    },
    onQueued: listeners.onQueued,
  };
}

export interface ChannelSenderOptions {
  db: Kysely<DB>;
  channels: ChannelRepository;
  /** NOTIFY_ALLOWED_HOSTS. */
  allowedHosts: AllowedHosts;
  /** BASE_URL; without it, the address each channel was set from. */
  baseUrl: string | null;
  logger: Logger;
}

/** Sends one notification to one channel now; resolves, or throws what went wrong. */
export function channelSender({ db, channels, allowedHosts, baseUrl }: ChannelSenderOptions) {
  const doseActions = createDoseActions(db);
  return async (
    userId: string,
    channel: StoredChannel,
    notification: ChannelNotification,
    now = new Date(),
  ): Promise<void> => {
    const appUrl = baseUrl ?? channel.app_url;
    const buttons = notification.doses ? await doseActions.makeButtons(notification.doses) : [];
    const links: NotificationLinks = {
      click: `${appUrl}${notification.url}`,
      // 'Taken', 'Skip': in the language the reminder was written in.
      actions: await inLanguage(notification.language, () =>
        buttons.map(({ label, token }) => ({
          label: tr(label),
          url: `${appUrl}${DOSE_ACTIONS_PATH}/${token}`,
        })),
      ),
    };
    const request =
      channel.channel === 'ntfy'
        ? ntfyRequest(channel.url, notification, links)
        : webhookRequest(
            channel.url,
            channels.webhookSecret(userId, channel.secret_salt ?? ''),
            notification,
            links,
            now,
          );
    const status = await sendToChannel(request, allowedHosts, SEND_TIMEOUT_MS);
    if (status < 200 || status >= 300) throw new AnsweredError(status);
  };
}

const minutes = (ms: number) =>
  ms >= 60 * 60_000 ? `${ms / (60 * 60_000)} h` : `${Math.round(ms / 60_000)} min`;

export function createNotificationSender(
  options: ChannelSenderOptions & {
    outbox: NotificationOutbox;
    clock?: Clock;
    pollMs?: number;
    retryDelaysMs?: readonly number[];
  },
) {
  const { channels, logger } = options;
  const send = channelSender(options);
  const parse = (row: NotificationQueueTable) => JSON.parse(row.payload) as ChannelNotification;
  /** The delivery log's words, in the language the notification was written in. */
  const inLanguageOf = (row: NotificationQueueTable, words: () => string) =>
    inLanguage(parse(row).language, words);
  const log = (
    row: NotificationQueueTable,
    outcome: 'sent' | 'retried' | 'failed',
    detail: string,
  ) =>
    channels.logDelivery(row.user_id, {
      channel: row.channel as NotificationChannel,
      outcome,
      what: parse(row).what,
      detail,
    });

  const queue = createRetryQueue({
    db: options.db,
    table: 'notification_queue',
    what: 'notification',
    logger,
    async send(row) {
      const channel = await channels.channel(row.user_id, row.channel as NotificationChannel);
      // The channel was removed (or changed to another kind) since: nothing to send.
      if (!channel) return 'dropped';
      await send(row.user_id, channel, parse(row));
      await log(row, 'sent', await inLanguageOf(row, () => tr('Delivered')));
      return 'sent';
    },
    async retrying(row, error, delayMs) {
      await log(
        row,
        'retried',
        await inLanguageOf(row, () =>
          tr('{reason}; trying again in {time}', {
            reason: failureInWords(error),
            time: minutes(delayMs),
          }),
        ),
      );
    },
    async gaveUp(row, error) {
      await log(
        row,
        'failed',
        await inLanguageOf(row, () => tr('{reason}; given up', { reason: failureInWords(error) })),
      );
    },
    onQueued: options.outbox.onQueued,
    clock: options.clock,
    pollMs: options.pollMs,
    retryDelaysMs: options.retryDelaysMs,
  });
  return {
    runOnce: queue.runOnce as (now?: Date) => Promise<QueueRun>,
    start: () => queue.start(),
  };
}

/**
 * An instance's notification channels: the accounts' ntfy topics and webhooks, the outbox the
 * reminder job queues to, and the sender that empties it (started by the server; run by hand
 * in the tests).
 */
export function createNotificationChannels(
  options: Omit<ChannelSenderOptions, 'channels'> & { authSecret: string },
) {
  const channels = createChannelRepository(options.db, options.authSecret);
  const outbox = createNotificationOutbox(options.db, channels);
  const sender = createNotificationSender({ ...options, channels, outbox });
  return { channels, outbox, sender };
}
