/**
 * Missed-dose alerts end to end on the server: an owner shares Mia with 'Alert when a dose is
 * missed' after 45 minutes; the reminder job, on a fixed clock, alerts the grantee's device
 * (a stand-in push service on 127.0.0.1, the message decrypted with the device's keys) once a
 * dose of Mia's at a time of day is still unmarked 45 minutes after the owner's time for it:
 * not before, not for a dose marked meanwhile, once across instances, with names hidden when
 * the grantee asked, and never for a grant not accepted, ended or removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/date-values';
import type { GivenGrant, Household } from '../../shared/household';
import type { RemindersState } from '../../shared/reminders';
import { acceptGrant } from '../test/grant-acceptance';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';
import { startPushService, type PushService } from '../test/push-service';
import {
  dailyMedication,
  receivedBy,
  subscribedAccount,
  type Device,
} from '../test/reminder-devices';
import { testReminderJob } from '../test/reminder-job';
import { dayIn, instantOf } from './time-zones';

const server = useTestServer();
const ZONE = 'America/Chicago';
// Two days ago: a day whose doses the API still lets the owner mark.
const DAY = addDays(dayIn(ZONE, new Date()), -2);
const at = (time: string, day = DAY) => instantOf(ZONE, day, time);
const job = () => testReminderJob(server.db);

let push: PushService;
beforeAll(async () => {
  push = await startPushService();
});
afterAll(async () => {
  await push.close();
});

/** An account in a time zone with one device subscribed to medication reminders. */
const withDevice = (name: string, zone: string) =>
  subscribedAccount(server, push, name, zone, { medication_reminders: true });

const received = (device: Device, from = 0) => receivedBy(push, device, from);

const medication = (client: TestClient, values: Record<string, unknown>) =>
  dailyMedication(client, { dosage: '250 mg', start_date: addDays(DAY, -10), ...values });

