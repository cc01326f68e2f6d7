/**
 * An import that names one file many times does the file's work once (decision 0049): an
 * archive's rows naming one file for one person are one document, its file prepared, kept
 * and read for search once, attached to every record the rows name; a FHIR Bundle's
 * DocumentReferences naming one Binary are one document. What an import may bring in is
 * bounded (MAX_IMPORT_DOCUMENTS, and the bytes each document counts): past it, the preview
 * and the import are refused with a message naming the bound, and nothing changes.
 */
import { DEFAULT_MEMORY_PLAN } from '../config/memory';
import { heavyJobs } from '../runtime/heavy-jobs';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Bundle } from '@medplum/fhirtypes';
import { dataExportSchema, type ImportSummary } from '../../shared/data-export';
import type { DocumentPage } from '../../shared/documents';
import type { FhirImportSummary } from '../../shared/fhir';
import type { ImportPreview } from '../../shared/import-preview';
import type { Database } from '../db/database';
import { documentDeriveThread } from '../documents/document-derive-thread';
import { documentStoreOf } from '../documents/document-files';
import type { DocumentIntake } from '../documents/document-intake';
import { createDocumentRecords } from '../documents/document-records';
import { createDocumentRepository } from '../documents/document-repository';
import { keptSamplePdf, samplePdf } from '../documents/fixtures/sample-files';
import { sampleRecord } from '../test/factories';
import {
  createTestDatabase,
  insertTestUser,
  signedUpClient,
  useTestServer,
  type TestClient,
} from '../test/harness';
import { uploadDocument } from '../test/documents';
import { repeatingArchive } from '../test/export-files';
import { importUserData } from './import-user-data';
import { openArchive } from './import-archive';
import {
  IMPORT_DOCUMENT_BUDGET_BYTES,
  MAX_IMPORT_DOCUMENTS,
  tooManyDocumentsMessage,
  tooMuchDocumentWorkMessage,
} from './import-document-limits';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const MB = 1024 * 1024;

/** Rows of the account's: documents, their attachments, their text jobs. */
async function countOf(
  database: Database,
  table: 'documents' | 'document_records' | 'document_texts' | 'visits',
  userId: string,
) {
  const row = await database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("an archive's rows naming one file", () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'kin-import-repeats-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('prepare it once: one document on all ten records, its file kept and its text queued once', async () => {
    const { database, drop } = await createTestDatabase();
    const derive = documentDeriveThread(DEFAULT_MEMORY_PLAN);
    try {
      await insertTestUser(database, { id: 'u1', name: 'Ann', email: 'ann@example.com' });
      const store = documentStoreOf(database);
      const documents = createDocumentRepository(
        database.db,
        store,
        createDocumentRecords(database.db),
      );
      let prepared = 0;
      const intake: DocumentIntake = {
        database,
        store,
        documents,
        heavy: heavyJobs(1),
        derive: {
          ...derive,
          derive: (job) => {
            prepared += 1;
            return derive.derive(job);
          },
        },
        quotaBytes: 2048 * MB,
      };
      const pdf = await keptSamplePdf(2);
      const file = path.join(folder, 'ten-rows.zip');
      writeFileSync(file, await repeatingArchive(pdf, 10));
      const opened = await openArchive(file);
      try {
        const data = dataExportSchema.parse(JSON.parse(opened.json));
        const summary = await importUserData(database.db, 'u1', data, 'keep', {
          files: opened.files,
          deps: { database, documents, intake },
        });
        expect(summary).toMatchObject({ records: 10, documents: 1 });
      } finally {
        opened.close();
      }
      expect(prepared).toBe(1);
      expect(await countOf(database, 'documents', 'u1')).toBe(1);
      expect(await countOf(database, 'document_records', 'u1')).toBe(10);
      expect(await countOf(database, 'document_texts', 'u1')).toBe(1);
      // The PDF and its thumbnail.
      expect(await store.list('u1')).toHaveLength(2);
      expect(await store.list('u1')).toContain(sha256(pdf));
    } finally {
      await derive.close();
      await drop();
    }
    // The documents thread started cold, and a PDF drawn, on a shared machine.
  }, 120_000);
});

