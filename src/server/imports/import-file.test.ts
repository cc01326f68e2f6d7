/**
 * Bringing records in over the API (CONTRACT §6): a file known by its content, matched to the
 * right person (never the account holder by default), written once, remembered in Import
 * History and undone from there; every imported record says where it came from; what is
 * refused leaves nothing behind. On both engines.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Bundle } from '@medplum/fhirtypes';
import { NOT_IMPORTABLE, type FileImportDone, type FileImportPreview } from '../../shared/imports';
import type { ImportHistoryEntry, ImportUndone, ImportedFrom } from '../../shared/imports';
import { sampleRecord } from '../test/factories';
import { XML_REFUSED } from './xml-safety';
import { importFhirBundle } from '../fhir/fhir-import';
import type { DocumentPage } from '../../shared/documents';
import { FILE_READERS } from './readers';
import { THREAD_FROM_BYTES } from './import-file-thread';
import { STREAM_FROM_BYTES } from './read-fhir-file';
import { manyAllergiesBundle } from './testing/many-allergies';
import { uploadDocument } from '../test/documents';
import {
  documentCopiesUnmade,
  signedUpClient,
  useTestServer,
  type TestClient,
} from '../test/harness';

const unmade = documentCopiesUnmade();
const server = useTestServer({ logs: unmade });

/** A FHIR file of one patient with two conditions and an allergy. */
function leoBundle(patient: { name?: string; birthDate?: string; id?: string } = {}): Bundle {
  const [given, family] = (patient.name ?? 'Leo Smith').split(' ');
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      {
        resource: {
          resourceType: 'Patient',
          id: patient.id ?? 'p1',
          name: [{ given: [given!], family: family! }],
          birthDate: patient.birthDate ?? '2019-03-02',
          gender: 'male',
        },
      },
      {
        resource: {
          resourceType: 'Condition',
          id: 'c1',
          code: { text: 'Asthma' },
          onsetDateTime: '2022-01-10',
          clinicalStatus: { coding: [{ code: 'active' }] },
        },
      },
      {
        resource: {
          resourceType: 'Condition',
          id: 'c2',
          code: { text: 'Eczema' },
          onsetDateTime: '2021-05-01',
          clinicalStatus: { coding: [{ code: 'resolved' }] },
        },
      },
      {
        resource: {
          resourceType: 'AllergyIntolerance',
          id: 'a1',
          code: { text: 'Peanuts' },
          patient: { reference: 'Patient/p1' },
        },
      },
    ],
  } as Bundle;
}

const bytesOf = (value: unknown) =>
  new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

function send<T>(client: TestClient, query: string, body: unknown) {
  return client.sendBytes<T & { message?: string; field?: string }>(
    'POST',
    `/api/import?${query}`,
    bytesOf(body),
  );
}

async function account(name = 'Maria Smith') {
  const { client } = await signedUpClient(server, name);
  const session = await client.get<{ user: { id: string } }>('/api/auth/get-session');
  return { client, userId: session.body.user.id };
}

async function addLeo(client: TestClient, name = 'Leo Smith') {
  const leo = await client.post<{ id: string }>('/api/family-members', {
    name,
    date_of_birth: '2019-03-02',
    color: '#3b82f6',
  });
  return leo.body.id;
}

const historyOf = async (client: TestClient) =>
  (await client.get<ImportHistoryEntry[]>('/api/imports')).body;

const conditionsOf = async (client: TestClient, personId: string) =>
  (
    await client.get<{ items: { id: string; condition_name: string }[] }>(
      `/api/history?member=${personId}`,
    )
  ).body.items;

