/**
 * A copied session is not enough to open a new way into the account (decision 0048):
 * adding a passkey and changing the email ask a fresh proof (the password, and a code with
 * two-factor sign-in on; an account with no password, a sign-in within ten minutes), as
 * deleting the account does; refusals are audited and limited. Every passkey added is
 * mailed to the account. 'Sign out everywhere and remove passkeys' ends every session, this
 * one too, and every passkey, after the same proof.
 */
import { describe, expect, it } from 'vitest';
import {
  CODE_REQUIRED_MESSAGE,
  PASSWORD_REQUIRED_MESSAGE,
  RECENT_SIGN_IN_NEEDED_MESSAGE,
  WRONG_CODE_MESSAGE,
  WRONG_PASSWORD_MESSAGE,
  type FreshProofNeeds,
} from '../../shared/account-security';
import { PASSKEY_UNKNOWN_MESSAGE, type PasskeyListItem } from '../../shared/passkeys';
import { PASSKEY_ADDITION_UNPROVEN_MESSAGE } from '../auth/passkeys';
import {
  createTestServer,
  signedUpClient,
  TEST_ORIGIN,
  uniqueEmail,
  type TestClient,
} from '../test/harness';
import { useMailTestServer } from '../test/mail-test-server';
import { addPasskey, registrationOptions, signInWithPasskey } from '../test/passkeys';
import { SoftwareAuthenticator } from '../test/software-authenticator';
import { twoFactorUser } from '../test/two-factor';

const mailed = useMailTestServer();
const { server } = mailed;
const PASSWORD = 'secret-password';

async function events(client: TestClient) {
  const rows =
    await client.get<Array<{ event: string; detail: string | null }>>('/api/security-activity');
  return rows.body.map(({ event, detail }) => `${event}:${detail ?? ''}`);
}

const passkeysOf = async (client: TestClient) =>
  (await client.get<PasskeyListItem[]>('/api/passkeys')).body;

describe('adding a passkey', () => {
  it('needs the password: a copied session alone gets no options, and adds nothing', async () => {
    const { client } = await signedUpClient(server);
    // better-auth's own route is not reachable, and refuses a call that skipped the proof.
    expect((await client.get('/api/auth/passkey/generate-register-options')).status).toBe(404);
    const direct = await server.auth.handler(
      new Request(`${TEST_ORIGIN}/api/auth/passkey/generate-register-options`, {
        headers: { cookie: client.cookieHeader, origin: TEST_ORIGIN },
      }),
    );
    expect(direct.status).toBe(403);
    expect(await direct.json()).toMatchObject({ message: PASSKEY_ADDITION_UNPROVEN_MESSAGE });

    const none = await registrationOptions(client, {});
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: PASSWORD_REQUIRED_MESSAGE, field: 'password' });
    const wrong = await registrationOptions(client, { password: 'not-the-password' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ message: WRONG_PASSWORD_MESSAGE, field: 'password' });
    expect(wrong.headers.getSetCookie().join()).not.toContain('passkey_challenge');
    // Without options, a made-up answer has no challenge to match.
    const forged = await client.post('/api/auth/passkey/verify-registration', {
      response: new SoftwareAuthenticator(TEST_ORIGIN).register({
        challenge: 'made-up',
        rp: { id: 'localhost' },
      }),
    });
    expect(forged.status).toBe(400);
    expect(await passkeysOf(client)).toEqual([]);
    expect(await events(client)).toContain('verification_failed:passkey-addition');

    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    expect((await addPasskey(client, { password: PASSWORD }, authenticator)).status).toBe(200);
    expect(await passkeysOf(client)).toHaveLength(1);
  });

  it('with two-factor sign-in on, needs a code as well', async () => {
    const { client, password, backupCodes } = await twoFactorUser(server);
    const withoutCode = await registrationOptions(client, { password });
    expect(withoutCode.status).toBe(400);
    expect(withoutCode.body).toEqual({ message: CODE_REQUIRED_MESSAGE, field: 'code' });
    const wrongCode = await registrationOptions(client, { password, code: 'AAAAA-BBBBB' });
    expect(wrongCode.status).toBe(403);
    expect(wrongCode.body).toEqual({ message: WRONG_CODE_MESSAGE, field: 'code' });
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    const added = await addPasskey(client, { password, code: backupCodes[0] }, authenticator);
    expect(added.status).toBe(200);
  });

  it('is mailed to the account: its name, the device and the time', async () => {
    const { client, email } = await signedUpClient(server, 'Nia Notice');
    client.withHeaders({
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    });
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    const added = await addPasskey(client, { password: PASSWORD }, authenticator, 'Work laptop');
    expect(added.status).toBe(200);
    await server.mailSender?.runOnce();
    const mail = await mailed.smtp.waitFor(
      (received) =>
        received.envelopeTo.includes(email) &&
        received.parsed.subject === 'A passkey was added to your Kin Health account',
    );
    expect(mail.parsed.text).toContain('Hello Nia,');
    expect(mail.parsed.text).toContain('"Work laptop"');
    expect(mail.parsed.text).toContain('Firefox on Linux');
    expect(mail.parsed.text).toContain('Sign out everywhere and remove passkeys');
  });

  it('is limited per account: a guesser of the password is stopped', async () => {
    const limited = await createTestServer({ rateLimit: { max: 3, windowSeconds: 60 } });
    try {
      const { client } = await signedUpClient(limited);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) {
        statuses.push((await registrationOptions(client, { password: 'guess' })).status);
      }
      expect(statuses).toEqual([403, 403, 403, 429, 429]);
      expect((await registrationOptions(client, { password: PASSWORD })).status).toBe(429);
      expect(await events(client)).toContain('too_many_attempts:passkey-addition');
    } finally {
      await limited.close();
    }
  });
});

