/**
 * The household's acceptance bar: every API call an owner made is replayed as three other
 * accounts — a viewer of one of the owner's persons (Leo), an account whose access was
 * removed, and an account never given any — and:
 * - none of them changes anything of the owner's (the owner reads everything the same after);
 * - the viewer's writes that name anything of the owner's are refused, Leo's with 403;
 * - no answer to the removed or the unrelated account holds any id of the owner's, and no
 *   answer to the viewer one of the owner's that is not Leo's;
 * - the viewer reads Leo's records, lists, counts and timeline exactly as the owner does.
 * Both engines run it (the api-sqlite and api-postgres projects), under the check that every
 * statement of user data carries an owner condition.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { GivenGrant } from '../../shared/household';
import { recordDefinitions } from '../../shared/records';
import { sampleRecord } from '../test/factories';
import {
  addOneOfEveryType,
  expectStatus,
  readEverything,
  seedFamily,
  type SeededFamily,
} from '../test/family-records';
import { signedUpClient, useTestServer, type TestClient, type TestResponse } from '../test/harness';
import { acceptGrant } from '../test/grant-acceptance';

const server = useTestServer();

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

/** Records every call a client makes of the product's API (not of sign-in itself). */
function recording(client: TestClient, calls: Call[]): TestClient {
  const send = client.request.bind(client);
  client.request = (async (method: string, path: string, body?: unknown, headers = {}) => {
    if (path.startsWith('/api/') && !path.startsWith('/api/auth/')) {
      calls.push({ method, path, body });
    }
    return send(method, path, body, headers);
  }) as TestClient['request'];
  return client;
}

/** Every id-like string (UUIDs and account ids) in an answer. */
function idsIn(value: unknown): Set<string> {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return new Set(text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? []);
}

const WRITES = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

