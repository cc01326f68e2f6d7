/** Notification channels (ntfy, webhook) and their delivery log. */
import type { NotificationChannel } from '../../../shared/notification-channels';
import { answer } from '../../lib/api-request';
import { product } from '../../lib/api';

export const notificationChannelsApi = {
  get: () => answer(product['notification-channels'].$get()),
  saveNtfy: (url: string) => answer(product['notification-channels'].ntfy.$put({ json: { url } })),
  saveWebhook: (url: string) =>
    answer(product['notification-channels'].webhook.$put({ json: { url } })),
  newWebhookSecret: () => answer(product['notification-channels'].webhook.secret.$post()),
  remove: (channel: NotificationChannel) =>
    answer(product['notification-channels'][':channel'].$delete({ param: { channel } })),
  test: (channel: NotificationChannel) =>
    answer(product['notification-channels'][channel].test.$post()),
};
