/**
 * The household over the API: an owner shares a person as viewer or editor, the grantee
 * proves the email with the one-time acceptance code the owner passes on, then reads (and
 * as editor keeps) that person's records and nothing else of the owner's, and a removal or
 * an end of access holds from the very next request.
 */
import { describe, expect, it } from 'vitest';
import type { GivenGrant, Household } from '../../shared/household';
import type { TimelinePage } from '../../shared/timeline';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import {
  createTestServer,
  documentCopiesUnmade,
  signedUpClient,
  uniqueEmail,
  useTestServer,
  type TestClient,
  type TestServer,
} from '../test/harness';
import { samplePdf } from '../documents/fixtures/sample-files';
import { uploadDocument } from '../test/documents';
import { acceptGrant } from '../test/grant-acceptance';

const unmade = documentCopiesUnmade();
const server = useTestServer({ logs: unmade });

type Row = { id: string; user_id: string; family_member_id: string | null; changed_by?: string };
type Page = { items: Row[]; counts: Record<string, number> };

async function profileOf(client: TestClient) {
  return (await client.get<{ id: string; name: string; email: string }>('/api/profile')).body;
}

/** An owner with a child 'Mia' (one shot) and a shot of their own; and a second account. */
async function family() {
  const owner = await signedUpClient(server, 'Olivia Owner');
  const other = await signedUpClient(server, 'Grace Grantee');
  const ownerProfile = await profileOf(owner.client);
  const otherProfile = await profileOf(other.client);
  const mia = await expectStatus(
    owner.client.post<{ id: string }>('/api/family-members', { name: 'Mia' }),
  );
  const miaShot = await expectStatus(
    owner.client.post<Row>('/api/shots', sampleRecord('shot', { family_member_id: mia.id })),
  );
  const ownShot = await expectStatus(owner.client.post<Row>('/api/shots', sampleRecord('shot')));
  /** Grants (or changes) access to Mia, and the other account accepts a new grant's code. */
  const grant = async (values: Record<string, unknown>) => {
    const response = await owner.client.post<GivenGrant>('/api/household/grants', {
      personId: mia.id,
      email: other.email,
      role: 'viewer',
      ...values,
    });
    await acceptGrant(other.client, response);
    return response;
  };
  return { owner, other, ownerProfile, otherProfile, mia, miaShot, ownShot, grant };
}

const ids = (page: { items: Row[] }) => page.items.map((item) => item.id).sort();

type Activity = { event: string; detail: string }[];
const activityOf = async (client: TestClient) =>
  (await client.get<Activity>('/api/security-activity')).body;

/** The owner's security activity of a grantee's reads and writes, newest first. */
const sharedUses = async (owner: TestClient) =>
  (await activityOf(owner)).filter((entry) => entry.event.startsWith('shared_records_'));

/** Forgets the day's notes of a grant, so the next use is the day's first again. */
const newDay = (grantId: string) =>
  server.db
    .updateTable('access_grants')
    .set({ last_read_on: null, last_write_on: null })
    .where('id', '=', grantId)
    .execute();

