/**
 * A PDF. At upload: kept without its metadata (pdf-metadata.ts) and its first page drawn by
 * pdf.js (pdf-pages.ts) as the thumbnail; a PDF pdf.js cannot draw is kept without one. Its
 * text: page by page, a page's own text layer when it has one, else the page drawn at 300 dpi
 * and read by OCR in grey, within the job's page limits and time. Each job opens the PDF with
 * pdf.js once, and reads or draws its pages from that one document.
 */
import sharp from '../image-library';
import { collectGarbage } from '../../runtime/collect-garbage';
import type { PdfPage } from '../pdf-pages';
import type { DocumentProcessor, DocumentTextJob, DocumentTextRead, Recognise } from './processor';

/** A page's text layer counts when it has at least this many letters or digits. */
const MIN_LAYER_CHARACTERS = 3;
const RENDER_DPI = 300;

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

async function pdfText(job: DocumentTextJob, recognise: Recognise): Promise<DocumentTextRead> {
  const started = cpuMs();
  const { openPdf } = await import('../pdf-pages');
  const document = await openPdf(job.file);
  const texts: string[] = [];
  let recognised = 0;
  let number = 1;
  try {
    for (; number <= Math.min(document.numPages, job.pageLimit); number += 1) {
      // The first page is always read: a text says what it was read from.
      if (number > 1 && cpuMs() - started >= job.timeLimitMs) break;
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
        texts.push(await recognise(await drawnInGrey(page)));
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
    const page = await pdfFirstPage(cleaned ? job.cleanedFile : job.file).catch(() => undefined);
    return { cleaned, thumbnail: page && (await thumbnailOf(sharp(page))) };
  },
  // The text thread reads the PDF as it is kept, a range at a time.
  textReady: (document) => Promise.resolve(document),
  text: pdfText,
};
