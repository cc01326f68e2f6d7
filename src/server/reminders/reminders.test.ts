/**
 * Reminders by web push, end to end on the server: a device subscribes over the API; the
 * reminder job finds what is due in the user's time zone and sends it, encrypted, to a
 * stand-in push service on 127.0.0.1, where the test decrypts it with the subscription's
 * keys. One notification per person and time of day, none for a dose already marked, once
 * however many instances run, caught up after a restart within the window and not after;
 * a subscription the push service answers 410 for is dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReminderPayload, RemindersState } from '../../shared/reminders';
import { createLogger } from '../logger';
import { sampleRecord } from '../test/factories';
import { FakeClock } from '../test/fake-clock';
import { signedUpClient, testConfig, useTestServer, type TestClient } from '../test/harness';
import {
  browserKeys,
  startPushService,
  type BrowserKeys,
  type PushService,
} from '../test/push-service';
import {
  dailyMedication,
  receivedBy,
  subscribedAccount as subscribedIn,
} from '../test/reminder-devices';
import { createReminderJob } from './reminder-job';
import { testReminderJob } from '../test/reminder-job';
import { instantOf } from './time-zones';

const server = useTestServer();
const ZONE = 'America/New_York';
const DAY = '2026-03-10';
const at = (time: string, day = DAY) => instantOf(ZONE, day, time);

let push: PushService;
beforeAll(async () => {
  push = await startPushService();
});
afterAll(async () => {
  await push.close();
});

const job = () => testReminderJob(server.db);

const medication = (client: TestClient, overrides: Record<string, unknown>) =>
  dailyMedication(client, { start_date: '2026-03-01', condition: 'Strep throat', ...overrides });

const received = (path: string, browser: BrowserKeys, from: number): ReminderPayload[] =>
  receivedBy(push, { path, browser }, from);

/** A new account in ZONE with one device subscribed to the reminders named. */
const subscribedAccount = (name: string, choices: Record<string, boolean>) =>
  subscribedIn(server, push, name, ZONE, choices);

