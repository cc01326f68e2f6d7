/**
 * 'Reminders' in Profile Settings, in Chromium: the switches with their exact names, the
 * times of day and the time zone (the browser's until changed) kept by the server, and what
 * a device is told when it cannot get reminders. Chromium cannot make a push subscription
 * here (an off-the-record profile with no network has no push service), so turning a
 * switch on ends in the explanation; delivery itself, encrypted to a subscription's keys,
 * is tested at the API against a stand-in push service (src/server/reminders). The service
 * worker's side is tested with a message handed to it through Chromium's DevTools protocol,
 * and a click with a notificationclick event dispatched in the worker (no protocol clicks a
 * system notification).
 */
import type { BrowserContext } from '@playwright/test';
import type { RemindersState } from '../src/shared/reminders';
import { SERVICE_WORKER_IN_TESTS_KEY } from '../src/web/service-worker/register';
import { createRecordViaApi, expect, expectAccessible, test } from './fixtures';

test.use({ timezoneId: 'Europe/Berlin' });

test('the Reminders section has its switches, and keeps the times of day and the time zone', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/profile-settings');
  await expect(page.getByRole('heading', { name: 'Reminders' })).toBeVisible();
  for (const name of [
    'Medication reminders',
    'Visit reminders',
    'Vaccine reminders',
    'Hide names on the lock screen',
  ]) {
    await expect(page.getByRole('switch', { name, exact: true })).toHaveAttribute(
      'aria-checked',
      'false',
    );
  }
  await expect(page.getByLabel('Morning', { exact: true })).toHaveValue('08:00');
  await expect(page.getByLabel('Noon', { exact: true })).toHaveValue('12:00');
  await expect(page.getByLabel('Evening', { exact: true })).toHaveValue('18:00');
  await expect(page.getByLabel('Night', { exact: true })).toHaveValue('22:00');
  await expect(page.getByLabel('Time Zone')).toHaveValue('Europe/Berlin');
  await expectAccessible(page);

  await page.getByLabel('Morning', { exact: true }).fill('07:30');
  await page.getByRole('button', { name: 'Save Reminder Times' }).click();
  await expect(page.getByText('Reminder settings saved')).toBeVisible();
  // A time being edited is not saved by the switch, and stays as typed.
  await page.getByLabel('Night', { exact: true }).fill('23:15');
  await page.getByRole('switch', { name: 'Hide names on the lock screen' }).click();
  await expect(page.getByRole('switch', { name: 'Hide names on the lock screen' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(page.getByLabel('Night', { exact: true })).toHaveValue('23:15');

  const saved = (await (await page.request.get('/api/reminders')).json()) as RemindersState;
  expect(saved.saved).toBe(true);
  expect(saved.settings).toMatchObject({
    time_zone: 'Europe/Berlin',
    time_morning: '07:30',
    time_night: '22:00',
    hide_names: true,
  });
  // Saving the times then keeps the switch as it is.
  await page.getByRole('button', { name: 'Save Reminder Times' }).click();
  await expect(page.getByText('Reminder settings saved')).toBeVisible();
  const both = (await (await page.request.get('/api/reminders')).json()) as RemindersState;
  expect(both.settings).toMatchObject({ time_night: '23:15', hide_names: true });
  await page.reload();
  await expect(page.getByLabel('Morning', { exact: true })).toHaveValue('07:30');
});

test('turning reminders on asks for notifications, and says why when the browser cannot subscribe', async ({
  page,
  context,
  user,
}) => {
  void user;
  await context.grantPermissions(['notifications']);
  await page.goto('/profile-settings');
  const medication = page.getByRole('switch', { name: 'Medication reminders', exact: true });
  await medication.click();
  await expect(page.getByRole('alert')).toHaveText(/could not sign up for push messages/);
  await expect(medication).toHaveAttribute('aria-checked', 'false');
  const state = (await (await page.request.get('/api/reminders')).json()) as RemindersState;
  expect(state.subscriptions).toEqual([]);
});

test('with notifications blocked, turning reminders on says how to allow them', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/profile-settings');
  // Not granted: Chromium under automation answers the permission prompt with 'denied'.
  await page.getByRole('switch', { name: 'Visit reminders', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(/Notifications are blocked for this site/);
});

/** The app's worker, left out under automation unless asked for, and notifications allowed. */
async function withWorkerAndNotifications(context: BrowserContext) {
  await context.addInitScript(
    (key) => localStorage.setItem(key, 'on'),
    SERVICE_WORKER_IN_TESTS_KEY,
  );
  await context.grantPermissions(['notifications']);
}

test('the service worker shows a reminder pushed to it', async ({ page, context, user }) => {
  void user;
  await withWorkerAndNotifications(context);
  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  // Chromium's DevTools protocol hands the worker a push message as a push service would.
  const cdp = await context.newCDPSession(page);
  const registered = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registered;
  const origin = new URL(page.url()).origin;
  // Delivered again on each look until it shows: a push that reaches a worker still
  // starting up is dropped, as a push service's would be retried.
  const deliver = () =>
    cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId,
      data: JSON.stringify({
        title: 'Visit for Leo tomorrow at 3:00 PM',
        body: 'Dr. Chen',
        url: '/visits/8d5b7c38-8d0f-4b43-9a53-3f0a1b2c4d5e',
        tag: 'visit-8d5b7c38',
      }),
    });
  await expect
    .poll(async () => {
      await deliver();
      return page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          data: n.data as unknown,
        }));
      });
    })
    .toEqual([
      {
        title: 'Visit for Leo tomorrow at 3:00 PM',
        body: 'Dr. Chen',
        tag: 'visit-8d5b7c38',
        data: { url: '/visits/8d5b7c38-8d0f-4b43-9a53-3f0a1b2c4d5e' },
      },
    ]);
});

test('a click on a reminder opens the app on its screen', async ({ page, context, user }) => {
  void user;
  await withWorkerAndNotifications(context);
  const visit = await createRecordViaApi(page, 'visits', {
    visit_name: 'Pediatric check-up',
    visit_date: new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString(),
  });
  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)))
    .toBe(true);
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));

  // In the worker: the reminder shown, then clicked, as the system would click it.
  await worker.evaluate(async (url) => {
    interface Scope {
      registration: ServiceWorkerRegistration;
      dispatchEvent(event: Event): boolean;
    }
    const scope = self as unknown as Scope;
    await scope.registration.showNotification('Visit for Ann Lee tomorrow', {
      tag: 'visit',
      data: { url },
    });
    const [notification] = await scope.registration.getNotifications({ tag: 'visit' });
    const NotificationEventClass = (
      self as unknown as {
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      }
    ).NotificationEvent;
    if (notification) {
      scope.dispatchEvent(new NotificationEventClass('notificationclick', { notification }));
    }
  }, `/visits/${visit.id}`);

  await expect(page).toHaveURL(new RegExp(`/visits/${visit.id}$`));
  await expect(page.getByRole('heading', { name: 'Pediatric check-up' })).toBeVisible();
});
