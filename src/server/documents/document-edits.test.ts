/**
 * Documents after upload (CONTRACT §6), on the engine under test: a document's title, type,
 * date, person and records changed; an existing document attached to one more record, still
 * one row; what detaches it and what does not; bad input refused with the field named and
 * nothing changed; another account's ids answered as missing, a Viewer refused, an Editor
 * let through for the person shared with them.
 */
import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_OTHER_PERSON_MESSAGE,
  DOCUMENT_RECORD_MESSAGE,
  type AttachableRecords,
  type DocumentPage,
  type StoredDocument,
} from '../../shared/documents';
import type { SearchAnswer } from '../../shared/search';
import { samplePdf } from './fixtures/sample-files';
import { uploadDocument } from '../test/documents';
import { sampleRecord } from '../test/factories';
import { shareAndAccept } from '../test/grant-acceptance';
import { signedUpClient, useTestServer, type TestClient, type TestServer } from '../test/harness';

type Answer = StoredDocument & { message?: string; field?: string };

const idOf = async (client: TestClient) =>
  (await client.get<{ user: { id: string } }>('/api/auth/get-session')).body.user.id;

async function created(client: TestClient, path: string, values: Record<string, unknown>) {
  const response = await client.post<{ id: string; message?: string }>(`/api/${path}`, values);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}

/** An account with a member, Leo, his visit and his policy, and a letter of his. */
async function family(server: TestServer, name = 'Owner') {
  const owner = await signedUpClient(server, name);
  const client = owner.client;
  const leo = await created(client, 'family-members', { name: 'Leo' });
  const visit = await created(
    client,
    'visits',
    sampleRecord('visit', {
      visit_name: 'Check-up',
      visit_date: '2026-03-04T02:30:00.000Z',
      family_member_id: leo,
    }),
  );
  const policy = await created(client, 'insurance', {
    provider_name: 'Acme Health',
    effective_date: '2026-01-01',
    family_member_id: leo,
  });
  const upload = await uploadDocument(client, await samplePdf(), {
    title: 'insurance-card',
    document_type: 'Insurance Card',
    family_member_id: leo,
  });
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  return { ...owner, leo, visit, policy, document: upload.body };
}

const attach = (client: TestClient, id: string, record_type: string, record_id: string) =>
  client.post<Answer>(`/api/documents/${id}/records`, { record_type, record_id });

const edit = (client: TestClient, id: string, body: unknown) =>
  client.put<Answer>(`/api/documents/${id}`, body);

const attachedTo = async (client: TestClient, recordType: string, recordId: string) =>
  (
    await client.get<DocumentPage>(`/api/documents?record_type=${recordType}&record_id=${recordId}`)
  ).body.documents.map((document) => document.id);

const search = async (client: TestClient, q: string, member?: string) =>
  (
    await client.get<SearchAnswer>(
      `/api/search?q=${encodeURIComponent(q)}${member ? `&member=${member}` : ''}`,
    )
  ).body.groups.flatMap((group) => group.results.map((result) => result.id));

