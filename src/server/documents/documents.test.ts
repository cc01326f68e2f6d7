/**
 * Documents through the API, on the engine under test: upload typed by bytes, refusals that
 * leave nothing behind, photos stripped of their metadata, HEIC converted for display,
 * thumbnails, downloads (ranges, headers), quota, household grants and every way a
 * document's files go.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import exifr from 'exifr';
import { PDFDocument as PDFLibDocument, PDFName, PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_EMPTY_MESSAGE,
  DOCUMENT_KIND_MESSAGE,
  DOCUMENT_QUOTA_MESSAGE,
  DOCUMENT_TOO_LARGE_MESSAGE,
  type DocumentPage,
  type StoredDocument,
} from '../../shared/documents';
import {
  createTestServer,
  signedUpClient,
  useTestServer,
  type TestClient,
  type TestServer,
} from '../test/harness';
import { sampleHeic, uploadDocument } from '../test/documents';
import { heicPixels } from './processors/image';
import { documentStoreOf, openDocumentFile } from './document-files';
import { createDocumentRecords } from './document-records';
import { createDocumentRepository } from './document-repository';
import { gpsHeic, gpsPhoto, pdfBytes, samplePdf, scannerPdf } from './fixtures/sample-files';
import { shareAndAccept as share } from '../test/grant-acceptance';
import { pdfText } from '../test/pdf-text';

const makePdf = samplePdf;
const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** A photo taken sideways (orientation 6) at a GPS position. */
const makeGpsPhoto = () => gpsPhoto({ orientation: 6 });

/** The JPEG pictures of a PDF: its DCTDecode streams, as they are in the file. */
async function jpegsIn(pdf: Uint8Array): Promise<Uint8Array[]> {
  const { context } = await PDFLibDocument.load(pdf, { updateMetadata: false });
  return context
    .enumerateIndirectObjects()
    .flatMap(([, object]) =>
      object instanceof PDFRawStream &&
      object.dict.get(PDFName.of('Filter')) === PDFName.of('DCTDecode')
        ? [object.contents]
        : [],
    );
}

async function filesOf(server: TestServer, owner: string) {
  return documentStoreOf(server.database).list(owner);
}

async function ownerOf(client: TestClient): Promise<string> {
  const me = await client.get<{ user: { id: string } }>('/api/auth/get-session');
  return me.body.user.id;
}

