/**
 * Changing the password in Profile Settings: the current password is asked, every other
 * session ends (even when the request asks to keep them), this one goes on, the new session
 * token stays out of the page's reach, and the security activity says so; a wrong current
 * password is refused and audited, and limited per account.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD_MIN_LENGTH } from '../../shared/constants';
import { createTestServer, signedUpClient, useTestServer } from '../test/harness';

const server = useTestServer();
const CHANGE = '/api/auth/change-password';

describe('changing the password', () => {
  it('asks for the current one, ends every other session and keeps this one', async () => {
    const { client, email, password } = await signedUpClient(server);
    const otherDevice = server.client();
    expect((await otherDevice.signIn({ email, password })).status).toBe(200);

    const wrong = await client.post<{ message: string }>(CHANGE, {
      currentPassword: 'not-the-password',
      newPassword: 'a-new-password',
    });
    expect(wrong.status).toBe(400);
    const short = await client.post<{ field?: string; message: string }>(CHANGE, {
      currentPassword: password,
      newPassword: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({
      field: 'newPassword',
      message: `New Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
    });

    const changed = await client.post(CHANGE, {
      currentPassword: password,
      newPassword: 'a-new-password',
      revokeOtherSessions: false,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ status: true });

    expect((await client.get('/api/profile')).status).toBe(200);
    expect((await otherDevice.get('/api/profile')).status).toBe(401);
    expect((await server.client().signIn({ email, password })).status).toBe(401);
    expect((await server.client().signIn({ email, password: 'a-new-password' })).status).toBe(200);

    const activity =
      await client.get<Array<{ event: string; detail: string | null }>>('/api/security-activity');
    const events = activity.body.map(({ event, detail }) => ({ event, detail }));
    expect(events).toContainEqual({ event: 'password_changed', detail: null });
    expect(events).toContainEqual({ event: 'verification_failed', detail: 'password-change' });
  });

  it('is limited per account', async () => {
    const limited = await createTestServer({
      rateLimit: { max: 3, windowSeconds: 60 },
      trustProxy: true,
    });
    try {
      const { client } = await signedUpClient(limited);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) {
        client.withHeaders({ 'x-forwarded-for': `198.51.100.${attempt + 1}` });
        statuses.push(
          (
            await client.post(CHANGE, {
              currentPassword: 'wrong-password',
              newPassword: 'a-new-password',
            })
          ).status,
        );
      }
      expect(statuses).toEqual([400, 400, 400, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