describe('a document after upload', () => {
  const server = useTestServer();

  it('is attached to a visit and to a policy and stays one row; detaching, or deleting one record, keeps it', async () => {
    const { client, visit, policy, document } = await family(server);
    const onVisit = await attach(client, document.id, 'visits', visit);
    expect(onVisit.status, JSON.stringify(onVisit.body)).toBe(200);
    const onBoth = await attach(client, document.id, 'insurance', policy);
    expect(onBoth.status).toBe(200);
    // Attached already: as it was, no second attachment.
    expect((await attach(client, document.id, 'insurance', policy)).status).toBe(200);
    expect(onBoth.body.records).toEqual([
      {
        record_type: 'visits',
        record_id: visit,
        title: 'Check-up',
        title_kind: 'text',
        date: '2026-03-04T02:30:00.000Z',
      },
      {
        record_type: 'insurance',
        record_id: policy,
        title: 'Acme Health',
        title_kind: 'text',
        date: '2026-01-01',
      },
    ]);
    expect(await attachedTo(client, 'visits', visit)).toEqual([document.id]);
    expect(await attachedTo(client, 'insurance', policy)).toEqual([document.id]);
    const all = await client.get<DocumentPage>('/api/documents');
    expect(all.body.total).toBe(1);
    const owner = await idOf(client);
    const rows = await server.db
      .selectFrom('document_records')
      .select(['record_type'])
      .where('user_id', '=', owner)
      .execute();
    expect(rows).toHaveLength(2);

    // Its records set to the visit alone: the policy's list no longer has it.
    const detached = await edit(client, document.id, {
      title: 'insurance-card',
      document_type: 'Insurance Card',
      family_member_id: document.family_member_id,
      records: [{ record_type: 'visits', record_id: visit }],
    });
    expect(detached.status, JSON.stringify(detached.body)).toBe(200);
    expect(await attachedTo(client, 'insurance', policy)).toEqual([]);
    expect(await attachedTo(client, 'visits', visit)).toEqual([document.id]);

    // The visit deleted: the document stays, attached to nothing.
    expect((await attach(client, document.id, 'insurance', policy)).status).toBe(200);
    expect((await client.delete(`/api/visits/${visit}`)).status).toBe(204);
    const kept = await client.get<StoredDocument>(`/api/documents/${document.id}`);
    expect(kept.status).toBe(200);
    expect(kept.body.records.map((record) => record.record_type)).toEqual(['insurance']);

    // The document deleted: its attachments go with it; the policy stays.
    expect((await client.delete(`/api/documents/${document.id}`)).status).toBe(204);
    expect(
      await server.db
        .selectFrom('document_records')
        .select('record_id')
        .where('user_id', '=', owner)
        .execute(),
    ).toEqual([]);
    expect((await client.get(`/api/insurance/${policy}`)).status).toBe(200);
  });

  it("changes title, type, date and person; another person's records are detached, the search follows", async () => {
    const { client, leo, visit, document } = await family(server);
    const mia = await created(client, 'family-members', { name: 'Mia' });
    const miaVisit = await created(
      client,
      'visits',
      sampleRecord('visit', { family_member_id: mia }),
    );
    expect((await attach(client, document.id, 'visits', visit)).status).toBe(200);

    const card = { title: 'Acme card, front', document_type: 'Letter' };
    const renamed = await edit(client, document.id, {
      ...card,
      document_date: '2026-03-03',
      family_member_id: leo,
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({
      ...card,
      document_date: '2026-03-03',
      family_member_id: leo,
      person_name: 'Leo',
    });
    // Records left out, person the same: its attachment stays.
    expect(renamed.body.records.map((record) => record.record_id)).toEqual([visit]);
    expect(await search(client, 'acme card front')).toContain(document.id);
    expect(await search(client, 'insurance-card')).not.toContain(document.id);

    // To Mia, naming Leo's visit: refused, nothing changed.
    const refused = await edit(client, document.id, {
      title: 'Moved',
      document_type: 'Letter',
      family_member_id: mia,
      records: [{ record_type: 'visits', record_id: visit }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      message: DOCUMENT_OTHER_PERSON_MESSAGE,
      field: 'records',
    });
    expect((await client.get<StoredDocument>(`/api/documents/${document.id}`)).body).toMatchObject({
      title: 'Acme card, front',
      family_member_id: leo,
    });

    // To Mia, records left out: Leo's visit no longer has it; Mia's may.
    const moved = await edit(client, document.id, {
      ...card,
      document_date: '',
      family_member_id: mia,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ family_member_id: mia, document_date: null, records: [] });
    expect(await attachedTo(client, 'visits', visit)).toEqual([]);
    expect(await search(client, 'acme', mia)).toContain(document.id);
    expect(await search(client, 'acme', leo)).not.toContain(document.id);
    expect((await attach(client, document.id, 'visits', miaVisit)).status).toBe(200);

    // To the account holder, with none of Mia's records: allowed, detached.
    const mine = await edit(client, document.id, {
      ...card,
      family_member_id: null,
      records: [],
    });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ family_member_id: null, records: [] });
  });

  it('refuses bad input with the field named, and changes nothing', async () => {
    const { client, leo, visit, document } = await family(server);
    const other = await family(server, 'Other');
    const valid = {
      title: 'Card',
      document_type: 'Insurance Card',
      family_member_id: leo,
      records: [{ record_type: 'visits', record_id: visit }],
    };
    const cases: [unknown, string][] = [
      [{ ...valid, title: '  ' }, 'title'],
      [{ ...valid, title: 'x'.repeat(201) }, 'title'],
      [{ ...valid, document_type: 'Receipt' }, 'document_type'],
      [{ ...valid, document_date: '2026-02-30' }, 'document_date'],
      [{ ...valid, document_date: 20260203 }, 'document_date'],
      [{ ...valid, family_member_id: other.leo }, 'family_member_id'],
      [{ ...valid, family_member_id: 'nobody' }, 'family_member_id'],
      [{ ...valid, records: [{ record_type: 'visits', record_id: other.visit }] }, 'records'],
      [{ ...valid, records: [{ record_type: 'recipes', record_id: visit }] }, 'records'],
      [{ ...valid, records: 'visits' }, 'records'],
      [{ ...valid, records: [{ record_type: 'visits' }] }, 'records.0.record_id'],
    ];
    for (const [body, field] of cases) {
      const refused = await edit(client, document.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.field, JSON.stringify(refused.body)).toBe(field);
    }
    const malformed = await client.request<Answer>(
      'PUT',
      `/api/documents/${document.id}`,
      '{"title": ',
    );
    expect(malformed.status).toBe(400);
    const foreignRecord = await attach(client, document.id, 'visits', other.visit);
    expect(foreignRecord.status).toBe(400);
    expect(foreignRecord.body).toMatchObject({
      message: DOCUMENT_RECORD_MESSAGE,
      field: 'record_id',
    });
    const missingType = await client.post<Answer>(`/api/documents/${document.id}/records`, {
      record_id: visit,
    });
    expect(missingType.body.field).toBe('record_type');
    const unchanged = await client.get<StoredDocument>(`/api/documents/${document.id}`);
    expect(unchanged.body).toMatchObject({
      title: 'insurance-card',
      document_type: 'Insurance Card',
      family_member_id: leo,
      records: [],
      updated_at: document.updated_at,
    });
  });

  it("answers another account as for a missing document, refuses a Viewer's change, lets an Editor change the shared person's", async () => {
    const { client: owner, leo, visit, policy, document } = await family(server);
    const kim = await created(owner, 'family-members', { name: 'Kim' });
    const kimVisit = await created(
      owner,
      'visits',
      sampleRecord('visit', { family_member_id: kim }),
    );
    const valid = { title: 'Card', document_type: 'Letter', family_member_id: leo };

    const anonymous = server.client();
    expect((await edit(anonymous, document.id, valid)).status).toBe(401);
    expect((await attach(anonymous, document.id, 'visits', visit)).status).toBe(401);
    expect((await anonymous.get(`/api/persons/${leo}/attachable-records`)).status).toBe(401);

    const stranger = await signedUpClient(server, 'Stranger');
    expect((await edit(stranger.client, document.id, valid)).status).toBe(404);
    expect((await attach(stranger.client, document.id, 'visits', visit)).status).toBe(404);
    expect((await stranger.client.get(`/api/persons/${leo}/attachable-records`)).status).toBe(404);
    const theirs = await uploadDocument(stranger.client, await samplePdf());
    const onOwners = await attach(stranger.client, theirs.body.id, 'visits', visit);
    expect(onOwners.status).toBe(400);
    expect(onOwners.body.message).toBe(DOCUMENT_RECORD_MESSAGE);
    const intoOwners = await edit(stranger.client, theirs.body.id, {
      ...valid,
      family_member_id: leo,
    });
    expect(intoOwners.status).toBe(400);
    expect(intoOwners.body.field).toBe('family_member_id');

    const viewer = await signedUpClient(server, 'Viewer');
    await shareAndAccept(owner, viewer, leo, 'viewer');
    expect((await viewer.client.get(`/api/documents/${document.id}`)).status).toBe(200);
    expect((await edit(viewer.client, document.id, valid)).status).toBe(403);
    expect((await attach(viewer.client, document.id, 'visits', visit)).status).toBe(403);

    const editor = await signedUpClient(server, 'Editor');
    await shareAndAccept(owner, editor, leo, 'editor');
    const choices = await editor.client.get<AttachableRecords>(
      `/api/persons/${leo}/attachable-records`,
    );
    expect(choices.status).toBe(200);
    expect(choices.body.records.map((record) => record.record_id).sort()).toEqual(
      [visit, policy].sort(),
    );
    const byEditor = await edit(editor.client, document.id, {
      ...valid,
      records: [{ record_type: 'insurance', record_id: policy }],
    });
    expect(byEditor.status, JSON.stringify(byEditor.body)).toBe(200);
    expect(byEditor.body).toMatchObject({ title: 'Card', family_member_id: leo });
    expect((await attach(editor.client, document.id, 'visits', visit)).status).toBe(200);
    // Kim is not shared with them: her visit is not one they can reach, nor can the document go to her.
    expect((await attach(editor.client, document.id, 'visits', kimVisit)).status).toBe(400);
    expect(
      (await edit(editor.client, document.id, { ...valid, family_member_id: kim })).status,
    ).toBe(400);
    // Nor into the editor's own account.
    const editorsOwn = await created(editor.client, 'family-members', { name: 'Sam' });
    expect(
      (await edit(editor.client, document.id, { ...valid, family_member_id: editorsOwn })).status,
    ).toBe(400);
    const seen = await owner.get<StoredDocument>(`/api/documents/${document.id}`);
    expect(seen.body.records.map((record) => record.record_type)).toEqual(['visits', 'insurance']);
  });

  it("offers a person's records by name and date, and detaches a record's documents when it moves to someone else", async () => {
    const { client, leo, visit, policy, document } = await family(server);
    const me = await idOf(client);
    const contact = await created(client, 'contacts', { contact_name: 'Dr. Osei' });
    await created(client, 'vitals', { measured_at: '2026-03-03T08:30:00.000Z', weight_kg: 20 });
    const mine = await client.get<AttachableRecords>(`/api/persons/${me}/attachable-records`);
    expect(mine.body.records.map((record) => [record.record_type, record.title_kind])).toEqual([
      ['vitals', 'datetime'],
      ['contacts', 'text'],
    ]);
    expect(mine.body.records[1]).toMatchObject({
      record_id: contact,
      title: 'Dr. Osei',
      date: null,
    });
    const leos = await client.get<AttachableRecords>(`/api/persons/${leo}/attachable-records`);
    expect(leos.body.records.map((record) => record.record_id)).toEqual([visit, policy]);
    expect((await client.get(`/api/persons/nobody/attachable-records`)).status).toBe(404);

    // A document of Leo's cannot go on the account's contacts (they are the holder's).
    expect((await attach(client, document.id, 'contacts', contact)).body.message).toBe(
      DOCUMENT_OTHER_PERSON_MESSAGE,
    );

    expect((await attach(client, document.id, 'visits', visit)).status).toBe(200);
    const visitNow = await client.get<Record<string, unknown>>(`/api/visits/${visit}`);
    const moved = await client.put(`/api/visits/${visit}`, {
      ...sampleRecord('visit'),
      visit_name: visitNow.body.visit_name,
      visit_date: visitNow.body.visit_date,
      family_member_id: null,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await attachedTo(client, 'visits', visit)).toEqual([]);
    const kept = await client.get<StoredDocument>(`/api/documents/${document.id}`);
    expect(kept.body).toMatchObject({ family_member_id: leo, records: [] });
  });

  it('is attached at upload only to a record of its own person', async () => {
    const { client, visit } = await family(server);
    const refused = await uploadDocument(client, await samplePdf(), {
      record_type: 'visits',
      record_id: visit,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: 'record_id' });
    expect((await client.get<DocumentPage>('/api/documents')).body.total).toBe(1);
  });
});
