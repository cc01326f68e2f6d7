/**
 * `npm run kin -- reset-password EMAIL` beside a running server without mail: it prints a
 * link that resets the password once (no passcode asked), and the account's security
 * activity says the operator made it; an unknown email makes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient, uniqueEmail } from '../test/harness';
import { runKin } from '../test/kin-command';
import { createServerStorage, startServerProcess, stopServerProcess } from '../test/server-process';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe('npm run kin -- reset-password', () => {
  it('prints a one-time link that resets the password; an unknown email gets none', async () => {
    const storage = await createServerStorage();
    cleanups.push(storage.drop);
    const server = await startServerProcess(storage.env);
    cleanups.push(() => stopServerProcess(server));
    const email = uniqueEmail();
    const client = TestClient.over(server.url);
    expect((await client.signUp({ email })).status).toBe(200);

    const env = { ...storage.env, BASE_URL: server.url, PASSKEYS: 'off' };
    const made = await runKin(['reset-password', email.toUpperCase()], env);
    expect(made.code, made.stderr).toBe(0);
    const link = /^ {2}(\S+)$/m.exec(made.stdout)?.[1] ?? '';
    expect(link.startsWith(`${server.url}/reset-password?token=`)).toBe(true);
    const token = new URL(link).searchParams.get('token');

    const reset = () =>
      TestClient.over(server.url).post('/api/auth/reset-password', {
        token,
        newPassword: 'chosen-by-the-owner',
      });
    expect((await reset()).status).toBe(200);
    expect((await reset()).status).toBe(400);
    expect((await client.get('/api/profile')).status).toBe(401);
    const owner = TestClient.over(server.url);
    expect((await owner.signIn({ email, password: 'chosen-by-the-owner' })).status).toBe(200);
    const activity = await owner.get<Array<{ event: string }>>('/api/security-activity');
    expect(activity.body.map((entry) => entry.event)).toEqual(
      expect.arrayContaining(['password_reset_link_created', 'password_reset']),
    );

    const unknown = await runKin(['reset-password', uniqueEmail('nobody')], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^No account has the email .*\nNo link was made\.\n$/);
    expect(unknown.stdout).not.toContain('reset-password?token=');
  });
});
