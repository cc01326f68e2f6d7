/**
 * Documents through a FHIR round trip, on the engine under test: a PDF and a HEIC photo
 * exported by $everything come back into a fresh account as the same documents (title,
 * type, date, person, record, bytes), once; a file that is not a PDF or an image, or that
 * is somewhere outside the bundle, is skipped with its reason; the storage limit holds.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Bundle, DocumentReference } from '@medplum/fhirtypes';
import {
  DOCUMENT_KIND_MESSAGE,
  DOCUMENT_QUOTA_MESSAGE,
  type DocumentPage,
} from '../../shared/documents';
import type { FhirImportSummary } from '../../shared/fhir';
import type { ImportPreview } from '../../shared/import-preview';
import { documentStoreOf } from '../documents/document-files';
import { keptSamplePdf, samplePdf } from '../documents/fixtures/sample-files';
import { sampleRecord } from '../test/factories';
import {
  createTestServer,
  signedUpClient,
  useTestServer,
  type TestClient,
  type TestServer,
} from '../test/harness';
import { sampleHeic, uploadDocument } from '../test/documents';
import { EXTERNAL_FILE_REASON } from './fhir-documents';
import { NOTE_CONTENT_TYPE } from './mappings/notes';

const HEIC = sampleHeic();

async function userIdOf(client: TestClient): Promise<string> {
  const me = await client.get<{ user: { id: string } }>('/api/auth/get-session');
  return me.body.user.id;
}

const importInto = (client: TestClient, personId: string, bundle: unknown, preview = false) =>
  client.request<FhirImportSummary & ImportPreview & { message?: string }>(
    'POST',
    `/api/import?person=${personId}${preview ? '&preview=true' : ''}`,
    bundle,
  );

const documentsOf = async (client: TestClient) =>
  (await client.get<DocumentPage>('/api/documents?limit=100')).body.documents;

/** A collection Bundle of DocumentReferences (and whatever else is given). */
function bundleOf(...resources: object[]): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: resources.map((resource) => ({ resource })),
  } as Bundle;
}

function documentReference(
  id: string,
  title: string,
  attachment: { contentType?: string; data?: string; url?: string },
): DocumentReference {
  return {
    resourceType: 'DocumentReference',
    id,
    status: 'current',
    description: title,
    content: [{ attachment }],
  };
}

async function noisePng(): Promise<Buffer> {
  const noise = Buffer.from(Array.from({ length: 500 * 500 * 3 }, () => Math.random() * 256));
  return sharp(noise, { raw: { width: 500, height: 500, channels: 3 } })
    .png()
    .toBuffer();
}