describe('household: every call of the owner replayed as other accounts', () => {
  const calls: Call[] = [];
  let owner: TestClient;
  let family: SeededFamily;
  let ownerId: string;
  /** Every id of the owner's: members, records, links; and those of Leo's. */
  const ownerIds = new Set<string>();
  const leoIds = new Set<string>();
  /** Where each record and member of the owner's is deleted. */
  const deletePaths: string[] = [];
  let before: Record<string, unknown>;
  const accounts: Record<'viewer' | 'removed' | 'stranger', TestClient> = {} as never;

  beforeAll(async () => {
    owner = recording(server.client(), calls);
    family = await seedFamily(owner);
    ownerId = (await owner.get<{ id: string }>('/api/profile')).body.id;
    const { leo, ana } = family.members;
    await addOneOfEveryType(owner, leo);
    // Everything the owner reads: by person, the timeline, downloads, settings.
    for (const person of [leo, ana, ownerId]) {
      for (const definition of recordDefinitions) {
        await owner.get(`/api/${definition.path}?member=${person}`);
      }
      await owner.get(`/api/timeline?member=${person}`);
      await owner.get(`/api/fhir/Patient/${person}/$everything`);
      await owner.get(`/api/fhir/Patient/${person}/$summary`);
      await owner.get(`/api/persons/${person}/summary.pdf`);
    }
    await owner.get('/api/household');
    await owner.get('/api/share-links');
    await owner.get(`/api/doses?day=${new Date().toISOString().slice(0, 10)}`);
    await owner.post('/api/calendar-link', { person_id: leo });
    await owner.put(`/api/family-members/${ana}`, { name: 'Ana María' });
    await readEverything(owner, family);

    // Every record: read, changed, and (one) deleted, as the owner.
    for (const definition of recordDefinitions) {
      const list = await owner.get<{ items: { id: string; family_member_id?: string | null }[] }>(
        `/api/${definition.path}?limit=100`,
      );
      for (const item of list.body.items) {
        ownerIds.add(item.id);
        deletePaths.push(`/api/${definition.path}/${item.id}`);
        if (item.family_member_id === leo) leoIds.add(item.id);
        await owner.get(`/api/${definition.path}/${item.id}`);
        await owner.put(
          `/api/${definition.path}/${item.id}`,
          sampleRecord(definition.type, { family_member_id: item.family_member_id ?? '' }),
        );
      }
    }
    const extra = await expectStatus(
      owner.post<{ id: string }>('/api/notes', sampleRecord('note')),
    );
    await expectStatus(owner.delete(`/api/notes/${extra.id}`), 204);
    for (const id of [leo, ana]) {
      ownerIds.add(id);
      deletePaths.push(`/api/family-members/${id}`);
    }
    leoIds.add(leo);
    ownerIds.add(ownerId);
    for (const call of calls) for (const id of idsIn(call.body)) ownerIds.add(id);
    for (const id of idsIn(calls.map((call) => call.path).join(' '))) ownerIds.add(id);

    /** Grants Leo to an account, which accepts with the grant's code. */
    const grant = async (grantee: { client: TestClient; email: string }) => {
      const granted = await owner.post<GivenGrant>('/api/household/grants', {
        personId: leo,
        email: grantee.email,
        role: 'viewer',
      });
      await acceptGrant(grantee.client, granted);
      return expectStatus(Promise.resolve(granted));
    };
    const viewer = await signedUpClient(server, 'Vera Viewer');
    const removed = await signedUpClient(server, 'Rex Removed');
    const stranger = await signedUpClient(server, 'Sam Stranger');
    await grant(viewer);
    const gone = await grant(removed);
    await expectStatus(removed.client.get('/api/timeline'), 200);
    await expectStatus(owner.delete(`/api/household/grants/${gone.id}`), 204);
    accounts.viewer = viewer.client;
    accounts.removed = removed.client;
    accounts.stranger = stranger.client;
    before = await readEverything(owner, family);
  }, 120_000);

  /** The owner's calls, and a delete of every record and member of theirs. */
  const replayed = (): Call[] => [
    ...calls.filter((call) => !call.path.startsWith('/api/household/grants')),
    ...deletePaths.map((path) => ({ method: 'DELETE', path })),
  ];

  async function replayAs(client: TestClient) {
    const answers: { call: Call; response: TestResponse }[] = [];
    for (const call of replayed()) {
      answers.push({ call, response: await client.request(call.method, call.path, call.body) });
    }
    return answers;
  }

  it.each(['removed', 'stranger'] as const)(
    'as an account with no access (%s): no answer holds anything of the owner’s',
    async (name) => {
      const answers = await replayAs(accounts[name]);
      for (const { call, response } of answers) {
        const leaked = [...idsIn(response.body)].filter((id) => ownerIds.has(id));
        expect(leaked, `${call.method} ${call.path}`).toEqual([]);
        expect(JSON.stringify(response.body ?? ''), `${call.method} ${call.path}`).not.toContain(
          'Maria Garcia',
        );
      }
      expect(await readEverything(owner, family)).toEqual(before);
    },
    120_000,
  );

  it('as the viewer: Leo’s records read as the owner reads them, no write of the owner’s succeeds', async () => {
    const viewer = accounts.viewer;
    const answers = await replayAs(viewer);
    for (const { call, response } of answers) {
      const where = `${call.method} ${call.path} → ${response.status}`;
      const leaked = [...idsIn(response.body)].filter((id) => ownerIds.has(id) && !leoIds.has(id));
      expect(leaked, where).toEqual([]);
      const named = [...idsIn(`${call.path} ${JSON.stringify(call.body ?? null)}`)].filter((id) =>
        ownerIds.has(id),
      );
      if (WRITES.has(call.method) && named.length) {
        expect(response.status, where).toBeGreaterThanOrEqual(400);
        if (named.every((id) => leoIds.has(id)) && !call.path.startsWith('/api/family-members')) {
          if (!call.path.startsWith('/api/calendar') && !call.path.startsWith('/api/share')) {
            expect(response.status, where).toBe(403);
          }
        }
      }
    }
    expect(await readEverything(owner, family)).toEqual(before);

    // What the viewer reads of Leo is what the owner reads.
    const { leo } = family.members;
    const paths = [
      `/api/timeline?member=${leo}`,
      ...recordDefinitions
        .filter((definition) => definition.memberLinked)
        .map((definition) => `/api/${definition.path}?member=${leo}`),
      ...[...leoIds]
        .filter((id) => id !== leo)
        .flatMap((id) => recordDefinitions.map((definition) => `/api/${definition.path}/${id}`)),
    ];
    for (const path of paths) {
      const [mine, theirs] = [await owner.get(path), await viewer.get(path)];
      expect(theirs, path).toEqual(mine);
    }
  }, 120_000);
});
