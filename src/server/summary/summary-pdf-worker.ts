/**
 * The thread that makes summary PDFs (summary-pdf-thread.ts starts it): laying out a busy
 * summary takes pdfmake up to a second of CPU, which here never holds up the server's other
 * requests. One job at a time, in the order they come.
 */
import { parentPort } from 'node:worker_threads';
import type { PersonSummary } from '../../shared/person-summary';
import type { LanguageCode } from '../../shared/i18n/languages';
import { inLanguage } from '../i18n/server-language';
import { renderSummaryPdf } from './render-summary-pdf';

export interface SummaryPdfJob {
  id: number;
  summary: PersonSummary;
  timeZone: string;
  /** The language the summary is written in (its reader's account's). */
  language: LanguageCode;
}

export type SummaryPdfAnswer =
  | { id: number; pdf: Uint8Array<ArrayBuffer> }
  | { id: number; error: { name: string; message: string } };

const port = parentPort;
if (!port) throw new Error('summary-pdf-worker runs as a worker thread only');

// A language's words are loaded by its first summary, and kept for the thread's life.
port.on('message', (job: SummaryPdfJob) => {
  inLanguage(job.language, () => renderSummaryPdf(job.summary, { timeZone: job.timeZone })).then(
    (pdf) => {
      // A copy of its own, handed over rather than copied again.
      const bytes = new Uint8Array(new ArrayBuffer(pdf.byteLength));
      bytes.set(pdf);
      port.postMessage({ id: job.id, pdf: bytes } satisfies SummaryPdfAnswer, [bytes.buffer]);
    },
    (error: unknown) => {
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      port.postMessage({ id: job.id, error: { name, message } } satisfies SummaryPdfAnswer);
    },
  );
});
