/**
 * For tests: an account with a device subscribed to reminders at the stand-in push service
 * (push-service.ts), what that device has been sent, decrypted with its keys, and the
 * medications reminders are about.
 */
import { expect } from 'vitest';
import type { ReminderPayload, RemindersState } from '../../shared/reminders';
import { sampleRecord } from './factories';
import { signedUpClient, type TestClient, type TestServer } from './harness';
import {
  browserKeys,
  decryptPushMessage,
  type BrowserKeys,
  type PushService,
} from './push-service';

export interface Device {
  path: string;
  browser: BrowserKeys;
}

/** A new account in a time zone with one device subscribed to the reminders named. */
export async function subscribedAccount(
  server: TestServer,
  push: PushService,
  name: string,
  timeZone: string,
  choices: Record<string, boolean>,
) {
  const account = await signedUpClient(server, name);
  const { client } = account;
  const browser = browserKeys();
  const path = `/push/${crypto.randomUUID()}`;
  const defaults = (await client.get<RemindersState>('/api/reminders')).body.settings;
  await client.put('/api/reminders/settings', { ...defaults, time_zone: timeZone });
  const subscribed = await client.put<RemindersState>('/api/reminders/subscription', {
    endpoint: `${push.url}${path}`,
    keys: browser.keys,
    medication_reminders: false,
    visit_reminders: false,
    ...choices,
  });
  return { ...account, browser, path, subscribed };
}

/** What the push service took for a device since its message `from`, as the browser reads it. */
export function receivedBy(push: PushService, device: Device, from = 0): ReminderPayload[] {
  return push.messages
    .slice(from)
    .filter((message) => message.path === device.path)
    .map((message) => {
      expect(message.headers['content-encoding']).toBe('aes128gcm');
      expect(String(message.headers.authorization)).toMatch(/^vapid t=.+, k=.+/);
      return JSON.parse(decryptPushMessage(message.body, device.browser)) as ReminderPayload;
    });
}

/** A daily medication taken at the times of day `values` ticks (none by default); its id. */
export async function dailyMedication(
  client: TestClient,
  values: Record<string, unknown>,
): Promise<string> {
  const response = await client.post<{ id: string }>(
    '/api/medications',
    sampleRecord('medication', {
      frequency: 'Daily',
      time_morning: false,
      time_noon: false,
      time_evening: false,
      time_night: false,
      end_date: null,
      ...values,
    }),
  );
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}
