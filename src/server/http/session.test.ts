/**
 * The session guard: a live session is checked in one query, and every other case is left
 * to better-auth, which refuses, renews or cleans up exactly as before.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestServer, signedUpClient, testConfig } from '../test/harness';

const server = useTestServer();
afterEach(() => vi.restoreAllMocks());

const DAY_MS = 24 * 60 * 60 * 1000;

function tokenOf(cookieHeader: string): string {
  const value = /kin\.session_token=([^;]+)/.exec(cookieHeader)?.[1] ?? '';
  return decodeURIComponent(value).split('.')[0] ?? '';
}

async function setExpiry(token: string, expiresAt: Date) {
  const value = server.database.engine === 'postgres' ? expiresAt : expiresAt.toISOString();
  await server.db
    .updateTable('session')
    .set({ expiresAt: value })
    .where('token', '=', token)
    .execute();
}

describe('the session guard', () => {
  it('lets a live session through without better-auth’s own check', async () => {
    const { client, email } = await signedUpClient(server, 'Ann Lee');
    const getSession = vi.spyOn(server.auth.api, 'getSession');
    const response = await client.get('/api/profile');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ email, full_name: 'Ann Lee' });
    expect(getSession).not.toHaveBeenCalled();
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a cookie signed with another secret', async () => {
    const { client } = await signedUpClient(server);
    const token = tokenOf(client.cookieHeader);
    const signature = createHmac('sha256', 'another-secret-another-secret-0123456789')
      .update(token)
      .digest('base64');
    const forged = `kin.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
    const response = await server.client().request('GET', '/api/profile', undefined, {
      cookie: forged,
    });
    expect(response.status).toBe(401);
  });

  it('accepts a cookie signed with the server’s secret, as better-auth signs it', async () => {
    const { client } = await signedUpClient(server);
    const token = tokenOf(client.cookieHeader);
    const signature = createHmac('sha256', testConfig().authSecret).update(token).digest('base64');
    const response = await server.client().request('GET', '/api/profile', undefined, {
      cookie: `kin.session_token=${encodeURIComponent(`${token}.${signature}`)}`,
    });
    expect(response.status).toBe(200);
  });

  it('refuses an expired session, and better-auth removes it', async () => {
    const { client } = await signedUpClient(server);
    const token = tokenOf(client.cookieHeader);
    await setExpiry(token, new Date(Date.now() - 1000));
    expect((await client.get('/api/profile')).status).toBe(401);
    const left = await server.db
      .selectFrom('session')
      .select('id')
      .where('token', '=', token)
      .executeTakeFirst();
    expect(left).toBeUndefined();
  });

  it('renews a session used a day after its last renewal, and sends the new cookie', async () => {
    const { client } = await signedUpClient(server);
    const token = tokenOf(client.cookieHeader);
    // Thirty-day sessions: one that ends in 28 days was last renewed two days ago.
    const lastExpiry = new Date(Date.now() + 28 * DAY_MS);
    await setExpiry(token, lastExpiry);
    const response = await client.get('/api/profile');
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((cookie) => cookie.includes('session_token'))).toBe(
      true,
    );
    const row = await server.db
      .selectFrom('session')
      .select('expiresAt')
      .where('token', '=', token)
      .executeTakeFirstOrThrow();
    expect(new Date(row.expiresAt).getTime()).toBeGreaterThan(lastExpiry.getTime() + DAY_MS);
  });

  it('leaves a request with two session cookies to better-auth', async () => {
    const { client } = await signedUpClient(server);
    const getSession = vi.spyOn(server.auth.api, 'getSession');
    const response = await server.client().request('GET', '/api/profile', undefined, {
      cookie: `${client.cookieHeader}; kin.session_token=other.value`,
    });
    expect(getSession).toHaveBeenCalledTimes(1);
    expect(response.status).toBe(200);
  });
});