describe('reminders by web push', () => {
  let client: TestClient;
  let leoId: string;
  const phone = browserKeys();
  const oldLaptop = browserKeys();
  const phonePath = `/push/${crypto.randomUUID()}`;
  const laptopPath = `/push/${crypto.randomUUID()}`;

  it('keeps the time zone and times of day, and each device’s subscription', async () => {
    ({ client } = await signedUpClient(server, 'Maya Lopez'));
    const initial = await client.get<RemindersState>('/api/reminders');
    expect(initial.status).toBe(200);
    expect(initial.body.saved).toBe(false);
    expect(initial.body.settings).toMatchObject({
      time_morning: '08:00',
      time_noon: '12:00',
      time_evening: '18:00',
      time_night: '22:00',
      hide_names: false,
    });
    expect(initial.body.public_key).toBe(testConfig().vapid.publicKey);

    const saved = await client.put<RemindersState>('/api/reminders/settings', {
      ...initial.body.settings,
      time_zone: ZONE,
      time_evening: '18:30',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toMatchObject({ time_zone: ZONE, time_evening: '18:30' });
    const wrongZone = await client.put('/api/reminders/settings', {
      ...saved.body.settings,
      time_zone: 'Mars/Olympus',
    });
    expect(wrongZone.status).toBe(400);
    // A missing time of day is named as missing.
    const { time_noon: _noon, ...withoutNoon } = saved.body.settings;
    void _noon;
    const missing = await client.put<{ message: string; field: string }>(
      '/api/reminders/settings',
      withoutNoon,
    );
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ message: 'Noon is required', field: 'time_noon' });

    for (const [path, browser] of [
      [phonePath, phone],
      [laptopPath, oldLaptop],
    ] as const) {
      const subscribed = await client.put<RemindersState>('/api/reminders/subscription', {
        endpoint: `${push.url}${path}`,
        keys: browser.keys,
        medication_reminders: true,
        visit_reminders: true,
      });
      expect(subscribed.status).toBe(200);
    }
    const state = await client.get<RemindersState>('/api/reminders');
    expect(state.body.subscriptions).toHaveLength(2);
    const activity = await client.get<{ event: string }[]>('/api/security-activity');
    expect(activity.body.filter((entry) => entry.event === 'reminders_device_added')).toHaveLength(
      2,
    );

    const leo = await client.post<{ id: string }>('/api/family-members', {
      name: 'Leo',
      color: '#3b82f6',
    });
    leoId = leo.body.id;
  });

  it('sends one notification per person for the doses of a time of day, once across instances', async () => {
    await medication(client, {
      medication_name: 'Amoxicillin',
      dosage: '250 mg',
      time_morning: true,
      time_noon: true,
      time_evening: true,
      family_member_id: leoId,
    });
    await medication(client, {
      medication_name: 'Ibuprofen',
      dosage: null,
      time_morning: true,
      family_member_id: leoId,
    });
    await medication(client, {
      medication_name: 'Vitamin D',
      dosage: null,
      time_morning: true,
      time_noon: true,
    });
    // The old laptop's browser dropped its subscription: the push service says 410.
    push.gone.add(laptopPath);
    const from = push.messages.length;
    // Two instances at once, and a minute later again: each reminder goes out once.
    const runs = await Promise.all([job().runOnce(at('08:05')), job().runOnce(at('08:05'))]);
    expect(runs[0].sent + runs[1].sent).toBe(2);
    expect((await job().runOnce(at('08:06'))).sent).toBe(0);

    const payloads = received(phonePath, phone, from).sort((a, b) =>
      a.title.localeCompare(b.title),
    );
    expect(payloads).toEqual([
      {
        title: 'Morning medication for Leo',
        body: 'Amoxicillin 250 mg, Ibuprofen',
        url: '/',
        tag: `dose-${DAY}-Morning`,
      },
      {
        title: 'Morning medication for Maya Lopez',
        body: 'Vitamin D',
        url: '/',
        tag: `dose-${DAY}-Morning`,
      },
    ]);
    // Never a diagnosis.
    expect(JSON.stringify(payloads)).not.toContain('Strep');
    // The gone subscription is dropped.
    const state = await client.get<RemindersState>('/api/reminders');
    expect(state.body.subscriptions.map((s) => s.endpoint)).toEqual([`${push.url}${phonePath}`]);
  });

  it('sends nothing for a dose already marked, and nothing before its time', async () => {
    const vitaminD = (
      await client.get<{
        doses: { medication_id: string; medication_name: string; slot: string }[];
      }>(`/api/doses?today=${DAY}`)
    ).body.doses.find((d) => d.medication_name === 'Vitamin D' && d.slot === 'Noon');
    // Marked in the log as the API marks it (the API takes marks of the last 30 days only).
    const owner = await server.db
      .selectFrom('medications')
      .select('user_id')
      .where('id', '=', vitaminD?.medication_id ?? '')
      .executeTakeFirstOrThrow();
    await server.db
      .insertInto('dose_log')
      .values({
        id: crypto.randomUUID(),
        user_id: owner.user_id,
        medication_id: vitaminD?.medication_id ?? '',
        day: DAY,
        slot: 'Noon',
        status: 'taken',
        marked_at: at('09:00').toISOString(),
        marked_by: owner.user_id,
      })
      .execute();
    expect((await job().runOnce(at('11:59'))).sent).toBe(0);
    const from = push.messages.length;
    expect((await job().runOnce(at('12:01'))).sent).toBe(1);
    expect(received(phonePath, phone, from).map((p) => p.title)).toEqual([
      'Noon medication for Leo',
    ]);
  });

  it('reminds of a dose taken at no set time with the Morning’s', async () => {
    await medication(client, {
      medication_name: 'Fish oil',
      dosage: null,
      no_set_time: true,
      family_member_id: leoId,
    });
    const day = '2026-03-15';
    const from = push.messages.length;
    expect((await job().runOnce(at('08:01', day))).sent).toBe(2);
    expect(received(phonePath, phone, from)).toContainEqual({
      title: 'Morning medication for Leo',
      body: 'Amoxicillin 250 mg, Fish oil, Ibuprofen',
      url: '/',
      tag: `dose-${day}-Morning`,
    });
  });

  it('catches up after a restart within half an hour, and not later', async () => {
    // The evening time is 18:30 (the user's setting): a server back at 19:10 sends nothing.
    expect((await job().runOnce(at('19:10'))).sent).toBe(0);
    // The next day, back at 18:50: still within the window, sent once.
    const next = '2026-03-11';
    const from = push.messages.length;
    expect((await job().runOnce(at('18:50', next))).sent).toBe(1);
    expect((await job().runOnce(at('18:55', next))).sent).toBe(0);
    expect(received(phonePath, phone, from)).toMatchObject([
      { title: 'Evening medication for Leo', body: 'Amoxicillin 250 mg' },
    ]);
  });

  it('reminds of a visit the day before and two hours before, opening the visit', async () => {
    const visitAt = at('15:00', '2026-03-20');
    const visit = await client.post<{ id: string }>(
      '/api/visits',
      sampleRecord('visit', {
        visit_name: 'Oncology follow-up',
        doctor_name: 'Dr. Chen',
        office_name: 'Elm Street Clinic',
        visit_date: visitAt.toISOString(),
        family_member_id: leoId,
      }),
    );
    expect(visit.status).toBe(201);
    const from = push.messages.length;
    expect((await job().runOnce(at('14:59', '2026-03-19'))).sent).toBe(0);
    expect((await job().runOnce(at('15:01', '2026-03-19'))).sent).toBe(1);
    expect((await job().runOnce(at('13:00', '2026-03-20'))).sent).toBe(1);
    expect((await job().runOnce(at('13:05', '2026-03-20'))).sent).toBe(0);
    const payloads = received(phonePath, phone, from);
    expect(payloads).toEqual([
      {
        title: 'Visit for Leo tomorrow at 3:00 PM',
        body: 'Dr. Chen, Elm Street Clinic',
        url: `/visits/${visit.body.id}`,
        tag: `visit-${visit.body.id}`,
      },
      {
        title: 'Visit for Leo at 3:00 PM',
        body: 'Dr. Chen, Elm Street Clinic',
        url: `/visits/${visit.body.id}`,
        tag: `visit-${visit.body.id}`,
      },
    ]);
    expect(JSON.stringify(payloads)).not.toContain('Oncology');
  });

  it('hides names on the lock screen when asked', async () => {
    const state = await client.get<RemindersState>('/api/reminders');
    await client.put('/api/reminders/settings', { ...state.body.settings, hide_names: true });
    const from = push.messages.length;
    expect((await job().runOnce(at('08:01', '2026-03-12'))).sent).toBe(2);
    expect(received(phonePath, phone, from)).toEqual([
      { title: 'Medication due', body: '', url: '/', tag: 'dose-2026-03-12-Morning' },
      { title: 'Medication due', body: '', url: '/', tag: 'dose-2026-03-12-Morning' },
    ]);
  });

  it('keeps a device’s choices when the browser replaces its subscription', async () => {
    const renewedPath = `/push/${crypto.randomUUID()}`;
    const renewed = await client.post('/api/reminders/renew', {
      old_endpoint: `${push.url}${phonePath}`,
      endpoint: `${push.url}${renewedPath}`,
      keys: phone.keys,
    });
    expect(renewed.status).toBe(204);
    const state = await client.get<RemindersState>('/api/reminders');
    expect(state.body.subscriptions).toEqual([
      {
        endpoint: `${push.url}${renewedPath}`,
        medication_reminders: true,
        visit_reminders: true,
        vaccine_reminders: false,
      },
    ]);
    const unknown = await client.post('/api/reminders/renew', {
      old_endpoint: `${push.url}/push/unknown`,
      endpoint: `${push.url}/push/other`,
      keys: phone.keys,
    });
    expect(unknown.status).toBe(404);
    // Back as it was, for the tests below.
    await client.post('/api/reminders/renew', {
      old_endpoint: `${push.url}${renewedPath}`,
      endpoint: `${push.url}${phonePath}`,
      keys: phone.keys,
    });
  });

  it('stops when the device turns both kinds of reminder off', async () => {
    const off = await client.put<RemindersState>('/api/reminders/subscription', {
      endpoint: `${push.url}${phonePath}`,
      keys: phone.keys,
      medication_reminders: false,
      visit_reminders: false,
    });
    expect(off.body.subscriptions).toEqual([]);
    const activity = await client.get<{ event: string }[]>('/api/security-activity');
    expect(activity.body.map((entry) => entry.event)).toContain('reminders_device_removed');
    expect((await job().runOnce(at('08:01', '2026-03-13'))).sent).toBe(0);
  });

  it('keeps one account’s subscriptions and settings from another', async () => {
    const { client: other } = await signedUpClient(server);
    const state = await other.get<RemindersState>('/api/reminders');
    expect(state.body.subscriptions).toEqual([]);
    expect(state.body.saved).toBe(false);
  });
});

