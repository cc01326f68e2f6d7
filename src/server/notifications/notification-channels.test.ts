/**
 * An account's ntfy topic and webhook, end to end on the server, against a stand-in ntfy
 * server and webhook receiver on 127.0.0.1 (allowed by NOTIFY_ALLOWED_HOSTS, as an operator
 * with ntfy beside Kin would): the URLs as saved and refused, 'Send Test', the ntfy request
 * as ntfy documents its JSON publishing, the webhook's signature, a dose reminder's 'Taken'
 * and 'Skip' buttons (once, not expired, not tampered, nothing else), names hidden, retries
 * with back-off, the delivery log, and a caregiver's missed-dose alert on their webhook.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/date-values';
import type {
  ChannelTestAnswer,
  NotificationChannelsState,
  WebhookPayload,
  WebhookSaved,
} from '../../shared/notification-channels';
import type { GivenGrant } from '../../shared/household';
import type { RemindersState } from '../../shared/reminders';
import { acceptGrant } from '../test/grant-acceptance';
import { RETRY_DELAYS_MS } from '../runtime/job-queue';
import { instantOf } from '../reminders/time-zones';
import { sampleRecord } from '../test/factories';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';
import {
  startNotificationReceiver,
  type NotificationReceiver,
  type ReceivedRequest,
} from '../test/notification-receiver';
import { testReminderJob } from '../test/reminder-job';
import { createChannelRepository } from './channel-repository';
import { createDoseActions } from './dose-actions';
import { channelSender } from './notification-queue';
import { TEST_NOTIFICATION } from './notification-routes';
import { createLogger } from '../logger';

const server = useTestServer({ notifyAllowedHosts: ['127.0.0.1'] });
const ZONE = 'UTC';
// Today: a reminder's buttons work until the end of its day (and a little more).
const DAY = new Date().toISOString().slice(0, 10);
const at = (time: string) => instantOf(ZONE, DAY, time);

let receiver: NotificationReceiver;
beforeAll(async () => {
  receiver = await startNotificationReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const json = (request: ReceivedRequest) => JSON.parse(request.body) as Record<string, unknown>;

async function account(name: string, hideNames = false) {
  const { client } = await signedUpClient(server, name);
  const defaults = (await client.get<RemindersState>('/api/reminders')).body.settings;
  await client.put('/api/reminders/settings', {
    ...defaults,
    time_zone: ZONE,
    hide_names: hideNames,
  });
  return client;
}

async function medication(client: TestClient, overrides: Record<string, unknown>) {
  const response = await client.post<{ id: string }>(
    '/api/medications',
    sampleRecord('medication', {
      frequency: 'Daily',
      time_morning: false,
      time_noon: false,
      time_evening: false,
      time_night: false,
      start_date: addDays(DAY, -5),
      end_date: null,
      condition: 'Strep throat',
      ...overrides,
    }),
  );
  expect(response.status).toBe(201);
  return response.body.id;
}

const doseMarks = async (client: TestClient) =>
  (
    await client.get<{
      doses: { medication_name: string; slot: string; mark: { status: string } | null }[];
    }>(`/api/doses?today=${DAY}`)
  ).body.doses.map((d) => `${d.medication_name} ${d.slot}: ${d.mark?.status ?? 'due'}`);

/** A client with no session, as ntfy's app or a webhook's receiver is. */
const stranger = () => server.client();

