/**
 * Mail in the account's language (CONTRACT §6 'Languages'), through a real SMTP server: an
 * account that reads German gets its reminders in German, whatever language the request
 * that queued them spoke; a reset link asked for at the sign-in screen, for an account that
 * chose no language, comes in the language it was asked in.
 */
import { describe, expect, it } from 'vitest';
import type { RemindersState } from '../../shared/reminders';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { signedUpClient } from '../test/harness';
import { useMailTestServer } from '../test/mail-test-server';
import { testReminderJob } from '../test/reminder-job';
import { instantOf } from '../reminders/time-zones';

const mailed = useMailTestServer();
const { server } = mailed;

async function mailsTo(email: string) {
  await server.mailSender?.runOnce();
  return mailed.smtp.received.filter((mail) => mail.envelopeTo.includes(email));
}

describe('mail in the account language', () => {
  const ZONE = 'Europe/Berlin';

  it('mails an account that reads German its reminders in German', async () => {
    const { client, email } = await signedUpClient(server, 'Greta Vogel');
    const person = await expectStatus(
      client.post<{ id: string }>('/api/family-members', { name: 'Mia Vogel' }),
    );
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
    await expectStatus(client.patch('/api/profile', { language: 'de' }), 200);
    const state = await client.get<RemindersState>('/api/reminders');
    await expectStatus(
      client.put('/api/reminders/settings', {
        ...state.body.settings,
        time_zone: ZONE,
        email_reminders: true,
      }),
      200,
    );

    const job = testReminderJob(server.db, { outbox: server.outbox });
    expect((await job.runOnce(instantOf(ZONE, '2026-03-11', '08:01'))).sent).toBe(1);
    const [mail, ...more] = await mailsTo(email);
    expect(more).toHaveLength(0);
    expect(mail?.parsed.subject).toBe('Medikament fällig: Mia');
    expect(mail?.parsed.text).toContain('Medikament fällig: Mia.');
    expect(mail?.parsed.text).toContain('Öffnen Sie Kin Health, um zu sehen, was fällig ist.');
    expect(mail?.parsed.html).toContain('<html lang="de"');
    expect(mail?.parsed.html).toContain('Kin Health öffnen');
  });

  it('writes a new sign-in’s time in the account’s language, whatever the signing-in device speaks', async () => {
    const { client, email, password } = await signedUpClient(server, 'Greta Vogel');
    await expectStatus(client.patch('/api/profile', { language: 'de' }), 200);
    const phone = server.client().withHeaders({ 'accept-language': 'fr' });
    const before = new Date();
    expect((await phone.signIn({ email, password })).status).toBe(200);
    const [notice] = await mailsTo(email);
    expect(notice?.parsed.subject).toBe('Neue Anmeldung bei Ihrem Kin Health-Konto');
    const day = new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeZone: 'UTC' }).format(
      before,
    );
    expect(notice?.parsed.text).toMatch(new RegExp(`Zeit: ${day}(,| um) \\d{2}:\\d{2} UTC`));
    expect(notice?.parsed.text).not.toContain(' PM');
  });

  it('mails a reset link asked for in Spanish in Spanish, for an account that chose no language', async () => {
    const { email } = await signedUpClient(server, 'Lucía Pérez');
    const stranger = server.client();
    const asked = await stranger.request(
      'POST',
      '/api/auth/request-password-reset',
      { email },
      { 'accept-language': 'es-MX,es;q=0.9' },
    );
    expect(asked.status).toBe(200);
    const [mail] = await mailsTo(email);
    expect(mail?.parsed.subject).toBe('Restablecer la contraseña de Kin Health');
    expect(mail?.parsed.text).toContain('Hola, Lucía:');
  });
});