describe('POST /api/import: the file is known by its content', () => {
  it('reads a FHIR Bundle, and a single resource as a Bundle of one, whatever its name', async () => {
    const { client } = await account();
    const preview = await send<FileImportPreview>(
      client,
      'preview=true&file=export.txt',
      leoBundle(),
    );
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      kind: 'fhir',
      file_name: 'export.txt',
      patient: { name: 'Leo Smith', birth_date: '2019-03-02', sex: 'male' },
    });
    expect(preview.body.totals.new).toBe(3);

    const single = await send<FileImportPreview>(client, 'preview=true&file=c.json', {
      resourceType: 'Condition',
      id: 'one',
      code: { text: 'Migraine' },
    });
    expect(single.status, JSON.stringify(single.body)).toBe(200);
    expect(single.body.kind).toBe('fhir');
    expect(single.body.patient).toBeNull();
    expect(single.body.counts.condition?.new).toBe(1);
  });

  it('refuses a file of no kind it reads, an XML entity, and changes nothing', async () => {
    const { client } = await account();
    for (const body of [
      '{"hello": "world"}',
      'just some words',
      '%PDF-1.7\n\u0000\u0001binary',
      '<note><to>Leo</to></note>',
    ]) {
      const response = await send(client, 'file=x', body);
      expect(response.status, body).toBe(400);
      expect(response.body.message).toBe(NOT_IMPORTABLE);
    }
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><ClinicalDocument xmlns="urn:hl7-org:v3">&lol;</ClinicalDocument>`;
    const refused = await send(client, 'file=bomb.xml', bomb);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(XML_REFUSED);
    const doctype = `<?xml version="1.0"?><!DOCTYPE ClinicalDocument SYSTEM "http://x/y.dtd"><ClinicalDocument xmlns="urn:hl7-org:v3"/>`;
    expect((await send(client, 'file=d.xml', doctype)).body.message).toBe(XML_REFUSED);
    expect(await historyOf(client)).toEqual([]);
  });

  it('checks its options: the file’s name, the dates and the time zone', async () => {
    const { client } = await account();
    for (const [query, field] of [
      [`file=${'a'.repeat(256)}`, 'file'],
      ['from=2024-13-40', 'from'],
      ['to=yesterday', 'to'],
      ['tz=Mars/Olympus', 'tz'],
    ]) {
      const response = await send(client, `preview=true&${query}`, leoBundle());
      expect(response.status, query).toBe(400);
      expect(response.body.field, query).toBe(field);
    }
    expect(
      (await send(client, 'preview=true&tz=Europe/Berlin&from=2020-01-01', leoBundle())).status,
    ).toBe(200);
  });

  it('refuses a file past its kind’s bound before reading it', async () => {
    const { client } = await account();
    const big = new Uint8Array(33 * 1024 * 1024).fill(0x61);
    big.set(bytesOf('Date,Weight\n'));
    const response = await client.sendBytes<{ message: string }>('POST', '/api/import', big);
    expect(response.status).toBe(413);
    expect(response.body.message).toBe('The file is too large to import (at most 32 MB)');
    expect(await historyOf(client)).toEqual([]);
  });
});

describe('POST /api/import: the right person', () => {
  it('proposes the member the file names, by name (any order, case, accents) and birth date', async () => {
    const { client } = await account();
    const leoId = await addLeo(client, 'Léo SMITH');
    const preview = await send<FileImportPreview>(
      client,
      'preview=true',
      leoBundle({ name: 'Smith Leo' }),
    );
    expect(preview.body.person_id).toBe(leoId);
    expect(preview.body.new_member).toBeNull();
    expect(preview.body.mismatch).toBeNull();
    // Written without a person: to Leo, not to the account holder.
    const done = await send<FileImportDone>(client, 'file=leo.json', leoBundle());
    expect(done.status).toBe(201);
    expect(done.body.added).toBe(3);
    expect((await conditionsOf(client, leoId)).map((c) => c.condition_name).sort()).toEqual([
      'Asthma',
      'Eczema',
    ]);
  });

  it('matches this server’s own export by the person’s id', async () => {
    const { client } = await account();
    const leoId = await addLeo(client);
    const preview = await send<FileImportPreview>(
      client,
      'preview=true',
      leoBundle({ id: leoId, name: 'Someone Else', birthDate: '2000-01-01' }),
    );
    expect(preview.body.person_id).toBe(leoId);
  });

  it('answers in the request’s language: the preview’s sentence, the mismatch, the summary', async () => {
    const { client } = await account();
    const leoId = await addLeo(client);
    const spanish = { 'accept-language': 'es' };
    const file = bytesOf(leoBundle({ name: 'Someone Else', birthDate: '2000-01-01' }));
    const preview = await client.sendBytes<FileImportPreview>(
      'POST',
      `/api/import?preview=true&person=${leoId}`,
      file,
      spanish,
    );
    expect(preview.body.summary).toBe('3 nuevos, 0 ya presentes, 0 modificados');
    expect(preview.body.mismatch).toBe(
      'Este archivo es de Someone Else (nacido/a el 2000-01-01), no de Leo Smith',
    );
    const done = await client.sendBytes<FileImportDone>(
      'POST',
      `/api/import?person=${leoId}`,
      file,
      spanish,
    );
    expect(done.body.summary).toBe('Importado: 2 afecciones y 1 alergia');
    const again = await client.sendBytes<FileImportDone>(
      'POST',
      `/api/import?person=${leoId}`,
      file,
      spanish,
    );
    expect(again.body.summary).toBe('No se importó nada (3 registros ya estaban aquí)');
  });

  it('reads a large file on its own thread in the request’s language', async () => {
    const { client } = await account();
    const leoId = await addLeo(client);
    const note = 'n'.repeat(1_000);
    const rows = Array.from({ length: 300 }, (_, index) => {
      const day = new Date(Date.UTC(2023, 0, 1 + index)).toISOString().slice(0, 10);
      return `${day},70,${note}`;
    });
    const csv = ['Date,Weight (kg),Notes', ...rows, '2024-06-01,abc,'].join('\n');
    expect(csv.length).toBeGreaterThan(THREAD_FROM_BYTES);
    const preview = await client.sendBytes<FileImportPreview>(
      'POST',
      `/api/import?preview=true&person=${leoId}`,
      new TextEncoder().encode(csv),
      { 'accept-language': 'es' },
    );
    expect(preview.status).toBe(200);
    expect(preview.body.problems).toEqual([
      { line: 302, message: "Weight (kg) 'abc' no es un número" },
    ]);
  });

  it('streams a FHIR Bundle of a megabyte and more from its file: previewed, written once, refused in the request’s language', async () => {
    const { client } = await account();
    const leoId = await addLeo(client);
    // The visit's doctor comes last: found by the pass that keeps what others point to.
    const bundle = manyAllergiesBundle(6_000);
    const file = bytesOf(bundle);
    expect(file.length).toBeGreaterThan(STREAM_FROM_BYTES);
    const preview = await client.sendBytes<FileImportPreview>(
      'POST',
      `/api/import?preview=true&person=${leoId}`,
      file,
    );
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.summary).toBe('6002 new, 0 already here, 0 changed');
    const done = await client.sendBytes<FileImportDone>(
      'POST',
      `/api/import?person=${leoId}`,
      file,
    );
    expect(done.status).toBe(201);
    expect(done.body.added).toBe(6_002);
    const visits = await client.get<{ items: { doctor_name: string | null }[] }>(
      `/api/visits?member=${leoId}`,
    );
    expect(visits.body.items.map((row) => row.doctor_name)).toEqual(['Ada King']);
    const again = await client.sendBytes<FileImportDone>(
      'POST',
      `/api/import?person=${leoId}`,
      file,
    );
    expect(again.body.summary).toBe('Imported nothing (6002 records were already here)');
    // Refused from its survey, before any record is read, in the asker's language.
    const twoPatients = bytesOf({
      ...bundle,
      entry: [
        { resource: { resourceType: 'Patient' } },
        ...(bundle.entry ?? []),
        { resource: { resourceType: 'Patient' } },
      ],
    } as Bundle);
    expect(twoPatients.length).toBeGreaterThan(STREAM_FROM_BYTES);
    const refused = await client.sendBytes<{ message: string; field: string }>(
      'POST',
      '/api/import?preview=true',
      twoPatients,
      { 'accept-language': 'es' },
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      field: 'file',
      message:
        'Este Bundle contiene los registros de 2 pacientes; importe el Bundle de una sola persona cada vez.',
    });
  });

  it('refuses each kind of file in the request’s language, on its own thread too', async () => {
    const { client } = await account();
    const refused = async (text: string, language: string) => {
      const answer = await client.sendBytes<{ message: string; field?: string }>(
        'POST',
        '/api/import?preview=true',
        new TextEncoder().encode(text),
        { 'accept-language': language },
      );
      expect(answer.status, answer.body.message).toBe(400);
      expect(answer.body.field).toBe('file');
      return answer.body.message;
    };
    // FHIR: a Bundle of a type that is not imported.
    const history = JSON.stringify({ resourceType: 'Bundle', type: 'history', entry: [] });
    expect(await refused(history, 'es')).toBe(
      "Este Bundle es de tipo 'history', que no se puede importar: Kin Health importa Bundles de tipo collection, document, searchset y transaction.",
    );
    // A CSV read on its thread, whose slashed dates could go either way.
    const note = 'n'.repeat(1_000);
    const rows = Array.from({ length: 300 }, () => `3/4/2024,70,${note}`);
    const csv = ['Date,Weight (kg),Notes', ...rows].join('\n');
    expect(csv.length).toBeGreaterThan(THREAD_FROM_BYTES);
    expect(await refused(csv, 'es')).toBe(
      "Las fechas de la columna 'Date' (como '3/4/2024') pueden ser mes/día o día/mes, y ninguna fecha del archivo indica cuál. Escríbalas como YYYY-MM-DD e importe el archivo de nuevo.",
    );
    // A C-CDA of more entries than are read from one document (on its thread as well).
    const entry = '<entry><observation classCode="OBS" moodCode="EVN"/></entry>';
    const ccda = `<ClinicalDocument xmlns="urn:hl7-org:v3"><component><structuredBody><component><section>${entry.repeat(6_000)}</section></component></structuredBody></component></ClinicalDocument>`;
    expect(ccda.length).toBeGreaterThan(THREAD_FROM_BYTES);
    expect(await refused(ccda, 'de')).toBe(
      'Dieses C-CDA-Dokument enthält mehr als 5.000 Einträge, mehr als Kin Health aus einem Dokument liest.',
    );
    // An Apple Health export.xml the parser cannot read: its words kept inside the sentence.
    const apple =
      '<?xml version="1.0"?><HealthData locale="en_US"><Record type="&lol;"/></HealthData>';
    expect(await refused(apple, 'fr')).toMatch(
      /^Cet export Apple Santé ne peut pas être lu \(.*\) ; rien n’a été importé$/,
    );
    // English as before.
    expect(await refused(history, 'en')).toBe(
      "This Bundle is of type 'history', which cannot be imported: Kin Health imports collection, document, searchset and transaction Bundles.",
    );
  });

  it('offers a new family member when no one matches, and never writes to the holder by default', async () => {
    const { client, userId } = await account();
    const preview = await send<FileImportPreview>(client, 'preview=true', leoBundle());
    expect(preview.body.person_id).toBeNull();
    expect(preview.body.new_member).toEqual({
      name: 'Leo Smith',
      date_of_birth: '2019-03-02',
      sex: 'male',
    });
    expect(preview.body.totals.new).toBe(3);
    const refused = await send(client, '', leoBundle());
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      message: 'Person: choose who the records belong to',
      field: 'person',
    });
    expect(await conditionsOf(client, userId)).toEqual([]);
    expect(await historyOf(client)).toEqual([]);
  });

  it('person=new makes the family member from the file’s patient, in the same import', async () => {
    const { client } = await account();
    const done = await send<FileImportDone>(client, 'person=new&file=leo.json', leoBundle());
    expect(done.status).toBe(201);
    const memberId = done.body.family_member_id!;
    const members =
      await client.get<{ id: string; name: string; date_of_birth: string; sex: string }[]>(
        '/api/family-members',
      );
    expect(members.body.find((m) => m.id === memberId)).toMatchObject({
      name: 'Leo Smith',
      date_of_birth: '2019-03-02',
      sex: 'male',
    });
    // The three records the preview counted; the member made for them is in History.
    expect(done.body.added).toBe(3);
    expect(await conditionsOf(client, memberId)).toHaveLength(2);
    const [entry] = await historyOf(client);
    expect(entry).toMatchObject({
      kind: 'fhir',
      file_name: 'leo.json',
      person: { id: memberId, name: 'Leo Smith' },
      counts: { family_member: 1, condition: 2, allergy: 1 },
      can_undo: true,
    });
  });

  it('says when the chosen person is not the file’s patient, and writes where the user chose', async () => {
    const { client, userId } = await account();
    const preview = await send<FileImportPreview>(
      client,
      `preview=true&person=${userId}`,
      leoBundle(),
    );
    expect(preview.body.person_id).toBe(userId);
    expect(preview.body.mismatch).toBe(
      'This file is for Leo Smith (born 2019-03-02), not Maria Smith',
    );
    const done = await send<FileImportDone>(client, `person=${userId}`, leoBundle());
    expect(done.status).toBe(201);
    expect(await conditionsOf(client, userId)).toHaveLength(2);
  });
});

describe('Import History and undo', () => {
  it('undoes what an import added and nothing else; edited records stay; the file adds again', async () => {
    const { client } = await account();
    const leoId = await addLeo(client);
    const mine = await client.post<{ id: string }>(
      '/api/history',
      sampleRecord('condition', {
        condition_name: 'Typed by hand',
        diagnosis_date: '2023-01-01',
        family_member_id: leoId,
      }),
    );
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    const done = await send<FileImportDone>(client, 'file=leo.json', leoBundle());
    const conditions = await conditionsOf(client, leoId);
    const asthma = conditions.find((c) => c.condition_name === 'Asthma')!;

    const detail = await client.get<{ imported_from: ImportedFrom | null }>(
      `/api/history/${asthma.id}`,
    );
    expect(detail.body.imported_from).toMatchObject({ file_name: 'leo.json' });
    const handMade = await client.get<{ imported_from: ImportedFrom | null }>(
      `/api/history/${mine.body.id}`,
    );
    expect(handMade.body.imported_from).toBeNull();

    // Edited since it came in: kept by the undo.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const eczema = conditions.find((c) => c.condition_name === 'Eczema')!;
    const edited = await client.put(
      `/api/history/${eczema.id}`,
      sampleRecord('condition', {
        condition_name: 'Eczema',
        diagnosis_date: '2021-05-01',
        family_member_id: leoId,
        notes: 'Seen by Dr. Ng',
      }),
    );
    expect(edited.status).toBe(200);

    const undone = await client.post<ImportUndone>(`/api/imports/${done.body.import_id}/undo`, {});
    expect(undone.status).toBe(200);
    expect(undone.body).toEqual({ removed: 2, kept_edited: 1 });
    expect((await conditionsOf(client, leoId)).map((c) => c.condition_name).sort()).toEqual([
      'Eczema',
      'Typed by hand',
    ]);
    const [entry] = await historyOf(client);
    expect(entry!.undone_at).not.toBeNull();
    expect(entry!.can_undo).toBe(false);
    expect(
      (await client.get<{ imported_from: unknown }>(`/api/history/${eczema.id}`)).body
        .imported_from,
    ).toBeNull();

    const twice = await client.post<{ message: string }>(
      `/api/imports/${done.body.import_id}/undo`,
      {},
    );
    expect(twice.status).toBe(410);
    expect(twice.body.message).toBe('This import has already been undone');

    // The removed records come back when the file is imported again; the kept one is here.
    const again = await send<FileImportDone>(client, 'file=leo.json', leoBundle());
    expect(again.body.added).toBe(2);
    expect(await conditionsOf(client, leoId)).toHaveLength(3);
  });

  it('removes the family member an import made, with its records, and no one else’s import', async () => {
    const { client } = await account();
    const done = await send<FileImportDone>(client, 'person=new&file=leo.json', leoBundle());
    const { client: other } = await account('Sam Lee');
    const theirs = await other.post<{ message: string }>(
      `/api/imports/${done.body.import_id}/undo`,
      {},
    );
    expect(theirs.status).toBe(404);
    const undone = await client.post<ImportUndone>(`/api/imports/${done.body.import_id}/undo`, {});
    expect(undone.body).toEqual({ removed: 4, kept_edited: 0 });
    const members = await client.get<{ id: string }[]>('/api/family-members');
    expect(members.body.map((m) => m.id)).not.toContain(done.body.family_member_id);
  });

  it('is refused once the import is older than its days', async () => {
    const { client, userId } = await account();
    const done = await send<FileImportDone>(client, 'person=new', leoBundle());
    const old = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString();
    await server.database.db
      .updateTable('imports')
      .set({ created_at: old, finished_at: old })
      .where('user_id', '=', userId)
      .where('id', '=', done.body.import_id)
      .execute();
    const [entry] = await historyOf(client);
    expect(entry!.can_undo).toBe(false);
    const refused = await client.post<{ message: string }>(
      `/api/imports/${done.body.import_id}/undo`,
      {},
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'This import is more than 30 days old and can no longer be undone',
    );
    expect(await conditionsOf(client, done.body.family_member_id!)).toHaveLength(2);
  });

  it('remembers the product’s own export, and undoes it', async () => {
    const { client: source } = await account();
    await addLeo(source);
    await send(source, 'person=new', leoBundle({ name: 'Ana Smith', birthDate: '2015-01-01' }));
    const exported = (await source.get<Record<string, unknown>>('/api/export')).body;

    const { client } = await account('Sam Lee');
    const preview = await send<FileImportPreview>(client, 'preview=true', exported);
    expect(preview.body).toMatchObject({ kind: 'kin-health-export', person_id: null });
    const done = await send<FileImportDone>(client, 'file=kin.json', exported);
    expect(done.status).toBe(201);
    expect(done.body.added).toBe(5);
    const [entry] = await historyOf(client);
    expect(entry).toMatchObject({
      kind: 'kin-health-export',
      person: null,
      counts: { family_member: 2, condition: 2, allergy: 1 },
    });
    const undone = await client.post<ImportUndone>(`/api/imports/${done.body.import_id}/undo`, {});
    expect(undone.body).toEqual({ removed: 5, kept_edited: 0 });
    expect((await client.get<unknown[]>('/api/family-members')).body).toEqual([]);
  });
});

describe('a C-CDA is kept as a document of its person', () => {
  // HL7's example CCD: Eve Betterhalf, born 1975-05-01.
  const ccda = readFileSync('src/server/imports/testdata/ccda/hl7/ccd.xml', 'utf8');

  it('stores the original beside its records, shown as its narrative; undo removes it all', async () => {
    const { client } = await account();
    const preview = await send<FileImportPreview>(client, 'preview=true', ccda);
    expect(preview.body).toMatchObject({
      kind: 'ccda',
      person_id: null,
      new_member: { name: 'Eve Betterhalf', date_of_birth: '1975-05-01', sex: 'female' },
    });
    const done = await send<FileImportDone>(client, 'person=new&file=Eve%20CCD.xml', ccda);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const eve = done.body.family_member_id;
    expect(eve).not.toBeNull();
    const page = await client.get<DocumentPage>('/api/documents?limit=10');
    expect(page.body.documents).toHaveLength(1);
    const [document] = page.body.documents;
    expect(document).toMatchObject({
      title: 'Eve CCD',
      mime_type: 'application/xml',
      family_member_id: eve,
    });
    const detail = await client.get<{ imported_from: ImportedFrom | null }>(
      `/api/documents/${document!.id}`,
    );
    expect(detail.body.imported_from).toMatchObject({ file_name: 'Eve CCD.xml' });
    // Shown as its narrative: the sections' titles and text, in a sandbox, nothing to run.
    const view = await client.get<string>(`/api/documents/${document!.id}/view`);
    expect(view.headers.get('content-type'), unmade.said()).toBe('text/html; charset=utf-8');
    expect(view.headers.get('content-security-policy')).toContain('sandbox');
    expect(view.body).toContain('<h2>ALLERGIES AND ADVERSE REACTIONS</h2>');
    expect(view.body).toContain('Penicillin');
    expect(view.body).not.toMatch(/<script|\son[a-z]+=/i);
    const [entry] = await historyOf(client);
    expect(entry!.counts).toMatchObject({ family_member: 1, allergy: 2, document: 1 });

    const undone = await client.post<ImportUndone>(`/api/imports/${done.body.import_id}/undo`, {});
    // Undone: the records, the document and the member made for them.
    expect(undone.body).toEqual({ removed: done.body.added + 2, kept_edited: 0 });
    expect((await client.get<DocumentPage>('/api/documents?limit=10')).body.documents).toEqual([]);
    expect((await client.get<unknown[]>('/api/family-members')).body).toEqual([]);
  });

  it('is never taken from an upload', async () => {
    const { client } = await account();
    const upload = await uploadDocument(client, bytesOf(ccda));
    expect(upload.status).toBe(415);
  });
});

describe('an import that fails part way', () => {
  const reader = FILE_READERS.csv;
  afterEach(() => {
    FILE_READERS.csv = reader;
  });

  it('leaves nothing behind: no records, no family member it made, no history', async () => {
    const { client } = await account();
    // A reader whose second record the database refuses (a condition with no name).
    FILE_READERS.csv = async () => {
      const read = importFhirBundle(leoBundle(), { familyMemberId: null });
      if (!read.ok) return read;
      const [asthma] = read.records.condition;
      read.records.condition = [
        asthma!,
        { ...asthma!, source_id: 'broken', values: { ...asthma!.values, condition_name: null } },
      ] as typeof read.records.condition;
      return {
        kind: 'csv',
        patient: { name: 'Leo Smith', birth_date: '2019-03-02', sex: null, ids: [] },
        records: read,
        problems: [],
      };
    };
    const failed = await send(client, 'person=new&file=leo.csv', 'Date,Weight\n2024-01-01,20\n');
    expect(failed.status).toBe(500);
    expect((await client.get<unknown[]>('/api/family-members')).body).toEqual([]);
    expect((await client.get<{ items: unknown[] }>('/api/allergies')).body.items).toEqual([]);
    expect(await historyOf(client)).toEqual([]);
  });
});