describe('changing the email', () => {
  it('needs the password: a copied session alone sends no link anywhere', async () => {
    const { client, email } = await signedUpClient(server);
    const newEmail = uniqueEmail('takeover');
    expect((await client.post('/api/auth/change-email', { newEmail })).status).toBe(404);
    const none = await client.post('/api/account/email', { newEmail });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: PASSWORD_REQUIRED_MESSAGE, field: 'password' });
    const wrong = await client.post('/api/account/email', { newEmail, password: 'guess' });
    expect(wrong.status).toBe(403);
    const queued = await server.db
      .selectFrom('mail_queue')
      .select('id')
      .where('recipient', 'in', [newEmail, email])
      .execute();
    expect(queued).toEqual([]);
    expect(await events(client)).toContain('verification_failed:email-change');
    const same = await client.post('/api/account/email', { newEmail: email, password: PASSWORD });
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({ field: 'newEmail' });
    expect((await client.post('/api/account/email', { newEmail, password: PASSWORD })).status).toBe(
      200,
    );
  });
});

describe('signing out everywhere and removing passkeys', () => {
  it('ends every session, this one too, and every passkey, after the proof', async () => {
    const { client, email } = await signedUpClient(server, 'Everywhere');
    const phone = server.client();
    expect((await phone.signIn({ email, password: PASSWORD })).status).toBe(200);
    const first = new SoftwareAuthenticator(TEST_ORIGIN);
    const second = new SoftwareAuthenticator(TEST_ORIGIN);
    await addPasskey(client, { password: PASSWORD }, first, 'Phone');
    await addPasskey(client, { password: PASSWORD }, second, 'Tablet');

    const wrong = await client.post('/api/account/sign-out-everywhere', { password: 'guess' });
    expect(wrong.status).toBe(403);
    expect((await phone.get('/api/profile')).status).toBe(200);
    expect(await passkeysOf(client)).toHaveLength(2);

    const done = await client.post('/api/account/sign-out-everywhere', { password: PASSWORD });
    expect(done.status).toBe(204);
    expect(done.headers.getSetCookie().some((cookie) => /session_token=;/.test(cookie))).toBe(true);
    for (const device of [client, phone]) {
      expect((await device.get('/api/profile')).status).toBe(401);
    }
    for (const authenticator of [first, second]) {
      const { response } = await signInWithPasskey(server, authenticator);
      expect(response.status).toBe(401);
      expect(response.body.message).toBe(PASSKEY_UNKNOWN_MESSAGE);
    }
    const back = server.client();
    expect((await back.signIn({ email, password: PASSWORD })).status).toBe(200);
    expect(await passkeysOf(back)).toEqual([]);
    const trail = await events(back);
    expect(trail).toContain('passkeys_removed:2 passkeys · signed out everywhere');
    expect(trail).toContain('signed_out_everywhere:');
    expect(trail).toContain('verification_failed:sign-out-everywhere');
  });
});

describe('an account with no password (single sign-on, passkeys)', () => {
  it('proves itself by a sign-in within the last ten minutes', async () => {
    const { client, email } = await signedUpClient(server);
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    await addPasskey(client, { password: PASSWORD }, authenticator);
    const user = await server.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    // As an account made by single sign-on is: no password to type.
    await server.db.deleteFrom('account').where('userId', '=', user.id).execute();

    const needs = await client.get<FreshProofNeeds>('/api/fresh-proof');
    expect(needs.body).toMatchObject({ password: false, code: false });
    expect(Date.parse(needs.body.recent_sign_in_until ?? '')).toBeGreaterThan(Date.now());
    expect((await registrationOptions(client, {})).status).toBe(200);

    // Signed in eleven minutes ago: no longer a proof.
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
    await server.db
      .updateTable('session')
      .set({
        createdAt:
          server.database.engine === 'sqlite' ? elevenMinutesAgo.toISOString() : elevenMinutesAgo,
      })
      .where('userId', '=', user.id)
      .execute();
    expect((await client.get<FreshProofNeeds>('/api/fresh-proof')).body.recent_sign_in_until).toBe(
      null,
    );
    const stale = await registrationOptions(client, {});
    expect(stale.status).toBe(403);
    expect(stale.body).toMatchObject({ message: RECENT_SIGN_IN_NEEDED_MESSAGE });
    expect(await events(client)).toContain('verification_failed:passkey-addition');

    // Signed in again (with the passkey): the proof holds.
    const { client: again } = await signInWithPasskey(server, authenticator);
    expect((await registrationOptions(again, {})).status).toBe(200);
  });
});
