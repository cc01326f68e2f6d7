/**
 * A property of the household's rules: random sequences of grants, changes, removals and
 * requests by three accounts, each answer compared with a plain model of the rules —
 * an owner reads and writes their own; a viewer of a person reads that person's records; an
 * editor also writes them; anyone else gets what a missing record gets (404), a viewer's
 * write 403; a removal holds from the next request. Runs on both engines.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GivenGrant, Household } from '../../shared/household';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';
import { acceptGrant } from '../test/grant-acceptance';

const server = useTestServer();

const PERSONS = ['self', 'mia', 'noah'] as const;
type PersonName = (typeof PERSONS)[number];
const GRANTEES = ['ada', 'ben'] as const;
type GranteeName = (typeof GRANTEES)[number];
type Role = 'viewer' | 'editor';

type Step =
  | { kind: 'grant'; person: PersonName; grantee: GranteeName; role: Role }
  | { kind: 'remove'; person: PersonName; grantee: GranteeName }
  | { kind: 'read'; who: GranteeName | 'owner'; person: PersonName }
  | { kind: 'write'; who: GranteeName | 'owner'; person: PersonName }
  | { kind: 'list'; who: GranteeName }
  | { kind: 'timeline'; who: GranteeName };

const person = fc.constantFrom(...PERSONS);
const grantee = fc.constantFrom(...GRANTEES);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('grant' as const),
    person,
    grantee,
    role: fc.constantFrom<Role>('viewer', 'editor'),
  }),
  fc.record({ kind: fc.constant('remove' as const), person, grantee }),
  fc.record({
    kind: fc.constantFrom('read' as const, 'write' as const),
    who: fc.constantFrom<GranteeName | 'owner'>('owner', ...GRANTEES),
    person,
  }),
  fc.record({ kind: fc.constantFrom('list' as const, 'timeline' as const), who: grantee }),
);

describe('household rules, as a property', () => {
  let owner: TestClient;
  const clients = {} as Record<GranteeName, { client: TestClient; email: string }>;
  const personIds = {} as Record<PersonName, string>;
  const shotOf = {} as Record<PersonName, string>;
  const ownShot = {} as Record<GranteeName, string>;

  beforeAll(async () => {
    const signedUp = await signedUpClient(server, 'Olive Owner');
    owner = signedUp.client;
    personIds.self = (await owner.get<{ id: string }>('/api/profile')).body.id;
    for (const name of ['mia', 'noah'] as const) {
      personIds[name] = (
        await expectStatus(owner.post<{ id: string }>('/api/family-members', { name }))
      ).id;
    }
    for (const name of PERSONS) {
      const member = name === 'self' ? '' : personIds[name];
      shotOf[name] = (
        await expectStatus(
          owner.post<{ id: string }>(
            '/api/shots',
            sampleRecord('shot', { family_member_id: member }),
          ),
        )
      ).id;
    }
    for (const name of GRANTEES) {
      clients[name] = await signedUpClient(server, name);
      ownShot[name] = (
        await expectStatus(
          clients[name].client.post<{ id: string }>('/api/shots', sampleRecord('shot')),
        )
      ).id;
    }
  });

  it('every answer is the model’s', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        // Each run starts with nothing shared.
        const start = (await owner.get<Household>('/api/household')).body.given;
        for (const grant of start) await owner.delete(`/api/household/grants/${grant.id}`);
        const model = new Map<string, { role: Role; id: string }>();
        const key = (p: PersonName, g: GranteeName) => `${p}|${g}`;
        const expectedIds = (who: GranteeName) =>
          [
            ownShot[who],
            ...PERSONS.filter((p) => model.has(key(p, who))).map((p) => shotOf[p]),
          ].sort();

        for (const s of steps) {
          const label = JSON.stringify(s);
          if (s.kind === 'grant') {
            const response = await owner.post<GivenGrant>('/api/household/grants', {
              personId: personIds[s.person],
              email: clients[s.grantee].email,
              role: s.role,
            });
            // The grantee enters the code of a new grant; a changed one keeps its acceptance.
            await acceptGrant(clients[s.grantee].client, response);
            const granted = await expectStatus(Promise.resolve(response));
            const previous = model.get(key(s.person, s.grantee));
            if (previous) expect(granted.id, label).toBe(previous.id);
            model.set(key(s.person, s.grantee), { role: s.role, id: granted.id });
          } else if (s.kind === 'remove') {
            const grant = model.get(key(s.person, s.grantee));
            const response = await owner.delete(
              `/api/household/grants/${grant?.id ?? '00000000-0000-7000-8000-000000000000'}`,
            );
            expect(response.status, label).toBe(grant ? 204 : 404);
            model.delete(key(s.person, s.grantee));
          } else if (s.kind === 'read' || s.kind === 'write') {
            const client = s.who === 'owner' ? owner : clients[s.who].client;
            const role = s.who === 'owner' ? 'editor' : model.get(key(s.person, s.who))?.role;
            const path = `/api/shots/${shotOf[s.person]}`;
            const response =
              s.kind === 'read'
                ? await client.get(path)
                : await client.put(
                    path,
                    sampleRecord('shot', {
                      // The owner names themself as no one; a grantee by the owner's id.
                      family_member_id:
                        s.person === 'self' && s.who === 'owner' ? '' : personIds[s.person],
                    }),
                  );
            const expected =
              role === undefined ? 404 : s.kind === 'read' || role === 'editor' ? 200 : 403;
            expect(response.status, label).toBe(expected);
          } else {
            const client = clients[s.who].client;
            if (s.kind === 'list') {
              const list = await client.get<{ items: { id: string }[] }>('/api/shots?limit=100');
              expect(list.body.items.map((item) => item.id).sort(), label).toEqual(
                expectedIds(s.who),
              );
            } else {
              const page = await client.get<{ events: { id: string }[] }>('/api/timeline');
              expect(page.body.events.map((event) => event.id).sort(), label).toEqual(
                expectedIds(s.who),
              );
            }
          }
        }
      }),
      { numRuns: 100 },
    );
  }, 300_000);
});