describe('the channels’ URLs', () => {
  it('are refused, naming the field, where they would reach this machine or a private network', async () => {
    const client = await account('Ines Duarte');
    for (const [url, message] of [
      ['http://192.168.1.5/family', /ntfy Topic URL reaches this machine or a private network/],
      ['https://localhost/family', /reaches this machine or a private network/],
      ['https://10.1.2.3/family', /reaches this machine or a private network/],
      ['http://[::1]:8080/family', /reaches this machine or a private network/],
      ['http://ntfy.example.com/family', /ntfy Topic URL must use https/],
      ['ftp://ntfy.example.com/family', /must be an http or https URL/],
      ['https://ntfy.example.com/', /must end in the topic’s name/],
      ['', /ntfy Topic URL is required/],
    ] as const) {
      const refused = await client.put<{ message: string; field: string }>(
        '/api/notification-channels/ntfy',
        { url },
      );
      expect(refused.status, url).toBe(400);
      expect(refused.body.message).toMatch(message);
      expect(refused.body.field).toBe('url');
    }
    const webhook = await client.put<{ message: string }>('/api/notification-channels/webhook', {
      url: 'http://169.254.169.254/latest/meta-data',
    });
    expect(webhook.body.message).toMatch(/^Webhook URL reaches this machine/);
    const state = await client.get<NotificationChannelsState>('/api/notification-channels');
    expect(state.body).toEqual({ ntfy: null, webhook: null, deliveries: [] });

    // A public https host is taken; so is a host the operator listed, over plain http.
    const publicTopic = await client.put<NotificationChannelsState>(
      '/api/notification-channels/ntfy',
      { url: 'https://ntfy.example.com/ines-family' },
    );
    expect(publicTopic.body.ntfy).toEqual({ url: 'https://ntfy.example.com/ines-family' });
    const listed = await client.put<NotificationChannelsState>('/api/notification-channels/ntfy', {
      url: `${receiver.url}/ines-family`,
    });
    expect(listed.status).toBe(200);
  });

  it('are checked again as a notification is sent: a host no longer allowed is not reached', async () => {
    const client = await account('Omar Haddad');
    await client.put('/api/notification-channels/ntfy', { url: `${receiver.url}/omar` });
    const channels = createChannelRepository(
      server.db,
      'test-secret-test-secret-test-secret-0123456789',
    );
    const [stored] = await channels.channels(
      (
        await server.db
          .selectFrom('user')
          .select('id')
          .where('name', '=', 'Omar Haddad')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const from = receiver.requests.length;
    const send = channelSender({
      db: server.db,
      channels,
      allowedHosts: [],
      baseUrl: null,
      logger: createLogger('silent'),
    });
    await expect(send('someone', stored!, TEST_NOTIFICATION)).rejects.toThrow(
      /reaches this machine or a private network/,
    );
    expect(receiver.requests.length).toBe(from);
  });
});

describe('ntfy', () => {
  it('‘Send Test’ publishes as ntfy documents JSON publishing, and says what happened', async () => {
    const client = await account('Maya Lopez');
    // A server under a path prefix, with a user and password in the URL.
    const saved = await client.put<NotificationChannelsState>('/api/notification-channels/ntfy', {
      url: `http://maya:s%3Acret@127.0.0.1:${new URL(receiver.url).port}/ntfy/maya-family_1`,
    });
    expect(saved.status).toBe(200);
    const from = receiver.requests.length;
    const test = await client.post<ChannelTestAnswer>('/api/notification-channels/ntfy/test');
    expect(test.body).toMatchObject({ sent: true, message: 'Test sent to your ntfy topic.' });
    const request = receiver.requests[from]!;
    // POST to the root (here under its prefix), the topic in the body.
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/ntfy/');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from('maya:s:cret').toString('base64')}`,
    );
    expect(json(request)).toEqual({
      topic: 'maya-family_1',
      title: 'Test notification from Kin Health',
      message: 'Reminders will reach you here.',
      priority: 3,
      tags: ['white_check_mark'],
      click: 'http://localhost:3000/profile-settings',
    });
    expect(test.body.state.deliveries[0]).toMatchObject({
      channel: 'ntfy',
      outcome: 'sent',
      what: 'Test',
    });

    receiver.answerWith(403);
    const refused = await client.post<ChannelTestAnswer>('/api/notification-channels/ntfy/test');
    expect(refused.body).toMatchObject({ sent: false });
    expect(refused.body.message).toMatch(/^Test not sent: Refused with 403/);
    expect(refused.body.state.deliveries.map((d) => d.outcome)).toEqual(['failed', 'sent']);

    await client.put('/api/notification-channels/ntfy', { url: 'http://127.0.0.1:9/maya' });
    const nobody = await client.post<ChannelTestAnswer>('/api/notification-channels/ntfy/test');
    expect(nobody.body.message).toBe(
      'Test not sent: Nothing answered at that address (connection refused).',
    );
    // The URL (and its password) are never in the log.
    expect(JSON.stringify(nobody.body.state.deliveries)).not.toContain('127.0.0.1');
  });
});

describe('a webhook', () => {
  it('is signed with the account’s secret, shown once and made anew on request', async () => {
    const client = await account('Sam Okafor');
    const url = `${receiver.url}/hooks/kin`;
    const first = await client.put<WebhookSaved>('/api/notification-channels/webhook', { url });
    expect(first.body.secret).toMatch(/^whsec_[\w-]{43}$/);
    const again = await client.put<WebhookSaved>('/api/notification-channels/webhook', { url });
    expect(again.body.secret).toBeUndefined();
    expect(again.body.state.webhook).toEqual({ url });

    const from = receiver.requests.length;
    const test = await client.post<ChannelTestAnswer>('/api/notification-channels/webhook/test');
    expect(test.body).toMatchObject({ sent: true, message: 'Test sent to your webhook.' });
    const request = receiver.requests[from]!;
    expect(request.path).toBe('/hooks/kin');
    expect(request.headers['x-kin-event']).toBe('test');
    const timestamp = String(request.headers['x-kin-timestamp']);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const verify = (secret: string) =>
      `sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`;
    expect(request.headers['x-kin-signature']).toBe(verify(first.body.secret!));
    const payload = JSON.parse(request.body) as WebhookPayload;
    expect(payload).toMatchObject({
      event: 'test',
      kind: 'test',
      title: 'Test notification from Kin Health',
      url: 'http://localhost:3000/profile-settings',
      actions: [],
    });

    const renewed = await client.post<WebhookSaved>('/api/notification-channels/webhook/secret');
    expect(renewed.body.secret).toMatch(/^whsec_/);
    expect(renewed.body.secret).not.toBe(first.body.secret);
    await client.post('/api/notification-channels/webhook/test');
    const next = receiver.requests.at(-1)!;
    const signedWith = (secret: string) =>
      `sha256=${createHmac('sha256', secret).update(`${next.headers['x-kin-timestamp']}.${next.body}`).digest('hex')}`;
    expect(next.headers['x-kin-signature']).toBe(signedWith(renewed.body.secret!));
    expect(next.headers['x-kin-signature']).not.toBe(signedWith(first.body.secret!));

    // Another account cannot test, renew or remove it.
    const { client: other } = await signedUpClient(server, 'Nosy Neighbour');
    expect((await other.post('/api/notification-channels/webhook/test')).status).toBe(404);
    expect((await other.post('/api/notification-channels/webhook/secret')).status).toBe(404);
    await other.delete('/api/notification-channels/webhook');
    expect(
      (await client.get<NotificationChannelsState>('/api/notification-channels')).body.webhook,
    ).toEqual({ url });
  });
});

describe('a dose reminder on the channels', () => {
  let client: TestClient;
  let takenUrl: string;
  let skipUrl: string;

  it('goes to the ntfy topic with ‘Taken’ and ‘Skip’, and to the webhook, signed', async () => {
    client = await account('Lena Fischer');
    await client.put('/api/notification-channels/ntfy', { url: `${receiver.url}/lena` });
    const hook = await client.put<WebhookSaved>('/api/notification-channels/webhook', {
      url: `${receiver.url}/lena-hook`,
    });
    await medication(client, {
      medication_name: 'Amoxicillin',
      dosage: '250 mg',
      time_morning: true,
    });
    await medication(client, { medication_name: 'Ibuprofen', dosage: null, time_morning: true });
    await medication(client, { medication_name: 'Vitamin D', dosage: null, time_noon: true });

    const job = testReminderJob(server.db, { notifications: server.notifications });
    expect((await job.runOnce(at('08:05'))).sent).toBe(1);
    const from = receiver.requests.length;
    expect(await server.notificationSender.runOnce(at('08:05'))).toEqual({ sent: 2, failed: 0 });
    const received = receiver.requests.slice(from);
    const ntfy = received.find((r) => r.path === '/')!;
    const body = json(ntfy);
    expect(body).toMatchObject({
      topic: 'lena',
      title: 'Morning medication for Lena Fischer',
      message: 'Amoxicillin 250 mg, Ibuprofen',
      priority: 4,
      tags: ['pill'],
      click: 'http://localhost:3000/',
    });
    const actions = body.actions as {
      action: string;
      label: string;
      url: string;
      method: string;
      clear: boolean;
    }[];
    expect(
      actions.map(({ action, label, method, clear }) => ({ action, label, method, clear })),
    ).toEqual([
      { action: 'http', label: 'Taken', method: 'POST', clear: true },
      { action: 'http', label: 'Skip', method: 'POST', clear: true },
    ]);
    for (const action of actions) {
      expect(action.url).toMatch(/^http:\/\/localhost:3000\/api\/dose-actions\/[\w-]{43}$/);
    }
    [takenUrl, skipUrl] = actions.map((a) => new URL(a.url).pathname) as [string, string];

    const webhook = received.find((r) => r.path === '/lena-hook')!;
    const payload = JSON.parse(webhook.body) as WebhookPayload;
    expect(payload).toMatchObject({
      event: 'reminder',
      kind: 'dose',
      title: 'Morning medication for Lena Fischer',
      body: 'Amoxicillin 250 mg, Ibuprofen',
      tag: `dose-${DAY}-Morning`,
    });
    expect(payload.actions.map((a) => [a.label, a.method])).toEqual([
      ['Taken', 'POST'],
      ['Skip', 'POST'],
    ]);
    const signature = createHmac('sha256', hook.body.secret!)
      .update(`${webhook.headers['x-kin-timestamp']}.${webhook.body}`)
      .digest('hex');
    expect(webhook.headers['x-kin-signature']).toBe(`sha256=${signature}`);
    // Never a diagnosis.
    expect(received.map((r) => r.body).join()).not.toContain('Strep');
    const log = (await client.get<NotificationChannelsState>('/api/notification-channels')).body;
    expect(log.deliveries.slice(0, 2).map((d) => [d.outcome, d.what])).toEqual([
      ['sent', 'Medication reminder'],
      ['sent', 'Medication reminder'],
    ]);
  });

  it('‘Taken’ marks the reminder’s doses once, with no sign-in; a GET marks nothing', async () => {
    // A browser or a link preview opening the link: a page with a button, nothing marked.
    const preview = await stranger().request('GET', takenUrl, undefined, { accept: 'text/html' });
    expect(preview.status).toBe(200);
    expect(String(preview.body)).toContain('<form method="post">');
    expect(await doseMarks(client)).toEqual([
      'Amoxicillin Morning: due',
      'Ibuprofen Morning: due',
      'Vitamin D Noon: due',
    ]);

    const taken = await stranger().request('POST', takenUrl, undefined, { origin: 'null' });
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual({ status: 'taken', marked: 2 });
    // Those doses, and no other.
    expect(await doseMarks(client)).toEqual([
      'Amoxicillin Morning: taken',
      'Ibuprofen Morning: taken',
      'Vitamin D Noon: due',
    ]);
    // Used up: again, and its reminder's other button, are refused.
    expect((await stranger().request('POST', takenUrl)).status).toBe(410);
    expect((await stranger().request('POST', skipUrl)).status).toBe(410);
    expect(await doseMarks(client)).toContain('Amoxicillin Morning: taken');

    const activity =
      await client.get<{ event: string; detail: string }[]>('/api/security-activity');
    expect(activity.body.map((e) => e.event)).toEqual(
      expect.arrayContaining(['dose_marked_from_notification', 'verification_failed']),
    );
  });

  it('refuses a tampered token, an expired one, and reaches no other dose or account', async () => {
    const tampered = takenUrl.slice(0, -1) + (takenUrl.endsWith('A') ? 'B' : 'A');
    expect((await stranger().request('POST', tampered)).status).toBe(404);
    expect((await stranger().request('POST', '/api/dose-actions/not-a-token')).status).toBe(404);
    // A path that climbs out of the token's is some other route, which asks for a session.
    expect((await stranger().request('POST', `${takenUrl}/../../doses`)).status).toBe(401);

    const owner = await server.db
      .selectFrom('user')
      .select('id')
      .where('name', '=', 'Lena Fischer')
      .executeTakeFirstOrThrow();
    const vitaminD = await server.db
      .selectFrom('medications')
      .select('id')
      .where('medication_name', '=', 'Vitamin D')
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    const actions = createDoseActions(server.db);
    // Yesterday's buttons ended at noon today: refused, and nothing marked.
    const [expired] = await actions.makeButtons({
      owner: owner.id,
      medication_ids: [vitaminD.id],
      day: addDays(DAY, -2),
      slot: 'Noon',
      group_key: 'expired test',
      time_zone: ZONE,
    });
    expect((await stranger().request('POST', `/api/dose-actions/${expired!.token}`)).status).toBe(
      410,
    );

    // A token names its owner's medications only: one naming another account's medication
    // marks nothing of theirs.
    const other = await account('Other Owner');
    const theirs = await medication(other, { medication_name: 'Metformin', time_noon: true });
    const [crossed] = await actions.makeButtons({
      owner: owner.id,
      medication_ids: [theirs],
      day: DAY,
      slot: 'Noon',
      group_key: 'crossed test',
      time_zone: ZONE,
    });
    const answer = await stranger().request('POST', `/api/dose-actions/${crossed!.token}`);
    expect(answer.body).toEqual({ status: 'taken', marked: 0 });
    expect(await doseMarks(other)).toEqual(['Metformin Noon: due']);
    expect(await doseMarks(client)).toContain('Vitamin D Noon: due');
  });

  it('hides names when the account hides them on the lock screen', async () => {
    const hidden = await account('Noor Rahman', true);
    await hidden.put('/api/notification-channels/ntfy', { url: `${receiver.url}/noor` });
    const hook = await hidden.put<WebhookSaved>('/api/notification-channels/webhook', {
      url: `${receiver.url}/noor-hook`,
    });
    expect(hook.status).toBe(200);
    await medication(hidden, { medication_name: 'Sertraline', time_evening: true });
    await testReminderJob(server.db, { notifications: server.notifications }).runOnce(at('18:02'));
    const from = receiver.requests.length;
    await server.notificationSender.runOnce(at('18:02'));
    const bodies = receiver.requests.slice(from).map((r) => r.body);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body).toContain('Medication due');
      expect(body).not.toContain('Sertraline');
      expect(body).not.toContain('Noor');
    }
  });
});

