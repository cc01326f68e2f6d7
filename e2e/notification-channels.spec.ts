/**
 * 'Reminders' in Profile Settings, its other channels, in Chromium: an 'ntfy Topic URL'
 * pointing at a stand-in ntfy server this spec starts on 127.0.0.1 (the browser tests'
 * servers list that host in NOTIFY_ALLOWED_HOSTS, as an operator with ntfy beside Kin would),
 * 'Send Test', then a dose reminder from the server's own reminder job (the account's
 * Morning and Evening set to this minute: the job looks every minute), whose 'Taken' button,
 * POSTed as ntfy's app posts it with no sign-in, marks the dose in Today's Medications and
 * lowers the medication's quantity on hand; the Evening's 'Skip' takes nothing and moves the
 * day it runs out.
 */
import { request as playwrightRequest } from '@playwright/test';
import type { RemindersState } from '../src/shared/reminders';
import {
  startNotificationReceiver,
  type NotificationReceiver,
} from '../src/server/test/notification-receiver';
import { createRecordViaApi, expect, expectAccessible, localDay, test } from './fixtures';

test.use({ timezoneId: 'UTC' });

let ntfy: NotificationReceiver;
test.beforeAll(async () => {
  ntfy = await startNotificationReceiver();
});
test.afterAll(async () => {
  await ntfy.close();
});

interface NtfyMessage {
  topic: string;
  title: string;
  message: string;
  actions?: { action: string; label: string; url: string; method: string }[];
}

const longDate = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** The next `count` messages the stand-in ntfy server gets for a topic, after `from` requests. */
async function nextMessages(topic: string, from: number, count: number): Promise<NtfyMessage[]> {
  const found: NtfyMessage[] = [];
  for (let index = from; found.length < count; index += 1) {
    const message = JSON.parse((await ntfy.next(index)).body) as NtfyMessage;
    if (message.topic === topic) found.push(message);
  }
  return found;
}

const nextMessage = async (topic: string, from: number) => (await nextMessages(topic, from, 1))[0]!;

test('an ntfy topic gets a test, then a dose reminder whose ‘Taken’ marks the dose', async ({
  page,
  user,
  baseURL,
}) => {
  void user;
  // The reminder job looks once a minute.
  test.setTimeout(180_000);
  const topic = `kin-e2e-${Date.now().toString(36)}`;

  await page.goto('/profile-settings');
  const channel = page.getByRole('group', { name: 'ntfy' });
  await channel.getByLabel('ntfy Topic URL').fill(`${ntfy.url}/${topic}`);
  let from = ntfy.requests.length;
  await channel.getByRole('button', { name: 'Send Test' }).click();
  await expect(channel.getByRole('status')).toHaveText('Test sent to your ntfy topic.');
  expect(await nextMessage(topic, from)).toMatchObject({
    title: 'Test notification from Kin Health',
  });
  await expect(
    page.getByRole('region', { name: 'Delivery Log' }).getByRole('listitem').first(),
  ).toContainText('Sent · ntfy · Test');
  await expectAccessible(page);

  // A medication due in the Morning and the Evening, 31 pills on hand, and both times set to
  // this minute.
  from = ntfy.requests.length;
  const medication = await createRecordViaApi(page, 'medications', {
    medication_name: 'Lisinopril',
    dosage: '10 mg',
    frequency: 'Twice Daily',
    time_morning: true,
    time_evening: true,
    start_date: localDay(-2),
    quantity_on_hand: 31,
  });
  const onHand = page.locator(
    'xpath=//dt[normalize-space()="Quantity On Hand"]/following-sibling::dd[1]',
  );
  const detail = `/medications/${medication.id}`;
  await page.goto(detail);
  await expect(onHand).toHaveText('31');
  // Two doses today, then 29: fourteen more days and a morning.
  await expect(page.getByText(`Runs out ${longDate(localDay(15))}`)).toBeVisible();

  const headers = { origin: baseURL ?? '' };
  const state = (await (await page.request.get('/api/reminders')).json()) as RemindersState;
  const now = new Date().toISOString().slice(11, 16);
  const saved = await page.request.put('/api/reminders/settings', {
    data: { ...state.settings, time_zone: 'UTC', time_morning: now, time_evening: now },
    headers,
  });
  expect(saved.status(), await saved.text()).toBe(200);

  const reminders = await nextMessages(topic, from, 2);
  const reminder = reminders.find((message) => message.title.startsWith('Morning'))!;
  const evening = reminders.find((message) => message.title.startsWith('Evening'))!;
  expect(reminder).toMatchObject({
    title: 'Morning medication for Ann Lee',
    message: 'Lisinopril 10 mg',
  });
  expect(evening).toMatchObject({ title: 'Evening medication for Ann Lee' });
  const taken = reminder.actions?.find((action) => action.label === 'Taken');
  expect(taken).toMatchObject({ action: 'http', method: 'POST' });

  // Pressed in ntfy's app: a POST with no session.
  const ntfyApp = await playwrightRequest.newContext();
  const pressed = await ntfyApp.post(taken!.url);
  expect(pressed.status(), await pressed.text()).toBe(200);
  // Once only.
  expect((await ntfyApp.post(taken!.url)).status()).toBe(410);
  await ntfyApp.dispose();

  // Its 'Skip', opened in a browser, marks nothing: that reminder's buttons are used up.
  const skip = reminder.actions?.find((action) => action.label === 'Skip');
  await page.goto(skip!.url);
  await expect(
    page.getByRole('heading', { name: 'This link has been used or has expired' }),
  ).toBeVisible();

  await page.goto('/');
  const today = page.getByRole('region', { name: "Today's Medications" });
  await expect(today.getByText(/^Taken at \d{1,2}:\d{2} (AM|PM)$/)).toBeVisible();

  // The dose taken came off the supply; it was counted already, so the day stays.
  await page.goto(detail);
  await expect(onHand).toHaveText('30');
  await expect(page.getByText(`Runs out ${longDate(localDay(15))}`)).toBeVisible();

  // The Evening's 'Skip' from ntfy: nothing taken, and the pills last a dose longer.
  const skipEvening = evening.actions?.find((action) => action.label === 'Skip');
  const app = await playwrightRequest.newContext();
  expect((await app.post(skipEvening!.url)).status()).toBe(200);
  await app.dispose();
  await page.reload();
  await expect(onHand).toHaveText('30');
  await expect(page.getByText(`Runs out ${longDate(localDay(16))}`)).toBeVisible();
});