describe('missed-dose alerts', () => {
  let owner: TestClient;
  let grantee: Awaited<ReturnType<typeof withDevice>>;
  let stranger: Awaited<ReturnType<typeof withDevice>>;
  let miaId: string;
  let amoxicillin: string;
  let grant: GivenGrant;

  it('are a setting of a grant, checked and named, and in the owner’s security activity', async () => {
    ({ client: owner } = await signedUpClient(server, 'Olivia Rivera'));
    // The owner has no device: the alerts go by the owner's times, to the grantee.
    const defaults = (await owner.get<RemindersState>('/api/reminders')).body.settings;
    await owner.put('/api/reminders/settings', { ...defaults, time_zone: ZONE });
    miaId = (await owner.post<{ id: string }>('/api/family-members', { name: 'Mia Rivera' })).body
      .id;
    // The grantee is elsewhere: the owner's time zone is the one that counts.
    grantee = await withDevice('Grace Kim', 'Asia/Tokyo');
    stranger = await withDevice('Sam Park', ZONE);

    const base = { personId: miaId, email: grantee.email, role: 'viewer' };
    for (const [values, field] of [
      [{ missedDoseAlert: true, alertAfterMinutes: 4 }, 'alertAfterMinutes'],
      [{ missedDoseAlert: true, alertAfterMinutes: 1441 }, 'alertAfterMinutes'],
      [{ missedDoseAlert: true, alertAfterMinutes: 12.5 }, 'alertAfterMinutes'],
      [{ missedDoseAlert: true, alertAfterMinutes: 'soon' }, 'alertAfterMinutes'],
      [{ missedDoseAlert: 'yes' }, 'missedDoseAlert'],
    ] as const) {
      const refused = await owner.post<{ message: string; field: string }>(
        '/api/household/grants',
        { ...base, ...values },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.field).toBe(field);
      expect(refused.body.message).toMatch(
        field === 'alertAfterMinutes'
          ? 'Alert after (minutes) must be a whole number from 5 to 1440'
          : 'Alert when a dose is missed must be on or off',
      );
    }
    // Nothing was granted by the refusals.
    expect((await owner.get<Household>('/api/household')).body.given).toEqual([]);

    const off = await owner.post<GivenGrant>('/api/household/grants', base);
    expect(off.body.alertAfterMinutes).toBeNull();
    await acceptGrant(grantee.client, off);
    const on = await owner.post<GivenGrant>('/api/household/grants', {
      ...base,
      missedDoseAlert: true,
      alertAfterMinutes: 45,
    });
    expect(on.status).toBe(201);
    expect(on.body).toMatchObject({ status: 'accepted', alertAfterMinutes: 45 });
    grant = on.body;
    expect((await owner.get<Household>('/api/household')).body.given).toMatchObject([
      { id: grant.id, alertAfterMinutes: 45 },
    ]);
    const activity = (
      await owner.get<{ event: string; detail: string }[]>('/api/security-activity')
    ).body;
    expect(activity).toContainEqual(
      expect.objectContaining({
        event: 'access_changed',
        detail: `${grantee.email} · Mia Rivera · Viewer · Alert after 45 minutes`,
      }),
    );
    // A grant not yet accepted alerts no one.
    const pending = await owner.post<GivenGrant>('/api/household/grants', {
      ...base,
      email: stranger.email,
      missedDoseAlert: true,
      alertAfterMinutes: 5,
    });
    expect(pending.body.status).toBe('pending');
  });

  it('alert the grantee once a dose is still unmarked the delay after its time, once', async () => {
    amoxicillin = await medication(owner, {
      medication_name: 'Amoxicillin',
      family_member_id: miaId,
      time_morning: true,
      time_noon: true,
      time_evening: true,
    });
    // Not alerted: as needed, at no set time, and the owner's own (not shared).
    await medication(owner, {
      medication_name: 'Ibuprofen',
      family_member_id: miaId,
      frequency: 'As Needed',
    });
    await medication(owner, {
      medication_name: 'Fish oil',
      family_member_id: miaId,
      no_set_time: true,
    });
    await medication(owner, { medication_name: 'Vitamin D', time_morning: true });

    // Morning is 08:00 (the owner's default), in Chicago.
    expect((await job().runOnce(at('08:44'))).sent).toBe(0);
    expect(received(grantee)).toEqual([]);
    const runs = await Promise.all([job().runOnce(at('08:46')), job().runOnce(at('08:46'))]);
    expect(runs[0].sent + runs[1].sent).toBe(1);
    expect((await job().runOnce(at('08:50'))).sent).toBe(0);
    expect(received(grantee)).toEqual([
      {
        title: 'Mia has not taken Amoxicillin (Morning)',
        body: '',
        url: '/',
        tag: `missed-${amoxicillin}-${DAY}-Morning`,
      },
    ]);
    expect(received(stranger)).toEqual([]);
  });

  it('send nothing for a dose marked before the delay is over', async () => {
    const marked = await owner.post('/api/doses', {
      medication_id: amoxicillin,
      day: DAY,
      slot: 'Noon',
      status: 'taken',
    });
    expect(marked.status, JSON.stringify(marked.body)).toBe(201);
    const from = push.messages.length;
    expect((await job().runOnce(at('12:46'))).sent).toBe(0);
    expect(received(grantee, from)).toEqual([]);
  });

  it('hide the names when the grantee asked', async () => {
    const state = await grantee.client.get<RemindersState>('/api/reminders');
    await grantee.client.put('/api/reminders/settings', {
      ...state.body.settings,
      hide_names: true,
    });
    const from = push.messages.length;
    expect((await job().runOnce(at('08:50', addDays(DAY, 1)))).sent).toBe(1);
    expect(received(grantee, from)).toEqual([
      {
        title: 'Missed dose',
        body: '',
        url: '/',
        tag: `missed-${amoxicillin}-${addDays(DAY, 1)}-Morning`,
      },
    ]);
    await grantee.client.put('/api/reminders/settings', { ...state.body.settings });
  });

  it('stop when the grant ends, is turned off or removed', async () => {
    const from = push.messages.length;
    // Ended: its last day is over.
    await server.db
      .updateTable('access_grants')
      .set({ ends_at: at('00:00').toISOString() })
      .where('id', '=', grant.id)
      .execute();
    expect((await job().runOnce(at('18:50'))).sent).toBe(0);
    await server.db
      .updateTable('access_grants')
      .set({ ends_at: null })
      .where('id', '=', grant.id)
      .execute();
    // Turned off.
    const off = await owner.post<GivenGrant>('/api/household/grants', {
      personId: miaId,
      email: grantee.email,
      role: 'viewer',
    });
    expect(off.body.alertAfterMinutes).toBeNull();
    expect((await job().runOnce(at('18:50', addDays(DAY, 1)))).sent).toBe(0);
    // On again, then removed.
    await owner.post('/api/household/grants', {
      personId: miaId,
      email: grantee.email,
      role: 'viewer',
      missedDoseAlert: true,
    });
    expect((await owner.delete(`/api/household/grants/${grant.id}`)).status).toBe(204);
    // The default delay (60 minutes) would have alerted of the evening dose at 19:00.
    expect((await job().runOnce(at('19:01', addDays(DAY, 2)))).sent).toBe(0);
    expect(received(grantee, from)).toEqual([]);
    expect(received(stranger)).toEqual([]);
  });
});
