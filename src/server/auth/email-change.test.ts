/**
 * Changing the email address in Profile Settings (issue 34, item 4), through a real SMTP
 * server, after a fresh proof (POST /api/account/email with the password, decision 0048;
 * its refusals: fresh-proof-for-new-ways-in.test.ts): a link goes to the new address and the
 * old one is told; the address changes only when the link is followed, once, and then both
 * addresses are told; the account signs in with the new address, and a household grant it
 * accepted under the old one keeps working (grants are bound to the account). Without mail,
 * the change is refused and says why, before any password is asked.
 */
import { describe, expect, it } from 'vitest';
import { EMAIL_CHANGE_NOT_SET_UP_MESSAGE, EMAIL_CHANGED_PATH } from '../../shared/account-recovery';
import type { GivenGrant } from '../../shared/household';
import { expectStatus } from '../test/family-records';
import { acceptGrant } from '../test/grant-acceptance';
import { createTestServer, signedUpClient, TEST_ORIGIN, uniqueEmail } from '../test/harness';
import { useMailTestServer } from '../test/mail-test-server';
import { linkIn } from '../test/smtp-server';

const mailed = useMailTestServer();
const { server } = mailed;

async function mailsTo(email: string) {
  await server.mailSender?.runOnce();
  return mailed.smtp.received.filter((mail) => mail.envelopeTo.includes(email));
}

const profileEmail = async (client: ReturnType<typeof server.client>) =>
  (await client.get<{ email: string }>('/api/profile')).body.email;

describe('changing the email address', () => {
  it('takes effect only when the link sent to the new address is followed; the old one is told', async () => {
    const owner = await signedUpClient(server, 'Cara Jones');
    const { client, email, password } = await signedUpClient(server, 'Dan Smith');
    // A grant Dan accepted under his old address.
    const person = await expectStatus(
      owner.client.post<{ id: string }>('/api/family-members', { name: 'Mia' }),
    );
    const given = await owner.client.post<GivenGrant>('/api/household/grants', {
      personId: person.id,
      email,
      role: 'viewer',
    });
    const [grantMail] = await mailsTo(email);
    const code = /\b([A-Z2-9]{5}-[A-Z2-9]{5})\b/.exec(grantMail?.parsed.text ?? '')?.[1] ?? '';
    expect(given.status).toBe(201);
    await acceptGrant(client, { ...given, body: { ...given.body, acceptanceCode: code } });

    const newEmail = uniqueEmail('moved');
    const asked = await client.post('/api/account/email', { newEmail: ` ${newEmail} `, password });
    expect(asked.status).toBe(200);
    // Nothing changed yet, and the mails went from the queue.
    expect(await profileEmail(client)).toBe(email);

    const [confirm] = await mailsTo(newEmail);
    expect(confirm?.parsed.subject).toBe('Confirm your new Kin Health email address');
    expect(confirm?.parsed.text).toContain('Hello Dan,');
    const notices = (await mailsTo(email)).filter(
      (mail) => mail.parsed.subject === 'Your Kin Health email address is being changed',
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]?.parsed.text).toContain(newEmail);
    expect(notices[0]?.parsed.text).toContain('Not you? Change your password');

    const link = confirm ? linkIn(confirm) : '';
    expect(link.startsWith(`${TEST_ORIGIN}/api/auth/verify-email?token=`)).toBe(true);
    const followed = await server.client().get(link.slice(TEST_ORIGIN.length));
    expect(followed.status).toBe(302);
    expect(followed.headers.get('location')).toBe(EMAIL_CHANGED_PATH);
    expect(await profileEmail(client)).toBe(newEmail);
    // Both addresses hear that it is done: the old one can no longer get reset links.
    for (const address of [email, newEmail]) {
      const done = (await mailsTo(address)).filter(
        (mail) => mail.parsed.subject === 'Your Kin Health email address was changed',
      );
      expect(done, address).toHaveLength(1);
      expect(done[0]?.parsed.text).toContain(`from ${email} to ${newEmail}`);
    }
    // Once only.
    const again = await server.client().get(link.slice(TEST_ORIGIN.length));
    expect(again.headers.get('location')).toContain('error=');

    // The new address signs in; the old one no longer does.
    expect((await server.client().signIn({ email: newEmail, password })).status).toBe(200);
    expect((await server.client().signIn({ email, password })).status).toBe(401);
    // The grant is the account's, not the address's: still shared.
    const household = await client.get<{ received: { personId: string }[] }>('/api/household');
    expect(household.body.received.map((shared) => shared.personId)).toContain(person.id);

    const activity = await client.get<{ event: string }[]>('/api/security-activity');
    const events = activity.body.map((entry) => entry.event);
    expect(events).toContain('email_change_requested');
    expect(events).toContain('email_changed');
  });

  it('refuses a bad address naming the field, and changes nothing', async () => {
    const { client, email, password } = await signedUpClient(server);
    const bad = await client.post<{ field?: string; message: string }>('/api/account/email', {
      newEmail: 'not-an-email',
      password,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      field: 'newEmail',
      message: 'New Email must be a valid email address',
    });
    expect(await profileEmail(client)).toBe(email);
  });

  it('answers an address another account has the same, and sends it nothing', async () => {
    const { client, password } = await signedUpClient(server);
    const other = await signedUpClient(server);
    const before = (await mailsTo(other.email)).length;
    const asked = await client.post('/api/account/email', { newEmail: other.email, password });
    expect(asked.status).toBe(200);
    expect(await mailsTo(other.email)).toHaveLength(before);
  });
});

describe('changing the email address without mail', () => {
  it('is refused, saying email is not set up', async () => {
    const plain = await createTestServer();
    try {
      const { client, email } = await signedUpClient(plain);
      const asked = await client.post<{ message: string }>('/api/account/email', {
        newEmail: uniqueEmail(),
      });
      expect(asked.status).toBe(503);
      expect(asked.body.message).toBe(EMAIL_CHANGE_NOT_SET_UP_MESSAGE);
      expect(await profileEmail(client)).toBe(email);
    } finally {
      await plain.close();
    }
  });
});