describe('the reminder job', () => {
  it('runs at start, catching up, then every minute until stopped', async () => {
    const { client, browser, path } = await subscribedAccount('Sam Park', {
      medication_reminders: true,
    });
    await medication(client, { medication_name: 'Melatonin', dosage: '1 mg', time_night: true });

    const from = push.messages.length;
    // Started ten minutes after the night doses came due: they are sent at once.
    const clock = new FakeClock(at('22:10', '2026-04-01'));
    const running = createReminderJob({
      db: server.db,
      vapid: testConfig().vapid,
      pushEndpoints: testConfig().pushEndpoints,
      logger: createLogger('silent'),
      clock,
    }).start();
    await running.settled();
    expect(received(path, browser, from)).toMatchObject([
      { title: 'Night medication for Sam Park', body: 'Melatonin 1 mg' },
    ]);
    expect(clock.pending()).toEqual([new Date(at('22:10', '2026-04-01').getTime() + 60_000)]);
    await clock.advanceTo(at('22:15', '2026-04-01'), () => running.settled());
    expect(clock.requestedWaits).toEqual([60_000, 60_000, 60_000, 60_000, 60_000, 60_000]);
    expect(received(path, browser, from)).toHaveLength(1);
    await running.stop();
    expect(clock.pending()).toEqual([]);
  });
});

