/**
 * /api/reminders: the account's reminder settings and its devices' subscriptions.
 *
 *   GET  /api/reminders                  settings, the VAPID public key, the devices subscribed
 *   PUT  /api/reminders/settings         time zone, the times of the times of day, hidden names
 *   PUT  /api/reminders/subscription     this device: its subscription and what it asks for
 *   POST /api/reminders/renew            the browser replaced this device's subscription
 *   POST /api/reminders/unsubscribe      this device no longer gets reminders
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import {
  endpointSchema,
  pushSubscriptionSchema,
  reminderSettingsSchema,
  renewedSubscriptionSchema,
} from '../../shared/reminders';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import type { Logger } from '../logger';
import { ApiError } from '../../shared/api-error';
import { validate } from '../http/validation';
import { pushEndpointProblem, type PushEndpointPolicy } from './push-endpoints';
import { SubscriptionTakenError, type ReminderRepository } from './reminder-repository';
import { key } from '../../shared/i18n/translate';

export const SUBSCRIPTION_NOT_FOUND = key('This device does not get reminders');
export const SUBSCRIPTION_TAKEN = key(
  'This browser gets reminders for another account; turn them off there first',
);

/** What devices subscribe with: the server's VAPID public key, and where reminders may go. */
export interface ReminderRouteConfig {
  vapidPublicKey: string;
  pushEndpoints: PushEndpointPolicy;
}

export function reminderRoutes(
  db: Kysely<DB>,
  logger: Logger,
  reminders: ReminderRepository,
  { vapidPublicKey: publicKey, pushEndpoints }: ReminderRouteConfig,
) {
  /** A subscription's address must be a push service's (push-endpoints.ts). */
  const checkEndpoint = (endpoint: string) => {
    const problem = pushEndpointProblem(endpoint, pushEndpoints);
    if (problem) throw new ApiError(400, problem, 'endpoint');
  };
  // A device that gets notifications about the family is worth a line in the account's
  // security activity, as a new session is.
  const audit = (headers: Headers, userId: string, added: boolean) =>
    recordAuditEventOrLog(db, logger, headers, {
      event: added ? 'reminders_device_added' : 'reminders_device_removed',
      userId,
    });
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await reminders.state(c.var.user.id, publicKey)))
    .put('/settings', validate('json', reminderSettingsSchema), async (c) => {
      await reminders.saveSettings(c.var.user.id, c.req.valid('json'));
      return c.json(await reminders.state(c.var.user.id, publicKey));
    })
    .put('/subscription', validate('json', pushSubscriptionSchema), async (c) => {
      const userId = c.var.user.id;
      checkEndpoint(c.req.valid('json').endpoint);
      let outcome;
      try {
        outcome = await reminders.subscribe(userId, c.req.valid('json'));
      } catch (error) {
        if (error instanceof SubscriptionTakenError) throw new ApiError(409, SUBSCRIPTION_TAKEN);
        throw error;
      }
      if (outcome === 'added' || outcome === 'removed') {
        await audit(c.req.raw.headers, userId, outcome === 'added');
      }
      return c.json(await reminders.state(c.var.user.id, publicKey));
    })
    .post('/renew', validate('json', renewedSubscriptionSchema), async (c) => {
      checkEndpoint(c.req.valid('json').endpoint);
      if (!(await reminders.renew(c.var.user.id, c.req.valid('json')))) {
        throw notFound(SUBSCRIPTION_NOT_FOUND);
      }
      return c.body(null, 204);
    })
    .post('/unsubscribe', validate('json', endpointSchema), async (c) => {
      const userId = c.var.user.id;
      if (await reminders.unsubscribe(userId, c.req.valid('json').endpoint)) {
        await audit(c.req.raw.headers, userId, false);
      }
      return c.json(await reminders.state(c.var.user.id, publicKey));
    });
}
