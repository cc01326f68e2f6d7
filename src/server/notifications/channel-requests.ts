/**
 * What is sent to an account's channels: one notification made into ntfy's JSON publish
 * request (POSTed to the server's root with the topic in the body, so titles and names in
 * any script arrive as written; https://docs.ntfy.sh/publish/#publish-as-json) or into a
 * webhook's signed JSON (docs/notification-channels.md), and what came of sending it, in
 * words for the delivery log.
 */
import { createHmac } from 'node:crypto';
import type { PushRequest } from '../reminders/push-endpoints';
import {
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  type WebhookPayload,
} from '../../shared/notification-channels';
import type { DoseActionGroup } from './dose-actions';
import { key, tr } from '../../shared/i18n/translate';

/** A notification as the queue keeps it: no token in it (those are made as it is sent). */
export interface ChannelNotification {
  /** 'dose', 'visit', 'vaccine', 'test', … */
  kind: string;
  /** What the delivery log calls it: 'Test', 'Medication reminder', … */
  what: string;
  title: string;
  body: string;
  /** Where in the app it leads: a path. */
  url: string;
  tag: string;
  /** A dose reminder's doses, which its 'Taken' and 'Skip' buttons mark. */
  doses?: DoseActionGroup;
  /** The language it was written in (the account's): its buttons are labelled in it. */
  language?: string;
}

/** The notification's links, made absolute where it is sent. */
export interface NotificationLinks {
  click: string | null;
  actions: { label: string; url: string }[];
}

/** ntfy's topic names (https://docs.ntfy.sh/publish/#picking-a-topic). */
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;

export const NTFY_TOPIC_MESSAGE = key(
  'ntfy Topic URL must end in the topic’s name, like https://ntfy.sh/my-family-reminders',
);

/** Whether an ntfy topic URL names a topic (its last path segment). */
export function ntfyTopicProblem(value: string): string | null {
  const url = new URL(value);
  const topic = url.pathname.split('/').pop() ?? '';
  return TOPIC.test(topic) && !url.hash ? null : NTFY_TOPIC_MESSAGE;
}

/** ntfy's emoji tags, by what the notification is about. */
const NTFY_TAGS: Record<string, string[]> = {
  dose: ['pill'],
  visit: ['hospital'],
  vaccine: ['syringe'],
  refill: ['pill'],
  'missed-dose': ['warning'],
  test: ['white_check_mark'],
};

/**
 * ntfy's JSON publish request: to the server's root (the topic URL less its last segment,
 * so a server under a path prefix works), with the topic in the body; a user and password
 * (or an access token as the password) in the URL go as Basic authentication.
 */
export function ntfyRequest(
  topicUrl: string,
  notification: ChannelNotification,
  links: NotificationLinks,
): PushRequest {
  const url = new URL(topicUrl);
  const segments = url.pathname.split('/');
  const topic = segments.pop() ?? '';
  const root = new URL(`${segments.join('/')}/${url.search}`, url.origin);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const urgent = ['dose', 'visit', 'missed-dose'].includes(notification.kind);
  const body = {
    topic,
    title: notification.title,
    // An empty message would read 'triggered'.
    message: notification.body || notification.title,
    priority: urgent ? 4 : 3,
    tags: NTFY_TAGS[notification.kind] ?? [],
    ...(links.click ? { click: links.click } : {}),
    ...(links.actions.length
      ? {
          actions: links.actions.map(({ label, url: action }) => ({
            action: 'http',
            label,
            url: action,
            method: 'POST',
            clear: true,
          })),
        }
      : {}),
  };
  return { endpoint: root.href, method: 'POST', headers, body: JSON.stringify(body) };
}

/** The signature of a webhook's body: HMAC-SHA256 of `{timestamp}.{body}`, in hex. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** A webhook's request: the notification as JSON, signed with the account's secret. */
export function webhookRequest(
  webhookUrl: string,
  secret: string,
  notification: ChannelNotification,
  links: NotificationLinks,
  now: Date,
): PushRequest {
  const event = notification.kind === 'test' ? 'test' : 'reminder';
  const payload: WebhookPayload = {
    event,
    kind: notification.kind,
    title: notification.title,
    body: notification.body,
    url: links.click,
    tag: notification.tag,
    sent_at: now.toISOString(),
    actions: links.actions.map(({ label, url }) => ({ label, method: 'POST', url })),
  };
  const body = JSON.stringify(payload);
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return {
    endpoint: webhookUrl,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Kin-Health',
      [WEBHOOK_EVENT_HEADER]: event,
      [WEBHOOK_TIMESTAMP_HEADER]: timestamp,
      [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, timestamp, body),
    },
    body,
  };
}

/** Why a send failed, in words (never the URL, which may hold a password or a token). */
export function failureInWords(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOTPUBLIC':
      return tr(
        'Its host is on this machine or a private network, and not in NOTIFY_ALLOWED_HOSTS',
      );
    case 'ECONNREFUSED':
      return tr('Nothing answered at that address (connection refused)');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return tr('No such host');
    case 'ECONNRESET':
      return tr('The connection was closed before an answer');
    default:
      break;
  }
  if (error instanceof AnsweredError) return error.message;
  if (error instanceof Error && /answer|NOTIFY_ALLOWED_HOSTS|https/.test(error.message)) {
    return error.message;
  }
  if (typeof code === 'string' && /^(CERT_|ERR_TLS|UNABLE_TO|DEPTH_|SELF_SIGNED)/.test(code)) {
    return tr('Its https certificate is not trusted');
  }
  return tr('Could not connect');
}

/** The other end answered, but not with success. */
export class AnsweredError extends Error {
  constructor(readonly status: number) {
    super(
      status === 401 || status === 403
        ? tr('Refused with {status}: the topic or webhook asks for a password or token', {
            status,
          })
        : tr('Answered {status}', { status }),
    );
  }
}