describe('an import past what an import may bring in', () => {
  const server = useTestServer();

  const importArchive = (client: TestClient, archive: Uint8Array, query = '') =>
    client.sendBytes<ImportSummary & ImportPreview & { message?: string; field?: string }>(
      'POST',
      `/api/import${query}`,
      archive,
      { 'content-type': 'application/zip' },
    );

  async function expectNothingChanged(client: TestClient) {
    const userId = (await client.get<{ user: { id: string } }>('/api/auth/get-session')).body.user
      .id;
    expect(await countOf(server.database, 'visits', userId)).toBe(0);
    expect(await countOf(server.database, 'documents', userId)).toBe(0);
    expect(await documentStoreOf(server.database).list(userId)).toEqual([]);
  }

  it(`is refused past ${MAX_IMPORT_DOCUMENTS} documents, preview and import, and changes nothing`, async () => {
    const { client } = await signedUpClient(server);
    const rows = MAX_IMPORT_DOCUMENTS + 1;
    const archive = await repeatingArchive(await samplePdf(), rows, 10);
    for (const query of ['?preview=true', '']) {
      const refused = await importArchive(client, archive, query);
      expect(refused.status, JSON.stringify(refused.body)).toBe(413);
      expect(refused.body).toMatchObject({ message: tooManyDocumentsMessage(rows), field: 'file' });
    }
    expect(tooManyDocumentsMessage(rows)).toBe(
      'This file brings in 1,001 documents; an import brings in at most 1,000. Nothing was imported.',
    );
    await expectNothingChanged(client);
  }, 60_000);

  it('is refused past the bytes an import brings in, each row counted with its file', async () => {
    const { client } = await signedUpClient(server);
    // Noise does not compress: a PNG of some 2.3 MB, named by 1,000 rows: 2.3 GB to prepare.
    const side = 880;
    const png = await sharp(randomBytes(side * side * 3), {
      raw: { width: side, height: side, channels: 3 },
    })
      .png()
      .toBuffer();
    const rows = MAX_IMPORT_DOCUMENTS;
    expect(png.byteLength * rows).toBeGreaterThan(IMPORT_DOCUMENT_BUDGET_BYTES);
    const archive = await repeatingArchive(png, rows, 10);
    const message = tooMuchDocumentWorkMessage(png.byteLength * rows, IMPORT_DOCUMENT_BUDGET_BYTES);
    expect(message).toMatch(/an import brings in at most 2,048 MB of documents/);
    for (const query of ['?preview=true', '']) {
      const refused = await importArchive(client, archive, query);
      expect(refused.status, JSON.stringify(refused.body)).toBe(413);
      expect(refused.body).toMatchObject({ message, field: 'file' });
    }
    await expectNothingChanged(client);
  }, 60_000);
});

