/**
 * Mail that helps (issue 34, item 3), through a real SMTP server: a household grant mails
 * the grantee its acceptance code (and the owner is not shown it); a sign-in from a device
 * that has not signed in as the account before mails the account holder a notice, never the
 * sign-up. No delivered mail carries health details beyond a person's first name.
 */
import { describe, expect, it } from 'vitest';
import type { GivenGrant } from '../../shared/household';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { signedUpClient, TEST_ORIGIN, type TestClient } from '../test/harness';
import { useMailTestServer } from '../test/mail-test-server';
import { currentCode, twoFactorUser } from '../test/two-factor';
import type { RemindersState } from '../../shared/reminders';
import { testReminderJob } from '../test/reminder-job';
import { dailyMedication } from '../test/reminder-devices';
import { instantOf } from '../reminders/time-zones';
import { linkIn, type ReceivedMail } from '../test/smtp-server';

const mailed = useMailTestServer();
const { server } = mailed;

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** Health details the owner keeps that no mail may carry. */
const HEALTH_DETAILS = ['Lisinopril', 'Asthma', 'Jones', '10 mg', 'Blood pressure'];

/** Sends what is queued; the mails that arrived for `email`. */
async function mailsTo(email: string) {
  await server.mailSender?.runOnce();
  return mailed.smtp.received.filter((mail) => mail.envelopeTo.includes(email));
}

function expectNoHealthDetails(mail: ReceivedMail) {
  const whole = `${mail.parsed.subject ?? ''}\n${mail.parsed.text ?? ''}\n${mail.parsed.html || ''}`;
  for (const detail of HEALTH_DETAILS) expect(whole).not.toContain(detail);
}

async function mia(owner: TestClient) {
  const person = await expectStatus(
    owner.post<{ id: string }>('/api/family-members', { name: 'Mia Jones' }),
  );
  await expectStatus(
    owner.post('/api/medications', sampleRecord('medication', { family_member_id: person.id })),
  );
  await expectStatus(
    owner.post('/api/history', sampleRecord('condition', { family_member_id: person.id })),
  );
  return person;
}

describe('a household grant', () => {
  it('mails the grantee the acceptance code, with the server address and no health data', async () => {
    const owner = await signedUpClient(server, 'Cara Jones');
    const grantee = await signedUpClient(server, 'Dan Smith');
    const person = await mia(owner.client);
    const given = await expectStatus(
      owner.client.post<GivenGrant>('/api/household/grants', {
        personId: person.id,
        email: grantee.email,
        role: 'viewer',
      }),
    );
    // The code went by mail: the owner is not shown it.
    expect(given).toMatchObject({ status: 'pending', acceptanceCode: null });
    expect(mailed.smtp.received.some((mail) => mail.envelopeTo.includes(grantee.email))).toBe(
      false,
    );

    const [mail] = await mailsTo(grantee.email);
    expect(mail).toBeDefined();
    if (!mail) return;
    expect(mail.secure).toBe(true);
    expect(mail.parsed.subject).toBe("Cara shared Mia's records with you on Kin Health");
    expect(mail.parsed.to && !Array.isArray(mail.parsed.to) ? mail.parsed.to.text : '').toBe(
      grantee.email,
    );
    expect(mail.parsed.text).toContain(TEST_ORIGIN);
    expect(linkIn(mail)).toBe(`${TEST_ORIGIN}/profiles`);
    expectNoHealthDetails(mail);

    // The code in the mail is the grant's: the grantee accepts with it.
    const code = /\b([A-Z2-9]{5}-[A-Z2-9]{5})\b/.exec(mail.parsed.text ?? '')?.[1] ?? '';
    expect(code).not.toBe('');
    expect(mail.parsed.html).toContain(code);
    expect((await grantee.client.post('/api/household/accept', { code })).status).toBe(204);
  });
});

