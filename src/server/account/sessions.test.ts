/**
 * Active sessions: a user lists their own (device, address, created, last active, which one
 * is this device) without ever seeing a session token, and signs out another one or all
 * the others; a revoked session's cookie gets 401 at once.
 */
import { describe, expect, it } from 'vitest';
import type { ActiveSession } from '../../shared/account-security';
import { createTestServer, useTestServer, signedUpClient, TEST_PASSCODE } from '../test/harness';
import { enableTwoFactor } from '../test/two-factor';
import { CURRENT_SESSION_MESSAGE } from './account-security-routes';

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

const server = useTestServer();

/** The same user signed in on several devices. */
async function userOnDevices() {
  const home = await signedUpClient(server, 'Many Devices');
  const signInFrom = async (userAgent: string) => {
    const client = server.client();
    const response = await client.request(
      'POST',
      '/api/auth/sign-in/email',
      { email: home.email, password: home.password, passcode: TEST_PASSCODE },
      { 'user-agent': userAgent },
    );
    expect(response.status).toBe(200);
    return client;
  };
  return { ...home, phone: await signInFrom(PHONE), laptop: await signInFrom(LAPTOP) };
}

describe('active sessions', () => {
  it('lists the user’s sessions, this device first, with no token anywhere', async () => {
    const { client, phone } = await userOnDevices();
    const response = await phone.get<ActiveSession[]>('/api/sessions');
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(3);
    const [current, ...others] = response.body;
    expect(current).toMatchObject({ current: true, user_agent: PHONE, ip_address: '127.0.0.1' });
    expect(others.every((session) => !session.current)).toBe(true);
    expect(others.map((session) => session.user_agent)).toContain(LAPTOP);
    for (const session of response.body) {
      expect(Object.keys(session).sort()).toEqual(
        [
          'created_at',
          'current',
          'expires_at',
          'id',
          'ip_address',
          'last_active_at',
          'user_agent',
        ].sort(),
      );
      expect(Date.parse(session.created_at)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(session.last_active_at)).toBeGreaterThan(Date.now() - 60_000);
    }
    const tokens = [client.cookieHeader, phone.cookieHeader].map(
      (cookie) => /kin\.session_token=([^.;]+)/.exec(cookie)?.[1] ?? 'missing',
    );
    for (const token of tokens) expect(JSON.stringify(response.body)).not.toContain(token);
  });

  it('signs out one other session: its cookie gets 401, the rest carry on', async () => {
    const { client, phone, laptop } = await userOnDevices();
    const sessions = (await client.get<ActiveSession[]>('/api/sessions')).body;
    const laptopSession = sessions.find((session) => session.user_agent === LAPTOP);
    const revoked = await client.delete(`/api/sessions/${laptopSession?.id}`);
    expect(revoked.status).toBe(204);
    expect((await laptop.get('/api/profile')).status).toBe(401);
    expect((await phone.get('/api/profile')).status).toBe(200);
    expect((await client.get('/api/profile')).status).toBe(200);
    expect((await client.get<ActiveSession[]>('/api/sessions')).body).toHaveLength(2);
  });

  it('signs out all the other sessions at once', async () => {
    const { client, phone, laptop } = await userOnDevices();
    expect((await client.post('/api/sessions/revoke-others')).status).toBe(204);
    expect((await phone.get('/api/profile')).status).toBe(401);
    expect((await laptop.get('/api/profile')).status).toBe(401);
    expect((await client.get('/api/profile')).status).toBe(200);
    const left = (await client.get<ActiveSession[]>('/api/sessions')).body;
    expect(left).toHaveLength(1);
    expect(left[0]?.current).toBe(true);
  });

  it('keeps the current session out of reach, and other users’ sessions too', async () => {
    const { client } = await userOnDevices();
    const other = await signedUpClient(server);
    const [current] = (await client.get<ActiveSession[]>('/api/sessions')).body;
    const self = await client.delete(`/api/sessions/${current?.id}`);
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ message: CURRENT_SESSION_MESSAGE, field: 'id' });

    const [theirs] = (await other.client.get<ActiveSession[]>('/api/sessions')).body;
    const foreign = await client.delete(`/api/sessions/${theirs?.id}`);
    expect(foreign.status).toBe(404);
    expect((await other.client.get('/api/profile')).status).toBe(200);
    expect((await client.delete('/api/sessions/no-such-session')).status).toBe(404);
    expect((await client.get<ActiveSession[]>('/api/sessions')).body).toHaveLength(3);
  });

  it('lists sessions from a sign-in days ago too', async () => {
    const { client } = await userOnDevices();
    const userId = (await client.get<{ id: string }>('/api/profile')).body.id;
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
    await server.db
      .updateTable('session')
      .set({
        createdAt: server.database.engine === 'sqlite' ? threeDaysAgo.toISOString() : threeDaysAgo,
      })
      .where('userId', '=', userId)
      .execute();
    const response = await client.get<ActiveSession[]>('/api/sessions');
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(3);
  });

  it('need a session, and better-auth’s token-taking routes are closed', async () => {
    const anonymous = server.client();
    expect((await anonymous.get('/api/sessions')).status).toBe(401);
    expect((await anonymous.post('/api/sessions/revoke-others')).status).toBe(401);
    expect((await anonymous.delete('/api/sessions/anything')).status).toBe(401);

    const { client } = await signedUpClient(server);
    expect((await client.get('/api/auth/list-sessions')).status).toBe(404);
    expect((await client.post('/api/auth/revoke-session', { token: 'x' })).status).toBe(404);
    expect((await client.post('/api/auth/revoke-sessions', {})).status).toBe(404);
    expect((await client.get('/api/profile')).status).toBe(200);
  });
});

