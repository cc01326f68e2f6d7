/**
 * The auth endpoints a browser can reach are exactly the ones the product calls, and every
 * one that checks a password, passcode or code is limited per address and per account, and
 * leaves a trace in the audit log when it refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_MANY_ATTEMPTS_MESSAGE } from '../limits/attempt-limits';
import { AUTH_HTTP_ROUTES } from './auth-routes';
import { createTestServer, signedUpClient, uniqueEmail, type TestServer } from '../test/harness';

describe('the auth endpoints mounted over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  /** Every endpoint better-auth and its plugins define, by method and path. */
  function definedEndpoints(): Array<{ method: string; path: string }> {
    const endpoints = Object.values(
      server.auth.api as Record<
        string,
        { path?: string; options?: { method?: string | string[] } }
      >,
    );
    return endpoints.flatMap((endpoint) => {
      if (!endpoint.path) return [];
      const methods = [endpoint.options?.method ?? 'GET'].flat();
      return methods.map((method) => ({ method, path: endpoint.path as string }));
    });
  }

  it('answer 404 for every endpoint the product does not call (verify-password first)', async () => {
    const { client } = await signedUpClient(server);
    const allowed = new Set(AUTH_HTTP_ROUTES.map((route) => `${route.method} ${route.path}`));
    const refused = definedEndpoints().filter(
      ({ method, path }) => !allowed.has(`${method} ${path}`),
    );
    expect(refused.map(({ path }) => path)).toContain('/verify-password');
    expect(refused.map(({ path }) => path)).toContain('/update-user');
    for (const { method, path } of refused) {
      const concrete = path.replace(/:[a-z]+/gi, 'x');
      const verbs = [...new Set([method, 'GET', 'POST'])].filter(
        (verb) => !allowed.has(`${verb} ${path}`),
      );
      for (const verb of verbs) {
        const response = await client.request(
          verb,
          `/api/auth${concrete}`,
          verb === 'GET' ? undefined : { password: 'secret-password' },
        );
        expect(response.status, `${verb} ${path}`).toBe(404);
      }
    }
  });

  it('keep every allowlisted endpoint defined by better-auth (the list is not stale)', () => {
    const defined = new Set(definedEndpoints().map(({ method, path }) => `${method} ${path}`));
    for (const route of AUTH_HTTP_ROUTES) {
      expect(defined.has(`${route.method} ${route.path}`), `${route.method} ${route.path}`).toBe(
        true,
      );
    }
  });

  it('do not answer to another spelling of a closed path', async () => {
    const { client } = await signedUpClient(server);
    for (const path of [
      '/verify-password/',
      '/Verify-Password',
      '/verify%2Dpassword',
      '//verify-password',
      '/sign-in/../verify-password',
    ]) {
      const response = await client.request('POST', `/api/auth${path}`, {
        password: 'secret-password',
      });
      expect(response.status, path).toBe(404);
    }
  });
});