describe('other reminders on the channels', () => {
  it('a visit reminder goes to the webhook too, with no buttons', async () => {
    const client = await account('Yuki Tanaka');
    await client.put('/api/notification-channels/webhook', { url: `${receiver.url}/yuki` });
    const visitAt = instantOf(ZONE, addDays(DAY, 1), '15:00');
    const visit = await client.post<{ id: string }>(
      '/api/visits',
      sampleRecord('visit', {
        visit_name: 'Dental check-up',
        doctor_name: 'Dr. Chen',
        office_name: 'Elm Street Clinic',
        visit_date: visitAt.toISOString(),
      }),
    );
    expect(visit.status).toBe(201);
    const job = testReminderJob(server.db, { notifications: server.notifications });
    expect((await job.runOnce(at('15:01'))).sent).toBe(1);
    const from = receiver.requests.length;
    expect(await server.notificationSender.runOnce(at('15:01'))).toEqual({ sent: 1, failed: 0 });
    const payload = JSON.parse(receiver.requests[from]!.body) as WebhookPayload;
    expect(payload).toMatchObject({
      event: 'reminder',
      kind: 'visit',
      title: 'Visit for Yuki Tanaka tomorrow at 3:00 PM',
      body: 'Dr. Chen, Elm Street Clinic',
      url: `http://localhost:3000/visits/${visit.body.id}`,
      actions: [],
    });
  });
});

