/**
 * The app servers keep no state of their own: two server processes on one PostgreSQL
 * database share sessions, data and the sign-in rate limits.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PASSCODE, TestClient, testEngine, uniqueEmail } from '../test/harness';
import { createServerStorage, startServerProcess, stopServerProcess } from '../test/server-process';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe.runIf(testEngine() === 'postgres')('two servers on one PostgreSQL database', () => {
  it('share sessions, writes and rate limits', async () => {
    const storage = await createServerStorage();
    cleanups.push(storage.drop);
    const env: Record<string, string> = { ...storage.env, AUTH_RATE_LIMIT: '4/60' };
    // Each server has a data directory of its own: nothing may live there but defaults.
    const one = await startServerProcess(env);
    cleanups.push(() => stopServerProcess(one));
    const two = await startServerProcess({ ...env, DATA_DIR: `${env.DATA_DIR}-two` });
    cleanups.push(() => stopServerProcess(two));

    const email = uniqueEmail('shared');
    const onOne = TestClient.over(one.url);
    const signUp = await onOne.request('POST', '/api/auth/sign-up/email', {
      name: 'Shared User',
      email,
      password: 'secret-password',
      passcode: TEST_PASSCODE,
    });
    expect(signUp.status).toBe(200);

    // A session made on one server works on the other.
    const onTwo = onOne.against(two.url);
    expect((await onTwo.request<{ email: string }>('GET', '/api/profile')).body.email).toBe(email);

    // Writes through either are read through both.
    const viaTwo = await onTwo.request<{ id: string }>('POST', '/api/notes', {
      title: 'Written on two',
    });
    expect(viaTwo.status).toBe(201);
    expect((await onOne.request('GET', `/api/notes/${viaTwo.body.id}`)).status).toBe(200);
    const viaOne = await onOne.request<{ id: string }>('POST', '/api/family-members', {
      name: 'Kid',
    });
    expect(
      (await onTwo.request<{ id: string }[]>('GET', '/api/family-members')).body.map((m) => m.id),
    ).toEqual([viaOne.body.id]);

    // Sign-out on one ends the session on both.
    const spare = TestClient.over(one.url);
    await spare.request('POST', '/api/auth/sign-in/email', {
      email,
      password: 'secret-password',
      passcode: TEST_PASSCODE,
    });
    await spare.request('POST', '/api/auth/sign-out', {});
    expect((await spare.against(two.url).request('GET', '/api/profile')).status).toBe(401);

    // Failed sign-ins count across both servers: the limit is one budget, not one per server
    // (with a budget per server, none of these six would be refused).
    const statuses: number[] = [];
    for (const base of [one.url, two.url, one.url, two.url, one.url, two.url]) {
      const attempt = await TestClient.over(base).request('POST', '/api/auth/sign-in/email', {
        email,
        password: 'wrong-password',
        passcode: TEST_PASSCODE,
      });
      statuses.push(attempt.status);
    }
    // The spare sign-in used one of the four attempts this address has.
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.filter((status) => status === 429).length).toBe(3);
    expect(statuses.at(-1)).toBe(429);
  });
});
