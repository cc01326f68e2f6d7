/** The profile (full name, email) and deleting the account with everything it owns. */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, signedUpClient, type TestServer } from '../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

describe('profile', () => {
  it('reads the full name and email', async () => {
    const { client, email } = await signedUpClient(server, 'Ann Lee');
    const response = await client.get('/api/profile');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ email, full_name: 'Ann Lee' });
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
  it('deletes the user, their sessions, members and records, and no one else’s', async () => {
    const { client, email, password } = await signedUpClient(server, 'Leaving User');
    const other = await signedUpClient(server, 'Staying User');
    const member = await client.post<{ id: string }>('/api/family-members', { name: 'Kid' });
    await client.post('/api/visits', {
      visit_name: 'Checkup',
      visit_date: '2026-01-01T10:00:00Z',
      family_member_id: member.body.id,
    });
    await client.post('/api/contacts', { contact_name: 'Dr. Who' });
    await other.client.post('/api/family-members', { name: 'Other kid' });
    const userId = (await client.get<{ id: string }>('/api/profile')).body.id;

    const response = await client.delete('/api/account');
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie().some((cookie) => /session_token=;/.test(cookie))).toBe(
      true,
    );

    expect((await client.get('/api/profile')).status).toBe(401);
    expect((await server.client().signIn({ email, password })).status).toBe(401);
    for (const table of ['family_members', 'visits', 'contacts'] as const) {
      const rows = await (server.db as unknown as Kysely<Record<string, { user_id: string }>>)
        .selectFrom(table)
        .select('user_id')
        .where('user_id', '=', userId)
        .execute();
      expect(rows, table).toEqual([]);
    }
    const sessions = await server.db
      .selectFrom('session')
      .select('id')
      .where('userId', '=', userId)
      .execute();
    expect(sessions).toEqual([]);
    expect((await other.client.get<unknown[]>('/api/family-members')).body).toHaveLength(1);
  });
});
