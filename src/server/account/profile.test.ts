/** The profile (full name, email) and deleting the account with everything it owns. */
import { BODY_NOT_OBJECT } from '../../shared/api-error';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestServer, useTestServer, signedUpClient, type TestClient } from '../test/harness';
import { currentCode, twoFactorUser, wrongCode } from '../test/two-factor';

const server = useTestServer();

describe('profile', () => {
  it('reads the full name and email', async () => {
    const { client, email } = await signedUpClient(server, 'Ann Lee');
    const response = await client.get('/api/profile');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ email, full_name: 'Ann Lee' });
  });

  it('says whether the password chosen at sign-up is one of the most common (SPEC’s rule still takes it)', async () => {
    const common = server.client();
    expect((await common.signUp({ password: '123456' })).status).toBe(200);
    expect((await common.get('/api/profile')).body).toMatchObject({ password_common: true });
    const { client } = await signedUpClient(server);
    expect((await client.get('/api/profile')).body).toMatchObject({ password_common: false });
  });

  it('updates the full name, and the session sees it', async () => {
    const { client } = await signedUpClient(server, 'Ann Lee');
    const response = await client.put('/api/profile', { full_name: '  Annie Lee ' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ full_name: 'Annie Lee' });
    expect((await client.get('/api/profile')).body).toMatchObject({ full_name: 'Annie Lee' });
    const session = await client.get<{ user: { name: string } }>('/api/auth/get-session');
    expect(session.body.user.name).toBe('Annie Lee');
  });

  it('says a body that is not an object is not one', async () => {
    const { client } = await signedUpClient(server, 'Ann Lee');
    const response = await client.request<{ message: string }>('PUT', '/api/profile', '"Ann"');
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(BODY_NOT_OBJECT);
    expect((await client.get('/api/profile')).body).toMatchObject({ full_name: 'Ann Lee' });
  });

  it.each([{ full_name: '' }, { full_name: 'x'.repeat(201) }, {}, { full_name: 42 }])(
    'refuses %j and changes nothing',
    async (body) => {
      const { client } = await signedUpClient(server, 'Ann Lee');
      const response = await client.put('/api/profile', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ field: 'full_name' });
      expect((response.body as { message: string }).message).toMatch(/Full Name/);
      expect((await client.get('/api/profile')).body).toMatchObject({ full_name: 'Ann Lee' });
    },
  );

  it('needs a session', async () => {
    expect((await server.client().get('/api/profile')).status).toBe(401);
    expect((await server.client().put('/api/profile', { full_name: 'X' })).status).toBe(401);
  });
});

