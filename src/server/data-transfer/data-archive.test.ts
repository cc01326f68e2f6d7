/**
 * 'Download my data' of an account with documents is a zip archive (the export's JSON and
 * the documents' files), and 'Import from a file' takes it back: the same documents, their
 * person and record, the same bytes; nothing twice; a tampered or oversized archive, or one
 * past the quota, refused with nothing stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import {
  ARCHIVE_JSON_NAME,
  archiveFileName,
  type DataExport,
  type ImportSummary,
} from '../../shared/data-export';
import { DOCUMENT_QUOTA_MESSAGE, type DocumentPage } from '../../shared/documents';
import type { ImportPreview } from '../../shared/import-preview';
import { documentStoreOf } from '../documents/document-files';
import { keptSamplePdf } from '../documents/fixtures/sample-files';
import { sampleRecord } from '../test/factories';
import {
  createTestServer,
  signedUpClient,
  documentCopiesUnmade,
  useTestServer,
  type TestClient,
  type TestServer,
} from '../test/harness';
import { sampleHeic, uploadDocument } from '../test/documents';
import { zipArchive } from './export-archive';

const HEIC = sampleHeic();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const ownerOf = async (client: TestClient) =>
  (await client.get<{ user: { id: string } }>('/api/auth/get-session')).body.user.id;

/** The names and bytes of an archive's entries. */
async function entriesOf(archive: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(archive, { lazyEntries: true });
  const entries = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    entries.set(entry.fileName, await buffer(await zip.openReadStreamPromise(entry)));
  }
  return entries;
}

/** A zip of the entries given, written by the same library as the export. */
async function zipOf(entries: { name: string; data: Buffer | string }[]): Promise<Buffer> {
  const archive = zipArchive();
  for (const { name, data } of entries) archive.append(data, { name });
  const done = buffer(archive);
  await archive.finalize();
  return done;
}

function importArchive(client: TestClient, archive: Uint8Array, query = '') {
  return client.sendBytes<ImportSummary & { message?: string; field?: string }>(
    'POST',
    `/api/import${query}`,
    archive,
    { 'content-type': 'application/zip' },
  );
}

async function documentsOf(client: TestClient) {
  return (await client.get<DocumentPage>('/api/documents?limit=100')).body.documents;
}

/** A source account: Leo with a visit and a PDF attached to it, and the holder's HEIC photo. */
async function sourceWithDocuments(server: TestServer) {
  const { client } = await signedUpClient(server, 'Archive Source');
  const leo = await client.post<{ id: string }>('/api/family-members', { name: 'Leo' });
  const visit = await client.post<{ id: string }>(
    '/api/visits',
    sampleRecord('visit', { family_member_id: leo.body.id }),
  );
  expect(visit.status).toBe(201);
  const pdf = await keptSamplePdf();
  const letter = await uploadDocument(client, pdf, {
    title: 'Discharge letter',
    document_type: 'Letter',
    document_date: '2026-10-02',
    family_member_id: leo.body.id,
    file_name: 'discharge.pdf',
    record_type: 'visits',
    record_id: visit.body.id,
  });
  expect(letter.status, JSON.stringify(letter.body)).toBe(201);
  // The same letter on Leo's policy too: one document, two records.
  const policy = await client.post<{ id: string }>('/api/insurance', {
    provider_name: 'Acme Health',
    family_member_id: leo.body.id,
  });
  expect(policy.status).toBe(201);
  const attached = await client.post(`/api/documents/${letter.body.id}/records`, {
    record_type: 'insurance',
    record_id: policy.body.id,
  });
  expect(attached.status, JSON.stringify(attached.body)).toBe(200);
  const photo = await uploadDocument(client, HEIC, {
    title: 'Rash photo',
    document_type: 'Imaging',
    file_name: 'rash.heic',
  });
  expect(photo.status, JSON.stringify(photo.body)).toBe(201);
  return { client, pdf };
}

async function exportArchiveOf(client: TestClient) {
  const exported = await client.getBytes('/api/export');
  expect(exported.status).toBe(200);
  return exported;
}