describe('household grants: acceptance', () => {
  it('take effect only once the account with the email enters the one-time code', async () => {
    const { owner, other, mia, miaShot } = await family();
    const given = await expectStatus(
      owner.client.post<GivenGrant>('/api/household/grants', {
        personId: mia.id,
        email: other.email.toUpperCase(),
        role: 'viewer',
      }),
    );
    // Ten characters without look-alikes, shown once, kept only as a hash.
    const code = given.acceptanceCode ?? '';
    expect(code.replace('-', '')).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{10}$/);
    const [stored] = await server.db
      .selectFrom('access_grants')
      .selectAll()
      .where('id', '=', given.id)
      .execute();
    expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''));
    expect(given).toMatchObject({ status: 'pending', acceptedBy: null });
    const listed = (await owner.client.get<Household>('/api/household')).body.given;
    expect(listed).toEqual([expect.objectContaining({ id: given.id, status: 'pending' })]);
    expect(JSON.stringify(listed)).not.toContain(code);

    // Pending: nothing of Mia's, and nothing says who shared what.
    expect((await other.client.get<Household>('/api/household')).body).toMatchObject({
      received: [],
      pendingForYou: 1,
    });
    expect((await other.client.get(`/api/shots/${miaShot.id}`)).status).toBe(404);
    expect((await other.client.get<Page>('/api/shots')).body.items).toEqual([]);

    // Another account, even one holding the code, does not take the grant.
    const stranger = await signedUpClient(server, 'Sam Squatter');
    const taken = await stranger.client.post('/api/household/accept', { code });
    expect(taken.status).toBe(403);
    expect(taken.body).toMatchObject({ field: 'code' });
    expect((await stranger.client.get(`/api/shots/${miaShot.id}`)).status).toBe(404);
    // A wrong code, and no code at all.
    const wrong = await other.client.post('/api/household/accept', { code: 'ABCDE-FGHJK' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ field: 'code' });
    const empty = await other.client.post('/api/household/accept', { code: ' ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ field: 'code' });
    expect(await activityOf(other.client)).toContainEqual(
      expect.objectContaining({ event: 'verification_failed', detail: 'grant-acceptance' }),
    );

    // The right code, typed as a person might: lower case, spaces.
    const typed = ` ${code.toLowerCase().replace('-', ' ')} `;
    expect((await other.client.post('/api/household/accept', { code: typed })).status).toBe(204);
    expect((await other.client.get<Household>('/api/household')).body.pendingForYou).toBe(0);
    expect((await other.client.get(`/api/shots/${miaShot.id}`)).status).toBe(200);
    const accepted = (await owner.client.get<Household>('/api/household')).body.given;
    expect(accepted).toEqual([
      expect.objectContaining({ status: 'accepted', acceptedBy: 'Grace Grantee' }),
    ]);
    expect(await activityOf(owner.client)).toContainEqual(
      expect.objectContaining({ event: 'access_accepted', detail: `${other.email} · Mia` }),
    );
    // Once: the code is used up.
    expect((await other.client.post('/api/household/accept', { code })).status).toBe(403);
    // Changing accepted access keeps it accepted, with no new code.
    const changed = await expectStatus(
      owner.client.post<GivenGrant>('/api/household/grants', {
        personId: mia.id,
        email: other.email,
        role: 'editor',
      }),
    );
    expect(changed).toMatchObject({ status: 'accepted', acceptanceCode: null });
  });

  it('bind the grant to the account that accepted it, not to whoever has the email later', async () => {
    const { owner, other, mia, miaShot, grant } = await family();
    await expectStatus(grant({}));
    // The account goes, and someone signs up with the same email: nothing of the grant's.
    expect(
      (await other.client.request('DELETE', '/api/account', { password: other.password })).status,
    ).toBe(204);
    const again = server.client();
    await again.signUp({ name: 'Someone Else', email: other.email });
    expect((await again.get(`/api/shots/${miaShot.id}`)).status).toBe(404);
    // A new grant to that email waits for its own code.
    const fresh = await expectStatus(
      owner.client.post<GivenGrant>('/api/household/grants', {
        personId: mia.id,
        email: other.email,
        role: 'viewer',
      }),
    );
    expect(fresh.status).toBe('pending');
    expect((await again.get(`/api/shots/${miaShot.id}`)).status).toBe(404);
  });

  it('give a pending grant a new code when granted again; the old one no longer works', async () => {
    const { owner, other, mia } = await family();
    const values = { personId: mia.id, email: other.email, role: 'viewer' };
    const first = await expectStatus(
      owner.client.post<GivenGrant>('/api/household/grants', values),
    );
    const second = await expectStatus(
      owner.client.post<GivenGrant>('/api/household/grants', values),
    );
    expect(second.id).toBe(first.id);
    expect(second.acceptanceCode).not.toBe(first.acceptanceCode);
    const old = await other.client.post('/api/household/accept', { code: first.acceptanceCode });
    expect(old.status).toBe(403);
    await acceptGrant(other.client, { status: 201, body: second } as never);
  });
});

