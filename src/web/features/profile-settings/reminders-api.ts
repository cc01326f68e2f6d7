/** Reminder settings and push subscriptions. */
import type { PushSubscriptionInput, ReminderSettings } from '../../../shared/reminders';
import { answer } from '../../lib/api-request';
import { product } from '../../lib/api';

export const remindersApi = {
  get: () => answer(product.reminders.$get()),
  saveSettings: (input: ReminderSettings) =>
    answer(product.reminders.settings.$put({ json: input })),
  subscribe: (input: PushSubscriptionInput) =>
    answer(product.reminders.subscription.$put({ json: input })),
  unsubscribe: (endpoint: string) =>
    answer(product.reminders.unsubscribe.$post({ json: { endpoint } })),
};