describe('the export archive', () => {
  const unmade = documentCopiesUnmade();
  const server = useTestServer({ logs: unmade });

  it('round-trips a PDF and a HEIC photo into a fresh account: same fields, person, record and bytes; again adds nothing', async () => {
    const { client: source, pdf } = await sourceWithDocuments(server);
    const exported = await exportArchiveOf(source);
    expect(exported.headers.get('content-type')).toBe('application/zip');
    expect(exported.headers.get('content-disposition')).toMatch(
      /attachment; filename="kin-health-export-\d{4}-\d{2}-\d{2}\.zip"/,
    );
    const entries = await entriesOf(exported.bytes);
    const data = JSON.parse(entries.get(ARCHIVE_JSON_NAME)!.toString('utf8')) as DataExport;
    expect(data.documents).toHaveLength(2);
    expect([...entries.keys()].sort()).toEqual(
      [ARCHIVE_JSON_NAME, ...data.documents.map(archiveFileName)].sort(),
    );
    for (const document of data.documents) {
      expect(sha256(entries.get(archiveFileName(document))!)).toBe(document.sha256);
    }
    expect(data.documents.map((d) => d.sha256)).toContain(sha256(pdf));
    // The HEIC kept is the upload with its Exif and XMP emptied (its own hash, checked above).
    expect(data.documents.map((d) => d.mime_type)).toContain('image/heic');
    const letter = data.documents.find((d) => d.title === 'Discharge letter')!;
    expect(letter.records?.map((r) => r.record_type).sort()).toEqual(['insurance', 'visits']);
    // What a server that knew one record only reads: the first of them.
    expect(letter.records?.[0]).toEqual({
      record_type: letter.record_type,
      record_id: letter.record_id,
    });

    const { client: target } = await signedUpClient(server, 'Archive Target');
    const preview = await target.sendBytes<ImportPreview>(
      'POST',
      '/api/import?preview=true',
      exported.bytes,
    );
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.counts.document).toEqual({ new: 2, already_here: 0, changed: 0 });
    expect(await documentsOf(target)).toHaveLength(0);

    const imported = await importArchive(target, exported.bytes);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toMatchObject({ family_members: 1, records: 2, documents: 2 });

    const mine = await documentsOf(target);
    const theirs = await documentsOf(source);
    const visits = await target.get<{ items: { id: string; family_member_id: string }[] }>(
      '/api/visits',
    );
    const visit = visits.body.items[0]!;
    const policies = await target.get<{ items: { id: string }[] }>('/api/insurance');
    const policy = policies.body.items[0]!;
    for (const original of theirs) {
      const copy = mine.find((document) => document.title === original.title)!;
      expect(copy).toMatchObject({
        document_type: original.document_type,
        document_date: original.document_date,
        file_name: original.file_name,
        mime_type: original.mime_type,
        size_bytes: original.size_bytes,
        person_name: original.person_name,
      });
      expect(copy.thumbnail_url, unmade.said()).not.toBeNull();
      const bytes = await target.getBytes(`${copy.file_url}?download`);
      const sourceBytes = await source.getBytes(`${original.file_url}?download`);
      expect(sha256(bytes.bytes)).toBe(sha256(sourceBytes.bytes));
      if (original.records.length > 0) {
        expect(copy.records.map((r) => [r.record_type, r.record_id])).toEqual([
          ['visits', visit.id],
          ['insurance', policy.id],
        ]);
        expect(copy.family_member_id).toBe(visit.family_member_id);
      } else expect(copy.records).toEqual([]);
    }
    const heic = mine.find((document) => document.mime_type === 'image/heic')!;
    const shown = await target.getBytes(heic.view_url);
    expect(shown.headers.get('content-type')).toBe('image/jpeg');

    // The same archive again: nothing new, not a row nor a file.
    const owner = await ownerOf(target);
    const files = (await documentStoreOf(server.database).list(owner)).sort();
    const again = await importArchive(target, exported.bytes);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ family_members: 0, records: 0, documents: 0 });
    expect(await documentsOf(target)).toHaveLength(2);
    expect((await documentStoreOf(server.database).list(owner)).sort()).toEqual(files);
    const previewAgain = await target.sendBytes<ImportPreview>(
      'POST',
      '/api/import?preview=true',
      exported.bytes,
    );
    expect(previewAgain.body.counts.document).toEqual({ new: 0, already_here: 2, changed: 0 });
    // Four uploads' and imports' worth of PDF drawing and HEIC decoding, the thread started cold.
  }, 120_000);

  it('is JSON, as before, for an account without documents, and that JSON still imports', async () => {
    const { client: source } = await signedUpClient(server);
    await source.post('/api/family-members', { name: 'Ana' });
    const exported = await source.get<DataExport>('/api/export');
    expect(exported.headers.get('content-disposition')).toMatch(/\.json"$/);
    expect(exported.body.documents).toEqual([]);
    const { client: target } = await signedUpClient(server);
    const imported = await target.post('/api/import', exported.body);
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ family_members: 1, documents: 0 });
  });

  it('imports an archive written when a document had one record at most, attached to that record', async () => {
    const { client: source } = await sourceWithDocuments(server);
    const entries = await entriesOf((await exportArchiveOf(source)).bytes);
    const data = JSON.parse(entries.get(ARCHIVE_JSON_NAME)!.toString('utf8')) as DataExport;
    for (const document of data.documents) delete document.records;
    const older = await zipOf([
      { name: ARCHIVE_JSON_NAME, data: JSON.stringify(data) },
      ...data.documents.map((document) => ({
        name: archiveFileName(document),
        data: entries.get(archiveFileName(document))!,
      })),
    ]);
    const { client: target } = await signedUpClient(server);
    const imported = await importArchive(target, older);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const letter = (await documentsOf(target)).find((d) => d.title === 'Discharge letter')!;
    const visits = await target.get<{ items: { id: string }[] }>('/api/visits');
    expect(letter.records.map((r) => [r.record_type, r.record_id])).toEqual([
      ['visits', visits.body.items[0]!.id],
    ]);
  }, 60_000);

  it("refuses the archive's JSON alone when it holds new documents: their files are in the archive", async () => {
    const { client: source } = await sourceWithDocuments(server);
    const entries = await entriesOf((await exportArchiveOf(source)).bytes);
    const { client: target } = await signedUpClient(server);
    const refused = await target.request<{ message: string }>(
      'POST',
      '/api/import',
      entries.get(ARCHIVE_JSON_NAME)!.toString('utf8'),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/\.zip archive/);
    expect(await target.get<{ items: unknown[] }>('/api/visits')).toMatchObject({
      body: { items: [] },
    });
  });

  describe('a tampered archive is refused, and nothing of it is stored', () => {
    async function expectNothingStored(target: TestClient) {
      expect(await documentsOf(target)).toHaveLength(0);
      expect((await target.get<{ items: unknown[] }>('/api/visits')).body.items).toHaveLength(0);
      expect(await documentStoreOf(server.database).list(await ownerOf(target))).toEqual([]);
    }

    it('a file whose bytes do not match its hash', async () => {
      const { client: source } = await sourceWithDocuments(server);
      const entries = await entriesOf((await exportArchiveOf(source)).bytes);
      const data = JSON.parse(entries.get(ARCHIVE_JSON_NAME)!.toString('utf8')) as DataExport;
      const heic = data.documents.find((d) => d.mime_type === 'image/heic')!;
      // The PDF is right; the photo's place holds another photo.
      const other = await sharp({
        create: { width: 8, height: 8, channels: 3, background: '#ff0000' },
      })
        .png()
        .toBuffer();
      const tampered = await zipOf(
        [...entries].map(([name, bytes]) => ({
          name,
          data: name === archiveFileName(heic) ? other : bytes,
        })),
      );
      const { client: target } = await signedUpClient(server);
      const refused = await importArchive(target, tampered);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/Document \d: its file in the archive does not match/);
      await expectNothingStored(target);
    });

    it('a name that leads outside the archive', async () => {
      const { client: source } = await sourceWithDocuments(server);
      const entries = await entriesOf((await exportArchiveOf(source)).bytes);
      // archiver cleans names: the name is put in afterwards, in the local and central headers.
      const written = await zipOf([
        ...[...entries].map(([name, data]) => ({ name, data })),
        { name: 'ab/evil.txt', data: 'x' },
      ]);
      const evil = Buffer.from(
        written.toString('latin1').replaceAll('ab/evil.txt', '../evil.txt'),
        'latin1',
      );
      const { client: target } = await signedUpClient(server);
      const refused = await importArchive(target, evil);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/name leads outside it \(\.\.\/evil\.txt\)/);
      await expectNothingStored(target);
    });

    it('an entry larger than a document may be (a zip bomb), before it is inflated', async () => {
      const { client: source } = await sourceWithDocuments(server);
      const entries = await entriesOf((await exportArchiveOf(source)).bytes);
      const data = JSON.parse(entries.get(ARCHIVE_JSON_NAME)!.toString('utf8')) as DataExport;
      const pdf = data.documents.find((d) => d.mime_type === 'application/pdf')!;
      const bomb = await zipOf(
        [...entries].map(([name, bytes]) => ({
          name,
          // 26 MB of zeros, deflated to some kB.
          data: name === archiveFileName(pdf) ? Buffer.alloc(26 * 1024 * 1024) : bytes,
        })),
      );
      expect(bomb.byteLength).toBeLessThan(1024 * 1024);
      const { client: target } = await signedUpClient(server);
      const refused = await importArchive(target, bomb);
      expect(refused.status).toBe(413);
      expect(refused.body.message).toMatch(/is larger than 25 MB/);
      await expectNothingStored(target);
    });

    it('an archive with no kin-health.json, or not a zip at all past its first bytes', async () => {
      const { client: target } = await signedUpClient(server);
      const empty = await importArchive(target, await zipOf([{ name: 'notes.txt', data: 'hi' }]));
      expect(empty.status).toBe(400);
      // A zip of neither the product's export nor Apple Health's is no kind it imports.
      expect(empty.body.message).toBe('This file is not a kind Kin Health can import');
      const broken = await importArchive(target, Buffer.from('PK\x03\x04 and then nothing'));
      expect(broken.status).toBe(400);
      expect(broken.body.message).toMatch(/The archive cannot be read/);
      await expectNothingStored(target);
    });
  });
});