describe('documents', () => {
  const server = useTestServer();

  it('upload a PDF, list it with its thumbnail, show and download it, and delete it with its files', async () => {
    const { client } = await signedUpClient(server);
    const owner = await ownerOf(client);
    // With a picture in it: pdf.js draws it with a canvas module of its own (pdf-pages.ts).
    const logo = await sharp({
      create: { width: 120, height: 60, channels: 3, background: '#c33' },
    })
      .png()
      .toBuffer();
    const pdf = await makePdf(3, logo);
    const created = await uploadDocument(client, pdf, {
      title: 'Discharge letter',
      document_type: 'Letter',
      document_date: '2026-03-04',
      file_name: 'discharge.pdf',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Discharge letter',
      mime_type: 'application/pdf',
      document_date: '2026-03-04',
    });
    expect(created.body.thumbnail_url).toMatch(/\/thumbnail\/[0-9a-f]{64}$/);

    const list = await client.get<DocumentPage>('/api/documents');
    expect(list.body.total).toBe(1);
    expect(list.body.documents[0]?.id).toBe(created.body.id);

    const thumbnail = await client.getBytes(created.body.thumbnail_url as string);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    // Content-addressed (its hash in its address): kept by the browser for a year.
    expect(thumbnail.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const meta = await sharp(thumbnail.bytes).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(320);

    const file = await client.getBytes(`${created.body.file_url}?download`);
    expect(file.status).toBe(200);
    // Kept without pdfkit's information dictionary: the same pages, the same text.
    const kept = file.bytes;
    expect(created.body.size_bytes).toBe(kept.length);
    expect(pdf.includes('PDFKit')).toBe(true);
    expect(kept.includes('PDFKit')).toBe(false);
    expect(await pdfText(kept)).toBe(await pdfText(pdf));
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(
      /^attachment; filename="discharge.pdf"/,
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    expect(file.headers.get('cache-control')).toBe('no-store');

    const range = await client.getBytes(created.body.file_url, { range: 'bytes=10-19' });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 10-19/${kept.length}`);
    expect(range.bytes.equals(kept.subarray(10, 20))).toBe(true);
    const tail = await client.getBytes(created.body.file_url, { range: 'bytes=-5' });
    expect(tail.bytes.equals(kept.subarray(kept.length - 5))).toBe(true);
    const beyond = await client.getBytes(created.body.file_url, {
      range: `bytes=${kept.length}-`,
    });
    expect(beyond.status).toBe(416);

    const read = await openDocumentFile(server.database, created.body.id);
    expect(read?.mimeType).toBe('application/pdf');
    expect(Buffer.concat(await read!.bytes.toArray()).equals(kept)).toBe(true);

    expect((await filesOf(server, owner)).length).toBe(2);
    expect((await client.delete(`/api/documents/${created.body.id}`)).status).toBe(204);
    expect((await client.get(`/api/documents/${created.body.id}`)).status).toBe(404);
    expect(await filesOf(server, owner)).toEqual([]);
  });

  it('type a file by its bytes: a program named report.pdf, a 26 MB file and an empty one are refused, nothing stored', async () => {
    const { client } = await signedUpClient(server);
    const owner = await ownerOf(client);
    // A Windows program's first bytes ("MZ", then the DOS stub).
    const exe = Buffer.alloc(4096);
    exe.write('MZ\x90\x00\x03\x00\x00\x00\x04\x00', 0, 'latin1');
    exe.write('This program cannot be run in DOS mode.', 78, 'latin1');
    const program = await uploadDocument(client, exe, { file_name: 'report.pdf' });
    expect(program.status).toBe(415);
    expect(program.body.message).toBe(DOCUMENT_KIND_MESSAGE);

    const big = Buffer.alloc(26 * 1024 * 1024, 1);
    const declared = await uploadDocument(client, big);
    expect(declared.status).toBe(413);
    expect(declared.body.message).toBe(DOCUMENT_TOO_LARGE_MESSAGE);
    // The same without a declared length: counted as it streams.
    const streamed = await client.sendBytes<{ message: string }>(
      'POST',
      '/api/documents?title=Big&document_type=Other',
      big,
      { 'content-length': '' },
    );
    expect(streamed.status).toBe(413);
    expect(streamed.body.message).toBe(DOCUMENT_TOO_LARGE_MESSAGE);

    const empty = await uploadDocument(client, new Uint8Array());
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe(DOCUMENT_EMPTY_MESSAGE);

    const untitled = await client.sendBytes<{ message: string; field: string }>(
      'POST',
      '/api/documents?document_type=Letter',
      await makePdf(),
    );
    expect(untitled.status).toBe(400);
    expect(untitled.body.field).toBe('title');

    expect((await client.get<DocumentPage>('/api/documents')).body.total).toBe(0);
    expect(await filesOf(server, owner)).toEqual([]);
  });

  it('strip a photo of its GPS position and device, turned upright', async () => {
    const { client } = await signedUpClient(server);
    const photo = await makeGpsPhoto();
    expect((await exifr.gps(photo!))?.latitude).toBeCloseTo(48.85, 1);
    const created = await uploadDocument(client, photo, { document_type: 'Insurance Card' });
    expect(created.status).toBe(201);
    expect(created.body.mime_type).toBe('image/jpeg');
    const file = await client.getBytes(`${created.body.file_url}?download`);
    expect(await exifr.gps(file.bytes)).toBeUndefined();
    expect(await exifr.parse(file.bytes, { tiff: true, gps: true })).toBeUndefined();
    const meta = await sharp(file.bytes).metadata();
    // Turned upright: the sideways 64×32 is 32×64.
    expect([meta.width, meta.height]).toEqual([32, 64]);
    // On disk (the embedded default), the kept photo is readable by the server's user alone.
    const { file: databaseFile } = server.database;
    if (server.database.engine === 'sqlite' && databaseFile) {
      const folder = path.join(path.dirname(databaseFile), 'documents', await ownerOf(client));
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      const kept = readdirSync(folder);
      expect(kept.length).toBeGreaterThan(0);
      for (const name of kept) expect(statSync(path.join(folder, name)).mode & 0o777).toBe(0o600);
    }
  });

  it("keep a scanner's PDF without its author, its XMP and its photo's GPS position and camera, in the download, the view and a share link's bundle", async () => {
    const { client } = await signedUpClient(server);
    const owner = await ownerOf(client);
    const scan = await scannerPdf();
    // What the file carries as uploaded: the author (information dictionary and XMP), the
    // scanner app, the photo's EXIF with its camera and position.
    const traces = ['Jane Doe', 'Acme Scanner', 'x:xmpmeta', 'Exif', 'Acme', 'Phone 12'];
    for (const trace of traces) expect(scan.includes(trace), trace).toBe(true);
    expect((await PDFLibDocument.load(scan)).getAuthor()).toBe('Jane Doe');
    const [photo] = await jpegsIn(scan);
    expect(photo).toBeDefined();
    expect((await exifr.gps(photo!))?.latitude).toBeCloseTo(48.85, 1);

    const created = await uploadDocument(client, scan, { file_name: 'blood-test.pdf' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.thumbnail_url).not.toBeNull();
    const download = await client.getBytes(`${created.body.file_url}?download`);
    const view = await client.getBytes(created.body.view_url);
    const bundle = await client.get<{
      entry: { resource: { content?: { attachment: { data: string } }[] } }[];
    }>(`/api/fhir/Patient/${owner}/$everything?types=allergy&documents=${created.body.id}`);
    const shared = Buffer.from(
      bundle.body.entry.find((entry) => entry.resource.content)?.resource.content?.[0]?.attachment
        .data ?? '',
      'base64',
    );
    expect(view.bytes.equals(download.bytes)).toBe(true);
    expect(shared.equals(download.bytes)).toBe(true);

    const kept = download.bytes;
    for (const trace of traces) expect(kept.includes(trace), trace).toBe(false);
    const document = await PDFLibDocument.load(kept, { updateMetadata: false });
    expect(document.getAuthor()).toBeUndefined();
    expect(document.catalog.has(PDFName.of('Metadata'))).toBe(false);
    // The same pages, the same text, the same photo (its pixels: the JPEG's own data).
    expect(document.getPageCount()).toBe(2);
    expect(await pdfText(kept)).toBe(await pdfText(scan));
    const [keptPhoto] = await jpegsIn(kept);
    expect(await exifr.parse(keptPhoto!, { tiff: true, gps: true, xmp: true })).toBeUndefined();
    const pixels = async (jpeg: Uint8Array) => sharp(jpeg).raw().toBuffer();
    expect((await pixels(keptPhoto!)).equals(await pixels(photo!))).toBe(true);
  });

  it('convert a HEIC photo to JPEG for display and keep the original for download, without its metadata', async () => {
    const { client } = await signedUpClient(server);
    const heic = await gpsHeic();
    expect((await exifr.gps(heic))?.latitude).toBeCloseTo(48.85, 1);
    expect(await exifr.parse(heic, { tiff: true })).toMatchObject({
      Make: 'Acme',
      Model: 'Phone 12',
    });
    expect(heic.includes('GIMP')).toBe(true);
    const created = await uploadDocument(client, heic, { file_name: 'IMG_0001.HEIC' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.mime_type).toBe('image/heic');
    const view = await client.getBytes(created.body.view_url);
    expect(view.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(view.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 451, 461]);
    const original = await client.getBytes(`${created.body.file_url}?download`);
    expect(original.headers.get('content-type')).toBe('image/heic');
    // No GPS position, no device, no XMP (GIMP's) left; the same photo, the same length.
    expect(await exifr.gps(original.bytes)).toBeUndefined();
    expect(await exifr.parse(original.bytes, { tiff: true, gps: true, xmp: true })).toBeUndefined();
    for (const word of ['Acme', 'Phone 12', 'GIMP'])
      expect(original.bytes.includes(word)).toBe(false);
    expect(original.bytes.length).toBe(heic.length);
    const [before, after] = [await heicPixels(heic), await heicPixels(original.bytes)];
    expect([after.width, after.height]).toEqual([451, 461]);
    expect(Buffer.from(after.data).equals(Buffer.from(before.data))).toBe(true);
    expect((await client.getBytes(created.body.thumbnail_url as string)).status).toBe(200);
  });

  it('name a download by the type its bytes are, without invisible characters', async () => {
    const { client } = await signedUpClient(server);
    // A PDF that is also a web page: stored as the PDF its bytes are, named report.html.
    const polyglot = Buffer.concat([
      await makePdf(),
      Buffer.from('<html><script>alert(document.domain)</script></html>'),
    ]);
    const report = await uploadDocument(client, polyglot, { file_name: 'report.html' });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    expect(report.body.mime_type).toBe('application/pdf');
    const download = await client.getBytes(`${report.body.file_url}?download`);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="report.html.pdf"; filename*=UTF-8''report.html.pdf`,
    );
    const view = await client.getBytes(report.body.view_url);
    expect(view.headers.get('content-disposition')).toMatch(/^inline; filename="report.html.pdf"/);

    // U+202E shows 'invoice‮fdp.exe' as 'invoiceexe.pdf': the name is kept without it.
    const spoofed = await uploadDocument(client, await makePdf(), {
      file_name: 'invoice\u202efdp.exe',
    });
    expect(spoofed.body.file_name).toBe('invoicefdp.exe');
    const saved = await client.getBytes(`${spoofed.body.file_url}?download`);
    expect(saved.headers.get('content-disposition')).toBe(
      `attachment; filename="invoicefdp.exe.pdf"; filename*=UTF-8''invoicefdp.exe.pdf`,
    );
    // A name stored before (by an import of an older archive) loses them as it is sent.
    await server.db
      .updateTable('documents')
      .set({ file_name: 'scan\u2066\u202e\u200bgpj.pdf' })
      .where('id', '=', spoofed.body.id)
      .execute();
    const older = await client.getBytes(`${spoofed.body.file_url}?download`);
    expect(older.headers.get('content-disposition')).toBe(
      `attachment; filename="scangpj.pdf"; filename*=UTF-8''scangpj.pdf`,
    );
    // A HEIC photo's JPEG for display, its thumbnail: each named by its own type.
    const photo = await uploadDocument(client, sampleHeic(), {
      title: 'Rash\u202e',
      file_name: 'IMG_0001.HEIC',
    });
    const display = await client.getBytes(photo.body.view_url);
    expect(display.headers.get('content-disposition')).toMatch(/^inline; filename="IMG_0001.jpg"/);
    const thumbnail = await client.getBytes(photo.body.thumbnail_url as string);
    expect(thumbnail.headers.get('content-disposition')).toMatch(/^inline; filename="Rash.webp"/);
  });

  it('attach a document to a record, and detach it when the record is deleted', async () => {
    const { client } = await signedUpClient(server);
    const policy = await client.post<{ id: string }>('/api/insurance', {
      provider_name: 'Acme Health',
      policy_type: 'Medical',
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const created = await uploadDocument(client, await makeGpsPhoto(), {
      document_type: 'Insurance Card',
      record_type: 'insurance',
      record_id: policy.body.id,
    });
    expect(created.status).toBe(201);
    const attached = await client.get<DocumentPage>(
      `/api/documents?record_type=insurance&record_id=${policy.body.id}`,
    );
    expect(attached.body.documents.map((d) => d.id)).toEqual([created.body.id]);
    const wrong = await uploadDocument(client, await makeGpsPhoto(), {
      record_type: 'insurance',
      record_id: '0190a0a0-0000-7000-8000-000000000000',
    });
    expect(wrong.status).toBe(400);
    expect((await client.delete(`/api/insurance/${policy.body.id}`)).status).toBe(204);
    const kept = await client.get<StoredDocument>(`/api/documents/${created.body.id}`);
    expect(kept.status).toBe(200);
    expect(kept.body.records).toEqual([]);
  });

  it('answer a stranger as for a missing document, and let a viewer read but not upload', async () => {
    const owner = await signedUpClient(server, 'Owner');
    const member = await owner.client.post<{ id: string }>('/api/family-members', {
      name: 'Kid',
    });
    const created = await uploadDocument(owner.client, await makePdf(), {
      family_member_id: member.body.id,
    });
    expect(created.status).toBe(201);
    const stranger = await signedUpClient(server, 'Stranger');
    for (const url of [
      `/api/documents/${created.body.id}`,
      created.body.file_url,
      created.body.view_url,
      created.body.thumbnail_url as string,
    ]) {
      expect((await stranger.client.getBytes(url)).status, url).toBe(404);
    }
    expect((await stranger.client.delete(`/api/documents/${created.body.id}`)).status).toBe(404);
    expect((await stranger.client.get<DocumentPage>('/api/documents')).body.total).toBe(0);
    const foreign = await uploadDocument(stranger.client, await makePdf(), {
      family_member_id: member.body.id,
    });
    expect(foreign.status).toBe(400);

    const viewer = await signedUpClient(server, 'Viewer');
    await share(owner.client, viewer, member.body.id, 'viewer');
    const seen = await viewer.client.getBytes(created.body.file_url);
    expect(seen.status).toBe(200);
    const refused = await uploadDocument(viewer.client, await makePdf(), {
      family_member_id: member.body.id,
    });
    expect(refused.status).toBe(403);
    expect((await viewer.client.delete(`/api/documents/${created.body.id}`)).status).toBe(403);

    const editor = await signedUpClient(server, 'Editor');
    await share(owner.client, editor, member.body.id, 'editor');
    const byEditor = await uploadDocument(editor.client, await makePdf(2), {
      family_member_id: member.body.id,
    });
    expect(byEditor.status).toBe(201);
    expect(byEditor.body.user_id).toBe(await ownerOf(owner.client));
  });

  it("remove a member's and an account's files with them", async () => {
    const { client, password } = await signedUpClient(server);
    const owner = await ownerOf(client);
    const member = await client.post<{ id: string }>('/api/family-members', { name: 'Gran' });
    await uploadDocument(client, await makePdf(), { family_member_id: member.body.id });
    await uploadDocument(client, await makeGpsPhoto());
    expect((await filesOf(server, owner)).length).toBe(4);
    expect((await client.delete(`/api/family-members/${member.body.id}`)).status).toBe(204);
    expect((await filesOf(server, owner)).length).toBe(2);
    const gone = await client.request('DELETE', '/api/account', { password });
    expect(gone.status, JSON.stringify(gone.body)).toBe(204);
    expect(await filesOf(server, owner)).toEqual([]);
    const blobs = await server.db
      .selectFrom('document_blobs')
      .select('sha256')
      .where('user_id', '=', owner)
      .execute();
    expect(blobs).toEqual([]);
  });

  it('carry each document in FHIR $everything as a DocumentReference with its file', async () => {
    const { client } = await signedUpClient(server);
    const owner = await ownerOf(client);
    const heic = sampleHeic();
    const uploaded = await uploadDocument(client, await makePdf(2), {
      document_type: 'Lab Report',
      document_date: '2026-01-02',
    });
    const pdf = (await client.getBytes(uploaded.body.file_url)).bytes;
    const photoDocument = await uploadDocument(client, heic, {
      document_type: 'Other',
      file_name: 'IMG_0003.HEIC',
    });
    const original = await client.getBytes(`${photoDocument.body.file_url}?download`);
    const bundle = await client.get<{
      entry: {
        resource: { resourceType: string; type?: { coding?: { code: string }[] } } & Record<
          string,
          unknown
        >;
      }[];
    }>(`/api/fhir/Patient/${owner}/$everything`);
    expect(bundle.status).toBe(200);
    const references = bundle.body.entry
      .map((entry) => entry.resource)
      .filter((resource) => resource.resourceType === 'DocumentReference') as unknown as {
      type: { coding?: { code: string }[]; text: string };
      content: { attachment: { contentType: string; data: string; creation?: string } }[];
    }[];
    expect(references).toHaveLength(2);
    const [report, photo] = references;
    expect(report?.type.coding?.[0]?.code).toBe('11502-2');
    expect(report?.content[0]?.attachment.creation).toBe('2026-01-02');
    expect(Buffer.from(report?.content[0]?.attachment.data ?? '', 'base64').equals(pdf)).toBe(true);
    expect(photo?.content[0]?.attachment.contentType).toBe('image/heic');
    // The original as kept: its XMP emptied.
    expect(original.bytes.length).toBe(heic.length);
    expect(
      Buffer.from(photo?.content[0]?.attachment.data ?? '', 'base64').equals(original.bytes),
    ).toBe(true);
    // A share link's bundle names its types: documents are not in it.
    const chosen = await client.get<{ entry: { resource: { resourceType: string } }[] }>(
      `/api/fhir/Patient/${owner}/$everything?types=note`,
    );
    expect(chosen.body.entry.some((e) => e.resource.resourceType === 'DocumentReference')).toBe(
      false,
    );
  });

  it("carry in a share link's bundle only the documents chosen, a HEIC photo with its JPEG", async () => {
    const { client } = await signedUpClient(server);
    const owner = await ownerOf(client);
    const heic = sampleHeic();
    const letter = await uploadDocument(client, await makePdf(), { title: 'Discharge letter' });
    const pdf = (await client.getBytes(letter.body.file_url)).bytes;
    const photo = await uploadDocument(client, heic, { title: 'Rash', file_name: 'IMG_0004.HEIC' });
    await uploadDocument(client, await makePdf(2), { title: 'Not shared' });
    const shared = await client.get<{
      entry: {
        resource: {
          resourceType: string;
          description?: string;
          content?: { attachment: { contentType: string; data: string; title: string } }[];
        };
      }[];
    }>(
      `/api/fhir/Patient/${owner}/$everything?types=allergy&documents=${photo.body.id},${letter.body.id}`,
    );
    expect(shared.status).toBe(200);
    const references = shared.body.entry
      .map((entry) => entry.resource)
      .filter((resource) => resource.resourceType === 'DocumentReference');
    expect(references.map((r) => r.description)).toEqual(['Discharge letter', 'Rash']);
    const [pdfContent, heicContent] = references.map((r) => r.content ?? []);
    expect(pdfContent).toHaveLength(1);
    expect(Buffer.from(pdfContent?.[0]?.attachment.data ?? '', 'base64').equals(pdf)).toBe(true);
    expect(heicContent?.map((c) => [c.attachment.contentType, c.attachment.title])).toEqual([
      ['image/heic', 'IMG_0004.HEIC'],
      ['image/jpeg', 'IMG_0004.jpg'],
    ]);
    // The original as kept: the upload with its Exif and XMP emptied.
    const kept = await client.getBytes(photo.body.file_url);
    expect(Buffer.from(heicContent?.[0]?.attachment.data ?? '', 'base64').equals(kept.bytes)).toBe(
      true,
    );
    const jpeg = Buffer.from(heicContent?.[1]?.attachment.data ?? '', 'base64');
    expect((await sharp(jpeg).metadata()).format).toBe('jpeg');

    // Another person's document, or one that is not there, is refused before any bundle.
    const member = await client.post<{ id: string }>('/api/family-members', { name: 'Leo' });
    const theirs = await uploadDocument(client, pdf, { family_member_id: member.body.id });
    for (const id of [theirs.body.id, 'missing']) {
      const refused = await client.get<{ message: string; field?: string }>(
        `/api/fhir/Patient/${owner}/$everything?types=allergy&documents=${id}`,
      );
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ message: 'Document not found' });
    }
    const stranger = await signedUpClient(server);
    const foreign = await stranger.client.get(
      `/api/fhir/Patient/${await ownerOf(stranger.client)}/$everything?types=allergy&documents=${letter.body.id}`,
    );
    expect(foreign.status).toBe(404);
    const many = Array.from({ length: 51 }, (_, i) => `id${i}`).join(',');
    const tooMany = await client.get<{ message: string }>(
      `/api/fhir/Patient/${owner}/$everything?types=allergy&documents=${many}`,
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain('documents');
  });

  it('put a document on the timeline on its Document Date', async () => {
    const { client } = await signedUpClient(server);
    const created = await uploadDocument(client, await makePdf(), {
      title: 'Referral letter',
      document_type: 'Referral',
      document_date: '2025-02-03',
    });
    await uploadDocument(client, await makePdf(), { title: 'Undated', document_date: '' });
    const timeline = await client.get<{
      events: { id: string; type: string; date: string; name: string }[];
    }>('/api/timeline');
    expect(timeline.body.events).toEqual([
      expect.objectContaining({
        id: created.body.id,
        type: 'document',
        date: '2025-02-03',
        name: 'Referral letter',
      }),
    ]);
  });

  it('show the storage used and its limit', async () => {
    const { client } = await signedUpClient(server);
    const before = await client.get<{ usedBytes: number; limitBytes: number }>(
      '/api/document-usage',
    );
    expect(before.body).toEqual({ usedBytes: 0, limitBytes: 2048 * 1024 * 1024 });
    const pdf = await makePdf();
    const created = await uploadDocument(client, pdf);
    const after = await client.get<{ usedBytes: number }>('/api/document-usage');
    expect(after.body.usedBytes).toBeGreaterThan(pdf.length);
    expect(created.status).toBe(201);
  });
});

describe('document quota', () => {
  it('refuse an upload past the limit before storing it', async () => {
    const server = await createTestServer({ documentQuotaMb: 1 });
    try {
      const { client } = await signedUpClient(server);
      const owner = await ownerOf(client);
      // 700 kB of noise, twice: the second goes past 1 MB.
      const noise = await sharp(
        Buffer.from(Array.from({ length: 400 * 400 * 3 }, () => Math.floor(Math.random() * 256))),
        {
          raw: { width: 400, height: 400, channels: 3 },
        },
      )
        .png()
        .toBuffer();
      const first = await uploadDocument(client, noise);
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      const second = await uploadDocument(
        client,
        Buffer.concat([await makePdf(), Buffer.alloc(700 * 1024)]),
      );
      expect(second.status).toBe(413);
      expect(second.body.message).toBe(DOCUMENT_QUOTA_MESSAGE);
      expect((await filesOf(server, owner)).length).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("check the limit again as a row is written, against the other uploads' reservations", async () => {
    const server = await createTestServer({ documentQuotaMb: 1 });
    try {
      const { client } = await signedUpClient(server);
      const owner = await ownerOf(client);
      const documents = createDocumentRepository(
        server.db,
        documentStoreOf(server.database),
        createDocumentRecords(server.db),
      );
      const [kB, MB] = [1024, 1024 * 1024];
      const file = (letter: string, bytes: number) => ({ sha256: letter.repeat(64), bytes });
      const letter = {
        owner,
        member: null,
        title: 'Letter',
        document_type: 'Letter' as const,
        document_date: null,
        file_name: 'letter.pdf',
        records: [],
        mime_type: 'application/pdf' as const,
        size_bytes: 400 * kB,
        sha256: 'c'.repeat(64),
      };
      // Another upload holds 700 kB of the 1 MB: one of 400 kB is refused as it reserves…
      expect(await documents.reserve(owner, [file('a', 700 * kB)], MB)).toBe(700 * kB);
      expect(await documents.reserve(owner, [file('b', 400 * kB)], MB)).toBeUndefined();
      // …and its row is not written, whatever it reserved.
      expect(await documents.create(letter, { reservedBytes: 0, quotaBytes: MB })).toBeUndefined();
      // A file the account has already takes nothing more.
      await documents.release(owner, 700 * kB);
      expect(await documents.create(letter, { reservedBytes: 0, quotaBytes: MB })).toBeDefined();
      expect(await documents.reserve(owner, [file('c', 400 * kB)], MB)).toBe(0);
      expect(await documents.usedBytes(owner)).toBe(400 * kB);
      // A reservation an hour old was left by a server that stopped: it counts for nothing.
      expect(await documents.reserve(owner, [file('d', 600 * kB)], MB)).toBe(600 * kB);
      expect(await documents.reserve(owner, [file('e', 600 * kB)], MB)).toBeUndefined();
      await server.db
        .updateTable('document_storage')
        .set({ reserved_at: Date.now() - 61 * 60 * 1000 })
        .where('user_id', '=', owner)
        .execute();
      expect(await documents.reserve(owner, [file('e', 600 * kB)], MB)).toBe(600 * kB);
    } finally {
      await server.close();
    }
  });

  it('store of six uploads sent at once only what fits the limit, and keep nothing of the others', async () => {
    const server = await createTestServer({ documentQuotaMb: 3 });
    try {
      const { client } = await signedUpClient(server);
      const owner = await ownerOf(client);
      // Six different PDFs of about 2.5 MB (a picture of noise, which nothing makes smaller).
      const noise = await sharp(randomBytes(1560 * 1560 * 3), {
        raw: { width: 1560, height: 1560, channels: 3 },
      })
        .jpeg({ quality: 95 })
        .toBuffer();
      const pdfs = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          pdfBytes((doc) => doc.text(`Scan ${i + 1}`).image(noise, 50, 100, { width: 200 })),
        ),
      );
      for (const pdf of pdfs) expect(pdf.length).toBeGreaterThan(2.3 * 1024 * 1024);

      const answers = await Promise.all(pdfs.map((pdf) => uploadDocument(client, pdf)));
      const stored = answers.filter((answer) => answer.status === 201);
      const refused = answers.filter((answer) => answer.status !== 201);
      expect(stored).toHaveLength(1);
      for (const answer of refused) {
        expect(answer.status).toBe(413);
        expect(answer.body.message).toBe(DOCUMENT_QUOTA_MESSAGE);
      }
      const usage = await client.get<{ usedBytes: number }>('/api/document-usage');
      expect(usage.body.usedBytes).toBeLessThanOrEqual(3 * 1024 * 1024);
      // The one stored and its thumbnail: nothing of the refused ones. (Its thumbnail is
      // drawn within PDF_TIME_LIMIT_MS; on a machine busy enough to pass it, the PDF is kept
      // without one, which is not what this test is about.)
      const document = stored[0]!.body;
      const kept = await client.getBytes(document.file_url);
      const thumbnail = document.thumbnail_url?.split('/').pop();
      expect((await filesOf(server, owner)).sort()).toEqual(
        [sha256Of(kept.bytes), ...(thumbnail ? [thumbnail] : [])].sort(),
      );
      expect((await client.get<DocumentPage>('/api/documents')).body.total).toBe(1);
    } finally {
      await server.close();
    }
  });
});
