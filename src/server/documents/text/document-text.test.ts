/**
 * The text inside documents (issue #37), on both engines: a PDF's text layer read directly,
 * a scan (an image, and a PDF of one) read by OCR for real, the text found by search and
 * served to the document's page, another account getting neither; jobs that outlive a
 * restart, and never handed to two workers at once.
 *
 * The documents themselves are another part's (src/server/documents, merged beside this):
 * a table of the shape agreed between the two stands in for theirs here.
 */
import { createCipheriv, createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { heavyJobs } from '../../runtime/heavy-jobs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GivenGrant } from '../../../shared/household';
import type { SearchAnswer } from '../../../shared/search';
import { MAX_PAGE_PIXELS } from '../drawing-limits';
import { manyObjectsPdf } from '../fixtures/hostile-pdfs';
import { pdfBytes, scannedPdf } from '../fixtures/sample-files';
import { processorFor } from '../processors';
import { newId } from '../../ids';
import { summaryPdfmake, SUMMARY_FONT } from '../../summary/summary-pdfmake';
import { acceptGrant } from '../../test/grant-acceptance';
import { signedUpClient, testEngine, useTestServer, type TestClient } from '../../test/harness';
import {
  claimDocumentText,
  CLAIM_MS,
  queueDocumentText,
  startDocumentTextWorker,
  type DocumentTextWorkerOptions,
} from './document-text';
import { documentTextThread, TEXT_LIMITS } from './document-text-thread';
import { memoryPlan } from '../../config/memory';
import type { DocumentTextAnswer } from './document-text';

const server = useTestServer();
const files = new Map<string, { bytes: Buffer; mimeType: string }>();
let stop: (() => Promise<void>) | undefined;
let dataDir: string;

/** Starts the worker that reads the documents stored here, as the server starts its own. */
function startWorker(options: Partial<DocumentTextWorkerOptions> = {}) {
  return startDocumentTextWorker({
    db: server.db,
    engine: server.database.engine,
    openFile: async (id) => {
      const file = files.get(id);
      return file && { bytes: [file.bytes], mimeType: file.mimeType };
    },
    dataDir,
    pollMs: 200,
    ...options,
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'kin-ocr-'));
  stop = startWorker();
});
afterAll(async () => {
  await stop?.();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Runs `test` with a worker of its own in place of the file's (the jobs it stores are read by
 * that one alone), started by `test` when it is ready; the file's worker is back afterwards.
 */
async function withOwnWorker(
  test: (start: (options?: Partial<DocumentTextWorkerOptions>) => void) => Promise<void>,
) {
  await stop?.();
  let own: (() => Promise<void>) | undefined;
  try {
    await test((options) => {
      own = startWorker(options);
    });
  } finally {
    await own?.();
    stop = startWorker();
  }
}

async function userIdOf(email: string): Promise<string> {
  const { rows } = await sql<{ id: string }>`select id from "user" where email = ${email}`.execute(
    server.db,
  );
  return rows[0]!.id;
}

/** A document stored for a user, as the documents' part stores one, and its text queued. */
async function storeDocument(
  email: string,
  document: { title: string; bytes: Buffer; mimeType: string; memberId?: string },
): Promise<string> {
  const id = newId();
  const userId = await userIdOf(email);
  const now = new Date().toISOString();
  files.set(id, { bytes: document.bytes, mimeType: document.mimeType });
  await sql`insert into documents (id, user_id, family_member_id, title, document_type,
      document_date, file_name, mime_type, size_bytes, sha256, created_at, updated_at)
    values (${id}, ${userId}, ${document.memberId ?? null}, ${document.title}, 'Letter',
      '2026-03-04', ${document.title}, ${document.mimeType}, ${document.bytes.length},
      ${createHash('sha256').update(document.bytes).digest('hex')}, ${now}, ${now})`.execute(
    server.db,
  );
  await queueDocumentText(server.db, { documentId: id, userId });
  return id;
}

async function textOf(client: TestClient, id: string) {
  return client.get<DocumentTextAnswer>(`/api/documents/${id}/text`);
}

async function readText(client: TestClient, id: string, timeoutMs = 60_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const { status, body } = await textOf(client, id);
    expect(status).toBe(200);
    if (body.status === 'done') return body.text ?? '';
    expect(body.status).not.toBe('failed');
    if (Date.now() - started > timeoutMs) throw new Error(`still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The document's text answer once it is read, or once it could not be. */
async function settledText(
  client: TestClient,
  id: string,
  timeoutMs = 90_000,
): Promise<DocumentTextAnswer> {
  const started = Date.now();
  for (;;) {
    const { status, body } = await textOf(client, id);
    expect(status).toBe(200);
    if (body.status === 'done' || body.status === 'failed') return body;
    if (Date.now() - started > timeoutMs) throw new Error(`still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function search(client: TestClient, q: string): Promise<SearchAnswer> {
  return (await client.get<SearchAnswer>(`/api/search?q=${encodeURIComponent(q)}`)).body;
}

/**
 * `bytes` of noise, the same for the same `seed` (AES in counter mode over zeros): what OCR
 * makes of noise differs from one noise to the next, and a test reads the same one each run.
 */
function noise(bytes: number, seed: number): Buffer {
  return createCipheriv('aes-128-ctr', Buffer.alloc(16, seed), Buffer.alloc(16)).update(
    Buffer.alloc(bytes),
  );
}

/** A scanned letter: black text on white, as an image of about 300 dpi. */
function scannedLetter(lines: string[]): Promise<Buffer> {
  const text = lines
    .map((line, index) => `<text x="150" y="${300 + index * 90}">${line}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2550" height="1200">
    <rect width="100%" height="100%" fill="white"/>
    <g font-family="DejaVu Sans, sans-serif" font-size="56" fill="black">${text}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function pdfOf(content: unknown[]): Promise<Buffer> {
  const pdfmake = summaryPdfmake();
  return pdfmake
    .createPdf({ content: content as never, defaultStyle: { font: SUMMARY_FONT } })
    .getBuffer() as Promise<Buffer>;
}

/**
 * What a document's reading does inside the worker (a text layer, OCR, its page and time
 * limits, an image made ready) is the same on either engine, and its OCR keeps a core busy
 * for seconds: run once. The claims, the turns, search and sharing, which the engine's SQL
 * shapes, run on both (decision 0071).
 */
const onOneEngine = it.runIf(testEngine() === 'sqlite');

describe('text inside documents', () => {
  it('reads a scanned letter by OCR; search finds it by a word in its body', async () => {
    const owner = await signedUpClient(server, 'Owner');
    const other = await signedUpClient(server, 'Other');
    const id = await storeDocument(owner.email, {
      title: 'Scan 0001',
      bytes: await scannedLetter([
        'Dear Parent,',
        'The magnetic resonance imaging of the knee',
        'showed no fracture.',
      ]),
      mimeType: 'image/png',
    });
    const text = await readText(owner.client, id);
    expect(text).toMatch(/magnetic resonance imaging/i);
    const found = await search(owner.client, 'resonance');
    expect(found.groups).toEqual([
      expect.objectContaining({ type: 'document', heading: 'Documents' }),
    ]);
    expect(found.groups[0]!.results[0]).toMatchObject({
      id,
      path: `/documents/${id}`,
      title: 'Scan 0001',
    });
    expect(found.groups[0]!.results[0]!.snippet).toMatch(/resonance/i);
    expect((await textOf(other.client, id)).status).toBe(404);
    expect((await search(other.client, 'resonance')).groups).toEqual([]);
  }, 90_000);

  onOneEngine(
    'reads a photo with no writing in it as no text, not as the lines of noise OCR makes of it',
    async () => {
      const owner = await signedUpClient(server, 'Owner');
      const [width, height] = [800, 600];
      const id = await storeDocument(owner.email, {
        title: 'Photo of a wall',
        bytes: await sharp(noise(width * height * 3, 1), { raw: { width, height, channels: 3 } })
          .jpeg()
          .toBuffer(),
        mimeType: 'image/jpeg',
      });
      expect(await readText(owner.client, id)).toBe('');
      // And a letter photographed on a grainy background keeps its words.
      const letter = await sharp(
        await scannedLetter(['Amoxicillin 250 mg twice daily', 'for ten days']),
      )
        .composite([
          {
            input: await sharp(noise(2550 * 200 * 3, 2), {
              raw: { width: 2550, height: 200, channels: 3 },
            })
              .png()
              .toBuffer(),
            top: 1000,
            left: 0,
          },
        ])
        .png()
        .toBuffer();
      const letterId = await storeDocument(owner.email, {
        title: 'Prescription',
        bytes: letter,
        mimeType: 'image/png',
      });
      const text = await readText(owner.client, letterId);
      expect(text).toMatch(/^Amoxicillin 250 mg twice daily\nfor ten days$/);
    },
    90_000,
  );

  onOneEngine(
    'reads a PDF’s text layer directly, and a scanned PDF by OCR',
    async () => {
      const owner = await signedUpClient(server, 'Owner');
      const typed = await storeDocument(owner.email, {
        title: 'Referral',
        bytes: await pdfOf([
          { text: 'Audiology referral' },
          { text: 'Please see Mia about her hearing test.' },
        ]),
        mimeType: 'application/pdf',
      });
      expect(await readText(owner.client, typed)).toMatch(
        /Audiology referral\s+Please see Mia about her hearing test\./,
      );
      const scan = await scannedLetter(['Pulmonology clinic appointment']);
      const scanned = await storeDocument(owner.email, {
        title: 'Scanned PDF',
        bytes: await pdfOf([
          { image: `data:image/png;base64,${scan.toString('base64')}`, width: 500 },
        ]),
        mimeType: 'application/pdf',
      });
      expect(await readText(owner.client, scanned)).toMatch(/Pulmonology clinic/i);
      // A scanner's PDF: a JPEG filling each Letter page, drawn at 300 dpi for OCR.
      const letterPage = await sharp(
        await scannedLetter(['Cardiology follow up', 'Bring the blood pressure diary']),
      )
        .resize(2550, 3300, { fit: 'contain', background: 'white', position: 'top' })
        .jpeg({ quality: 85 })
        .toBuffer();
      const scanner = await storeDocument(owner.email, {
        title: 'Scanner PDF',
        bytes: await scannedPdf(letterPage, 2),
        mimeType: 'application/pdf',
      });
      const scannerText = await readText(owner.client, scanner);
      expect(scannerText.match(/Cardiology follow up/g)).toHaveLength(2);
      expect(scannerText).toMatch(/blood pressure diary/);
      // The copies the worker read are gone.
      expect(readdirSync(path.join(dataDir, 'ocr-cache', 'reading'))).toEqual([]);
      expect(
        (await search(owner.client, 'audiolog')).groups[0]!.results.map((r) => r.title),
      ).toEqual(['Referral']);
      expect(
        (await search(owner.client, 'pulmono')).groups[0]!.results.map((r) => r.title),
      ).toEqual(['Scanned PDF']);
    },
    90_000,
  );

  it('shows a shared person’s document text to their grantee, not another person’s', async () => {
    const owner = await signedUpClient(server, 'Owner');
    const viewer = await signedUpClient(server, 'Viewer');
    const mia = (await owner.client.post<{ id: string }>('/api/family-members', { name: 'Mia' }))
      .body.id;
    const leo = (await owner.client.post<{ id: string }>('/api/family-members', { name: 'Leo' }))
      .body.id;
    const pdf = await pdfOf([{ text: 'Orthoptist letter' }]);
    const forMia = await storeDocument(owner.email, {
      title: 'Mia letter',
      bytes: pdf,
      mimeType: 'application/pdf',
      memberId: mia,
    });
    const forLeo = await storeDocument(owner.email, {
      title: 'Leo letter',
      bytes: pdf,
      mimeType: 'application/pdf',
      memberId: leo,
    });
    await readText(owner.client, forMia);
    await readText(owner.client, forLeo);
    const granted = await owner.client.post<GivenGrant>('/api/household/grants', {
      personId: mia,
      email: viewer.email,
      role: 'viewer',
    });
    await acceptGrant(viewer.client, granted);
    expect((await textOf(viewer.client, forMia)).body).toEqual({
      status: 'done',
      text: 'Orthoptist letter',
    });
    expect((await textOf(viewer.client, forLeo)).status).toBe(404);
    expect(
      (await search(viewer.client, 'orthoptist')).groups[0]!.results.map((r) => r.title),
    ).toEqual(['Mia letter']);
  }, 60_000);

  it('fails a PDF locked by a password at once, not again later, and says why', async () => {
    const owner = await signedUpClient(server, 'Owner');
    const id = await storePdf(
      owner.email,
      'Locked results',
      await pdfBytes((doc) => doc.text('Results'), { userPassword: 'secret' }),
    );
    expect(await settledText(owner.client, id)).toEqual({ status: 'failed', reason: 'locked' });
    const job = await server.db
      .selectFrom('document_texts')
      .select(['attempts', 'claimed_until'])
      .where('document_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ attempts: 1, claimed_until: null });
    // Any other failure says no reason.
    await server.db
      .updateTable('document_texts')
      .set({ last_error: 'The documents process stopped' })
      .where('document_id', '=', id)
      .execute();
    expect((await textOf(owner.client, id)).body).toEqual({ status: 'failed' });
  });

  it('forgets a deleted document at once', async () => {
    const owner = await signedUpClient(server, 'Owner');
    const id = await storeDocument(owner.email, {
      title: 'Dermatology note',
      bytes: await pdfOf([{ text: 'Eczema cream twice a day' }]),
      mimeType: 'application/pdf',
    });
    await readText(owner.client, id);
    expect((await search(owner.client, 'eczema')).groups).toHaveLength(1);
    await sql`delete from documents where id = ${id}`.execute(server.db);
    expect((await search(owner.client, 'eczema')).groups).toEqual([]);
    expect((await search(owner.client, 'dermatology')).groups).toEqual([]);
    expect((await textOf(owner.client, id)).status).toBe(404);
  }, 60_000);
});

/** A scanner's PDF of Letter pages, each a scanned letter of one line of its own. */
async function scannedPages(lines: string[]): Promise<Buffer> {
  const pages = await Promise.all(lines.map((line) => scannedLetter([line])));
  return pdfBytes(
    (doc) => {
      for (const page of pages) {
        doc.addPage({ size: 'LETTER', margin: 0 });
        doc.image(page, 0, 0, { width: doc.page.width });
      }
    },
    { autoFirstPage: false },
  );
}

/** A typed PDF of `pages` pages, each saying its number: 'Record page 7'. */
function numberedPdf(pages: number): Promise<Buffer> {
  return pdfBytes((doc) => {
    for (let page = 1; page <= pages; page += 1) {
      if (page > 1) doc.addPage();
      doc.fontSize(14).text(`Record page ${page}`);
    }
  });
}

/** The lines of a three-page scan, one a page. */
const CLINICS = ['Allergy clinic', 'Dermatology clinic', 'Neurology clinic'];

/** A document's text once read: `text`, read from all its pages. */
async function expectReadWhole(client: TestClient, id: string, text: string) {
  expect(await settledText(client, id)).toEqual({ status: 'done', text });
}

/** A PDF stored for a user, and its text queued. */
const storePdf = (email: string, title: string, bytes: Buffer) =>
  storeDocument(email, { title, bytes, mimeType: 'application/pdf' });

describe('a document read within its limits', () => {
  onOneEngine(
    'is read to its page limit and no further, and says from how many pages',
    async () => {
      const owner = await signedUpClient(server, 'Owner');
      const pages = TEXT_LIMITS.pages + 1;
      const id = await storePdf(owner.email, 'Long record', await numberedPdf(pages));
      const answer = await settledText(owner.client, id);
      expect(answer).toMatchObject({ status: 'done', pagesRead: TEXT_LIMITS.pages, pages });
      expect(answer.text).toMatch(new RegExp(`\\bRecord page ${TEXT_LIMITS.pages}\\b`));
      expect(answer.text).not.toMatch(new RegExp(`\\bRecord page ${pages}\\b`));
      // A document read whole says nothing of its pages.
      const short = await storePdf(owner.email, 'Short record', await numberedPdf(3));
      await expectReadWhole(owner.client, short, 'Record page 1\n\nRecord page 2\n\nRecord page 3');
    },
    120_000,
  );

  onOneEngine(
    'reads scans one after another with OCR’s engine ended between pages and documents (under 1 GB) or kept',
    async () => {
      const owner = await signedUpClient(server, 'Owner');
      for (const budgetMb of [512, 2048]) {
        const { releaseOcr } = memoryPlan(budgetMb);
        expect(releaseOcr).toBe(budgetMb < 1024);
        await withOwnWorker(async (start) => {
          start({ thread: documentTextThread({ memory: memoryPlan(budgetMb) }) });
          const letter = await storeDocument(owner.email, {
            title: 'Allergy letter',
            bytes: await scannedLetter(['Allergy clinic', 'Seen today, all well.']),
            mimeType: 'image/png',
          });
          expect(await readText(owner.client, letter)).toMatch(/Allergy clinic/);
          // Three pages: two drawn and read, OCR's engine ended under 1 GB, the third drawn
          // and read by another.
          const pages = await storePdf(owner.email, 'Clinic letters', await scannedPages(CLINICS));
          // Read whole: no page count said.
          expect(await settledText(owner.client, pages)).toEqual({
            status: 'done',
            text: expect.stringMatching(
              /Allergy clinic[\s\S]*Dermatology clinic[\s\S]*Neurology clinic/,
            ) as unknown,
          });
        });
      }
    },
    120_000,
  );

  onOneEngine(
    'reads at most its OCR page limit by OCR',
    async () => {
      const owner = await signedUpClient(server, 'Owner');
      await withOwnWorker(async (start) => {
        start({ limits: { ocrPages: 2 } });
        const id = await storePdf(owner.email, 'Clinic letters', await scannedPages(CLINICS));
        const answer = await settledText(owner.client, id);
        expect(answer).toMatchObject({ status: 'done', pagesRead: 2, pages: 3 });
        expect(answer.text).toMatch(/Allergy clinic[\s\S]*Dermatology clinic/);
        expect(answer.text).not.toMatch(/Neurology/);
      });
    },
    120_000,
  );

  onOneEngine(
    'stops reading a document at its time, and reads the next account’s',
    async () => {
      const slow = await signedUpClient(server, 'Slow');
      const other = await signedUpClient(server, 'Other');
      await withOwnWorker(async (start) => {
        const scanned = await storePdf(slow.email, 'Three scans', await scannedPages(CLINICS));
        const typed = await storePdf(other.email, 'Typed', await numberedPdf(1));
        // No page is begun after the first: its time (1 ms) is gone by then.
        start({ limits: { timeMs: 1 } });
        const answer = await settledText(slow.client, scanned);
        expect(answer).toMatchObject({ status: 'done', pagesRead: 1, pages: 3 });
        expect(answer.text).toMatch(/Allergy clinic/);
        expect(answer.text).not.toMatch(/Dermatology|Neurology/);
        await expectReadWhole(other.client, typed, 'Record page 1');
      });
    },
    120_000,
  );

  // The thread's limit: it burns 20 s of a core on a file pdf.js cannot parse.
  onOneEngine(
    'fails a document that holds the thread past its time, at once; the next account’s is read',
    async () => {
      const slow = await signedUpClient(server, 'Slow');
      const other = await signedUpClient(server, 'Other');
      await withOwnWorker(async (start) => {
        // Issue #49's 24 MB PDF of 1.4 million empty objects, which pdf.js parses for over a
        // minute (and 2 GB of heap) before its first page.
        const stuck = await storePdf(slow.email, 'Objects', manyObjectsPdf(1_400_000));
        const typed = await storePdf(other.email, 'Typed', await numberedPdf(1));
        // The thread's own limit: the document's time and 20 s more, time for a thread to
        // start and load pdf.js from source on a busy machine.
        start({ limits: { timeMs: 1 }, thread: documentTextThread({ pageGraceMs: 20_000 }) });
        expect((await settledText(slow.client, stuck)).status).toBe('failed');
        const { rows } = await sql<{ attempts: number; last_error: string }>`
        select attempts, last_error from document_texts where document_id = ${stuck}`.execute(
          server.db,
        );
        expect(rows[0]?.attempts).toBe(1);
        expect(rows[0]?.last_error).toMatch(/took over 20001 ms on one job|ran out of memory/);
        await expectReadWhole(other.client, typed, 'Record page 1');
      });
    },
    120_000,
  );
});

describe('document text jobs', () => {
  it('wait for their turn beside the server’s other heavy jobs, then are read', async () => {
    const owner = await signedUpClient(server, 'Turn');
    const heavy = heavyJobs(1);
    let letGo: () => void = () => undefined;
    // An import holding the one place a 512 MB server has.
    const importing = heavy.run(() => new Promise<void>((resolve) => (letGo = resolve)));
    await withOwnWorker(async (start) => {
      start({ heavyJobs: heavy, pollMs: 50 });
      const id = await storePdf(owner.email, 'Typed', await numberedPdf(1));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await textOf(owner.client, id)).body.status).toBe('pending');
      expect(heavy.waiting).toBe(1);
      letGo();
      await importing;
      await expectReadWhole(owner.client, id, 'Record page 1');
    });
  });

  it('are taken in turn by account: one account’s many do not hold another’s one', async () => {
    const many = await signedUpClient(server, 'Many');
    const one = await signedUpClient(server, 'One');
    const [manyId, oneId] = [await userIdOf(many.email), await userIdOf(one.email)];
    // Queued far ahead, so that the running worker does not take them; the account with
    // many queued all of them first.
    const later = Date.now() + 365 * 86_400_000;
    const queued: { documentId: string; userId: string }[] = [];
    for (const userId of [manyId, manyId, manyId, manyId, oneId]) {
      const documentId = newId();
      const at = new Date(later + queued.length).toISOString();
      await sql`insert into document_texts (document_id, user_id, status, attempts, created_at,
          updated_at, claimed_until)
        values (${documentId}, ${userId}, 'pending', 0, ${at}, ${at}, ${at})`.execute(server.db);
      queued.push({ documentId, userId });
    }
    const claimed: string[] = [];
    for (let turn = 0; turn < queued.length; turn += 1) {
      const job = await claimDocumentText(
        server.db,
        server.database.engine,
        new Date(later + 1_000 + turn),
      );
      claimed.push(job!.document_id);
    }
    const [m1, m2, m3, m4, o1] = queued.map((job) => job.documentId);
    expect(claimed).toEqual([m1, o1, m2, m3, m4]);
    await sql`delete from document_texts where document_id in (${sql.join(claimed)})`.execute(
      server.db,
    );
  });

  it('are read in turn by account by the worker: the second account’s one before the first’s last', async () => {
    const many = await signedUpClient(server, 'Many');
    const one = await signedUpClient(server, 'One');
    await withOwnWorker(async (start) => {
      const pdf = await numberedPdf(1);
      const store = (email: string, title: string) =>
        storeDocument(email, { title, bytes: pdf, mimeType: 'application/pdf' });
      const manyIds = [
        await store(many.email, 'M1'),
        await store(many.email, 'M2'),
        await store(many.email, 'M3'),
      ];
      const oneId = await store(one.email, 'O1');
      start();
      for (const id of manyIds) await settledText(many.client, id);
      await settledText(one.client, oneId);
      const { rows } = await sql<{ document_id: string }>`select document_id from document_texts
        where document_id in (${sql.join([...manyIds, oneId])}) order by claimed_at`.execute(
        server.db,
      );
      expect(rows.map((row) => row.document_id)).toEqual([
        manyIds[0],
        oneId,
        manyIds[1],
        manyIds[2],
      ]);
    });
  }, 60_000);

  it('are taken up again when a claim runs out (a restart), and never claimed twice at once', async () => {
    const owner = await signedUpClient(server, 'Owner');
    const userId = await userIdOf(owner.email);
    // Jobs queued directly, for documents with no file: the running worker must not take
    // them first, so they are claimed here as of a moment far ahead.
    const later = new Date(Date.now() + 365 * 86_400_000);
    const ids = [newId(), newId()];
    for (const documentId of ids) {
      await sql`insert into document_texts (document_id, user_id, status, attempts, claimed_until,
          created_at, updated_at)
        values (${documentId}, ${userId}, 'pending', 0, ${later.toISOString()},
          ${later.toISOString()}, ${later.toISOString()})`.execute(server.db);
    }
    const claimAt = new Date(later.getTime() + 1);
    const [first, second] = await Promise.all([
      claimDocumentText(server.db, server.database.engine, claimAt),
      claimDocumentText(server.db, server.database.engine, claimAt),
    ]);
    expect(new Set([first?.document_id, second?.document_id])).toEqual(new Set(ids));
    expect(await claimDocumentText(server.db, server.database.engine, claimAt)).toBeUndefined();
    // The server stopped while reading: after its claim runs out, the job is taken up again.
    const afterClaim = new Date(claimAt.getTime() + CLAIM_MS + 1);
    const again = await claimDocumentText(server.db, server.database.engine, afterClaim);
    expect(ids).toContain(again?.document_id);
    expect(again?.attempts).toBe(2);
    await sql`delete from document_texts where document_id in (${sql.join(ids)})`.execute(
      server.db,
    );
  });
});

describe('the document-text worker’s copies', () => {
  it('left by a server that stopped mid-read are removed at the next start; newer ones stay', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'kin-ocr-start-'));
    try {
      const reading = path.join(folder, 'ocr-cache', 'reading');
      mkdirSync(reading, { recursive: true });
      writeFileSync(path.join(reading, 'left-behind'), 'a page');
      const past = new Date(Date.now() - CLAIM_MS - 60_000);
      utimesSync(path.join(reading, 'left-behind'), past, past);
      writeFileSync(path.join(reading, 'being-read'), 'a page');
      const stopAgain = startDocumentTextWorker({
        db: server.db,
        engine: server.database.engine,
        openFile: async () => undefined,
        dataDir: folder,
        pollMs: 60_000,
      });
      await stopAgain();
      expect(readdirSync(reading)).toEqual(['being-read']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('an image made ready for OCR', () => {
  onOneEngine(
    'is upright, grey, and within MAX_PAGE_PIXELS however many the photo has',
    async () => {
      const folder = mkdtempSync(path.join(tmpdir(), 'kin-ocr-ready-'));
      try {
        // A 48-megapixel photo taken with the phone on its side (EXIF orientation 6).
        const photo = path.join(folder, 'photo.jpg');
        await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#e0e0e0' } })
          .jpeg()
          .withMetadata({ orientation: 6 })
          .toFile(photo);
        const prepared = path.join(folder, 'prepared.png');
        const ready = (file: string) =>
          processorFor('image/jpeg').textReady({ file, mimeType: 'image/jpeg' }, prepared);
        expect(await ready(photo)).toEqual({
          file: prepared,
          mimeType: 'image/png',
        });
        const { width = 0, height = 0, channels } = await sharp(prepared).metadata();
        expect(width * height).toBeLessThanOrEqual(MAX_PAGE_PIXELS);
        expect(width * height).toBeGreaterThan(MAX_PAGE_PIXELS * 0.99);
        // Turned upright: taller than wide, in the photo's proportions.
        expect(height).toBeGreaterThan(width);
        expect(height / width).toBeCloseTo(8000 / 6000, 2);
        expect(channels).toBe(1);
        // A photo within the limit keeps its pixels.
        const small = path.join(folder, 'small.jpg');
        await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#e0e0e0' } })
          .jpeg()
          .toFile(small);
        await ready(small);
        const kept = await sharp(prepared).metadata();
        expect([kept.width, kept.height]).toEqual([4000, 3000]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );
});
