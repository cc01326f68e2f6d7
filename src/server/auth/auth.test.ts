/**
 * Accounts: the passcode is enforced by the server at sign-up and sign-in, sessions live in
 * safe cookies and end on the server, credential endpoints alone are rate limited.
 */
import { getMigrations } from 'better-auth/db/migration';
import type { Kysely } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { INVALID_PASSCODE_MESSAGE, PASSCODE_FORMAT_MESSAGE } from '../../shared/passcode';
import argon2 from 'argon2';
import {
  createTestServer,
  useTestServer,
  signedUpClient,
  TEST_PASSCODE,
  uniqueEmail,
} from '../test/harness';

const server = useTestServer();

async function countRows(table: 'user' | 'session' | 'account') {
  // 'account' is better-auth's own table, outside the product's typed schema.
  const db = server.db as unknown as Kysely<Record<typeof table, { id: string }>>;
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('sign-up', () => {
  it('creates the account and signs the user in with the right passcode', async () => {
    const client = server.client();
    const email = uniqueEmail();
    const response = await client.signUp({ name: 'Ann Lee', email });
    expect(response.status).toBe(200);
    const session = await client.get<{ user: { email: string; name: string } }>(
      '/api/auth/get-session',
    );
    expect(session.body.user).toMatchObject({ email, name: 'Ann Lee' });
  });

  it('creates nothing with a wrong passcode', async () => {
    const before = await Promise.all([
      countRows('user'),
      countRows('session'),
      countRows('account'),
    ]);
    const client = server.client();
    const email = uniqueEmail();
    const response = await client.signUp({ email, passcode: '000000' });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(
      await Promise.all([countRows('user'), countRows('session'), countRows('account')]),
    ).toEqual(before);
    const row = await server.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it.each([
    [{ passcode: '12345' }, PASSCODE_FORMAT_MESSAGE, 'passcode'],
    [{ passcode: '12345a' }, PASSCODE_FORMAT_MESSAGE, 'passcode'],
    [{ password: '12345' }, 'Password must be at least 6 characters', 'password'],
    [{ name: '   ' }, 'Full Name is required', 'name'],
    [{ name: 'Ann\u0000' }, 'Full Name must not contain control characters', 'name'],
    [{ name: 'Ann\u0085Lee' }, 'Full Name must not contain control characters', 'name'],
    [{ email: 'not-an-email' }, 'Email must be a valid email address', 'email'],
  ])('refuses %j with a message naming the field', async (override, message, field) => {
    const before = await countRows('user');
    const response = await server.client().signUp(override);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message, field });
    expect(await countRows('user')).toBe(before);
  });

  it('keeps no passcode on the user row, hashed or not: only which one it passed', async () => {
    const email = uniqueEmail();
    await server.client().signUp({ email });
    const row = await server.db
      .selectFrom('user')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.passcode_version).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(TEST_PASSCODE);
    expect(JSON.stringify(row)).not.toContain('$argon2');
  });

  it('refuses a second account with the same email', async () => {
    const email = uniqueEmail();
    expect((await server.client().signUp({ email })).status).toBe(200);
    const again = await server.client().signUp({ email });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
  });

  it('tells whether an email has an account only to someone with the passcode', async () => {
    const email = uniqueEmail();
    expect((await server.client().signUp({ email })).status).toBe(200);
    const known = await server.client().signUp({ email, passcode: '000000' });
    const unknown = await server.client().signUp({ email: uniqueEmail(), passcode: '000000' });
    expect(known.status).toBe(403);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    // Behind the passcode, the family may learn it (decision 20).
    const again = await server.client().signUp({ email });
    expect(again.status).toBe(422);
  });
});