describe('household grants: acceptance codes are rate-limited', () => {
  let limited: TestServer;
  it('refuse past the limit, even the right code, and write it down', async () => {
    limited = await createTestServer({ rateLimit: { max: 3, windowSeconds: 60 } });
    try {
      const owner = await signedUpClient(limited, 'Olivia Owner');
      const other = await signedUpClient(limited, 'Grace Grantee');
      const mia = await expectStatus(
        owner.client.post<{ id: string }>('/api/family-members', { name: 'Mia' }),
      );
      const given = await expectStatus(
        owner.client.post<GivenGrant>('/api/household/grants', {
          personId: mia.id,
          email: other.email,
          role: 'viewer',
        }),
      );
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const wrong = await other.client.post('/api/household/accept', { code: 'ABCDE-FGHJK' });
        expect(wrong.status).toBe(403);
      }
      const refused = await other.client.post('/api/household/accept', {
        code: given.acceptanceCode,
      });
      expect(refused.status).toBe(429);
      expect((await other.client.get<Household>('/api/household')).body.received).toEqual([]);
      expect(await activityOf(other.client)).toContainEqual(
        expect.objectContaining({ event: 'too_many_attempts', detail: 'grant-acceptance' }),
      );
    } finally {
      await limited.close();
    }
  });
});