describe('a sign-in from a new device', () => {
  it('mails the account holder a notice, but not for the sign-up or a known device', async () => {
    const { client, email, password } = await signedUpClient(server, 'Cara Jones');
    // The sign-up is no new device, nor is the device that signed up signing in again.
    expect(await mailsTo(email)).toHaveLength(0);
    expect((await client.signIn({ email, password })).status).toBe(200);
    expect(await mailsTo(email)).toHaveLength(0);

    const phone = server.client().withHeaders({ 'user-agent': IPHONE });
    const before = Date.now();
    expect((await phone.signIn({ email, password })).status).toBe(200);
    const [notice, ...more] = await mailsTo(email);
    expect(more).toHaveLength(0);
    expect(notice).toBeDefined();
    if (!notice) return;
    expect(notice.parsed.subject).toBe('New sign-in to your Kin Health account');
    expect(notice.parsed.text).toContain('Hello Cara,');
    expect(notice.parsed.text).toContain('Device: Safari on iOS');
    const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(
      before,
    );
    expect(notice.parsed.text).toContain(`Time: ${day}`);
    expect(notice.parsed.text).toContain('Not you? Change your password');
    expect(linkIn(notice)).toBe(`${TEST_ORIGIN}/profile-settings`);
    expectNoHealthDetails(notice);

    // That device is known now.
    expect((await phone.signIn({ email, password })).status).toBe(200);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('with two-factor sign-in, tells once, when the code completes the sign-in', async () => {
    const { email, password, secret } = await twoFactorUser(server, 'Cara Jones');
    const phone = server.client().withHeaders({ 'user-agent': IPHONE });
    const challenged = await phone.signIn({ email, password });
    expect(challenged.body).toMatchObject({ twoFactorRedirect: true });
    // The password alone is not a sign-in yet.
    expect(await mailsTo(email)).toHaveLength(0);
    const verified = await phone.post('/api/auth/two-factor/verify-totp', {
      code: await currentCode(secret),
    });
    expect(verified.status).toBe(200);
    const notices = (await mailsTo(email)).filter(
      (mail) => mail.parsed.subject === 'New sign-in to your Kin Health account',
    );
    expect(notices).toHaveLength(1);
  });

  it('sends nothing for a wrong password', async () => {
    const { email } = await signedUpClient(server, 'Cara Jones');
    const stranger = server.client();
    expect((await stranger.signIn({ email, password: 'not-the-password' })).status).toBe(401);
    expect(await mailsTo(email)).toHaveLength(0);
  });
});

describe('reminders by email', () => {
  const ZONE = 'America/New_York';
  const job = () => testReminderJob(server.db, { outbox: server.outbox });

  it("with 'Email reminders' on, mails each due reminder once: first name and kind only", async () => {
    const { client, email } = await signedUpClient(server, 'Cara Jones');
    const person = await mia(client);
    await expectStatus(
      client.post(
        '/api/medications',
        sampleRecord('medication', {
          family_member_id: person.id,
          frequency: 'Daily',
          time_morning: true,
          time_noon: false,
          time_evening: false,
          time_night: false,
          start_date: '2026-03-01',
          end_date: null,
        }),
      ),
    );
    const state = await client.get<RemindersState>('/api/reminders');
    const settings = { ...state.body.settings, time_zone: ZONE };
    // Off: nothing by email.
    expect((await client.put('/api/reminders/settings', settings)).status).toBe(200);
    const due = instantOf(ZONE, '2026-03-10', '08:01');
    await job().runOnce(due);
    expect(await mailsTo(email)).toHaveLength(0);

    const on = await client.put<RemindersState>('/api/reminders/settings', {
      ...settings,
      email_reminders: true,
    });
    expect(on.body.settings.email_reminders).toBe(true);
    const next = instantOf(ZONE, '2026-03-11', '08:01');
    expect((await job().runOnce(next)).sent).toBe(1);
    const [mail, ...more] = await mailsTo(email);
    expect(more).toHaveLength(0);
    expect(mail?.parsed.subject).toBe('Medication due: Mia');
    expect(mail?.parsed.text).toContain('Medication due for Mia.');
    if (mail) expectNoHealthDetails(mail);
    // Once only, as by push.
    expect((await job().runOnce(next)).sent).toBe(0);
    expect(await mailsTo(email)).toHaveLength(1);

    // A visit two hours away: 'Visit reminder', without the doctor or the place.
    const later = instantOf(ZONE, '2026-03-11', '14:00');
    await expectStatus(
      client.post(
        '/api/visits',
        sampleRecord('visit', {
          family_member_id: person.id,
          visit_date: new Date(later.getTime() + 2 * 60 * 60 * 1000).toISOString(),
        }),
      ),
    );
    expect((await job().runOnce(later)).sent).toBe(1);
    const visit = (await mailsTo(email)).find((m) => m.parsed.subject === 'Visit reminder: Mia');
    expect(visit?.parsed.text).toContain('Visit reminder for Mia.');
    for (const detail of ['Dr. Patel', 'Riverside Clinic', 'Annual checkup']) {
      expect(visit?.parsed.text).not.toContain(detail);
    }
    if (visit) expectNoHealthDetails(visit);
  });

  it("mails a grantee with 'Email reminders' on a missed-dose alert: first name and kind only", async () => {
    const owner = await signedUpClient(server, 'Cara Jones');
    const grantee = await signedUpClient(server, 'Dan Smith');
    const person = await expectStatus(
      owner.client.post<{ id: string }>('/api/family-members', { name: 'Mia Jones' }),
    );
    await dailyMedication(owner.client, {
      family_member_id: person.id,
      medication_name: 'Lisinopril',
      time_morning: true,
      start_date: '2026-03-01',
    });
    const ownerSettings = (await owner.client.get<RemindersState>('/api/reminders')).body.settings;
    await owner.client.put('/api/reminders/settings', { ...ownerSettings, time_zone: ZONE });
    const settings = (await grantee.client.get<RemindersState>('/api/reminders')).body.settings;
    await grantee.client.put('/api/reminders/settings', { ...settings, email_reminders: true });
    await expectStatus(
      owner.client.post<GivenGrant>('/api/household/grants', {
        personId: person.id,
        email: grantee.email,
        role: 'viewer',
        missedDoseAlert: true,
        alertAfterMinutes: 30,
      }),
    );
    const [invitation] = await mailsTo(grantee.email);
    const code = /\b([A-Z2-9]{5}-[A-Z2-9]{5})\b/.exec(invitation?.parsed.text ?? '')?.[1] ?? '';
    expect((await grantee.client.post('/api/household/accept', { code })).status).toBe(204);

    // Counted in the grantee's mail: the job also runs for the other tests' accounts.
    const alerts = async () =>
      (await mailsTo(grantee.email)).filter((mail) => mail.parsed.subject === 'Missed dose: Mia');
    await job().runOnce(instantOf(ZONE, '2026-03-12', '08:29'));
    expect(await alerts()).toHaveLength(0);
    await job().runOnce(instantOf(ZONE, '2026-03-12', '08:31'));
    await job().runOnce(instantOf(ZONE, '2026-03-12', '08:32'));
    expect(await alerts()).toHaveLength(1);
    const [alert] = await alerts();
    expect(alert?.parsed.text).toContain('Missed dose for Mia.');
    if (alert) expectNoHealthDetails(alert);
  });
});