describe('sign-in', () => {
  it('issues a session with the right email, password and passcode', async () => {
    const { email, password } = await signedUpClient(server);
    const client = server.client();
    const response = await client.signIn({ email, password });
    expect(response.status).toBe(200);
    expect((await client.get('/api/profile')).status).toBe(200);
  });

  it('issues no session with a wrong passcode, and says so', async () => {
    const { email, password } = await signedUpClient(server);
    const sessionsBefore = await countRows('session');
    const client = server.client();
    const response = await client.signIn({ email, password, passcode: '999999' });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await countRows('session')).toBe(sessionsBefore);
    expect((await client.get('/api/profile')).status).toBe(401);
  });

  it('says the same for an unknown email and a wrong password', async () => {
    const { email } = await signedUpClient(server);
    const unknown = await server
      .client()
      .signIn({ email: uniqueEmail(), password: 'secret-password' });
    const wrongPassword = await server.client().signIn({ email, password: 'wrong-password' });
    expect(unknown.status).toBe(401);
    expect(wrongPassword.status).toBe(401);
    expect(unknown.body).toEqual(wrongPassword.body);
    expect(JSON.stringify(wrongPassword.body)).not.toContain('Passcode');
  });

  it('with a wrong passcode, says the same whether the password is right or wrong', async () => {
    const { email, password } = await signedUpClient(server);
    const rightPassword = await server.client().signIn({ email, password, passcode: '111111' });
    const wrongPassword = await server
      .client()
      .signIn({ email, password: 'wrong-password', passcode: '111111' });
    const unknown = await server
      .client()
      .signIn({ email: uniqueEmail(), password, passcode: '111111' });
    expect(rightPassword.status).toBe(401);
    expect(wrongPassword.status).toBe(rightPassword.status);
    expect(unknown.status).toBe(rightPassword.status);
    expect(wrongPassword.body).toEqual(rightPassword.body);
    expect(unknown.body).toEqual(rightPassword.body);
    expect(rightPassword.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE });
  });

  it('refuses a malformed passcode before looking at the password', async () => {
    const { email, password } = await signedUpClient(server);
    const response = await server.client().signIn({ email, password, passcode: '12' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: PASSCODE_FORMAT_MESSAGE, field: 'passcode' });
  });
});

describe('sign-in with a wrong passcode', () => {
  it('does the same work whether the password is right or wrong: one hash check, the passcode’s', async () => {
    // What a sign-in costs is its Argon2id checks (some 40 ms each at the product's cost,
    // the rest is nothing beside them): counted here rather than timed, so that a busy
    // machine cannot make the test fail or pass.
    const { email, password } = await signedUpClient(server);
    const verify = vi.spyOn(argon2, 'verify');
    try {
      const checksOf = async (tried: string) => {
        verify.mockClear();
        const response = await server
          .client()
          .signIn({ email, password: tried, passcode: '111111' });
        expect(response.status).toBe(401);
        return verify.mock.calls.length;
      };
      expect(await checksOf(password)).toBe(1);
      expect(await checksOf('wrong-password')).toBe(1);
    } finally {
      verify.mockRestore();
    }
  });
});

describe('sessions', () => {
  it('live in an httpOnly, SameSite=Lax cookie that outlasts the browser', async () => {
    const response = await server.client().signUp();
    const cookie = response.headers.getSetCookie().find((value) => value.includes('session_token'));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//i);
    // A Max-Age makes it a persistent cookie: it survives a browser restart.
    expect(Number(/Max-Age=(\d+)/i.exec(cookie ?? '')?.[1])).toBeGreaterThan(24 * 60 * 60);
  });

  it('end on the server at sign-out: the old cookie no longer works', async () => {
    const { client } = await signedUpClient(server);
    const stolen = client.cookieHeader;
    expect((await client.signOut()).status).toBe(200);
    expect((await client.get('/api/profile')).status).toBe(401);
    const replay = await server
      .client()
      .request('GET', '/api/profile', undefined, { cookie: stolen });
    expect(replay.status).toBe(401);
  });

  it('renew themselves when used after a day, and the browser gets the new cookie', async () => {
    const { client } = await signedUpClient(server);
    const userId = (await client.get<{ id: string }>('/api/profile')).body.id;
    const row = await server.db
      .selectFrom('session')
      .select(['id', 'expiresAt'])
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow();
    // As if the session had last been renewed two days ago.
    const aged = new Date(Date.now() + 28 * 24 * 60 * 60 * 1000);
    const stored = typeof row.expiresAt === 'string' ? aged.toISOString() : aged;
    await server.db
      .updateTable('session')
      .set({ expiresAt: stored })
      .where('id', '=', row.id)
      .execute();

    const response = await client.get('/api/profile');
    expect(response.status).toBe(200);
    expect(
      response.headers.getSetCookie().some((cookie) => cookie.includes('session_token=')),
    ).toBe(true);
    const renewed = await server.db
      .selectFrom('session')
      .select('expiresAt')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(new Date(renewed.expiresAt).getTime()).toBeGreaterThan(
      aged.getTime() + 24 * 60 * 60 * 1000,
    );
  });

  it('is refused when forged', async () => {
    const response = await server
      .client()
      .request('GET', '/api/profile', undefined, { cookie: 'kin.session_token=forged.value' });
    expect(response.status).toBe(401);
  });
});

