/**
 * /api/notification-channels: the account's ntfy topic and webhook (CONTRACT §6
 * 'Notifications').
 *
 *   GET    /api/notification-channels                 both URLs and the delivery log
 *   PUT    /api/notification-channels/ntfy            { url }: the ntfy topic URL
 *   PUT    /api/notification-channels/webhook         { url }: the webhook URL (its signing
 *                                                     secret answered, the first time only)
 *   POST   /api/notification-channels/webhook/secret  a new signing secret, answered once
 *   DELETE /api/notification-channels/{channel}       no more notifications there
 *   POST   /api/notification-channels/{channel}/test  'Send Test': sent now, the outcome in words
 *
 * A URL may not reach this machine or a private network unless its host is in
 * NOTIFY_ALLOWED_HOSTS (reminders/push-endpoints.ts), checked as it is saved and again as
 * each notification is sent.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { ApiError } from '../../shared/api-error';
import {
  CHANNEL_LABELS,
  channelUrlSchema,
  NOTIFICATION_CHANNELS,
  type ChannelTestAnswer,
  type NotificationChannel,
  type WebhookSaved,
} from '../../shared/notification-channels';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { Logger } from '../logger';
import { channelUrlProblem } from '../reminders/push-endpoints';
import { createChannelRepository } from './channel-repository';
import { failureInWords, ntfyTopicProblem, type ChannelNotification } from './channel-requests';
import { channelSender, type ChannelSenderOptions } from './notification-queue';
import { key, tr } from '../../shared/i18n/translate';

export const CHANNEL_NOT_SET = key('That channel is not set up');

/** What a test says: no name, nothing about anyone. */
export const TEST_NOTIFICATION: ChannelNotification = {
  kind: 'test',
  what: key('Test'),
  title: key('Test notification from Kin Health'),
  body: key('Reminders will reach you here.'),
  url: '/profile-settings',
  tag: 'kin-test',
};

const CHANNEL_WORDS: Record<NotificationChannel, string> = {
  ntfy: key('your ntfy topic'),
  webhook: key('your webhook'),
};

/** The test, in the language of the request that asks for it. */
const testNotification = (): ChannelNotification => ({
  ...TEST_NOTIFICATION,
  what: tr(TEST_NOTIFICATION.what),
  title: tr(TEST_NOTIFICATION.title),
  body: tr(TEST_NOTIFICATION.body),
});

export interface NotificationRouteDependencies extends Omit<
  ChannelSenderOptions,
  'db' | 'channels' | 'logger'
> {
  authSecret: string;
  /** The address a request came to, when BASE_URL is not set. */
  origin: (request: Request) => string;
}

export function notificationChannelRoutes(
  db: Kysely<DB>,
  logger: Logger,
  deps: NotificationRouteDependencies,
) {
  const channels = createChannelRepository(db, deps.authSecret);
  const send = channelSender({ ...deps, db, channels, logger });

  const channelOf = (name: string): NotificationChannel => {
    if (!(NOTIFICATION_CHANNELS as readonly string[]).includes(name)) throw notFound();
    return name as NotificationChannel;
  };
  const checked = (channel: NotificationChannel, url: string) => {
    const problem =
      channelUrlProblem(url, deps.allowedHosts, CHANNEL_LABELS[channel]) ??
      (channel === 'ntfy' ? ntfyTopicProblem(url) : null);
    if (problem) throw new ApiError(400, problem, 'url');
    return url;
  };
  const audit = (headers: Headers, userId: string, added: boolean) =>
    recordAuditEventOrLog(db, logger, headers, {
      event: added ? 'notification_channel_added' : 'notification_channel_removed',
      userId,
    });
  /** Saves a channel's URL; a new channel is written to the security activity. */
  async function save(
    request: Request,
    userId: string,
    channel: NotificationChannel,
    url: string,
    newSecret = false,
  ) {
    const existed = Boolean(await channels.channel(userId, channel));
    const appUrl = deps.baseUrl ?? deps.origin(request);
    const { secretMade } = await channels.save(userId, channel, url, appUrl, newSecret);
    if (!existed) await audit(request.headers, userId, true);
    return secretMade;
  }
  /** The webhook's secret, when it was just made: shown this once. */
  async function secretAnswer(userId: string, made: boolean): Promise<WebhookSaved> {
    const webhook = made ? await channels.channel(userId, 'webhook') : undefined;
    return {
      state: await channels.state(userId),
      ...(webhook?.secret_salt
        ? { secret: channels.webhookSecret(userId, webhook.secret_salt) }
        : {}),
    };
  }

  /** 'Send Test': a test notification through the channel, its outcome written to the log. */
  async function sendTest(
    userId: string,
    channel: NotificationChannel,
  ): Promise<ChannelTestAnswer> {
    const stored = await channels.channel(userId, channel);
    if (!stored) throw notFound(CHANNEL_NOT_SET);
    let answer: Omit<ChannelTestAnswer, 'state'>;
    try {
      await send(userId, stored, testNotification());
      await channels.logDelivery(userId, {
        channel,
        outcome: 'sent',
        what: tr(TEST_NOTIFICATION.what),
        detail: tr('Delivered'),
      });
      answer = {
        sent: true,
        message: tr('Test sent to {channel}.', { channel: tr(CHANNEL_WORDS[channel]) }),
      };
    } catch (error) {
      const words = failureInWords(error);
      await channels.logDelivery(userId, {
        channel,
        outcome: 'failed',
        what: tr(TEST_NOTIFICATION.what),
        detail: words,
      });
      answer = { sent: false, message: tr('Test not sent: {reason}.', { reason: words }) };
    }
    return { ...answer, state: await channels.state(userId) };
  }

  return (
    new Hono<AppEnv>()
      .get('/', async (c) => c.json(await channels.state(c.var.user.id)))
      .put('/ntfy', validate('json', channelUrlSchema('ntfy')), async (c) => {
        const url = checked('ntfy', c.req.valid('json').url);
        await save(c.req.raw, c.var.user.id, 'ntfy', url);
        return c.json(await channels.state(c.var.user.id));
      })
      .put('/webhook', validate('json', channelUrlSchema('webhook')), async (c) => {
        const url = checked('webhook', c.req.valid('json').url);
        const made = await save(c.req.raw, c.var.user.id, 'webhook', url);
        return c.json(await secretAnswer(c.var.user.id, made));
      })
      .post('/webhook/secret', async (c) => {
        const userId = c.var.user.id;
        const webhook = await channels.channel(userId, 'webhook');
        if (!webhook) throw notFound(CHANNEL_NOT_SET);
        const made = await save(c.req.raw, userId, 'webhook', webhook.url, true);
        return c.json(await secretAnswer(userId, made));
      })
      .delete('/:channel', async (c) => {
        const userId = c.var.user.id;
        if (await channels.remove(userId, channelOf(c.req.param('channel')))) {
          await audit(c.req.raw.headers, userId, false);
        }
        return c.json(await channels.state(userId));
      })
      // One route a channel, not `/:channel/test`: a parameter beside `/webhook/secret` would
      // keep every route of the API off Hono's RegExpRouter (app.test.ts).
      .post('/ntfy/test', async (c) => c.json(await sendTest(c.var.user.id, 'ntfy')))
      .post('/webhook/test', async (c) => c.json(await sendTest(c.var.user.id, 'webhook')))
  );
}
