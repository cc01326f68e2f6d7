/**
 * The thread a document's text is read on (document-text-thread.ts starts it), so that
 * parsing a PDF, drawing its pages and OCR never hold up a request. One document at a time,
 * one page at a time: a PDF page's own text layer when it has one (pdf.js, reading the file
 * a range at a time), else the page drawn at 300 dpi (documents/pdf-pages.ts: its JPEG
 * pictures decoded by sharp) and read in grey by tesseract.js; an image is read by
 * tesseract.js as the server's thread prepared it. tesseract.js reads its language data
 * from the installed `@tesseract.js-data/*` packages, never from a CDN.
 *
 * A document is read within its limits (the job's, document-text-thread.ts TEXT_LIMITS): its
 * first `pageLimit` pages at most, `ocrPageLimit` of them at most by OCR, and no page begun
 * once `timeLimitMs` has passed. The text read by then is the answer, with the pages it
 * came from (`pagesRead`), which the document's page tells ('Text read from the first {n}
 * pages'). The thread is nicer than the server's (runtime/thread-priority.ts): OCR on both
 * cores does not hold up a request.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { createWorker, type Worker as OcrWorker } from 'tesseract.js';
import { drawPage, openPdf, type PdfPage } from '../pdf-pages';
import { collectGarbage } from '../../runtime/collect-garbage';
import { jobPort } from '../../runtime/job-port';
import { yieldToTheServer } from '../../runtime/thread-priority';

export interface DocumentTextJob {
  id: number;
  /** The document's file (a copy of it the server's thread made, and removes). */
  file: string;
  mimeType: string;
  /** The folder holding `{lang}.traineddata.gz` of every language asked for. */
  langPath: string;
  cachePath: string;
  languages: string[];
  /** The most pages read, however they are read. */
  pageLimit: number;
  /** The most pages read by OCR (each drawn at 300 dpi and read: seconds a page). */
  ocrPageLimit: number;
  /** How long the document may be read: no page is begun after it. */
  timeLimitMs: number;
}

/** A document's text, from its first `pagesRead` of its `pages` pages. */
export interface DocumentTextRead {
  text: string;
  pages: number;
  pagesRead: number;
}

export type DocumentTextAnswer =
  ({ id: number } & DocumentTextRead) | { id: number; error: string };

/** A page's text layer counts when it has at least this many letters or digits. */
const MIN_LAYER_CHARACTERS = 3;
const RENDER_DPI = 300;

let ocr: Promise<OcrWorker> | undefined;

function ocrWorker(job: DocumentTextJob): Promise<OcrWorker> {
  ocr ??= createWorker(job.languages.join('+'), 1, {
    langPath: job.langPath,
    cachePath: job.cachePath,
    gzip: true,
  });
  return ocr;
}

async function recognise(job: DocumentTextJob, image: Buffer | string): Promise<string> {
  const worker = await ocrWorker(job);
  const { data } = await worker.recognize(image);
  return data.text.trim();
}

/** An image, already turned upright and made a grey PNG (document-text.ts `ocrReady`). */
/**
 * A kept C-CDA's text: its markup taken away, never parsed (it is a file from outside: no
 * entity or document type of it is ever read). Its narrative is what search finds.
 */
async function xmlText(job: DocumentTextJob): Promise<DocumentTextRead> {
  const text = (await readFile(job.file, 'utf8'))
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(
      /&(lt|gt|amp|quot|apos);/g,
      (_, name: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[name] ?? ' ',
    )
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
  return { text, pages: 1, pagesRead: 1 };
}

async function imageText(job: DocumentTextJob): Promise<DocumentTextRead> {
  return { text: await recognise(job, job.file), pages: 1, pagesRead: 1 };
}

/**
 * A drawn page as tesseract.js reads it best and lightest: a grey PNG (a quarter of the
 * page's RGBA, in tesseract's memory too) that says its resolution, compressed little (it is
 * read at once). The grey is made here, into memory of this thread's own: handing sharp the
 * canvas's pixels as the canvas module gives them brought the process down about one page
 * in two (a libvips thread's segmentation fault).
 */
function greyPng(
  canvas: { width: number; height: number; data(): Buffer },
  dpi: number,
): Promise<Buffer> {
  const { width, height } = canvas;
  const rgba = canvas.data();
  const grey = Buffer.allocUnsafe(width * height);
  // ITU-R BT.601 luma, as libvips's own greyscale, in integers.
  for (let pixel = 0, at = 0; pixel < grey.length; pixel += 1, at += 4) {
    grey[pixel] = (rgba[at]! * 77 + rgba[at + 1]! * 150 + rgba[at + 2]! * 29) >> 8;
  }
  return sharp(grey, { raw: { width, height, channels: 1 } })
    .withMetadata({ density: dpi })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * A page drawn at 300 dpi (a page too large for that at the resolution that fits it,
 * documents/drawing-limits.ts MAX_PAGE_PIXELS), its pictures let go and collected once it is
 * drawn.
 */
async function drawnAlone(page: PdfPage) {
  const canvas = await drawPage(page, RENDER_DPI / 72);
  const dpi = (72 * canvas.width) / page.getViewport({ scale: 1 }).width;
  page.cleanup();
  collectGarbage('major');
  return { canvas, dpi };
}

/** A page drawn as a grey PNG that says its resolution, its canvas collected before OCR. */
async function drawnInGrey(page: PdfPage): Promise<Buffer> {
  const { canvas, dpi } = await drawnAlone(page);
  const png = await greyPng(canvas, dpi);
  collectGarbage('major');
  return png;
}

async function pdfText(job: DocumentTextJob): Promise<DocumentTextRead> {
  const started = performance.now();
  const document = await openPdf(job.file);
  const texts: string[] = [];
  let recognised = 0;
  let number = 1;
  try {
    for (; number <= Math.min(document.numPages, job.pageLimit); number += 1) {
      // The first page is always read: a text says what it was read from.
      if (number > 1 && performance.now() - started >= job.timeLimitMs) break;
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const layer = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : ''))
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .trim();
      if (layer.replace(/[^\p{L}\p{N}]/gu, '').length >= MIN_LAYER_CHARACTERS) {
        texts.push(layer);
        page.cleanup();
      } else if (recognised < job.ocrPageLimit) {
        recognised += 1;
        texts.push(await recognise(job, await drawnInGrey(page)));
      } else {
        page.cleanup();
        break;
      }
    }
    return {
      text: texts.filter(Boolean).join('\n\n'),
      pages: document.numPages,
      pagesRead: number - 1,
    };
  } finally {
    await document.destroy();
  }
}

async function read(job: DocumentTextJob): Promise<DocumentTextAnswer> {
  try {
    const result =
      job.mimeType === 'application/pdf'
        ? await pdfText(job)
        : job.mimeType === 'application/xml'
          ? await xmlText(job)
          : await imageText(job);
    return { id: job.id, ...result };
  } catch (error) {
    return { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
}

yieldToTheServer();

const port = jobPort<DocumentTextJob, DocumentTextAnswer>('document-text-worker');
port.onJob((job) => {
  void read(job).then((answer) => port.answer(answer));
});
