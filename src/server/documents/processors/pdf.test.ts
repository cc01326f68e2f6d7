/**
 * A PDF's text on the text thread (pdf.ts `text`), with OCR as the thread hands it over: the
 * pages read by OCR are drawn OCR_BATCH at a time and read after, OCR told to give its
 * memory back before each batch is drawn, the pages' text kept in their order, the time
 * limit held between pages, and no drawing left on disk. OCR itself is the engine's (real
 * tesseract.js in documents/text/document-text.test.ts); here it says which page it was
 * handed, and what was drawn at that moment.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfBytes } from '../fixtures/sample-files';
import { OCR_BATCH, pdfProcessor } from './pdf';
import type { DocumentTextJob, Ocr } from './processor';

const folder = mkdtempSync(path.join(tmpdir(), 'kin-pdf-text-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A small page with no text layer (a scanned picture) or, for a string, typed text. */
type Page = 'scan' | string;

async function pdfOf(pages: Page[]): Promise<string> {
  const picture = await sharp({
    create: { width: 60, height: 60, channels: 3, background: '#ddd' },
  })
    .jpeg()
    .toBuffer();
  const bytes = await pdfBytes(
    (doc) => {
      for (const page of pages) {
        doc.addPage({ size: [144, 144], margin: 10 });
        if (page === 'scan') doc.image(picture, 0, 0, { width: 144 });
        else doc.fontSize(10).text(page);
      }
    },
    { autoFirstPage: false },
  );
  const file = path.join(folder, `${pages.length}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

function job(file: string, limits: Partial<DocumentTextJob> = {}): DocumentTextJob {
  return {
    id: 1,
    file,
    mimeType: 'application/pdf',
    langPath: folder,
    cachePath: folder,
    languages: ['eng'],
    pageLimit: 100,
    ocrPageLimit: 100,
    timeLimitMs: 60_000,
    ...limits,
  };
}

/** The CPU time this process has spent, in ms (the limit pdf.ts holds). */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * OCR that answers 'ocr {page}' and notes each call: a read with the pages drawn beside
 * the file at that moment, a release. `busyMs`: each read spends that much CPU.
 */
function notingOcr(file: string, busyMs = 0) {
  const calls: string[] = [];
  const drawn = () =>
    readdirSync(folder)
      .filter((name) => name.startsWith(`${path.basename(file)}.page-`))
      .map((name) => Number(/page-(\d+)\.png$/.exec(name)![1]))
      .sort((a, b) => a - b);
  const ocr: Ocr = {
    read(image) {
      const page = Number(/page-(\d+)\.png$/.exec(image)![1]);
      calls.push(`read ${page} (drawn: ${drawn().join(' ')})`);
      const until = cpuMs() + busyMs;
      while (cpuMs() < until);
      return Promise.resolve(`ocr ${page}`);
    },
    release() {
      calls.push('release');
      return Promise.resolve();
    },
  };
  return { ocr, calls, drawn };
}

describe('a PDF’s text', () => {
  it('draws the pages OCR reads two at a time, OCR released before each pair is drawn', async () => {
    expect(OCR_BATCH).toBe(2);
    const file = await pdfOf(['scan', 'scan', 'Typed page three', 'scan', 'scan', 'scan']);
    const { ocr, calls, drawn } = notingOcr(file);
    const read = await pdfProcessor.text(job(file), ocr);
    expect(calls).toEqual([
      'release',
      'read 1 (drawn: 1 2)',
      'read 2 (drawn: 2)',
      'release',
      'read 4 (drawn: 4 5)',
      'read 5 (drawn: 5)',
      'release',
      'read 6 (drawn: 6)',
    ]);
    expect(read).toEqual({
      text: 'ocr 1\n\nocr 2\n\nTyped page three\n\nocr 4\n\nocr 5\n\nocr 6',
      pages: 6,
      pagesRead: 6,
    });
    expect(drawn()).toEqual([]);
  });

  it('reads no page drawn once its time is gone, but the first; their drawings are removed', async () => {
    const file = await pdfOf(['scan', 'scan', 'Typed page three']);
    const { ocr, calls, drawn } = notingOcr(file, 1_000);
    // Both pages are drawn in far less than the time; reading the first spends all of it.
    const read = await pdfProcessor.text(job(file, { timeLimitMs: 1_000 }), ocr);
    expect(calls).toEqual(['release', 'read 1 (drawn: 1 2)']);
    expect(read).toEqual({ text: 'ocr 1', pages: 3, pagesRead: 1 });
    expect(drawn()).toEqual([]);
  });

  it('stops at its OCR page limit, and at its page limit, with the pages before', async () => {
    const file = await pdfOf(['Typed page one', 'scan', 'scan', 'scan']);
    const limited = notingOcr(file);
    expect(await pdfProcessor.text(job(file, { ocrPageLimit: 1 }), limited.ocr)).toEqual({
      text: 'Typed page one\n\nocr 2',
      pages: 4,
      pagesRead: 2,
    });
    expect(limited.calls).toEqual(['release', 'read 2 (drawn: 2)']);
    const short = notingOcr(file);
    expect(await pdfProcessor.text(job(file, { pageLimit: 1 }), short.ocr)).toEqual({
      text: 'Typed page one',
      pages: 4,
      pagesRead: 1,
    });
    expect(short.calls).toEqual([]);
  });
});
