/**
 * /api/reminders: the account's reminder settings and its devices' subscriptions.
 *
 *   GET  /api/reminders                  settings, the VAPID public key, the devices subscribed
 *   PUT  /api/reminders/settings         time zone, the times of the times of day, hidden names
 *   PUT  /api/reminders/subscription     this device: its subscription and what it asks for
 *   POST /api/reminders/unsubscribe      this device no longer gets reminders
 */
import { Hono } from 'hono';
import {
  endpointSchema,
  pushSubscriptionSchema,
  reminderSettingsSchema,
} from '../../shared/reminders';
import type { AppEnv } from '../http/env';
import { ApiError } from '../../shared/api-error';
import { validate } from '../http/validation';
import { SubscriptionTakenError, type ReminderRepository } from './reminder-repository';

export const SUBSCRIPTION_TAKEN =
  'This browser gets reminders for another account; turn them off there first';

export function reminderRoutes(reminders: ReminderRepository, publicKey: string) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await reminders.state(c.var.user.id, publicKey)))
    .put('/settings', validate('json', reminderSettingsSchema), async (c) => {
      await reminders.saveSettings(c.var.user.id, c.req.valid('json'));
      return c.json(await reminders.state(c.var.user.id, publicKey));
    })
    .put('/subscription', validate('json', pushSubscriptionSchema), async (c) => {
      try {
        await reminders.subscribe(c.var.user.id, c.req.valid('json'));
      } catch (error) {
        if (error instanceof SubscriptionTakenError) throw new ApiError(409, SUBSCRIPTION_TAKEN);
        throw error;
      }
      return c.json(await reminders.state(c.var.user.id, publicKey));
    })
    .post('/unsubscribe', validate('json', endpointSchema), async (c) => {
      await reminders.unsubscribe(c.var.user.id, c.req.valid('json').endpoint);
      return c.json(await reminders.state(c.var.user.id, publicKey));
    });
}