describe('documents in a FHIR import', () => {
  const server = useTestServer();

  it('come back from $everything into a fresh account: title, type, date, person, record and bytes, once', async () => {
    const { client: source } = await signedUpClient(server, 'Maria Garcia');
    const sourceId = await userIdOf(source);
    const visit = await source.post<{ id: string }>('/api/visits', sampleRecord('visit'));
    expect(visit.status).toBe(201);
    const pdf = await keptSamplePdf(2);
    const letter = await uploadDocument(source, pdf, {
      title: 'Discharge letter',
      document_type: 'Letter',
      document_date: '2026-03-04',
      file_name: 'discharge.pdf',
      record_type: 'visits',
      record_id: visit.body.id,
    });
    expect(letter.status, JSON.stringify(letter.body)).toBe(201);
    // And to a condition: one DocumentReference, related to both.
    const condition = await source.post<{ id: string }>('/api/history', {
      condition_name: 'Asthma',
    });
    expect(condition.status, JSON.stringify(condition.body)).toBe(201);
    expect(
      (
        await source.post(`/api/documents/${letter.body.id}/records`, {
          record_type: 'history',
          record_id: condition.body.id,
        })
      ).status,
    ).toBe(200);
    const photo = await uploadDocument(source, HEIC, {
      title: 'Rash, day 2',
      document_type: 'Imaging',
      file_name: 'IMG_0003.HEIC',
    });
    expect(photo.status, JSON.stringify(photo.body)).toBe(201);

    const exported = await source.get<Bundle>(`/api/fhir/Patient/${sourceId}/$everything`);
    expect(exported.status).toBe(200);
    const attachments = new Map(
      (exported.body.entry ?? [])
        .map((entry) => entry.resource)
        .filter(
          (resource): resource is DocumentReference =>
            resource?.resourceType === 'DocumentReference' &&
            resource.content[0]?.attachment.contentType !== NOTE_CONTENT_TYPE,
        )
        .map((resource) => [
          resource.description,
          Buffer.from(resource.content[0]?.attachment.data ?? '', 'base64'),
        ]),
    );
    expect([...attachments.keys()].sort()).toEqual(['Discharge letter', 'Rash, day 2']);
    const letterReference = (exported.body.entry ?? []).find(
      (entry) =>
        entry.resource?.resourceType === 'DocumentReference' &&
        entry.resource.description === 'Discharge letter',
    )?.resource as DocumentReference;
    expect(letterReference.context?.related?.map((related) => related.reference).sort()).toEqual(
      [`urn:uuid:${visit.body.id}`, `urn:uuid:${condition.body.id}`].sort(),
    );

    const { client: target } = await signedUpClient(server, 'Maria Garcia');
    const targetId = await userIdOf(target);
    const preview = await importInto(target, targetId, exported.body, true);
    expect(preview.body.counts.document).toEqual({ new: 2, already_here: 0, changed: 0 });

    const imported = await importInto(target, targetId, exported.body);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.imported).toMatchObject({ visit: 1, condition: 1, document: 2 });
    expect(imported.body.summary).toContain('2 documents');
    expect(imported.body.skipped_documents).toEqual([]);

    const visits = await target.get<{ items: { id: string; visit_name: string }[] }>('/api/visits');
    const newVisit = visits.body.items.find((item) => item.visit_name === 'Annual checkup');
    const conditions = await target.get<{ items: { id: string }[] }>('/api/history');
    const attachedHere = [
      { record_type: 'visits', record_id: newVisit?.id },
      { record_type: 'history', record_id: conditions.body.items[0]?.id },
    ];
    const documents = await documentsOf(target);
    expect(documents).toHaveLength(2);
    const byTitle = new Map(documents.map((document) => [document.title, document]));
    expect(byTitle.get('Discharge letter')).toMatchObject({
      user_id: targetId,
      family_member_id: null,
      document_type: 'Letter',
      document_date: '2026-03-04',
      file_name: 'discharge.pdf',
      mime_type: 'application/pdf',
      records: attachedHere.map((record) => expect.objectContaining(record)),
    });
    expect(byTitle.get('Rash, day 2')).toMatchObject({
      family_member_id: null,
      document_type: 'Imaging',
      document_date: null,
      file_name: 'IMG_0003.HEIC',
      mime_type: 'image/heic',
      records: [],
    });
    for (const document of documents) {
      const file = await target.getBytes(`${document.file_url}?download`);
      expect(file.status).toBe(200);
      expect(file.bytes.equals(attachments.get(document.title)!)).toBe(true);
      // Made as an upload's are: a thumbnail, and for the HEIC photo a JPEG to show.
      expect(document.thumbnail_url).not.toBeNull();
    }
    const shown = await target.getBytes(byTitle.get('Rash, day 2')!.view_url);
    expect(shown.headers.get('content-type')).toBe('image/jpeg');

    // The same file again: nothing new.
    const again = await importInto(target, targetId, exported.body);
    expect(again.status).toBe(201);
    expect(again.body.imported).toEqual({});
    expect(again.body.summary).toMatch(/^Imported nothing/);
    expect(await documentsOf(target)).toHaveLength(2);
    const previewAgain = await importInto(target, targetId, exported.body, true);
    expect(previewAgain.body.counts.document).toEqual({ new: 0, already_here: 2, changed: 0 });

    // A document deleted here comes back with the next import, attached again.
    const letterHere = byTitle.get('Discharge letter')!;
    expect((await target.delete(`/api/documents/${letterHere.id}`)).status).toBe(204);
    const back = await importInto(target, targetId, exported.body);
    expect(back.body.imported).toEqual({ document: 1 });
    const restored = (await documentsOf(target)).find((d) => d.title === 'Discharge letter');
    expect(restored).toMatchObject({
      records: attachedHere.map((record) => expect.objectContaining(record)),
    });
    // Five files drawn or decoded (two HEIC photos by WebAssembly) on a shared machine.
  }, 120_000);

  it('come back attached to a vitals entry, whose Observations have ids of their own', async () => {
    const { client: source } = await signedUpClient(server, 'Maria Garcia');
    const vitals = await source.post<{ id: string }>('/api/vitals', sampleRecord('vital'));
    expect(vitals.status, JSON.stringify(vitals.body)).toBe(201);
    const chart = await uploadDocument(source, await samplePdf(1), {
      title: 'Blood pressure log',
      document_type: 'Other',
      record_type: 'vitals',
      record_id: vitals.body.id,
    });
    expect(chart.status, JSON.stringify(chart.body)).toBe(201);
    const exported = await source.get<Bundle>(
      `/api/fhir/Patient/${await userIdOf(source)}/$everything`,
    );
    const resources = (exported.body.entry ?? []).map((entry) => entry.resource);
    const reference = resources.find((resource) => resource?.resourceType === 'DocumentReference')
      ?.context?.related?.[0]?.reference;
    // The reference is to a resource of the bundle: one of the entry's Observations.
    const referenced = (exported.body.entry ?? []).find((entry) => entry.fullUrl === reference);
    expect(referenced?.resource?.resourceType).toBe('Observation');

    const { client: target } = await signedUpClient(server, 'Maria Garcia');
    const imported = await importInto(target, await userIdOf(target), exported.body);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.imported).toMatchObject({ vital: 1, document: 1 });
    const entries = await target.get<{ items: { id: string }[] }>('/api/vitals');
    const [document] = await documentsOf(target);
    expect(document?.records).toEqual([
      expect.objectContaining({ record_type: 'vitals', record_id: entries.body.items[0]?.id }),
    ]);
  }, 60_000);

  it('are attached to the record already here that their resource is, found by its content', async () => {
    const { client } = await signedUpClient(server);
    const owner = await userIdOf(client);
    // Written by hand here: no earlier import names it.
    const here = await client.post<{ id: string }>('/api/history', {
      condition_name: 'Asthma',
      diagnosis_date: '2019-05-02',
    });
    expect(here.status, JSON.stringify(here.body)).toBe(201);
    const bundle = bundleOf(
      {
        resourceType: 'Condition',
        id: 'asthma',
        code: { text: 'asthma' },
        onsetDateTime: '2019-05-02',
      },
      {
        ...documentReference('plan', 'Asthma action plan', {
          contentType: 'application/pdf',
          data: (await keptSamplePdf()).toString('base64'),
        }),
        context: { related: [{ reference: 'Condition/asthma' }] },
      },
    );
    const preview = await importInto(client, owner, bundle, true);
    expect(preview.body.counts.condition?.new).toBe(0);

    const imported = await importInto(client, owner, bundle);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.imported).toEqual({ document: 1 });
    const [document] = await documentsOf(client);
    expect(document?.records).toEqual([
      expect.objectContaining({ record_type: 'history', record_id: here.body.id }),
    ]);
    expect((await client.get<{ items: unknown[] }>('/api/history')).body.items).toHaveLength(1);
  });

  it('take a file from a Binary of the same bundle into a family member, and skip others with their reasons', async () => {
    const { client } = await signedUpClient(server);
    const owner = await userIdOf(client);
    const member = await client.post<{ id: string }>('/api/family-members', {
      name: 'Leo',
      date_of_birth: '2017-04-12',
      color: '#ec4899',
    });
    const pdf = await keptSamplePdf();
    const bundle = bundleOf(
      {
        ...documentReference('in-binary', 'Referral to cardiology', {
          contentType: 'application/pdf',
          url: 'Binary/referral-file',
        }),
        type: { coding: [{ system: 'http://loinc.org', code: '57133-1' }] },
      },
      {
        resourceType: 'Binary',
        id: 'referral-file',
        contentType: 'application/pdf',
        data: pdf.toString('base64'),
      },
      documentReference('word', 'Care plan', {
        contentType: 'application/rtf',
        data: Buffer.from('{\\rtf1\\ansi Care plan}').toString('base64'),
      }),
      // Said to be a PDF; its bytes are not.
      documentReference('pretend', 'Not really a PDF', {
        contentType: 'application/pdf',
        data: Buffer.from('just some text').toString('base64'),
      }),
      documentReference('outside', 'Scan at the hospital', {
        contentType: 'application/pdf',
        url: 'https://hospital.example/files/scan.pdf',
      }),
    );
    const preview = await importInto(client, member.body.id, bundle, true);
    expect(preview.body.skipped).toEqual({ DocumentReference: 1 });

    const imported = await importInto(client, member.body.id, bundle);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.imported).toEqual({ document: 1 });
    expect(imported.body.skipped).toEqual({ DocumentReference: 3 });
    expect(imported.body.skipped_documents).toEqual([
      { title: 'Scan at the hospital', reason: EXTERNAL_FILE_REASON },
      { title: 'Care plan', reason: DOCUMENT_KIND_MESSAGE },
      { title: 'Not really a PDF', reason: DOCUMENT_KIND_MESSAGE },
    ]);
    expect(imported.body.summary).toBe(
      `Imported 1 document; skipped 3 DocumentReferences; documents not imported: 'Scan at the hospital' (${EXTERNAL_FILE_REASON}), 'Care plan' (${DOCUMENT_KIND_MESSAGE}), 'Not really a PDF' (${DOCUMENT_KIND_MESSAGE})`,
    );
    const documents = await documentsOf(client);
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({
      title: 'Referral to cardiology',
      document_type: 'Referral',
      family_member_id: member.body.id,
      mime_type: 'application/pdf',
    });
    const file = await client.getBytes(`${documents[0]!.file_url}?download`);
    expect(file.bytes.equals(pdf)).toBe(true);
    // The refused files left nothing behind: the PDF and its thumbnail only.
    expect(await documentStoreOf(server.database).list(owner)).toHaveLength(2);
  });
});

describe('documents in a FHIR import, against the storage limit', () => {
  it('are refused past the limit, with the reason, and nothing of them is kept', async () => {
    const server: TestServer = await createTestServer({ documentQuotaMb: 1 });
    try {
      const { client } = await signedUpClient(server);
      const owner = await userIdOf(client);
      // Two photos of about 750 kB: the second goes past 1 MB.
      const [first, second] = [await noisePng(), await noisePng()];
      const bundle = bundleOf(
        documentReference('first', 'First photo', {
          contentType: 'image/png',
          data: first.toString('base64'),
        }),
        documentReference('second', 'Second photo', {
          contentType: 'image/png',
          data: second.toString('base64'),
        }),
      );
      const imported = await importInto(client, owner, bundle);
      expect(imported.status, JSON.stringify(imported.body)).toBe(201);
      expect(imported.body.imported).toEqual({ document: 1 });
      expect(imported.body.skipped_documents).toEqual([
        { title: 'Second photo', reason: DOCUMENT_QUOTA_MESSAGE },
      ]);
      const documents = await documentsOf(client);
      expect(documents.map((document) => document.title)).toEqual(['First photo']);
      const kept = await documentStoreOf(server.database).list(owner);
      expect(kept).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