describe('retries', () => {
  it('tries a failed notification again after a growing pause, logging each try, then gives up', async () => {
    const client = await account('Ravi Patel');
    await client.put('/api/notification-channels/ntfy', { url: `${receiver.url}/ravi` });
    await medication(client, { medication_name: 'Lisinopril', time_night: true });
    await testReminderJob(server.db, { notifications: server.notifications }).runOnce(at('22:01'));
    const sender = server.notificationSender;
    const now = at('22:01');
    receiver.answerWith(503);
    expect(await sender.runOnce(now)).toEqual({ sent: 0, failed: 0 });
    // Not again before its pause is over.
    const before = receiver.requests.length;
    expect(await sender.runOnce(new Date(now.getTime() + 1000))).toEqual({ sent: 0, failed: 0 });
    expect(receiver.requests.length).toBe(before);
    expect(await sender.runOnce(new Date(now.getTime() + RETRY_DELAYS_MS[0]! + 1000))).toEqual({
      sent: 1,
      failed: 0,
    });
    const log = (await client.get<NotificationChannelsState>('/api/notification-channels')).body;
    expect(log.deliveries.map((d) => [d.outcome, d.detail])).toEqual([
      ['sent', 'Delivered'],
      ['retried', 'Answered 503; trying again in 1 min'],
    ]);

    // Every try failing: after the last, given up.
    await testReminderJob(server.db, { notifications: server.notifications }).runOnce(
      instantOf(ZONE, DAY, '22:00'),
    );
    await client.put('/api/reminders/settings', {
      ...(await client.get<RemindersState>('/api/reminders')).body.settings,
      time_morning: '06:00',
    });
    await medication(client, { medication_name: 'Aspirin', time_morning: true });
    await testReminderJob(server.db, { notifications: server.notifications }).runOnce(at('06:01'));
    let time = at('06:01').getTime();
    receiver.answerWith(...RETRY_DELAYS_MS.map(() => 500), 500);
    for (const delay of RETRY_DELAYS_MS) {
      expect(await sender.runOnce(new Date(time))).toEqual({ sent: 0, failed: 0 });
      time += delay + 1000;
    }
    expect(await sender.runOnce(new Date(time))).toEqual({ sent: 0, failed: 1 });
    const after = (await client.get<NotificationChannelsState>('/api/notification-channels')).body;
    expect(after.deliveries[0]).toMatchObject({
      outcome: 'failed',
      detail: 'Answered 500; given up',
    });
    expect(after.deliveries.filter((d) => d.outcome === 'retried')).toHaveLength(
      RETRY_DELAYS_MS.length + 1,
    );
  });

  it('drops what was queued for a channel removed since', async () => {
    const client = await account('Zoe Martin');
    await client.put('/api/notification-channels/ntfy', { url: `${receiver.url}/zoe` });
    await medication(client, { medication_name: 'Levothyroxine', time_morning: true });
    await testReminderJob(server.db, { notifications: server.notifications }).runOnce(at('08:03'));
    await client.delete('/api/notification-channels/ntfy');
    const from = receiver.requests.length;
    expect(await server.notificationSender.runOnce(at('08:03'))).toEqual({ sent: 0, failed: 0 });
    expect(receiver.requests.length).toBe(from);
  });
});