describe('a session’s lifetime', () => {
  const DAY = 24 * 60 * 60 * 1000;

  /** Moves a client's session back in time: signed in `signedIn` ago, expiring in `left`. */
  async function ageSession(userId: string, signedInMsAgo: number, expiresInMs: number) {
    const row = await server.db
      .selectFrom('session')
      .select(['id', 'createdAt'])
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow();
    const asStored = (date: Date) =>
      typeof row.createdAt === 'string' ? date.toISOString() : date;
    await server.db
      .updateTable('session')
      .set({
        createdAt: asStored(new Date(Date.now() - signedInMsAgo)),
        expiresAt: asStored(new Date(Date.now() + expiresInMs)),
      })
      .where('id', '=', row.id)
      .execute();
    return row.id;
  }

  it('ends 30 days after sign-in however often it is used', async () => {
    const { client } = await signedUpClient(server);
    const userId = (await client.get<{ id: string }>('/api/profile')).body.id;
    // Used every day, so its sliding expiry is still far ahead, but signed in 31 days ago.
    await ageSession(userId, 31 * DAY, 20 * DAY);
    expect((await client.get('/api/profile')).status).toBe(401);
    expect((await client.get('/api/auth/get-session')).body).toBeNull();
  });

  it('is renewed as it is used, never beyond 30 days from sign-in', async () => {
    const { client } = await signedUpClient(server);
    const userId = (await client.get<{ id: string }>('/api/profile')).body.id;
    // Signed in 29 days ago, last renewed two days ago: due for renewal.
    const id = await ageSession(userId, 29 * DAY, 28 * DAY);
    expect((await client.get('/api/profile')).status).toBe(200);
    const row = await server.db
      .selectFrom('session')
      .select(['createdAt', 'expiresAt'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const lifetime = new Date(row.expiresAt).getTime() - new Date(row.createdAt).getTime();
    expect(lifetime).toBeLessThanOrEqual(30 * DAY);
    expect(new Date(row.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });

  it('has a lifetime the operator sets', async () => {
    const short = await createTestServer({ sessionMaxAgeDays: 1 });
    try {
      const { client } = await signedUpClient(short);
      const session = await short.db
        .selectFrom('session')
        .select(['createdAt', 'expiresAt'])
        .executeTakeFirstOrThrow();
      const lifetime =
        new Date(session.expiresAt).getTime() - new Date(session.createdAt).getTime();
      expect(lifetime).toBeLessThanOrEqual(DAY);
      expect((await client.get('/api/profile')).status).toBe(200);
    } finally {
      await short.close();
    }
  });
});

describe('turning two-factor sign-in on', () => {
  it('ends every other session of the account, and keeps this one', async () => {
    const { client, password, phone, laptop } = await userOnDevices();
    await enableTwoFactor(client, password);
    expect((await client.get('/api/profile')).status).toBe(200);
    expect((await phone.get('/api/profile')).status).toBe(401);
    expect((await laptop.get('/api/profile')).status).toBe(401);
    expect((await client.get<ActiveSession[]>('/api/sessions')).body).toHaveLength(1);
  });
});
