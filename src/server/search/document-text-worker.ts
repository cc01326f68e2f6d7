/**
 * The thread a document's text is read on (document-text-thread.ts starts it), so that
 * parsing a PDF, drawing its pages and OCR never hold up a request. One document at a time,
 * one page at a time: a PDF page's own text layer when it has one (pdf.js), else the page
 * drawn at 300 dpi (on pdf.js's @napi-rs/canvas) and read by tesseract.js; an image is read by
 * tesseract.js as the server's thread prepared it. tesseract.js reads its language data
 * from the installed `@tesseract.js-data/*` packages, never from a CDN.
 */
import { parentPort } from 'node:worker_threads';
import { createWorker, type Worker as OcrWorker } from 'tesseract.js';

export interface DocumentTextJob {
  id: number;
  bytes: Uint8Array;
  mimeType: string;
  /** The folder holding `{lang}.traineddata.gz` of every language asked for. */
  langPath: string;
  cachePath: string;
  languages: string[];
}

export type DocumentTextAnswer =
  { id: number; text: string; pages: number } | { id: number; error: string };

/** A page's text layer counts when it has at least this many letters or digits. */
const MIN_LAYER_CHARACTERS = 3;
const RENDER_DPI = 300;

/** pdf.js's factory of canvases in Node (NodeCanvasFactory), as far as it is used here. */
interface CanvasFactory {
  create(
    width: number,
    height: number,
  ): {
    canvas: { toBuffer(type: 'image/png'): Buffer };
    context: { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void };
  };
}

let ocr: Promise<OcrWorker> | undefined;

function ocrWorker(job: DocumentTextJob): Promise<OcrWorker> {
  ocr ??= createWorker(job.languages.join('+'), 1, {
    langPath: job.langPath,
    cachePath: job.cachePath,
    gzip: true,
  });
  return ocr;
}

async function recognise(job: DocumentTextJob, image: Buffer): Promise<string> {
  const worker = await ocrWorker(job);
  const { data } = await worker.recognize(image);
  return data.text.trim();
}

/** An image, already turned upright and made a PNG (document-text.ts `ocrReady`). */
async function imageText(job: DocumentTextJob): Promise<{ text: string; pages: number }> {
  return { text: await recognise(job, Buffer.from(job.bytes)), pages: 1 };
}

async function pdfText(job: DocumentTextJob): Promise<{ text: string; pages: number }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({
    data: new Uint8Array(job.bytes),
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  const texts: string[] = [];
  try {
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const layer = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : ''))
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .trim();
      if (layer.replace(/[^\p{L}\p{N}]/gu, '').length >= MIN_LAYER_CHARACTERS) {
        texts.push(layer);
      } else {
        const viewport = page.getViewport({ scale: RENDER_DPI / 72 });
        // pdf.js's own canvas (its @napi-rs/canvas): a canvas of another copy of the
        // library, drawn on by pdf.js, brings the process down.
        const { canvas, context } = (
          document as unknown as { canvasFactory: CanvasFactory }
        ).canvasFactory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
        context.fillStyle = '#ffffff';
        context.fillRect(0, 0, Math.ceil(viewport.width), Math.ceil(viewport.height));
        await page.render({ canvas: canvas as never, canvasContext: context as never, viewport })
          .promise;
        texts.push(await recognise(job, canvas.toBuffer('image/png')));
      }
      page.cleanup();
    }
  } finally {
    await document.destroy();
  }
  return { text: texts.filter(Boolean).join('\n\n'), pages: document.numPages };
}

async function read(job: DocumentTextJob): Promise<DocumentTextAnswer> {
  try {
    const result = job.mimeType === 'application/pdf' ? await pdfText(job) : await imageText(job);
    return { id: job.id, ...result };
  } catch (error) {
    return { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (job: DocumentTextJob) => {
  void read(job).then((answer) => parentPort?.postMessage(answer));
});
