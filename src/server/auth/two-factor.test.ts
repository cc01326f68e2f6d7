/**
 * Two-factor sign-in with an authenticator app: turning it on needs the password and a
 * right code; a sign-in then issues no session until the code (or a backup code, once)
 * after the password and passcode; turning it off needs the password.
 */
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { INVALID_PASSCODE_MESSAGE } from '../../shared/passcode';
import {
  AUTHENTICATION_CODE_MESSAGE,
  REUSED_CODE_MESSAGE,
  type TwoFactorFactor,
} from '../../shared/account-security';
import { symmetricEncrypt } from 'better-auth/crypto';
import { testConfig, useTestServer, signedUpClient, type TestClient } from '../test/harness';
import { currentCode, secretOf, twoFactorUser, wrongCode } from '../test/two-factor';

const server = useTestServer();

async function sessionCount(): Promise<number> {
  const row = await server.db
    .selectFrom('session')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function twoFactorEnabled(email: string): Promise<boolean> {
  const row = await server.db
    .selectFrom('user')
    .select('twoFactorEnabled')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return Boolean(row.twoFactorEnabled);
}

function sessionCookieSet(headers: Headers): boolean {
  return headers
    .getSetCookie()
    .some((cookie) => /^kin\.session_token=[^;]+/.test(cookie) && !/max-age=0/i.test(cookie));
}

describe('turning two-factor sign-in on', () => {
  it('needs the password', async () => {
    const { client, email } = await signedUpClient(server);
    const wrong = await client.post('/api/auth/two-factor/enable', { password: 'not-my-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: 'Invalid password' });
    const missing = await client.post('/api/auth/two-factor/enable', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ field: 'password', message: 'Password is required' });
    expect((await client.get<TwoFactorFactor[]>('/api/factors')).body).toEqual([]);
    expect(await twoFactorEnabled(email)).toBe(false);
  });

  it('needs a right code from the authenticator app, then lists the factor', async () => {
    const { client, email, password } = await signedUpClient(server);
    const enabled = await client.post<{ totpURI: string; backupCodes: string[] }>(
      '/api/auth/two-factor/enable',
      { password },
    );
    expect(enabled.status).toBe(200);
    const uri = new URL(enabled.body.totpURI);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('issuer')).toBe('Kin Health');
    expect(decodeURIComponent(uri.pathname)).toContain(email);
    expect(enabled.body.backupCodes).toHaveLength(10);

    // Set up but not confirmed: sign-in does not ask for a code yet.
    expect(await twoFactorEnabled(email)).toBe(false);
    expect((await client.get<TwoFactorFactor[]>('/api/factors')).body).toMatchObject([
      { status: 'unverified' },
    ]);

    const secret = secretOf(enabled.body.totpURI);
    const refused = await client.post('/api/auth/two-factor/verify-totp', {
      code: await wrongCode(secret),
    });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ message: 'Invalid code' });
    expect(await twoFactorEnabled(email)).toBe(false);

    const malformed = await client.post('/api/auth/two-factor/verify-totp', { code: '12ab' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ field: 'code', message: AUTHENTICATION_CODE_MESSAGE });

    const confirmed = await client.post('/api/auth/two-factor/verify-totp', {
      code: await currentCode(secret),
    });
    expect(confirmed.status).toBe(200);
    expect(await twoFactorEnabled(email)).toBe(true);
    // Still signed in: better-auth swapped the session for a new one.
    expect((await client.get('/api/profile')).status).toBe(200);
    const factors = await client.get<TwoFactorFactor[]>('/api/factors');
    expect(factors.body).toEqual([
      {
        id: expect.any(String),
        friendly_name: 'Authenticator app',
        factor_type: 'totp',
        status: 'verified',
      },
    ]);
    expect(JSON.stringify(factors.body)).not.toContain(secret);
  });

  it('lists only the signed-in user’s own factor, and needs a session', async () => {
    await twoFactorUser(server);
    const { client } = await signedUpClient(server);
    expect((await client.get('/api/factors')).body).toEqual([]);
    expect((await server.client().get('/api/factors')).status).toBe(401);
  });
});

