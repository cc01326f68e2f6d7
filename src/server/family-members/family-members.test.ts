/** Family members: CRUD in creation order, validation, isolation, and the cascade. */
import { describe, expect, it } from 'vitest';
import type { FamilyMember } from '../../shared/family-members';
import { useTestServer, signedUpClient } from '../test/harness';

const server = useTestServer();

describe('family members', () => {
  it('are added, listed in creation order, updated and deleted', async () => {
    const { client } = await signedUpClient(server);
    const zed = await client.post<FamilyMember>('/api/family-members', { name: 'Zed' });
    expect(zed.status).toBe(201);
    expect(zed.body).toMatchObject({ name: 'Zed', date_of_birth: null, color: '#20c997' });
    const amy = await client.post<FamilyMember>('/api/family-members', {
      name: 'Amy',
      date_of_birth: '2015-03-04',
      color: '#ec4899',
    });
    expect(amy.body).toMatchObject({ name: 'Amy', date_of_birth: '2015-03-04', color: '#ec4899' });

    const list = await client.get<FamilyMember[]>('/api/family-members');
    expect(list.body.map((member) => member.name)).toEqual(['Zed', 'Amy']);

    const updated = await client.put<FamilyMember>(`/api/family-members/${zed.body.id}`, {
      name: 'Zed Junior',
      date_of_birth: '',
      color: '#3b82f6',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'Zed Junior',
      date_of_birth: null,
      color: '#3b82f6',
    });

    expect((await client.delete(`/api/family-members/${amy.body.id}`)).status).toBe(204);
    const after = await client.get<FamilyMember[]>('/api/family-members');
    expect(after.body.map((member) => member.name)).toEqual(['Zed Junior']);
  });

  it('keep creation order for members added in the same instant', async () => {
    const { client } = await signedUpClient(server);
    const names = Array.from({ length: 8 }, (_, index) => `Member ${index}`);
    for (const name of names) await client.post('/api/family-members', { name });
    const list = await client.get<FamilyMember[]>('/api/family-members');
    expect(list.body.map((member) => member.name)).toEqual(names);
  });

  it.each([
    [{}, 'name', 'Name is required'],
    [{ name: '   ' }, 'name', 'Name is required'],
    [{ name: 'x'.repeat(201) }, 'name', 'Name must be at most 200 characters'],
    [{ name: 7 }, 'name', 'Name must be text'],
    [
      { name: 'Kid', date_of_birth: '2020-02-30' },
      'date_of_birth',
      'Date of Birth must be a date (YYYY-MM-DD)',
    ],
    [
      { name: 'Kid', date_of_birth: 'yesterday' },
      'date_of_birth',
      'Date of Birth must be a date (YYYY-MM-DD)',
    ],
    [{ name: 'Kid', color: '#000000' }, 'color', 'Color must be one of'],
  ])(
    'refuse %j with a message naming the field, changing nothing',
    async (body, field, message) => {
      const { client } = await signedUpClient(server);
      const response = await client.post<{ message: string; field: string }>(
        '/api/family-members',
        body,
      );
      expect(response.status).toBe(400);
      expect(response.body.field).toBe(field);
      expect(response.body.message).toContain(message);
      expect((await client.get<FamilyMember[]>('/api/family-members')).body).toEqual([]);
    },
  );

  it('refuse malformed JSON', async () => {
    const { client } = await signedUpClient(server);
    const response = await client.request('POST', '/api/family-members', '{"name": ');
    expect(response.status).toBe(400);
    expect((await client.get<FamilyMember[]>('/api/family-members')).body).toEqual([]);
  });

  it('need a session for every route', async () => {
    const anonymous = server.client();
    const id = '01900000-0000-7000-8000-000000000000';
    for (const [method, path] of [
      ['GET', '/api/family-members'],
      ['POST', '/api/family-members'],
      ['GET', `/api/family-members/${id}`],
      ['PUT', `/api/family-members/${id}`],
      ['DELETE', `/api/family-members/${id}`],
    ] as const) {
      const response = await anonymous.request(
        method,
        path,
        method === 'GET' || method === 'DELETE' ? undefined : { name: 'X' },
      );
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body).toEqual({ message: 'Not authenticated' });
    }
  });

  it('of one user cannot be seen, changed or deleted by another', async () => {
    const owner = await signedUpClient(server);
    const intruder = await signedUpClient(server);
    const member = await owner.client.post<FamilyMember>('/api/family-members', {
      name: 'Private',
    });
    const path = `/api/family-members/${member.body.id}`;

    expect((await intruder.client.get<FamilyMember[]>('/api/family-members')).body).toEqual([]);
    const read = await intruder.client.get(path);
    const missing = await intruder.client.get(
      '/api/family-members/01900000-0000-7000-8000-000000000000',
    );
    expect(read.status).toBe(404);
    expect(read.body).toEqual(missing.body);
    expect((await intruder.client.put(path, { name: 'Hacked' })).status).toBe(404);
    expect((await intruder.client.delete(path)).status).toBe(404);

    expect((await owner.client.get<FamilyMember>(path)).body).toMatchObject({ name: 'Private' });
  });

  it('answer an id with a NUL character in it as a missing one, on either engine', async () => {
    const { client } = await signedUpClient(server);
    for (const id of ['%00', 'a%00b']) {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const response = await client.request(
          method,
          `/api/family-members/${id}`,
          method === 'PUT' ? { name: 'X' } : undefined,
        );
        expect(response.status, `${method} ${id}`).toBe(404);
      }
    }
  });

  it('take every record linked to them when deleted', async () => {
    const { client } = await signedUpClient(server);
    const kid = await client.post<FamilyMember>('/api/family-members', { name: 'Kid' });
    const other = await client.post<FamilyMember>('/api/family-members', { name: 'Other' });
    const linked = { family_member_id: kid.body.id };
    await client.post('/api/visits', {
      visit_name: 'V',
      visit_date: '2026-01-01T10:00:00Z',
      ...linked,
    });
    await client.post('/api/medications', { medication_name: 'M', ...linked });
    await client.post('/api/shots', { shot_name: 'S', ...linked });
    await client.post('/api/notes', { title: 'N', ...linked });
    await client.post('/api/history', { condition_name: 'C', ...linked });
    await client.post('/api/insurance', { provider_name: 'I', ...linked });
    const kept = await client.post<{ id: string }>('/api/visits', {
      visit_name: 'Kept',
      visit_date: '2026-01-01T10:00:00Z',
      family_member_id: other.body.id,
    });

    expect((await client.delete(`/api/family-members/${kid.body.id}`)).status).toBe(204);
    for (const path of ['visits', 'medications', 'shots', 'notes', 'history', 'insurance']) {
      const list = await client.get<{ items: { id: string }[] }>(`/api/${path}`);
      expect(
        list.body.items.filter((item) => item.id !== kept.body.id),
        path,
      ).toEqual([]);
    }
    expect((await client.get(`/api/visits/${kept.body.id}`)).status).toBe(200);
  });
});
