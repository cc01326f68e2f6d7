/**
 * One user's records are invisible and untouchable to another, for every record type:
 * another user's id behaves exactly like a missing one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDefinitions } from '../../shared/records';
import type { RecordDefinition } from '../../shared/records/definition';
import { editableTextField, sampleRecord } from '../test/factories';
import { createTestServer, signedUpClient, type TestServer } from '../test/harness';

let server: TestServer;
let owner: Awaited<ReturnType<typeof signedUpClient>>;
let intruder: Awaited<ReturnType<typeof signedUpClient>>;
let ownerMemberId: string;

beforeAll(async () => {
  server = await createTestServer();
  owner = await signedUpClient(server, 'Owner');
  intruder = await signedUpClient(server, 'Intruder');
  ownerMemberId = (
    await owner.client.post<{ id: string }>('/api/family-members', { name: 'Owner kid' })
  ).body.id;
});
afterAll(() => server.close());

const MISSING_ID = '01900000-0000-7000-8000-000000000000';

describe.each(
  recordDefinitions.map((definition) => [definition.type, definition as RecordDefinition] as const),
)('%s records of another user', (type, definition) => {
  const base = `/api/${definition.path}`;

  it('cannot be read, listed, changed or deleted', async () => {
    const created = await owner.client.post<{ id: string }>(
      base,
      sampleRecord(type, definition.memberLinked ? { family_member_id: ownerMemberId } : {}),
    );
    expect(created.status).toBe(201);
    const path = `${base}/${created.body.id}`;
    const original = (await owner.client.get(path)).body;

    const missing = await intruder.client.get(`${base}/${MISSING_ID}`);
    const read = await intruder.client.get(path);
    expect(read.status).toBe(404);
    expect(read.body).toEqual(missing.body);

    for (const view of [undefined, ...Object.keys(definition.views ?? {})]) {
      const list = await intruder.client.get<{ items: unknown[]; counts: Record<string, number> }>(
        view ? `${base}?view=${view}` : base,
      );
      expect(list.body.items).toEqual([]);
      expect(Object.values(list.body.counts).every((count) => count === 0)).toBe(true);
    }
    if (definition.memberLinked) {
      const filtered = await intruder.client.get<{ items: unknown[] }>(
        `${base}?member=${ownerMemberId}`,
      );
      expect(filtered.body.items).toEqual([]);
    }

    const update = await intruder.client.put(
      path,
      sampleRecord(type, { [editableTextField[type]]: 'Hacked' }),
    );
    expect(update.status).toBe(404);
    expect(update.body).toEqual(missing.body);
    const remove = await intruder.client.delete(path);
    expect(remove.status).toBe(404);
    expect(remove.body).toEqual(missing.body);

    expect((await owner.client.get(path)).body).toEqual(original);
  });

  it('cannot be made to point at another user’s family member', async () => {
    if (!definition.memberLinked) return;
    const response = await intruder.client.post<{ field: string; message: string }>(
      base,
      sampleRecord(type, { family_member_id: ownerMemberId }),
    );
    expect(response.status).toBe(400);
    expect(response.body.field).toBe('family_member_id');
    expect(response.body.message).toBe('Family Member must be one of your family members');

    const own = await intruder.client.post<{ id: string }>(base, sampleRecord(type));
    const update = await intruder.client.put(
      `${base}/${own.body.id}`,
      sampleRecord(type, { family_member_id: ownerMemberId }),
    );
    expect(update.status).toBe(400);
    expect(
      (await intruder.client.get<{ family_member_id: null }>(`${base}/${own.body.id}`)).body
        .family_member_id,
    ).toBeNull();
  });

  it('are not on the other user’s timeline', async () => {
    const timeline = await intruder.client.get<{ events: { id: string }[] }>('/api/timeline');
    const ownerTimeline = await owner.client.get<{ events: { id: string }[] }>(
      '/api/timeline?limit=200',
    );
    const ownerIds = new Set(ownerTimeline.body.events.map((event) => event.id));
    expect(timeline.body.events.filter((event) => ownerIds.has(event.id))).toEqual([]);
  });
});

describe('the database itself', () => {
  it('refuses a record pointing at another user’s member even past the API', async () => {
    const intruderId = (await intruder.client.get<{ id: string }>('/api/profile')).body.id;
    const now = new Date().toISOString();
    await expect(
      server.db
        .insertInto('visits' as never)
        .values({
          id: '01900000-0000-7000-8000-0000000000aa',
          user_id: intruderId,
          family_member_id: ownerMemberId,
          visit_name: 'Sneaky',
          visit_date: now,
          created_at: now,
          updated_at: now,
        } as never)
        .execute(),
    ).rejects.toThrow();
  });
});