describe('a FHIR Bundle whose DocumentReferences name one Binary', () => {
  const server = useTestServer();

  const importInto = (client: TestClient, personId: string, bundle: unknown, preview = false) =>
    client.request<FhirImportSummary & ImportPreview & { message?: string }>(
      'POST',
      `/api/import?person=${personId}${preview ? '&preview=true' : ''}`,
      bundle,
    );

  /** `references` DocumentReferences naming one Binary, each related to a condition of its own. */
  function bundleOf(pdf: Buffer, references: number, conditions = references): Bundle {
    const condition = (index: number) => ({
      fullUrl: `urn:uuid:condition-${index}`,
      resource: {
        resourceType: 'Condition',
        id: `condition-${index}`,
        code: { text: `Condition ${index + 1}` },
        subject: { reference: 'Patient/p' },
      },
    });
    const reference = (index: number) => ({
      fullUrl: `urn:uuid:reference-${index}`,
      resource: {
        resourceType: 'DocumentReference',
        id: `reference-${index}`,
        status: 'current',
        description: `Referral ${index + 1}`,
        content: [{ attachment: { contentType: 'application/pdf', url: 'Binary/the-file' } }],
        context: { related: [{ reference: `urn:uuid:condition-${index % conditions}` }] },
      },
    });
    return {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        ...Array.from({ length: conditions }, (_, index) => condition(index)),
        ...Array.from({ length: references }, (_, index) => reference(index)),
        {
          fullUrl: 'urn:uuid:the-file',
          resource: {
            resourceType: 'Binary',
            id: 'the-file',
            contentType: 'application/pdf',
            data: pdf.toString('base64'),
          },
        },
      ],
    } as Bundle;
  }

  it('make one document, attached to the five records they name; again, nothing new', async () => {
    const { client } = await signedUpClient(server);
    const me = await client.get<{ user: { id: string } }>('/api/auth/get-session');
    const userId = me.body.user.id;
    const pdf = await samplePdf(2);
    const bundle = bundleOf(pdf, 5);

    const preview = await importInto(client, userId, bundle, true);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.counts.document).toEqual({ new: 1, already_here: 0, changed: 0 });

    const imported = await importInto(client, userId, bundle);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.imported).toEqual({ condition: 5, document: 1 });
    const page = await client.get<DocumentPage>('/api/documents?limit=100');
    expect(page.body.total).toBe(1);
    const [document] = page.body.documents;
    expect(document).toMatchObject({ title: 'Referral 1', mime_type: 'application/pdf' });
    const conditions = await client.get<{ items: { id: string }[] }>('/api/history');
    expect(document!.records.map((record) => record.record_id).sort()).toEqual(
      conditions.body.items.map((item) => item.id).sort(),
    );
    expect(document!.records).toHaveLength(5);
    expect(await countOf(server.database, 'document_texts', userId)).toBe(1);
    expect(await documentStoreOf(server.database).list(userId)).toHaveLength(2);

    const again = await importInto(client, userId, bundle);
    expect(again.status).toBe(201);
    expect(again.body.imported).toEqual({});
    expect(await countOf(server.database, 'documents', userId)).toBe(1);
  }, 60_000);

  it(`are refused past ${MAX_IMPORT_DOCUMENTS}, preview and import, and nothing is stored`, async () => {
    const { client } = await signedUpClient(server);
    const me = await client.get<{ user: { id: string } }>('/api/auth/get-session');
    const userId = me.body.user.id;
    const references = MAX_IMPORT_DOCUMENTS + 1;
    // Large enough a file to be read on the import's own thread.
    const bundle = bundleOf(await samplePdf(), references, 3);
    for (const preview of [true, false]) {
      const refused = await importInto(client, userId, bundle, preview);
      expect(refused.status, JSON.stringify(refused.body)).toBe(413);
      expect(refused.body.message).toBe(tooManyDocumentsMessage(references));
    }
    expect(await countOf(server.database, 'documents', userId)).toBe(0);
    expect((await client.get<{ items: unknown[] }>('/api/history')).body.items).toHaveLength(0);
  }, 60_000);

  it('already here by another reference keeps its attachments: the new record is attached', async () => {
    const { client } = await signedUpClient(server);
    const me = await client.get<{ user: { id: string } }>('/api/auth/get-session');
    const userId = me.body.user.id;
    const pdf = await samplePdf(2);
    expect((await importInto(client, userId, bundleOf(pdf, 1))).status).toBe(201);
    // The same file, now named by a second reference related to a second condition.
    const grown = await importInto(client, userId, bundleOf(pdf, 2));
    expect(grown.status, JSON.stringify(grown.body)).toBe(201);
    expect(grown.body.imported).toEqual({ condition: 1 });
    const page = await client.get<DocumentPage>('/api/documents?limit=100');
    expect(page.body.total).toBe(1);
    expect(page.body.documents[0]!.records).toHaveLength(2);
  }, 60_000);
});

describe('an archive brought back after a record was deleted', () => {
  const server = useTestServer();

  it('attaches the document already here to the record that comes back', async () => {
    const { client } = await signedUpClient(server);
    const visit = await client.post<{ id: string }>('/api/visits', sampleRecord('visit'));
    const uploaded = await uploadDocument(client, await samplePdf(), {
      record_type: 'visits',
      record_id: visit.body.id,
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const exported = await client.getBytes('/api/export');
    expect((await client.delete(`/api/visits/${visit.body.id}`)).status).toBe(204);

    const imported = await client.sendBytes<ImportSummary>('POST', '/api/import', exported.bytes, {
      'content-type': 'application/zip',
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toMatchObject({ records: 1, documents: 0 });
    const page = await client.get<DocumentPage>('/api/documents');
    expect(page.body.total).toBe(1);
    const visits = await client.get<{ items: { id: string }[] }>('/api/visits');
    expect(page.body.documents[0]!.records.map((record) => record.record_id)).toEqual([
      visits.body.items[0]!.id,
    ]);
  }, 60_000);
});