describe('signing in with two-factor on', () => {
  async function passwordStep(email: string, password: string, passcode?: string) {
    const client = server.client();
    const before = await sessionCount();
    const response = await client.signIn({ email, password, ...(passcode ? { passcode } : {}) });
    return { client, response, sessionsCreated: (await sessionCount()) - before };
  }

  it('issues no session after the password and passcode, only after the code', async () => {
    const { email, password, secret } = await twoFactorUser(server);
    const { client, response, sessionsCreated } = await passwordStep(email, password);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(sessionCookieSet(response.headers)).toBe(false);
    expect(sessionsCreated).toBe(0);
    expect((await client.get('/api/profile')).status).toBe(401);
    expect((await client.get('/api/auth/get-session')).body).toBeNull();

    const verified = await client.post('/api/auth/two-factor/verify-totp', {
      code: await currentCode(secret),
    });
    expect(verified.status).toBe(200);
    expect(sessionCookieSet(verified.headers)).toBe(true);
    expect((await client.get('/api/profile')).status).toBe(200);
  });

  it('still checks the passcode first: a wrong one starts no challenge', async () => {
    const { email, password, secret } = await twoFactorUser(server);
    const { client, response, sessionsCreated } = await passwordStep(email, password, '999999');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(sessionsCreated).toBe(0);
    const code = await client.post('/api/auth/two-factor/verify-totp', {
      code: await currentCode(secret),
    });
    expect(code.status).toBe(401);
    expect((await client.get('/api/profile')).status).toBe(401);
  });

  it('refuses a wrong code, a malformed one, and anything without a challenge', async () => {
    const { email, password, secret } = await twoFactorUser(server);
    const { client } = await passwordStep(email, password);
    const wrong = await client.post('/api/auth/two-factor/verify-totp', {
      code: await wrongCode(secret),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ message: 'Invalid code' });
    expect(sessionCookieSet(wrong.headers)).toBe(false);
    expect((await client.get('/api/profile')).status).toBe(401);

    for (const body of [{ code: '12345' }, { code: 123456 }, {}]) {
      const malformed = await client.post('/api/auth/two-factor/verify-totp', body);
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ field: 'code' });
    }

    const stranger = await server.client().post('/api/auth/two-factor/verify-totp', {
      code: await currentCode(secret),
    });
    expect(stranger.status).toBe(401);

    // The challenge survives a few mistakes.
    const right = await client.post('/api/auth/two-factor/verify-totp', {
      code: await currentCode(secret),
    });
    expect(right.status).toBe(200);
  });

  it('ends the challenge after five wrong codes', async () => {
    const { email, password, secret } = await twoFactorUser(server);
    const { client } = await passwordStep(email, password);
    const bad = await wrongCode(secret);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await client.post('/api/auth/two-factor/verify-totp', { code: bad })).status).toBe(
        401,
      );
    }
    const late = await client.post('/api/auth/two-factor/verify-totp', {
      code: await currentCode(secret),
    });
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect((await client.get('/api/profile')).status).toBe(401);
  });

  it('takes each authenticator code once', async () => {
    const { email, password, secret, client: settings } = await twoFactorUser(server);
    const code = await currentCode(secret);
    const first = await passwordStep(email, password);
    expect((await first.client.post('/api/auth/two-factor/verify-totp', { code })).status).toBe(
      200,
    );

    // The same code again, still inside its 30 seconds: refused, no session, and the
    // challenge stays open for the next code.
    const second = await passwordStep(email, password);
    const replayed = await second.client.post('/api/auth/two-factor/verify-totp', { code });
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ message: REUSED_CODE_MESSAGE });
    expect(sessionCookieSet(replayed.headers)).toBe(false);
    expect((await second.client.get('/api/profile')).status).toBe(401);
    const next = await second.client.post('/api/auth/two-factor/verify-totp', {
      code: await currentCode(secret),
    });
    expect(next.status).toBe(200);

    // A wrong code typed twice is only wrong, never 'already used'.
    const third = await passwordStep(email, password);
    const bad = await wrongCode(secret);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const wrong = await third.client.post('/api/auth/two-factor/verify-totp', { code: bad });
      expect(wrong.body).toMatchObject({ message: 'Invalid code' });
    }

    const activity =
      await settings.get<{ event: string; detail: string | null }[]>('/api/security-activity');
    expect(activity.body).toContainEqual(
      expect.objectContaining({ event: 'sign_in_failed', detail: 'reused_code' }),
    );
  });

  it('lets only one of two sign-ins racing with one code through', async () => {
    const { email, password, secret } = await twoFactorUser(server);
    const racers = await Promise.all([
      passwordStep(email, password),
      passwordStep(email, password),
    ]);
    const raced = await currentCode(secret);
    const answers = await Promise.all(
      racers.map(({ client }) => client.post('/api/auth/two-factor/verify-totp', { code: raced })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
  });

  it('takes a backup code instead, once', async () => {
    const { email, password, backupCodes } = await twoFactorUser(server);
    const [first, second] = backupCodes as [string, string];

    const { client } = await passwordStep(email, password);
    const used = await client.post('/api/auth/two-factor/verify-backup-code', { code: first });
    expect(used.status).toBe(200);
    expect((await client.get('/api/profile')).status).toBe(200);
    await client.signOut();

    const again = await passwordStep(email, password);
    const reused = await again.client.post('/api/auth/two-factor/verify-backup-code', {
      code: first,
    });
    expect(reused.status).toBe(401);
    expect(reused.body).toMatchObject({ message: 'Invalid backup code' });
    expect((await again.client.get('/api/profile')).status).toBe(401);
    const fresh = await again.client.post('/api/auth/two-factor/verify-backup-code', {
      code: second,
    });
    expect(fresh.status).toBe(200);
    expect((await again.client.get('/api/profile')).status).toBe(200);

    const empty = await again.client.post('/api/auth/two-factor/verify-backup-code', {
      code: ' ',
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ field: 'code', message: 'Backup Code is required' });
  });
});