describe('household grants', () => {
  it('let a viewer read the shared person and nothing else, and refuse their writes', async () => {
    const { owner, other, ownerProfile, mia, miaShot, ownShot, grant } = await family();
    expect((await other.client.get<Page>('/api/shots')).body.items).toEqual([]);

    const given = await expectStatus(grant({}));
    expect(given).toMatchObject({ personId: mia.id, email: other.email, role: 'viewer' });

    const fetched = await other.client.get<Household>('/api/household');
    expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
    const shared = fetched.body.received;
    expect(shared).toEqual([
      expect.objectContaining({
        personId: mia.id,
        ownerId: ownerProfile.id,
        name: 'Mia',
        ownerName: 'Olivia Owner',
        role: 'viewer',
      }),
    ]);
    const list = (await other.client.get<Page>('/api/shots')).body;
    expect(ids(list)).toEqual([miaShot.id]);
    expect(list.counts).toEqual({ upcoming: 0, past: 1 });
    const byPerson = (await other.client.get<Page>(`/api/shots?member=${mia.id}`)).body;
    expect(ids(byPerson)).toEqual([miaShot.id]);
    expect((await other.client.get(`/api/shots/${miaShot.id}`)).status).toBe(200);
    expect((await other.client.get(`/api/shots/${ownShot.id}`)).status).toBe(404);
    const timeline = (await other.client.get<TimelinePage>('/api/timeline')).body;
    expect(timeline.events.map((event) => event.id)).toEqual([miaShot.id]);

    const write = await other.client.put(
      `/api/shots/${miaShot.id}`,
      sampleRecord('shot', { family_member_id: mia.id }),
    );
    expect(write.status).toBe(403);
    expect((await other.client.delete(`/api/shots/${miaShot.id}`)).status).toBe(403);
    expect(
      (await other.client.post('/api/shots', sampleRecord('shot', { family_member_id: mia.id })))
        .status,
    ).toBe(403);
    expect((await owner.client.get<Page>('/api/shots')).body.items).toHaveLength(2);
  });

  it('let an editor add, change and delete the person’s records, which stay the owner’s', async () => {
    const { owner, other, otherProfile, mia, miaShot, grant } = await family();
    await expectStatus(grant({ role: 'editor' }));
    const added = await expectStatus(
      other.client.post<Row>('/api/shots', sampleRecord('shot', { family_member_id: mia.id })),
    );
    const ownerView = await owner.client.get<Row>(`/api/shots/${added.id}`);
    expect(ownerView.status).toBe(200);
    expect(ownerView.body).toMatchObject({
      family_member_id: mia.id,
      changed_by: otherProfile.id,
      changed_by_name: 'Grace Grantee',
    });
    expect(
      (
        await other.client.put(
          `/api/shots/${miaShot.id}`,
          sampleRecord('shot', { family_member_id: mia.id, location: 'Clinic B' }),
        )
      ).status,
    ).toBe(200);
    // A record never moves to another account's person.
    const moved = await other.client.put(`/api/shots/${miaShot.id}`, sampleRecord('shot'));
    expect(moved.status).toBe(400);
    expect((await other.client.delete(`/api/shots/${added.id}`)).status).toBe(204);
    expect((await owner.client.get(`/api/shots/${added.id}`)).status).toBe(404);

    // The grant ends: the editor's record stays with the owner.
    const kept = await expectStatus(
      other.client.post<Row>('/api/shots', sampleRecord('shot', { family_member_id: mia.id })),
    );
    const grants = (await owner.client.get<Household>('/api/household')).body.given;
    expect(grants).toHaveLength(1);
    expect((await owner.client.delete(`/api/household/grants/${grants[0]!.id}`)).status).toBe(204);
    expect((await other.client.get(`/api/shots/${kept.id}`)).status).toBe(404);
    expect((await other.client.get<Page>('/api/shots')).body.items).toEqual([]);
    expect((await owner.client.get(`/api/shots/${kept.id}`)).status).toBe(200);
  });

  it('change the grant an email has rather than adding a second, and audit each step', async () => {
    const { owner, other, grant } = await family();
    const first = await expectStatus(grant({}));
    const second = await expectStatus(grant({ role: 'editor', allowExport: true }));
    expect(second.id).toBe(first.id);
    expect(second).toMatchObject({ role: 'editor', allowExport: true });
    expect((await other.client.get<Page>('/api/shots')).status).toBe(200);
    await owner.client.delete(`/api/household/grants/${first.id}`);
    const activity = (
      await owner.client.get<{ event: string; detail: string }[]>('/api/security-activity')
    ).body.map((entry) => entry.event);
    expect(activity).toEqual(
      expect.arrayContaining([
        'access_granted',
        'access_changed',
        'access_removed',
        'shared_records_read',
      ]),
    );
    const reads = activity.filter((event) => event === 'shared_records_read');
    expect(reads).toHaveLength(1);
  });

  it('wait for an email that has no account yet, and answer it as any other', async () => {
    const { owner, mia } = await family();
    const email = uniqueEmail('later');
    const granted = await owner.client.post<GivenGrant>('/api/household/grants', {
      personId: mia.id,
      email,
      role: 'viewer',
    });
    expect(granted.status).toBe(201);
    const later = server.client();
    await later.signUp({ name: 'Later Larry', email });
    expect((await later.get<Household>('/api/household')).body.received).toEqual([]);
    await acceptGrant(later, granted);
    const shared = (await later.get<Household>('/api/household')).body.received;
    expect(shared.map((person) => person.name)).toEqual(['Mia']);
  });

  it('share the owner themself as a person the grantee reads and keeps', async () => {
    const { owner, other, ownerProfile, ownShot } = await family();
    await acceptGrant(
      other.client,
      await owner.client.post<GivenGrant>('/api/household/grants', {
        personId: ownerProfile.id,
        email: other.email,
        role: 'editor',
      }),
    );
    const list = (await other.client.get<Page>(`/api/shots?member=${ownerProfile.id}`)).body;
    expect(ids(list)).toEqual([ownShot.id]);
    // The owner's name stands for the person on their records, as a member's does.
    expect(list.items[0]).toMatchObject({ family_member_name: 'Olivia Owner' });
    const timeline = (await other.client.get<TimelinePage>('/api/timeline')).body;
    expect(timeline.events).toEqual([
      expect.objectContaining({ id: ownShot.id, family_member_name: 'Olivia Owner' }),
    ]);
    // The owner's own lists are as they were: their own records have no person's name.
    const mine = (await owner.client.get<Page>('/api/shots')).body.items;
    expect(mine.find((item) => item.id === ownShot.id)).toMatchObject({ family_member_name: null });
    const added = await expectStatus(
      other.client.post<Row>(
        '/api/shots',
        sampleRecord('shot', { family_member_id: ownerProfile.id }),
      ),
    );
    expect(added).toMatchObject({ user_id: ownerProfile.id, family_member_id: null });
    const ownerList = (await owner.client.get<Page>('/api/shots')).body;
    expect(ownerList.items.map((item) => item.id)).toContain(added.id);
  });

  it('end access after its last day, in the owner’s time zone', async () => {
    const { other, miaShot, grant } = await family();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const refused = await grant({ accessEnds: yesterday, timeZone: 'UTC' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: 'accessEnds' });
    // UTC−12: today's end there is at least twelve hours away.
    const today = new Date().toISOString().slice(0, 10);
    const given = await expectStatus(grant({ accessEnds: today, timeZone: 'Etc/GMT+12' }));
    expect(given.accessEnds).toBe(today);
    expect((await other.client.get(`/api/shots/${miaShot.id}`)).status).toBe(200);
    const [row] = await server.db
      .selectFrom('access_grants')
      .select('ends_at')
      .where('id', '=', given.id)
      .execute();
    expect(Date.parse(row!.ends_at!)).toBe(Date.parse(`${today}T00:00:00Z`) + 36 * 3_600_000);
    // The end passes: the very next request has no access.
    await server.db
      .updateTable('access_grants')
      .set({ ends_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', given.id)
      .execute();
    expect((await other.client.get(`/api/shots/${miaShot.id}`)).status).toBe(404);
    expect((await other.client.get<Household>('/api/household')).body.received).toEqual([]);
  });

  it('refuse bad input with a message naming the field', async () => {
    const { owner, ownerProfile, grant } = await family();
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'not-an-email' }, 'email'],
      [{ email: ownerProfile.email }, 'email'],
      [{ role: 'admin' }, 'role'],
      [{ accessEnds: '2026-02-30' }, 'accessEnds'],
      [{ personId: 'someone-else-entirely' }, 'personId'],
    ];
    for (const [values, field] of cases) {
      const response = await grant(values);
      expect(response.status, JSON.stringify(values)).toBe(400);
      expect(response.body).toMatchObject({ field });
    }
    expect((await owner.client.get<Household>('/api/household')).body.given).toEqual([]);
  });

  it('let only the owner remove a grant, and not share another account’s person', async () => {
    const { owner, other, mia, grant } = await family();
    const given = await expectStatus(grant({ role: 'editor' }));
    expect((await other.client.delete(`/api/household/grants/${given.id}`)).status).toBe(404);
    const reshare = await other.client.post('/api/household/grants', {
      personId: mia.id,
      email: uniqueEmail('third'),
      role: 'viewer',
    });
    expect(reshare.status).toBe(400);
    expect((await owner.client.get<Household>('/api/household')).body.given).toHaveLength(1);
  });

  it('keep sharing and export the owner’s unless the grant allows them', async () => {
    const { owner, other, mia, grant } = await family();
    const summary = `/api/fhir/Patient/${mia.id}/$summary`;
    const pdf = `/api/persons/${mia.id}/summary.pdf`;
    const link = () =>
      other.client.post<{ id: string }>('/api/share-links', {
        person_id: mia.id,
        expires_in_days: 7,
        label: 'Mia',
        jwe: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..aaaaaaaaaaaaaaaa.bbbbbbbb.cccccccccccccccccccccc',
      });
    await expectStatus(grant({ role: 'editor' }));
    expect((await other.client.get(summary)).status).toBe(404);
    expect((await other.client.get(pdf)).status).toBe(404);
    expect((await link()).status).toBe(404);

    const allowed = await expectStatus(grant({ role: 'viewer', allowExport: true }));
    expect((await other.client.get(summary)).status).toBe(200);
    expect((await other.client.get(pdf)).status).toBe(200);
    const made = await expectStatus(link());
    const ownerLog = (
      await owner.client.get<{ event: string; detail: string }[]>('/api/security-activity')
    ).body;
    expect(ownerLog).toContainEqual(
      expect.objectContaining({ event: 'share_link_created', detail: `Mia · by ${other.email}` }),
    );

    // Access removed: the grantee's links of the person are revoked with it.
    await owner.client.delete(`/api/household/grants/${allowed.id}`);
    const [row] = await server.db
      .selectFrom('share_links')
      .select(['jwe', 'revoked_at'])
      .where('id', '=', made.id)
      .execute();
    expect(row).toMatchObject({ jwe: null, revoked_at: expect.any(String) });
  });

  it('end with the grantee’s account, in the owner’s security activity', async () => {
    const { owner, other, grant } = await family();
    await expectStatus(grant({}));
    const deleted = await other.client.request('DELETE', '/api/account', {
      password: other.password,
    });
    expect(deleted.status).toBeLessThan(300);
    expect((await owner.client.get<Household>('/api/household')).body.given).toEqual([]);
    const events = (
      await owner.client.get<{ event: string; detail: string }[]>('/api/security-activity')
    ).body;
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'access_removed',
        detail: `${other.email} · account deleted`,
      }),
    );
  });

  it('take the links a grantee made of the owner themself with the owner’s account', async () => {
    const { owner, other, ownerProfile } = await family();
    await acceptGrant(
      other.client,
      await owner.client.post<GivenGrant>('/api/household/grants', {
        personId: ownerProfile.id,
        email: other.email,
        role: 'viewer',
        allowExport: true,
      }),
    );
    const made = await expectStatus(
      other.client.post<{ id: string }>('/api/share-links', {
        person_id: ownerProfile.id,
        expires_in_days: 7,
        label: 'Olivia',
        jwe: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..aaaaaaaaaaaaaaaa.bbbbbbbb.cccccccccccccccccccccc',
      }),
    );
    const deleted = await owner.client.request('DELETE', '/api/account', {
      password: owner.password,
    });
    expect(deleted.status).toBe(204);
    const left = await server.db
      .selectFrom('share_links')
      .select('id')
      .where('id', '=', made.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('note a grantee’s exports and dose changes in the owner’s security activity', async () => {
    const { owner, other, mia, grant } = await family();
    const today = new Date().toISOString().slice(0, 10);
    const pill = await expectStatus(
      owner.client.post<Row>(
        '/api/medications',
        sampleRecord('medication', { family_member_id: mia.id, start_date: '2020-01-01' }),
      ),
    );
    const given = await expectStatus(grant({ role: 'editor', allowExport: true }));
    const events = () => sharedUses(owner.client);
    const uses: [string, () => Promise<{ status: number }>, string][] = [
      ['$everything', () => other.client.get(`/api/fhir/Patient/${mia.id}/$everything`), 'read'],
      ['$summary', () => other.client.get(`/api/fhir/Patient/${mia.id}/$summary`), 'read'],
      ['summary.pdf', () => other.client.get(`/api/persons/${mia.id}/summary.pdf`), 'read'],
      ['doses today', () => other.client.get(`/api/doses?today=${today}`), 'read'],
      [
        'adherence',
        () => other.client.get(`/api/doses/adherence/${pill.id}?today=${today}`),
        'read',
      ],
      [
        'dose marked',
        () =>
          other.client.post('/api/doses', {
            medication_id: pill.id,
            day: today,
            slot: 'Morning',
            status: 'taken',
          }),
        'changed',
      ],
    ];
    for (const [what, use, kind] of uses) {
      await newDay(given.id);
      const before = (await events()).length;
      const response = await use();
      expect(response.status, what).toBeLessThan(300);
      const after = await events();
      expect(after.length, what).toBe(before + 1);
      expect(after[0], what).toMatchObject({
        event: `shared_records_${kind}`,
        detail: `${other.email} · Mia`,
      });
    }
    const ownerToday = (
      await owner.client.get<{ doses: { mark: { id: string } | null }[] }>(
        `/api/doses?today=${today}`,
      )
    ).body.doses;
    const markId = ownerToday.find((dose) => dose.mark)?.mark?.id;
    await newDay(given.id);
    expect((await other.client.delete(`/api/doses/${markId}`)).status).toBe(204);
    expect((await events())[0]).toMatchObject({ event: 'shared_records_changed' });
  });

  it('note a grantee’s document views, thumbnails and vaccine plans, once a day', async () => {
    const { owner, other, mia, grant } = await family();
    const given = await expectStatus(grant({}));
    const document = await expectStatus(
      uploadDocument(owner.client, await samplePdf(), { family_member_id: mia.id }),
    );
    const reads: [string, () => Promise<{ status: number }>][] = [
      ['view', () => other.client.getBytes(document.view_url)],
      ['thumbnail', () => other.client.getBytes(document.thumbnail_url ?? '')],
      ['vaccine schedule', () => other.client.get(`/api/persons/${mia.id}/vaccine-schedule`)],
      ['vaccine doses due', () => other.client.get('/api/timeline/vaccine-doses')],
    ];
    for (const [what, read] of reads) {
      await newDay(given.id);
      const before = (await sharedUses(owner.client)).length;
      expect((await read()).status, `${what} ${unmade.said()}`).toBe(200);
      const after = await sharedUses(owner.client);
      expect(after.length, what).toBe(before + 1);
      expect(after[0], what).toMatchObject({
        event: 'shared_records_read',
        detail: `${other.email} · Mia`,
      });
      // The day's first read is noted; the same read again that day is not.
      expect((await read()).status, what).toBe(200);
      expect((await sharedUses(owner.client)).length, what).toBe(before + 1);
    }
  });

  it('show a shared person’s doses today: a viewer sees them, an editor marks them', async () => {
    const { owner, other, otherProfile, mia, grant } = await family();
    const today = new Date().toISOString().slice(0, 10);
    const pill = await expectStatus(
      owner.client.post<Row>(
        '/api/medications',
        sampleRecord('medication', { family_member_id: mia.id, start_date: '2020-01-01' }),
      ),
    );
    type Today = {
      doses: { medication_id: string; user_id: string; slot: string; family_member_name: string }[];
    };
    await expectStatus(grant({}));
    const seen = (await other.client.get<Today>(`/api/doses?today=${today}`)).body.doses;
    expect(seen.map((dose) => [dose.medication_id, dose.slot, dose.family_member_name])).toEqual([
      [pill.id, 'Morning', 'Mia'],
      [pill.id, 'Night', 'Mia'],
    ]);
    const mark = { medication_id: pill.id, day: today, slot: 'Morning', status: 'taken' };
    expect((await other.client.post('/api/doses', mark)).status).toBe(403);
    expect((await other.client.get(`/api/doses/adherence/${pill.id}?today=${today}`)).status).toBe(
      200,
    );

    await expectStatus(grant({ role: 'editor' }));
    const marked = await expectStatus(other.client.post<{ id: string }>('/api/doses', mark));
    const ownerToday = (
      await owner.client.get<{ doses: { mark: { id: string } | null }[] }>(
        `/api/doses?today=${today}`,
      )
    ).body.doses;
    expect(ownerToday.map((dose) => dose.mark?.id ?? null)).toContain(marked.id);
    const [row] = await server.db
      .selectFrom('dose_log')
      .select(['user_id', 'marked_by'])
      .where('id', '=', marked.id)
      .execute();
    expect(row).toMatchObject({ marked_by: otherProfile.id });
    expect(row?.user_id).not.toBe(otherProfile.id);

    // A stranger to the person: the medication and the mark are not there at all.
    const stranger = await signedUpClient(server, 'Sam Stranger');
    expect((await stranger.client.post('/api/doses', mark)).status).toBe(404);
    expect((await stranger.client.delete(`/api/doses/${marked.id}`)).status).toBe(404);
    expect((await stranger.client.get<Today>(`/api/doses?today=${today}`)).body.doses).toEqual([]);
    expect((await other.client.delete(`/api/doses/${marked.id}`)).status).toBe(204);
  });
});