describe('a missed-dose alert on a caregiver’s webhook', () => {
  it('comes the delay after the dose’s time, signed, and not for a dose marked meanwhile', async () => {
    const owner = await account('Olga Marin');
    const mia = (await owner.post<{ id: string }>('/api/family-members', { name: 'Mia Marin' }))
      .body.id;
    const amoxicillin = await medication(owner, {
      medication_name: 'Amoxicillin',
      dosage: '250 mg',
      time_morning: true,
      time_noon: true,
      family_member_id: mia,
    });
    // The caregiver has no device: only a webhook.
    const { client: caregiver, email } = await signedUpClient(server, 'Carla Marin');
    await caregiver.put<WebhookSaved>('/api/notification-channels/webhook', {
      url: `${receiver.url}/carla-hook`,
    });
    const granted = await owner.post<GivenGrant>('/api/household/grants', {
      personId: mia,
      email,
      role: 'viewer',
      missedDoseAlert: true,
      alertAfterMinutes: 30,
    });
    await acceptGrant(caregiver, granted);

    const job = testReminderJob(server.db, { notifications: server.notifications });
    const hooked = async (time: string) => {
      const from = receiver.requests.length;
      await job.runOnce(at(time));
      await server.notificationSender.runOnce(at(time));
      return receiver.requests
        .slice(from)
        .filter((request) => request.path === '/carla-hook')
        .map((request) => json(request));
    };
    // Morning is 08:00: not yet at 08:29, once at 08:31, not again.
    expect(await hooked('08:29')).toEqual([]);
    expect(await hooked('08:31')).toEqual([
      expect.objectContaining({
        event: 'reminder',
        kind: 'missed-dose',
        title: 'Mia has not taken Amoxicillin (Morning)',
        tag: `missed-${amoxicillin}-${DAY}-Morning`,
      }),
    ]);
    expect(await hooked('08:40')).toEqual([]);

    // The Noon dose marked before its delay is over: no alert.
    const marked = await owner.post('/api/doses', {
      medication_id: amoxicillin,
      day: DAY,
      slot: 'Noon',
      status: 'taken',
    });
    expect(marked.status).toBe(201);
    expect(await hooked('12:31')).toEqual([]);
  });
});
