/**
 * Every contact cares for persons, or for the whole family (issue 33.3), and a person's
 * exports carry only the contacts that are theirs (issue 32.1): a child's PDF, FHIR bundles
 * and share links hold the child's care team, the whole family's only when the owner asks,
 * and a grantee never receives a contact that is not tied to the person shared with them.
 */
import { describe, expect, it } from 'vitest';
import type { GivenGrant } from '../../shared/household';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { acceptGrant } from '../test/grant-acceptance';
import { signedUpClient, TEST_ORIGIN, useTestServer, type TestClient } from '../test/harness';
import { pdfText } from '../test/pdf-text';

const server = useTestServer();

interface Contact {
  id: string;
  contact_name: string;
  person_ids: string[];
}

/**
 * Maria with her son Leo and her mother Rosa: Leo's paediatrician, Rosa's cardiologist
 * (whose notes are private), the whole family's pharmacy, and a GP for Maria and Leo.
 */
async function family() {
  const { client } = await signedUpClient(server, 'Maria Garcia');
  const session = await client.get<{ user: { id: string } }>('/api/auth/get-session');
  const mariaId = session.body.user.id;
  const member = (name: string) =>
    expectStatus(client.post<{ id: string }>('/api/family-members', { name }));
  const leo = await member('Leo Garcia');
  const rosa = await member('Rosa Garcia');
  const contact = (contact_name: string, person_ids: string[] | undefined, notes?: string) =>
    expectStatus(
      client.post<Contact>(
        '/api/contacts',
        sampleRecord('contact', { contact_name, ...(person_ids ? { person_ids } : {}), notes }),
      ),
    );
  const paediatrician = await contact('Dr. Lena Paed', [leo.id]);
  const cardiologist = await contact('Dr. Carl Cardio', [rosa.id], 'Rosa: private notes');
  const pharmacy = await contact('Corner Pharmacy', undefined);
  const gp = await contact('Dr. Gina General', [mariaId, leo.id]);
  return { client, mariaId, leo, rosa, paediatrician, cardiologist, pharmacy, gp };
}

/** The names of the contacts in a FHIR bundle (as CareTeam participants' names). */
function contactNamesIn(bundle: unknown): string[] {
  const text = JSON.stringify(bundle);
  return ['Dr. Lena Paed', 'Dr. Carl Cardio', 'Corner Pharmacy', 'Dr. Gina General'].filter(
    (name) => text.includes(name),
  );
}

async function pdfOf(client: TestClient, personId: string, query = '') {
  const response = await server.fetch(
    new Request(`${TEST_ORIGIN}/api/persons/${personId}/summary.pdf${query}`, {
      headers: { origin: TEST_ORIGIN, cookie: client.cookieHeader },
    }),
  );
  expect(response.status).toBe(200);
  return (await pdfText(new Uint8Array(await response.arrayBuffer()))).replace(/\s+/g, ' ');
}

const namesInText = (text: string) =>
  ['Dr. Lena Paed', 'Dr. Carl Cardio', 'Corner Pharmacy', 'Dr. Gina General'].filter((name) =>
    text.includes(name),
  );

describe('the persons a contact cares for', () => {
  it('are saved, listed, changed and cleared (none: the whole family)', async () => {
    const { client, mariaId, leo, rosa, paediatrician, pharmacy, gp } = await family();
    expect(paediatrician.person_ids).toEqual([leo.id]);
    expect(pharmacy.person_ids).toEqual([]);
    expect([...gp.person_ids].sort()).toEqual([mariaId, leo.id].sort());

    const list = (await client.get<{ items: Contact[] }>('/api/contacts')).body.items;
    expect(list.find((item) => item.id === paediatrician.id)?.person_ids).toEqual([leo.id]);
    expect(list.find((item) => item.id === pharmacy.id)?.person_ids).toEqual([]);

    const moved = await expectStatus(
      client.request<Contact>(
        'PUT',
        `/api/contacts/${paediatrician.id}`,
        sampleRecord('contact', { contact_name: 'Dr. Lena Paed', person_ids: [rosa.id, rosa.id] }),
      ),
      200,
    );
    expect(moved.person_ids).toEqual([rosa.id]);
    const cleared = await expectStatus(
      client.request<Contact>(
        'PUT',
        `/api/contacts/${paediatrician.id}`,
        sampleRecord('contact', { contact_name: 'Dr. Lena Paed', person_ids: [] }),
      ),
      200,
    );
    expect(cleared.person_ids).toEqual([]);
  });

  it('refuse another account’s person with a 400 naming Cares For, and change nothing', async () => {
    const { client, paediatrician, leo } = await family();
    const { client: other } = await signedUpClient(server, 'Otto Other');
    const stranger = await expectStatus(
      other.post<{ id: string }>('/api/family-members', { name: 'Stranger' }),
    );
    const created = await client.post<{ message: string; field?: string }>(
      '/api/contacts',
      sampleRecord('contact', { person_ids: [stranger.id] }),
    );
    expect(created.status).toBe(400);
    expect(created.body.message).toContain('Cares For');
    const changed = await client.request<{ message: string }>(
      'PUT',
      `/api/contacts/${paediatrician.id}`,
      sampleRecord('contact', { contact_name: 'Moved', person_ids: [stranger.id] }),
    );
    expect(changed.status).toBe(400);
    const kept = (await client.get<Contact>(`/api/contacts/${paediatrician.id}`)).body;
    expect(kept).toMatchObject({ contact_name: 'Dr. Lena Paed', person_ids: [leo.id] });
    const wrongType = await client.post<{ message: string }>(
      '/api/contacts',
      sampleRecord('contact', { person_ids: 'everyone' }),
    );
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toContain('Cares For');
  });

  it('go with a deleted family member', async () => {
    const { client, leo, gp, mariaId } = await family();
    await expectStatus(client.request('DELETE', `/api/family-members/${leo.id}`), 204);
    const kept = (await client.get<Contact>(`/api/contacts/${gp.id}`)).body;
    expect(kept.person_ids).toEqual([mariaId]);
  });
});