describe('an archive past the storage limit', () => {
  it('is refused before anything is stored', async () => {
    const source = await createTestServer();
    const small = await createTestServer({ documentQuotaMb: 1 });
    try {
      const { client } = await signedUpClient(source);
      // Noise does not compress: a PNG of some 1.4 MB.
      const noise = randomBytes(700 * 700 * 3);
      const png = await sharp(noise, { raw: { width: 700, height: 700, channels: 3 } })
        .png()
        .toBuffer();
      const uploaded = await uploadDocument(client, png, { title: 'Scan', document_type: 'Other' });
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
      expect(uploaded.body.size_bytes).toBeGreaterThan(1024 * 1024);
      await client.post('/api/family-members', { name: 'Mia' });
      const exported = await client.getBytes('/api/export');

      const { client: target } = await signedUpClient(small);
      const refused = await importArchive(target, exported.bytes);
      expect(refused.status).toBe(413);
      expect(refused.body.message).toBe(DOCUMENT_QUOTA_MESSAGE);
      expect((await target.get<DocumentPage>('/api/documents')).body.total).toBe(0);
      expect((await target.get<unknown[]>('/api/family-members')).body as unknown[]).toHaveLength(
        0,
      );
      expect(await documentStoreOf(small.database).list(await ownerOf(target))).toEqual([]);
    } finally {
      await source.close();
      await small.close();
    }
    // Two servers started, and a 1.4 MB photo cleaned and drawn.
  }, 60_000);
});

// The archive's files are read as streams: a reader that is never read opens nothing.
it('opens a document file only when the archive reaches it', async () => {
  let opened = 0;
  const store = {
    read: () => {
      opened += 1;
      return Readable.from([Buffer.from('%PDF-')]);
    },
  };
  const { exportArchive } = await import('./export-archive');
  async function* documents() {
    yield { sha256: 'a'.repeat(64), mime_type: 'application/pdf' };
    yield { sha256: 'b'.repeat(64), mime_type: 'application/pdf' };
  }
  async function* json() {
    yield '{}';
  }
  const stream = exportArchive(
    json(),
    documents(),
    store as never,
    'owner',
    new Date().toISOString(),
  );
  expect(opened).toBe(0);
  const bytes = Buffer.from(await new Response(stream).arrayBuffer());
  expect(opened).toBe(2);
  expect([...(await entriesOf(bytes)).keys()]).toHaveLength(3);
});