describe('backup codes', () => {
  it('made before, in mixed case, keep working, in any case', async () => {
    const { email, password } = await twoFactorUser(server);
    const user = await server.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    // As better-auth made them by default: letters of both cases and digits.
    const stored = await symmetricEncrypt({
      key: testConfig().authSecret,
      data: JSON.stringify(['abCde-12x4Z', 'QwxAk-1opVp']),
    });
    const db = server.db as unknown as Kysely<{
      twoFactor: { userId: string; backupCodes: string };
    }>;
    await db
      .updateTable('twoFactor')
      .set({ backupCodes: stored })
      .where('userId', '=', user.id)
      .execute();
    const client = server.client();
    await client.signIn({ email, password });
    const used = await client.post('/api/auth/two-factor/verify-backup-code', {
      code: 'abCde-12x4Z',
    });
    expect(used.status).toBe(200);
    await client.signOut();
    await client.signIn({ email, password });
    const lower = await client.post('/api/auth/two-factor/verify-backup-code', {
      code: 'qwxak-1opvp',
    });
    expect(lower.status).toBe(200);
  });

  it('avoid look-alike characters (0/O, 1/l/I) and are taken in any case', async () => {
    const { email, password, backupCodes } = await twoFactorUser(server);
    expect(backupCodes).toHaveLength(10);
    for (const code of backupCodes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
    const [first, second] = backupCodes as [string, string];

    const client = server.client();
    await client.signIn({ email, password });
    const lower = await client.post('/api/auth/two-factor/verify-backup-code', {
      code: ` ${first.toLowerCase()} `,
    });
    expect(lower.status).toBe(200);
    await client.signOut();

    await client.signIn({ email, password });
    // Taken once, whatever its case.
    const reused = await client.post('/api/auth/two-factor/verify-backup-code', { code: first });
    expect(reused.status).toBe(401);
    const mixed = second.slice(0, 3).toLowerCase() + second.slice(3);
    expect(
      (await client.post('/api/auth/two-factor/verify-backup-code', { code: mixed })).status,
    ).toBe(200);
  });
});

describe('turning two-factor sign-in off', () => {
  async function disable(client: TestClient, body: unknown) {
    return client.post('/api/auth/two-factor/disable', body);
  }

  it('needs the password, then sign-in asks for no code', async () => {
    const { client, email, password } = await twoFactorUser(server);
    expect((await disable(client, { password: 'wrong-password' })).status).toBe(400);
    expect((await disable(client, {})).body).toMatchObject({ field: 'password' });
    expect(await twoFactorEnabled(email)).toBe(true);
    expect((await server.client().post('/api/auth/two-factor/disable', { password })).status).toBe(
      401,
    );

    const off = await disable(client, { password });
    expect(off.status).toBe(200);
    expect(await twoFactorEnabled(email)).toBe(false);
    expect((await client.get('/api/factors')).body).toEqual([]);
    expect((await client.get('/api/profile')).status).toBe(200);

    const again = server.client();
    const signIn = await again.signIn({ email, password });
    expect(signIn.status).toBe(200);
    expect(signIn.body).not.toHaveProperty('twoFactorRedirect');
    expect((await again.get('/api/profile')).status).toBe(200);
  });

  it('removes the secret with the account', async () => {
    const { client, password, secret } = await twoFactorUser(server);
    const userId = (await client.get<{ id: string }>('/api/profile')).body.id;
    const deleted = await client.request('DELETE', '/api/account', {
      password,
      code: await currentCode(secret),
    });
    expect(deleted.status).toBe(204);
    const rows = await (server.db as unknown as Kysely<{ twoFactor: { userId: string } }>)
      .selectFrom('twoFactor')
      .select('userId')
      .where('userId', '=', userId)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('bad input', () => {
  it('is a 400 naming the field, never a 500', async () => {
    const { client } = await twoFactorUser(server);
    const cases: [string, unknown, string][] = [
      ['/api/auth/two-factor/enable', { password: 42 }, 'password'],
      ['/api/auth/two-factor/disable', { password: '' }, 'password'],
      ['/api/auth/two-factor/verify-totp', { code: { $gt: '' } }, 'code'],
      ['/api/auth/two-factor/verify-totp', { code: '1'.repeat(5000) }, 'code'],
      ['/api/auth/two-factor/verify-backup-code', { code: 12345 }, 'code'],
      ['/api/auth/two-factor/verify-backup-code', { code: 'x'.repeat(65) }, 'code'],
    ];
    for (const [path, body, field] of cases) {
      const response = await client.post(path, body);
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(response.body).toMatchObject({ field });
    }
    const broken = await client.post('/api/auth/two-factor/enable', '{"password":');
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ message: expect.stringMatching(/JSON/) });
    for (const path of ['/api/sessions/%00', `/api/sessions/${'x'.repeat(2000)}`]) {
      expect((await client.delete(path)).status).toBe(404);
    }
    expect((await client.post('/api/sessions/revoke-others', '{not json')).status).toBe(204);
  });
});
