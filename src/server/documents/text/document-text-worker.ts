/**
 * The thread a document's text is read on (document-text-thread.ts starts it), so that
 * parsing a PDF, drawing its pages and OCR never hold up a request. One document at a time,
 * read by the processor of its type (processors/index.ts `processorFor`), one page at a time:
 * a PDF page's own text layer when it has one (pdf.js, reading the file a range at a time),
 * else the page drawn at 300 dpi (documents/pdf-pages.ts: its JPEG pictures decoded by sharp)
 * and read in grey by tesseract.js; an image is read by tesseract.js as the server's thread
 * prepared it. Of what OCR reads, the lines read with confidence are kept
 * (confident-text.ts): it answers with its lines alone, not its whole text as well. The OCR
 * worker is this thread's, handed to the processor: tesseract.js reads its language data
 * from the installed `@tesseract.js-data/*` packages, never from a CDN. Under a small memory
 * budget (`releaseOcr`) it is ended once the document is read, and before a PDF's next pages
 * are drawn, and with it the WebAssembly memory its pages grew.
 *
 * A document is read within its limits (the job's, document-text-thread.ts TEXT_LIMITS): its
 * first `pageLimit` pages at most, `ocrPageLimit` of them at most by OCR, and no page begun
 * once `timeLimitMs` has passed. The text read by then is the answer, with the pages it
 * came from (`pagesRead`), which the document's page tells ('Text read from the first {n}
 * pages'). The thread is nicer than the server's (runtime/thread-priority.ts): OCR on both
 * cores does not hold up a request.
 */
import { createWorker, type Worker as OcrWorker } from 'tesseract.js';
import { processorFor } from '../processors';
import { confidentText } from './confident-text';
import type { DocumentTextJob, DocumentTextRead, Ocr } from '../processors/processor';
import { jobPort } from '../../runtime/job-port';
import { yieldToTheServer } from '../../runtime/thread-priority';

/** The text read, or why not (`locked`: a PDF that opens only with its password). */
export type DocumentTextAnswer =
  ({ id: number } & DocumentTextRead) | { id: number; error: string; locked?: true };

let ocr: Promise<OcrWorker> | undefined;

function ocrWorker(job: DocumentTextJob): Promise<OcrWorker> {
  ocr ??= createWorker(job.languages.join('+'), 1, {
    langPath: job.langPath,
    cachePath: job.cachePath,
    gzip: true,
  });
  return ocr;
}

/** Ends the OCR worker, if there is one: the next read starts another. */
async function endOcr() {
  const started = ocr;
  ocr = undefined;
  if (started) await (await started).terminate();
}

/** OCR as the job's processor uses it: released between uses where the job says so. */
function ocrFor(job: DocumentTextJob): Ocr {
  const release = () => (job.releaseOcr ? endOcr() : Promise.resolve());
  return {
    async read(image) {
      const { data } = await (
        await ocrWorker(job)
      ).recognize(image, {}, { text: false, blocks: true });
      return confidentText(data.blocks);
    },
    release,
  };
}

async function read(job: DocumentTextJob): Promise<DocumentTextAnswer> {
  const ocr = ocrFor(job);
  try {
    const result = await processorFor(job.mimeType).text(job, ocr);
    return { id: job.id, ...result };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // pdf.js's refusal of a PDF encrypted with a password it was not given.
    const locked = error instanceof Error && error.name === 'PasswordException';
    return { id: job.id, error: message, ...(locked && { locked: true as const }) };
  } finally {
    await ocr.release().catch(() => undefined);
  }
}

yieldToTheServer();

const port = jobPort<DocumentTextJob, DocumentTextAnswer>('document-text-worker');
port.onJob((job) => {
  void read(job).then((answer) => port.answer(answer));
});
