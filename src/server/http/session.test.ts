/**
 * The session guard: a live session is checked in one query, and every other case is left
 * to better-auth, which refuses, renews or cleans up exactly as before.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
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

describe('the session guard, pinned to better-auth', () => {
  /**
   * Cookie headers a browser, a proxy or an attacker might send, made from a real session:
   * the right cookie, spelled other ways (quoted, encoded, spaced, among others, twice),
   * and broken ways (another signature, truncated, another session's token, plain text).
   */
  function cookieVariants(signed: string, otherSigned: string) {
    const [token = '', signature = ''] = [
      signed.slice(0, signed.lastIndexOf('.')),
      signed.slice(signed.lastIndexOf('.') + 1),
    ];
    const value = fc.constantFrom(
      signed,
      encodeURIComponent(signed),
      `"${signed}"`,
      `"${encodeURIComponent(signed)}"`,
      `${token}.${signature.slice(0, -1)}`,
      `${token}.${signature}x`,
      `${token.slice(1)}.${signature}`,
      `${otherSigned.slice(0, otherSigned.lastIndexOf('.'))}.${signature}`,
      token,
      `${token}.`,
      '',
      '%E0%A4%A',
    );
    const name = fc.constantFrom('kin.session_token', 'kin.session_token ', 'Kin.session_token');
    const neighbour = fc.constantFrom('', 'theme=dark', 'kin.session_data=x', 'a=b; c=d');
    return fc
      .record({
        name,
        value,
        before: neighbour,
        after: neighbour,
        twice: fc.boolean(),
        space: fc.constantFrom('', ' ', '  '),
      })
      .map(({ name: cookieName, value: cookieValue, before, after, twice, space }) => {
        const pair = `${cookieName}=${space}${cookieValue}`;
        return [before, pair, twice ? `${cookieName}=${otherSigned}` : '', after]
          .filter(Boolean)
          .join('; ');
      });
  }

  it('accepts exactly the cookies better-auth accepts, for the same user', async () => {
    const { client } = await signedUpClient(server);
    const other = await signedUpClient(server);
    const signedOf = (cookieHeader: string) =>
      decodeURIComponent(/kin\.session_token=([^;]+)/.exec(cookieHeader)?.[1] ?? '');
    const signed = signedOf(client.cookieHeader);
    const otherSigned = signedOf(other.client.cookieHeader);
    const userId = (await client.get<{ id: string }>('/api/profile')).body.id;

    await fc.assert(
      fc.asyncProperty(cookieVariants(signed, otherSigned), async (cookie) => {
        const ours = await server
          .client()
          .request<{ id?: string }>('GET', '/api/profile', undefined, { cookie });
        const theirs = await server.auth.api.getSession({
          headers: new Headers({ cookie, host: 'localhost:3000' }),
        });
        expect(
          ours.status === 200,
          `ours ${ours.status}, better-auth ${theirs ? 'yes' : 'no'}: ${cookie}`,
        ).toBe(theirs !== null);
        if (theirs) expect(ours.body.id).toBe(theirs.user.id);
        if (ours.status === 200) expect([userId, theirs?.user.id]).toContain(ours.body.id);
      }),
      { numRuns: 150 },
    );
  });
});
