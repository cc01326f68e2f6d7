/**
 * Health history's rule, enforced by the server: a family-history entry needs a relation
 * and belongs to no member; the user's own entry has no relation.
 */
import { describe, expect, it } from 'vitest';
import { RELATION_REQUIRED_MESSAGE } from '../../shared/records/conditions';
import { sampleRecord } from '../test/factories';
import { useTestServer, signedUpClient } from '../test/harness';

const server = useTestServer();

type Condition = {
  id: string;
  condition_name: string;
  relation: string | null;
  family_member_id: string | null;
  is_family_history: boolean;
};

describe('health history', () => {
  it('saves a family-history entry with its relation, for the person it names', async () => {
    const { client } = await signedUpClient(server);
    const member = await client.post<{ id: string }>('/api/family-members', { name: 'Kid' });
    const own = await client.post<Condition>(
      '/api/history',
      sampleRecord('condition', { is_family_history: true, relation: 'Grandfather' }),
    );
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({
      is_family_history: true,
      relation: 'Grandfather',
      family_member_id: null,
    });
    // Recorded for a family member (issue 33.3): the relation is to the member.
    const members = await client.post<Condition>(
      '/api/history',
      sampleRecord('condition', {
        is_family_history: true,
        relation: 'Grandfather',
        family_member_id: member.body.id,
      }),
    );
    expect(members.body).toMatchObject({
      is_family_history: true,
      relation: 'Grandfather',
      family_member_id: member.body.id,
    });
  });

  it('refuses a family-history entry without a relation', async () => {
    const { client } = await signedUpClient(server);
    for (const relation of [undefined, null, '', '   ']) {
      const response = await client.post(
        '/api/history',
        sampleRecord('condition', { is_family_history: true, relation }),
      );
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        field: 'relation',
        message: RELATION_REQUIRED_MESSAGE,
      });
    }
    expect((await client.get<{ items: unknown[] }>('/api/history')).body.items).toEqual([]);
  });

  it('saves the user’s own entry with its member and no relation', async () => {
    const { client } = await signedUpClient(server);
    const member = await client.post<{ id: string }>('/api/family-members', { name: 'Kid' });
    const created = await client.post<Condition>(
      '/api/history',
      sampleRecord('condition', {
        is_family_history: false,
        relation: 'Mother',
        family_member_id: member.body.id,
      }),
    );
    expect(created.body).toMatchObject({ relation: null, family_member_id: member.body.id });

    const switched = await client.put<Condition>(
      `/api/history/${created.body.id}`,
      sampleRecord('condition', {
        is_family_history: true,
        relation: 'Aunt',
        family_member_id: member.body.id,
      }),
    );
    expect(switched.body).toMatchObject({
      is_family_history: true,
      relation: 'Aunt',
      family_member_id: member.body.id,
    });
  });

  it('lists by diagnosis date, newest first, undated last', async () => {
    const { client } = await signedUpClient(server);
    for (const [name, date] of [
      ['Undated', null],
      ['Old', '2001-01-01'],
      ['Recent', '2024-01-01'],
    ] as const) {
      await client.post(
        '/api/history',
        sampleRecord('condition', { condition_name: name, diagnosis_date: date }),
      );
    }
    const list = await client.get<{ items: Condition[] }>('/api/history');
    expect(list.body.items.map((item) => item.condition_name)).toEqual([
      'Recent',
      'Old',
      'Undated',
    ]);
  });

  it('refuses a status outside the list', async () => {
    const { client } = await signedUpClient(server);
    const response = await client.post(
      '/api/history',
      sampleRecord('condition', { status: 'Cured' }),
    );
    expect(response.body).toMatchObject({
      field: 'status',
      message: 'Status must be one of: Active, Resolved, Chronic, Under Treatment',
    });
  });
});
