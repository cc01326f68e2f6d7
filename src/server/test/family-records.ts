/**
 * A family's records made through the API of a server process, and everything the API
 * answers about them, for the tests that back up and restore a database and compare.
 */
import { expect } from 'vitest';
import { recordDefinitions } from '../../shared/records';
import { sampleRecord } from './factories';
import { TEST_PASSCODE, uniqueEmail, type TestClient } from './harness';

export async function expectStatus<T>(
  response: Promise<{ status: number; body: T }>,
  status = 201,
): Promise<T> {
  const { status: actual, body } = await response;
  expect(actual, JSON.stringify(body)).toBe(status);
  return body;
}

export interface SeededFamily {
  /** Record ids by API path (`visits`, `history`, …). */
  ids: Record<string, string[]>;
  members: { leo: string; ana: string };
  visitId: string;
  contactId: string;
}

/** Signs the client up, then two family members and records of every type. */
export async function seedFamily(client: TestClient): Promise<SeededFamily> {
  await expectStatus(
    client.request('POST', '/api/auth/sign-up/email', {
      name: 'Maria Garcia',
      email: uniqueEmail('family'),
      password: 'secret-password',
      passcode: TEST_PASSCODE,
    }),
    200,
  );
  const leo = await expectStatus(
    client.request<{ id: string }>('POST', '/api/family-members', {
      name: 'Leo',
      date_of_birth: '2017-04-12',
      color: '#3b82f6',
    }),
  );
  const ana = await expectStatus(
    client.request<{ id: string }>('POST', '/api/family-members', { name: 'Ana' }),
  );
  const ids: Record<string, string[]> = {};
  const add = async (path: string, body: Record<string, unknown>) => {
    const record = await expectStatus(client.request<{ id: string }>('POST', `/api/${path}`, body));
    (ids[path] ??= []).push(record.id);
    return record.id;
  };
  const visitId = await add('visits', sampleRecord('visit'));
  await add('visits', sampleRecord('visit', { family_member_id: ana.id }));
  await add('medications', sampleRecord('medication', { family_member_id: leo.id }));
  await add('shots', sampleRecord('shot', { family_member_id: ana.id }));
  await add('notes', sampleRecord('note'));
  await add('history', sampleRecord('condition', { family_member_id: ana.id }));
  await add('insurance', sampleRecord('insurance'));
  const contactId = await add('contacts', sampleRecord('contact'));
  return { ids, members: { leo: leo.id, ana: ana.id }, visitId, contactId };
}

/** Changes a little of everything: an edit, deletions (with a member's records), additions. */
export async function changeFamily(client: TestClient, family: SeededFamily): Promise<void> {
  await expectStatus(
    client.request(
      'PUT',
      `/api/visits/${family.visitId}`,
      sampleRecord('visit', { notes: 'Edited' }),
    ),
    200,
  );
  await expectStatus(client.request('DELETE', `/api/family-members/${family.members.ana}`), 204);
  await expectStatus(client.request('DELETE', `/api/contacts/${family.contactId}`), 204);
  await expectStatus(
    client.request('POST', '/api/notes', sampleRecord('note', { title: 'Written later' })),
  );
  await expectStatus(client.request('PUT', '/api/profile', { full_name: 'Maria G.' }), 200);
}

/**
 * What the API answers to the same GETs: the profile, the members, the timeline, every list
 * and every record, and the user's export (less the time it was made).
 */
export async function readEverything(
  client: TestClient,
  family: SeededFamily,
): Promise<Record<string, unknown>> {
  const paths = [
    '/api/profile',
    '/api/family-members',
    '/api/timeline',
    ...Object.keys(family.ids).map((type) => `/api/${type}`),
    ...Object.entries(family.ids).flatMap(([type, ids]) => ids.map((id) => `/api/${type}/${id}`)),
  ];
  const answers: Record<string, unknown> = {};
  for (const url of paths) {
    const { status, body } = await client.request('GET', url);
    answers[url] = { status, body };
  }
  const exported = await client.request<{ exported_at?: string }>('GET', '/api/export');
  expect(exported.status).toBe(200);
  delete exported.body.exported_at;
  answers['/api/export'] = { status: exported.status, body: exported.body };
  return answers;
}

/**
 * One record of every type for the account holder and, of each type that links to family
 * members, one more for `memberId`: `recordDefinitions.length` plus the member-linked
 * types' number of records.
 */
export async function addOneOfEveryType(client: TestClient, memberId: string): Promise<void> {
  for (const definition of recordDefinitions) {
    await expectStatus(client.post(`/api/${definition.path}`, sampleRecord(definition.type)));
    if (definition.memberLinked) {
      await expectStatus(
        client.post(
          `/api/${definition.path}`,
          sampleRecord(definition.type, { family_member_id: memberId }),
        ),
      );
    }
  }
}