describe('the schema', () => {
  it('has every table and column better-auth needs', async () => {
    const { toBeCreated, toBeAdded } = await getMigrations(server.auth.options);
    expect(toBeCreated).toEqual([]);
    expect(toBeAdded).toEqual([]);
  });
});

describe('rate limits', () => {
  it('limit repeated sign-ins but never reading the session', async () => {
    const limited = await createTestServer({ rateLimit: { max: 3, windowSeconds: 60 } });
    try {
      const { client, email } = await signedUpClient(limited);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) {
        statuses.push(
          (await limited.client().signIn({ email, password: 'wrong-password' })).status,
        );
      }
      expect(statuses.slice(0, 2)).toEqual([401, 401]);
      expect(statuses.at(-1)).toBe(429);
      for (let read = 0; read < 30; read += 1) {
        expect((await client.get('/api/auth/get-session')).status).toBe(200);
        expect((await client.get('/api/family-members')).status).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });

  it('limit repeated two-factor attempts too, but never records or the session', async () => {
    const limited = await createTestServer({ rateLimit: { max: 3, windowSeconds: 60 } });
    try {
      const { client } = await signedUpClient(limited);
      const attacker = limited.client();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) {
        statuses.push(
          (await attacker.post('/api/auth/two-factor/verify-totp', { code: '123456' })).status,
        );
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.at(-1)).toBe(429);
      const enable = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        enable.push(
          (await client.post('/api/auth/two-factor/enable', { password: 'wrong-password' })).status,
        );
      }
      expect(enable.at(-1)).toBe(429);
      for (let read = 0; read < 20; read += 1) {
        expect((await client.get('/api/auth/get-session')).status).toBe(200);
        expect((await client.get('/api/visits')).status).toBe(200);
        expect((await client.get('/api/sessions')).status).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });
});

describe('the user’s fields', () => {
  const headersOf = (client: { cookieHeader: string }) =>
    new Headers({ cookie: client.cookieHeader, host: 'localhost:3000' });

  it('are not writable over HTTP but through the profile', async () => {
    const { client } = await signedUpClient(server, 'Ann Lee');
    const response = await client.post('/api/auth/update-user', {
      name: 'x'.repeat(5003),
      image: 'javascript:alert(1)',
    });
    expect(response.status).toBe(404);
    expect((await client.get('/api/profile')).body).toMatchObject({ full_name: 'Ann Lee' });
  });

  it.each([
    ['an over-long name', { name: 'x'.repeat(5003) }, /Full Name/],
    ['a NUL in the name', { name: 'Ann\u0000Lee' }, /Full Name/],
    ['a right-to-left override in the name', { name: 'Ann\u202eeeL' }, /Full Name/],
    ['an empty name', { name: '  ' }, /Full Name/],
    ['an image', { image: 'https://evil.example/x.png' }, /image/],
  ])(
    'refuse %s on every path that writes them, server-side calls included',
    async (_label, body, message) => {
      const { client } = await signedUpClient(server, 'Ann Lee');
      await expect(
        server.auth.api.updateUser({ headers: headersOf(client), body }),
      ).rejects.toThrow(message);
      const row = await server.db
        .selectFrom('user')
        .select(['name', 'image'])
        .where('id', '=', (await client.get<{ id: string }>('/api/profile')).body.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ name: 'Ann Lee', image: null });
    },
  );

  it('keep the Full Name rules at sign-up, whoever calls it', async () => {
    await expect(
      server.auth.api.signUpEmail({
        headers: new Headers({ host: 'localhost:3000' }),
        body: {
          name: 'Ann\u202eLee',
          email: uniqueEmail(),
          password: 'secret-password',
          passcode: TEST_PASSCODE,
        } as never,
      }),
    ).rejects.toThrow(/Full Name/);
  });
});