describe('credential checks', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ rateLimit: { max: 4, windowSeconds: 60 }, trustProxy: true });
  });
  afterAll(() => server.close());

  /** A client whose requests come from their own address (through a trusted proxy). */
  let addressCounter = 0;
  function fromNewAddress() {
    addressCounter += 1;
    return server.client().withHeaders({ 'x-forwarded-for': `203.0.113.${addressCounter}` });
  }

  /** A signed-up, signed-in client on an address of its own. */
  async function signedUpDevice() {
    const client = fromNewAddress();
    const email = uniqueEmail();
    expect((await client.signUp({ email })).status).toBe(200);
    return { client, email, password: 'secret-password' };
  }

  async function auditEvents(userId: string) {
    return server.db
      .selectFrom('audit_log')
      .select(['event', 'detail'])
      .where('user_id', '=', userId)
      .execute();
  }

  it('limit sign-ins per account, whichever addresses the guesses come from', async () => {
    const { email } = await signedUpClient(server);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push((await fromNewAddress().signIn({ email, password: 'wrong-password' })).status);
    }
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    // Even the right password waits for the window to end.
    expect((await fromNewAddress().signIn({ email, password: 'secret-password' })).status).toBe(
      429,
    );
    const userId = (
      await server.db
        .selectFrom('user')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;
    expect(await auditEvents(userId)).toContainEqual({
      event: 'too_many_attempts',
      detail: 'sign-in',
    });
  });

  it('do not let guesses from elsewhere lock out a device that has signed in before', async () => {
    const { client: ownDevice, email, password } = await signedUpDevice();
    await ownDevice.signOut();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await fromNewAddress().signIn({ email, password: 'wrong-password' });
    }
    expect((await fromNewAddress().signIn({ email, password })).status).toBe(429);
    // The device the owner signed up on still gets in.
    expect((await ownDevice.signIn({ email, password })).status).toBe(200);
    // The account's own devices have a count of their own: a stolen laptop does not guess
    // at will either.
    const fromDevice: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      ownDevice.withHeaders({ 'x-forwarded-for': `198.18.1.${attempt}` });
      fromDevice.push((await ownDevice.signIn({ email, password: 'wrong-password' })).status);
    }
    expect(fromDevice).toEqual([401, 401, 401, 429]);
  });

  it('do not take a device cookie made for another email, or a forged one', async () => {
    const { client: otherDevice } = await signedUpDevice();
    const { email, password } = await signedUpDevice();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await fromNewAddress().signIn({ email, password: 'wrong-password' });
    }
    otherDevice.withHeaders({ 'x-forwarded-for': '198.18.2.1' });
    expect((await otherDevice.signIn({ email, password })).status).toBe(429);
    const forged = fromNewAddress().withHeaders({ cookie: 'kin.known_device=anything.forged' });
    expect((await forged.signIn({ email, password })).status).toBe(429);
  });

  it('limit password confirmations (two-factor on) per account', async () => {
    const { client } = await signedUpClient(server);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      client.withHeaders({ 'x-forwarded-for': `198.51.100.${attempt + 1}` });
      statuses.push(
        (await client.post('/api/auth/two-factor/enable', { password: 'wrong-password' })).status,
      );
    }
    expect(statuses.slice(0, 4).every((status) => status === 400 || status === 401)).toBe(true);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const userId = (await client.get<{ id: string }>('/api/profile')).body.id;
    const events = await auditEvents(userId);
    expect(events).toContainEqual({ event: 'verification_failed', detail: 'two-factor-enable' });
    expect(events).toContainEqual({ event: 'too_many_attempts', detail: 'password-confirmation' });
  });

  it('audit a sign-up refused for a wrong passcode', async () => {
    const email = uniqueEmail();
    expect((await fromNewAddress().signUp({ email, passcode: '000000' })).status).toBe(403);
    const rows = await server.db
      .selectFrom('audit_log')
      .select(['event', 'detail'])
      .where('email', '=', email)
      .execute();
    expect(rows).toEqual([{ event: 'sign_up_failed', detail: 'wrong_passcode' }]);
  });

  it('audit a refusal by the per-address limit', async () => {
    const client = fromNewAddress();
    const email = uniqueEmail();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push(
        (await client.signIn({ email: `${attempt}-${email}`, password: 'x-password' })).status,
      );
    }
    expect(statuses.at(-1)).toBe(429);
    const rows = await server.db
      .selectFrom('audit_log')
      .select(['event', 'detail', 'ip_address'])
      .where('event', '=', 'too_many_attempts')
      .where('ip_address', '=', `203.0.113.${addressCounter}`)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe('the default limit of the other auth endpoints', () => {
  it('is a real limit, far above what a household reads', async () => {
    const server = await createTestServer({ rateLimit: { max: 4, windowSeconds: 60 } });
    try {
      const { client } = await signedUpClient(server);
      const statuses: number[] = [];
      for (let read = 0; read < 320; read += 1)
        statuses.push((await client.get('/api/auth/get-session')).status);
      expect(statuses.slice(0, 250).every((status) => status === 200)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      // Records are read through the product's own session check, never limited.
      expect((await client.get('/api/visits')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('wrong Friends & Family Passcodes on the whole server', () => {
  const LIMIT = 5;
  let server: TestServer;
  const logs: string[] = [];
  beforeAll(async () => {
    server = await createTestServer({
      passcodeGuessLimit: { max: LIMIT, windowSeconds: 3600 },
      trustProxy: true,
      logs: { write: (line) => logs.push(line) },
    });
  });
  afterAll(() => server.close());

  let addressCounter = 0;
  /** A guesser with a new address and a new email for every try. */
  function guess(passcode: string, via: 'sign-up' | 'sign-in' = 'sign-up') {
    addressCounter += 1;
    const client = server.client().withHeaders({ 'x-forwarded-for': `192.0.2.${addressCounter}` });
    return via === 'sign-up'
      ? client.signUp({ email: uniqueEmail('guesser'), passcode })
      : client.signIn({ email: uniqueEmail('guesser'), password: 'x-password', passcode });
  }

  it('checks only a few more than the limit, then slows everyone down; a line in the log and the audit log says so', async () => {
    // Right passcodes do not use the limit up.
    const { email, password } = await signedUpClient(server);
    const first: number[] = [];
    for (let attempt = 0; attempt < LIMIT - 1; attempt += 1) {
      first.push((await guess(String(100000 + attempt))).status);
    }
    first.push((await guess('100100', 'sign-in')).status);
    expect(first).toEqual([403, 403, 403, 403, 401]);
    // Many at once, from as many addresses: one more is checked, then each waits its turn.
    const racing = await Promise.all(
      Array.from({ length: 20 }, (_, attempt) => guess(String(200000 + attempt))),
    );
    const statuses = racing.map((response) => response.status);
    expect(statuses.filter((status) => status === 403)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(19);
    const refused = racing.find((response) => response.status === 429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused?.body).toMatchObject({ message: TOO_MANY_ATTEMPTS_MESSAGE });
    // Everyone waits, the right passcode too, until the pause is over.
    expect((await server.client().signIn({ email, password })).status).toBe(429);
    const rows = await server.db
      .selectFrom('audit_log')
      .select(['event', 'user_id'])
      .where('event', '=', 'passcode_guesses_limited')
      .execute();
    expect(rows).toEqual([{ event: 'passcode_guesses_limited', user_id: null }]);
    expect(logs.filter((line) => line.includes('wrong Friends & Family Passcodes'))).toHaveLength(
      1,
    );
  });
});