describe('account deletion', () => {
  const userIdOf = async (client: TestClient) =>
    (await client.get<{ id: string }>('/api/profile')).body.id;

  async function rowsAbout(userId: string, email: string) {
    const count = async (table: string, column: string, values: string[]) => {
      const { rows } = await sql<{ count: number }>`select count(*) as count from ${sql.table(
        table,
      )} where ${sql.ref(column)} in (${sql.join(values)})`.execute(server.db);
      return Number(rows[0]?.count);
    };
    return {
      audit:
        (await count('audit_log', 'user_id', [userId])) +
        (await count('audit_log', 'email', [email])),
      verification: await count('verification', 'value', [userId]),
      usedCodes: await count('used_authentication_codes', 'user_id', [userId]),
      attempts: await count('attempt_limits', 'subject', [userId, email]),
      sessions: await count('session', 'userId', [userId]),
      members: await count('family_members', 'user_id', [userId]),
      visits: await count('visits', 'user_id', [userId]),
      contacts: await count('contacts', 'user_id', [userId]),
    };
  }

  it('needs the password, and changes nothing without it', async () => {
    const { client } = await signedUpClient(server);
    for (const body of [undefined, {}, { password: '' }, { password: 42 }]) {
      const response = await client.request('DELETE', '/api/account', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ field: 'password', message: 'Password is required' });
    }
    expect((await client.get('/api/profile')).status).toBe(200);
  });

  it('refuses a wrong password, says so, and writes it down', async () => {
    const { client } = await signedUpClient(server);
    const response = await client.request('DELETE', '/api/account', {
      password: 'not-my-password',
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      field: 'password',
      message: 'The password is not correct',
    });
    expect((await client.get('/api/profile')).status).toBe(200);
    const activity =
      await client.get<{ event: string; detail: string }[]>('/api/security-activity');
    expect(activity.body[0]).toMatchObject({
      event: 'verification_failed',
      detail: 'account-deletion',
    });
  });

  it('with two-factor on, needs a right code as well (or a backup code)', async () => {
    const user = await twoFactorUser(server);
    const passwordOnly = await user.client.request('DELETE', '/api/account', {
      password: user.password,
    });
    expect(passwordOnly.status).toBe(400);
    expect(passwordOnly.body).toMatchObject({ field: 'code' });
    const wrong = await user.client.request('DELETE', '/api/account', {
      password: user.password,
      code: await wrongCode(user.secret),
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ field: 'code' });
    expect((await user.client.get('/api/profile')).status).toBe(200);
    const right = await user.client.request('DELETE', '/api/account', {
      password: user.password,
      code: await currentCode(user.secret),
    });
    expect(right.status).toBe(204);

    const other = await twoFactorUser(server);
    const withBackupCode = await other.client.request('DELETE', '/api/account', {
      password: other.password,
      code: other.backupCodes[0],
    });
    expect(withBackupCode.status).toBe(204);
  });

  it('is limited per account', async () => {
    const limited = await createTestServer({ rateLimit: { max: 3, windowSeconds: 60 } });
    try {
      const { client, password } = await signedUpClient(limited);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) {
        statuses.push(
          (await client.request('DELETE', '/api/account', { password: 'wrong-password' })).status,
        );
      }
      expect(statuses).toEqual([403, 403, 403, 429, 429]);
      expect((await client.request('DELETE', '/api/account', { password })).status).toBe(429);
      expect((await client.get('/api/profile')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('removes everything about the user, and nothing of anyone else', async () => {
    const { client, email, password, secret } = await twoFactorUser(server, 'Leaving User');
    const other = await signedUpClient(server, 'Staying User');
    const member = await client.post<{ id: string }>('/api/family-members', { name: 'Kid' });
    await client.post('/api/visits', {
      visit_name: 'Checkup',
      visit_date: '2026-01-01T10:00:00Z',
      family_member_id: member.body.id,
    });
    await client.post('/api/contacts', { contact_name: 'Dr. Who' });
    await other.client.post('/api/family-members', { name: 'Other kid' });
    // A refused sign-in (a row by email), a waiting second factor (verification rows).
    await server.client().signIn({ email, password: 'wrong-password' });
    await server.client().signIn({ email, password });
    const userId = await userIdOf(client);
    const before = await rowsAbout(userId, email);
    for (const kind of [
      'audit',
      'verification',
      'usedCodes',
      'sessions',
      'members',
      'visits',
    ] as const) {
      expect(before[kind], kind).toBeGreaterThan(0);
    }
    const othersBefore = await rowsAbout(await userIdOf(other.client), other.email);

    const response = await client.request('DELETE', '/api/account', {
      password,
      code: await currentCode(secret),
    });
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie().some((cookie) => /session_token=;/.test(cookie))).toBe(
      true,
    );
    expect((await client.get('/api/profile')).status).toBe(401);
    expect((await server.client().signIn({ email, password })).status).toBe(401);

    const after = await rowsAbout(userId, email);
    // The refused sign-in just above is a new row about an email no account has.
    expect({ ...after, audit: 0 }).toEqual({
      audit: 0,
      verification: 0,
      usedCodes: 0,
      attempts: 0,
      sessions: 0,
      members: 0,
      visits: 0,
      contacts: 0,
    });
    expect(after.audit).toBeLessThanOrEqual(1);
    expect(await rowsAbout(await userIdOf(other.client), other.email)).toEqual(othersBefore);
  });
});