describe('vaccine reminders', () => {
  interface ScheduleDose {
    vaccine: string;
    dose: number;
    due: string;
    status: string;
  }
  const planOn = async (client: TestClient, personId: string, today: string) =>
    (
      await client.get<{ doses: ScheduleDose[] }>(
        `/api/persons/${personId}/vaccine-schedule?today=${today}`,
      )
    ).body.doses;
  const shift = (day: string, days: number) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  it('reminds a week before a dose is due and on the day it becomes overdue, once each', async () => {
    const { client, browser, path, subscribed } = await subscribedAccount('Ana Ruiz', {
      vaccine_reminders: true,
    });
    expect(subscribed.status).toBe(200);
    expect(subscribed.body.subscriptions).toMatchObject([{ vaccine_reminders: true }]);
    const child = await client.post<{ id: string }>('/api/family-members', {
      name: 'Nora Ruiz',
      date_of_birth: '2026-01-10',
    });
    const nora = child.body.id;
    // DTaP dose 1, never given: its due date, and the first day it is overdue.
    const dtap = (await planOn(client, nora, '2026-01-10')).find(
      (d) => d.vaccine === 'DTaP' && d.dose === 1,
    )!;
    let [low, high] = [dtap.due, shift(dtap.due, 400)];
    while (low < high) {
      const middle = shift(low, Math.floor((Date.parse(high) - Date.parse(low)) / 172_800_000));
      const status = (await planOn(client, nora, middle)).find(
        (d) => d.vaccine === 'DTaP' && d.dose === 1,
      )!.status;
      if (status === 'Overdue') high = middle;
      else low = shift(middle, 1);
    }
    const overdueOn = low;

    // Counted at this device: the job also runs for the other tests' accounts.
    const from = push.messages.length;
    const sentBy = async (time: string, day: string) => {
      const before = received(path, browser, from).length;
      await job().runOnce(at(time, day));
      return received(path, browser, from).length - before;
    };
    const weekBefore = shift(dtap.due, -7);
    expect(await sentBy('07:59', weekBefore)).toBe(0);
    expect(await sentBy('08:01', weekBefore)).toBeGreaterThan(0);
    expect(await sentBy('08:02', weekBefore)).toBe(0);
    expect(await sentBy('08:01', shift(weekBefore, 1))).toBe(0);
    expect(await sentBy('08:01', shift(overdueOn, -1))).toBe(0);
    expect(await sentBy('08:01', overdueOn)).toBeGreaterThan(0);
    expect(await sentBy('08:03', overdueOn)).toBe(0);
    const payloads = received(path, browser, from);
    expect(payloads).toContainEqual({
      title: 'Vaccine due for Nora',
      body: 'DTaP dose 1 is due in a week',
      url: `/shots?tab=schedule&person=${nora}`,
      tag: `vaccine-${nora}-DTaP-1`,
    });
    expect(payloads).toContainEqual({
      title: 'Vaccine due for Nora',
      body: 'DTaP dose 1 is overdue',
      url: `/shots?tab=schedule&person=${nora}`,
      tag: `vaccine-${nora}-DTaP-1`,
    });
    for (const payload of payloads) expect(payload.title).toBe('Vaccine due for Nora');
  });
});

