/**
 * Notification channels besides web push and email (CONTRACT.md §6 'Notifications'): an
 * account's ntfy topic and webhook, what Profile Settings sends and is told about them, and
 * the delivery log. The webhook's payload and signature are described in
 * docs/notification-channels.md.
 */
import { key, tr } from './i18n/translate';
import { z } from 'zod';

export const NOTIFICATION_CHANNELS = ['ntfy', 'webhook'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Each channel's field, by its label in Profile Settings' 'Reminders'. */
export const CHANNEL_LABELS: Readonly<Record<NotificationChannel, string>> = {
  ntfy: key('ntfy Topic URL'),
  webhook: key('Webhook URL'),
};

/** A dose reminder's buttons, and what each marks the doses. */
export const DOSE_ACTIONS = [
  { label: key('Taken'), status: 'taken' },
  { label: key('Skip'), status: 'skipped' },
] as const;

export const channelUrlSchema = (channel: NotificationChannel) =>
  z.object({
    url: z
      .string({ error: () => tr('{label} is required', { label: tr(CHANNEL_LABELS[channel]) }) })
      .trim()
      .min(1, { error: () => tr('{label} is required', { label: tr(CHANNEL_LABELS[channel]) }) })
      .max(2048, {
        error: () =>
          tr('{label} must be at most {max} characters', {
            label: tr(CHANNEL_LABELS[channel]),
            max: 2048,
          }),
      }),
  });

/** One try of sending to a channel, newest first in the log. */
export interface ChannelDelivery {
  id: string;
  channel: NotificationChannel;
  /** 'retried': it failed and will be tried again; 'failed': given up (or a test that failed). */
  outcome: 'sent' | 'retried' | 'failed';
  /** What was sent: 'Test', 'Medication reminder', … */
  what: string;
  /** What the other end answered, in words. */
  detail: string;
  created_at: string;
}

/** GET /api/notification-channels. */
export interface NotificationChannelsState {
  ntfy: { url: string } | null;
  webhook: { url: string } | null;
  deliveries: ChannelDelivery[];
}

/** The answer to saving a webhook (or a new secret for it): the secret, shown this once. */
export interface WebhookSaved {
  state: NotificationChannelsState;
  /** Present when the webhook is new or its secret was made anew. */
  secret?: string;
}

/** The answer to 'Send Test'. */
export interface ChannelTestAnswer {
  sent: boolean;
  /** What happened, in words. */
  message: string;
  state: NotificationChannelsState;
}

/** The header names a webhook's request carries (docs/notification-channels.md). */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Kin-Signature';
export const WEBHOOK_TIMESTAMP_HEADER = 'X-Kin-Timestamp';
export const WEBHOOK_EVENT_HEADER = 'X-Kin-Event';

/** The JSON body a webhook receives. */
export interface WebhookPayload {
  /** 'reminder', or 'test' for 'Send Test'. */
  event: 'reminder' | 'test';
  /** What the notification is about: 'dose', 'visit', 'vaccine', 'test', … */
  kind: string;
  title: string;
  body: string;
  /** Where in the app it leads (absolute), or null. */
  url: string | null;
  /** Notifications with the same tag are about the same thing. */
  tag: string;
  sent_at: string;
  /** A dose reminder's 'Taken' and 'Skip': each URL, POSTed once, marks the doses. */
  actions: { label: string; method: 'POST'; url: string }[];
}
