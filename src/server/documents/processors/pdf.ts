/**
 * A PDF. At upload: kept without its metadata (pdf-metadata.ts) and its first page drawn by
 * pdf.js (pdf-pages.ts) as the thumbnail; a PDF pdf.js cannot draw is kept without one. Its
 * text: page by page, a page's own text layer when it has one, else the page drawn at 300 dpi
 * and read by OCR in grey, within the job's page limits and time.
 *
 * The pages OCR reads are drawn OCR_BATCH at a time, each to a grey PNG beside the job's copy
 * of the file, and then read in order (docs/decisions/0079): drawing and OCR are never under
 * way at once, so their memory is never summed. Before a batch is drawn, OCR gives its memory
 * back where the budget says so (`Ocr.release`); before it is read, pdf.js's document is let
 * go, and opened again for the pages after.
 */
import { rm, writeFile } from 'node:fs/promises';
import sharp from '../image-library';
import { collectGarbage } from '../../runtime/collect-garbage';
import type { PdfPage } from '../pdf-pages';
import type { DocumentProcessor, DocumentTextJob, DocumentTextRead, Ocr } from './processor';

/** A page's text layer counts when it has at least this many letters or digits. */
const MIN_LAYER_CHARACTERS = 3;
const RENDER_DPI = 300;
/**
 * How many pages are drawn before they are read by OCR. OCR's memory grows with each page it
 * reads, and is given back between batches: for the 14-page 300 dpi scan, the text process
 * held 370 MB at most with 2, 440 with 8 and 600 with none, for 17.7 s, 16 s and 15.8 s
 * (decision 0079). At most this many drawings wait on disk.
 */
export const OCR_BATCH = 2;

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
  const { drawPage } = await import('../pdf-pages');
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

/**
 * The CPU time this process has spent, in ms: all its threads (OCR's too). The text is read
 * in a process of its own, nicer than the server's: on a busy machine its pages are read
 * slower on the clock, not with more work.
 */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** A page of the document: its text, once read, or the drawing that waits for OCR. */
type PageText = { text: string } | { drawn: string };

async function pdfText(job: DocumentTextJob, ocr: Ocr): Promise<DocumentTextRead> {
  const started = cpuMs();
  // The first page is always read: a text says what it was read from.
  const mayBegin = (number: number) => number === 1 || cpuMs() - started < job.timeLimitMs;
  const { openPdf } = await import('../pdf-pages');
  let opened: ReturnType<typeof openPdf> | undefined;
  const document = () => (opened ??= openPdf(job.file));
  /** Lets the document go (pdf.js and what its drawing held), before OCR. */
  const close = async () => {
    const closing = opened;
    opened = undefined;
    if (closing) await (await closing).destroy();
    collectGarbage('major');
  };
  const { numPages } = await document();
  const pages: PageText[] = [];
  /** Every drawing made, removed at the end whatever happened. */
  const drawings: string[] = [];
  /** How many drawn pages wait for OCR. */
  const waiting = () => pages.filter((page) => 'drawn' in page).length;
  let recognised = 0;
  let ended = false;

  /** Reads the drawn pages in order; false when the time ran out before one of them. */
  async function readDrawn(): Promise<boolean> {
    await close();
    for (const [at, page] of pages.entries()) {
      if (!('drawn' in page)) continue;
      if (!mayBegin(at + 1)) {
        pages.length = at;
        return false;
      }
      pages[at] = { text: await ocr.read(page.drawn) };
      await rm(page.drawn, { force: true });
    }
    return true;
  }

  try {
    const last = Math.min(numPages, job.pageLimit);
    for (let number = 1; number <= last && !ended; number += 1) {
      if (!mayBegin(number)) break;
      const page = await (await document()).getPage(number);
      const content = await page.getTextContent();
      const layer = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : ''))
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .trim();
      if (layer.replace(/[^\p{L}\p{N}]/gu, '').length >= MIN_LAYER_CHARACTERS) {
        pages.push({ text: layer });
        page.cleanup();
      } else if (recognised < job.ocrPageLimit) {
        recognised += 1;
        if (waiting() === 0) await ocr.release();
        const drawn = `${job.file}.page-${number}.png`;
        drawings.push(drawn);
        await writeFile(drawn, await drawnInGrey(page), { mode: 0o600 });
        pages.push({ drawn });
        if (waiting() === OCR_BATCH) ended = !(await readDrawn());
      } else {
        page.cleanup();
        break;
      }
    }
    if (!ended) await readDrawn();
    return {
      text: pages
        .map((page) => ('text' in page ? page.text : ''))
        .filter(Boolean)
        .join('\n\n'),
      pages: numPages,
      pagesRead: pages.length,
    };
  } finally {
    await close();
    await Promise.all(drawings.map((drawn) => rm(drawn, { force: true })));
  }
}

export const pdfProcessor: DocumentProcessor = {
  async derive(job) {
    const [{ cleanPdfFile }, { pdfFirstPage }, { thumbnailOf }] = await Promise.all([
      import('../pdf-metadata'),
      import('../pdf-pages'),
      import('./derived-copies'),
    ]);
    // Kept without its metadata (pdf-metadata.ts), drawn as kept; a PDF pdf.js cannot
    // draw is kept without a thumbnail.
    const cleaned = await cleanPdfFile(job.file, job.cleanedFile);
    const page = await pdfFirstPage(cleaned ? job.cleanedFile : job.file).then(
      (png) => ({ png }),
      (error: unknown) => ({ undrawn: error instanceof Error ? error.message : String(error) }),
    );
    return 'png' in page
      ? { cleaned, thumbnail: await thumbnailOf(sharp(page.png)) }
      : { cleaned, ...page };
  },
  // The text thread reads the PDF as it is kept, a range at a time.
  textReady: (document) => Promise.resolve(document),
  text: pdfText,
};