describe('a person’s exports', () => {
  it('carry only the contacts tied to the person, the whole family’s when asked for', async () => {
    const { client, mariaId, leo } = await family();
    const everything = (personId: string, query = '') =>
      client.get(`/api/fhir/Patient/${personId}/$everything${query}`);
    expect(contactNamesIn((await everything(leo.id)).body)).toEqual([
      'Dr. Lena Paed',
      'Dr. Gina General',
    ]);
    expect(contactNamesIn((await everything(mariaId)).body)).toEqual(['Dr. Gina General']);
    expect(contactNamesIn((await everything(leo.id, '?contacts=whole-family')).body)).toEqual([
      'Dr. Lena Paed',
      'Corner Pharmacy',
      'Dr. Gina General',
    ]);
    expect((await everything(leo.id, '?contacts=all')).status).toBe(400);

    expect(namesInText(await pdfOf(client, leo.id))).toEqual(['Dr. Lena Paed', 'Dr. Gina General']);
    expect(namesInText(await pdfOf(client, leo.id, '?contacts=whole-family'))).toEqual([
      'Dr. Lena Paed',
      'Corner Pharmacy',
      'Dr. Gina General',
    ]);
  });

  it('give a grantee with export only the shared person’s contacts, whatever it asks', async () => {
    const { client, leo } = await family();
    const grantee = await signedUpClient(server, 'Grace Grantee');
    const granted = await client.post<GivenGrant>('/api/household/grants', {
      personId: leo.id,
      email: grantee.email,
      role: 'editor',
      allowExport: true,
    });
    expect(granted.status).toBe(201);
    await acceptGrant(grantee.client, granted);
    const other = grantee.client;
    expect((await other.get<{ items: unknown[] }>('/api/contacts')).body.items).toEqual([]);
    for (const query of ['', '?contacts=whole-family']) {
      const everything = await other.get(`/api/fhir/Patient/${leo.id}/$everything${query}`);
      expect(everything.status).toBe(200);
      expect(contactNamesIn(everything.body)).toEqual(['Dr. Lena Paed', 'Dr. Gina General']);
      expect(JSON.stringify(everything.body)).not.toContain('private notes');
      const summary = await other.get(`/api/fhir/Patient/${leo.id}/$summary${query}`);
      expect(summary.status).toBe(200);
      expect(
        contactNamesIn(summary.body).filter(
          (name) => name !== 'Dr. Lena Paed' && name !== 'Dr. Gina General',
        ),
      ).toEqual([]);
      expect(namesInText(await pdfOf(other, leo.id, query))).toEqual([
        'Dr. Lena Paed',
        'Dr. Gina General',
      ]);
    }
  });
});

describe('family history recorded for a family member', () => {
  it('stays with that member, in their list and their PDF, with the relation to them', async () => {
    const { client, mariaId, leo } = await family();
    const history = await expectStatus(
      client.post<{ family_member_id: string | null; relation: string }>(
        '/api/history',
        sampleRecord('condition', {
          condition_name: 'Type 1 Diabetes',
          is_family_history: true,
          relation: 'Father',
          family_member_id: leo.id,
        }),
      ),
    );
    expect(history).toMatchObject({ family_member_id: leo.id, relation: 'Father' });
    const leos = (await client.get<{ items: { id: string }[] }>(`/api/history?member=${leo.id}`))
      .body.items;
    expect(leos).toHaveLength(1);
    const leoPdf = await pdfOf(client, leo.id);
    expect(leoPdf).toContain('Type 1 Diabetes');
    expect(leoPdf).toContain('Father');
    expect(await pdfOf(client, mariaId)).not.toContain('Type 1 Diabetes');

    // The account holder's family history keeps SPEC's rule: no member.
    const own = await expectStatus(
      client.post<{ family_member_id: string | null }>(
        '/api/history',
        sampleRecord('condition', { is_family_history: true, relation: 'Mother' }),
      ),
    );
    expect(own.family_member_id).toBeNull();
  });
});

describe('the account holder’s filter', () => {
  it('lists the records of the account holder alone', async () => {
    const { client, mariaId, leo } = await family();
    await expectStatus(client.post('/api/shots', sampleRecord('shot', { shot_name: 'Mine' })));
    await expectStatus(
      client.post(
        '/api/shots',
        sampleRecord('shot', { shot_name: 'Leos', family_member_id: leo.id }),
      ),
    );
    const mine = (
      await client.get<{ items: { shot_name: string }[]; counts: Record<string, number> }>(
        `/api/shots?member=${mariaId}`,
      )
    ).body;
    expect(mine.items.map((item) => item.shot_name)).toEqual(['Mine']);
    expect(mine.counts).toEqual({ upcoming: 0, past: 1 });
    const timeline = (
      await client.get<{ events: { name: string }[] }>(`/api/timeline?member=${mariaId}`)
    ).body;
    expect(timeline.events.map((event) => event.name)).toEqual(['Mine']);
  });
});