describe('refill reminders', () => {
  const supplied = (client: TestClient, name: string, supply: Record<string, unknown>) =>
    medication(client, {
      medication_name: name,
      frequency: 'Twice Daily',
      time_morning: true,
      time_evening: true,
      ...supply,
    });

  it('warns the days ahead of running out, asks for a new prescription when needed, once each', async () => {
    const { client, browser, path } = await subscribedAccount('Rosa Diaz', {
      medication_reminders: true,
    });
    // 10 pills, two a day: out on the 15th, within the week.
    const inhaler = await supplied(client, 'Amoxicillin', {
      quantity_on_hand: 10,
      refills_left: 2,
    });
    const last = await supplied(client, 'Metformin', { quantity_on_hand: 8, refills_left: 0 });
    const ending = await supplied(client, 'Lisinopril', {
      quantity_on_hand: 100,
      prescription_ends: '2026-03-12',
    });
    await supplied(client, 'Plenty', { quantity_on_hand: 100, refills_left: 5 });
    await supplied(client, 'Unkept', {});

    const from = push.messages.length;
    const sentBy = async (time: string, day = DAY) => {
      const before = received(path, browser, from).length;
      await job().runOnce(at(time, day));
      return received(path, browser, from).length - before;
    };
    expect(await sentBy('07:59')).toBe(0);
    // The Morning's reminder of the doses, and three refill reminders.
    expect(await sentBy('08:01')).toBe(4);
    expect(await sentBy('08:02')).toBe(0);
    // Next morning the doses went unmarked and the forecast moved a day: the same supply,
    // no news.
    expect(await sentBy('08:01', '2026-03-11')).toBe(1);
    const refills = received(path, browser, from).filter((p) => p.tag.startsWith('refill-'));
    expect(refills.sort((a, b) => a.title.localeCompare(b.title))).toEqual([
      {
        title: 'Amoxicillin for Rosa runs out Mar 15',
        body: 'Time to refill (2 refills left)',
        url: `/medications/${inhaler}`,
        tag: `refill-${inhaler}`,
      },
      {
        title: 'Metformin for Rosa runs out Mar 14',
        body: 'Ask the doctor for a new prescription',
        url: `/medications/${last}`,
        tag: `refill-${last}`,
      },
      {
        title: 'The prescription for Lisinopril (Rosa) ends Mar 12',
        body: 'Ask the doctor for a new prescription',
        url: `/medications/${ending}`,
        tag: `refill-${ending}`,
      },
    ]);

    // 'Refilled' makes a new supply, warned of anew: 12 pills on Mar 12 run out on the 18th.
    const refilled = await client.post(`/api/doses/refill/${inhaler}`, { pack_size: 2 });
    expect(refilled.status).toBe(200);
    expect(await sentBy('08:01', '2026-03-12')).toBe(2);
    expect(received(path, browser, from).map((p) => p.title)).toContain(
      'Amoxicillin for Rosa runs out Mar 18',
    );
  });

  it('says only "Refill due" with names hidden, and nothing when turned off', async () => {
    const { client, browser, path } = await subscribedAccount('Iris Chen', {
      medication_reminders: true,
    });
    const settings = (await client.get<RemindersState>('/api/reminders')).body.settings;
    await client.put('/api/reminders/settings', { ...settings, hide_names: true });
    await supplied(client, 'Amoxicillin', { quantity_on_hand: 4 });
    const from = push.messages.length;
    await job().runOnce(at('08:01'));
    expect(received(path, browser, from).filter((p) => p.title === 'Refill due')).toHaveLength(1);

    const off = await client.put<RemindersState>('/api/reminders/settings', {
      ...settings,
      refill_reminders: false,
    });
    expect(off.body.settings).toMatchObject({ refill_reminders: false, refill_days: 7 });
    await supplied(client, 'Ibuprofen', { quantity_on_hand: 2 });
    const later = push.messages.length;
    await job().runOnce(at('08:01', '2026-03-11'));
    expect(received(path, browser, later).filter((p) => p.tag.startsWith('refill-'))).toEqual([]);

    const bad = await client.put<{ message: string }>('/api/reminders/settings', {
      ...settings,
      refill_days: 0,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain(
      'Days Before Running Out must be a whole number from 1 to 60',
    );
  });
});
