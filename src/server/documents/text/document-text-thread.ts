/**
 * The document-text thread (document-text-worker.ts), started with the first document to
 * read and kept while there are more: it ends after the memory budget's `jobIdleMs` with
 * none, giving back what OCR took (tesseract's WebAssembly memory never shrinks while it
 * lives). With nothing in hand it keeps no process alive.
 *
 * A document is read within TEXT_LIMITS: the thread stops between pages at its page limits
 * or its time, and answers with the text of the pages it read. One page that keeps the thread
 * past the time by PAGE_GRACE_MS more (a file that sends pdf.js into a loop), or whose parsing
 * fills the thread's heap past the budget's `jobHeapMb`, ends the thread: that document
 * fails, and the next is read on a new thread (runtime/job-thread.ts).
 */
import { DEFAULT_MEMORY_PLAN, type JobProcessMemory } from '../../config/memory';
import { jobThread } from '../../runtime/job-thread';
import type { DocumentTextJob, DocumentTextRead } from '../processors/processor';
import type { DocumentTextAnswer } from './document-text-worker';

/**
 * What reading one document may take. A page read by OCR takes seconds (a blank Letter page
 * about 1.5 s here, a scanned letter's 3 to 5 s); a page's own text, about 8 ms: a 4 MB PDF
 * of 10,000 blank pages would have held the thread for hours, and everyone's documents
 * behind it.
 */
export const TEXT_LIMITS: TextLimits = {
  pages: 1_000,
  ocrPages: 50,
  timeMs: 5 * 60_000,
};

export interface TextLimits {
  /** The most pages of a document whose text is read. */
  pages: number;
  /** The most of them read by OCR. */
  ocrPages: number;
  /** How long a document may be read (its process's CPU time): no page is begun after it. */
  timeMs: number;
}

/** How long the page being read when the time ran out may go on before the thread is ended. */
export const PAGE_GRACE_MS = 2 * 60_000;

export type DocumentTextThreadJob = Omit<DocumentTextJob, 'id'>;

/** A PDF that opens only with its password: it cannot be read, now or later. */
export class LockedDocumentError extends Error {}

export interface DocumentTextThread {
  read(job: DocumentTextThreadJob): Promise<DocumentTextRead>;
  close(): Promise<void>;
}

export function documentTextThread(
  options: { pageGraceMs?: number; memory?: JobProcessMemory } = {},
): DocumentTextThread {
  // The thread's JavaScript heap, how long it stays with no document to read, and whether
  // OCR's engine is ended between its uses (after each document, before a PDF's next pages
  // are drawn).
  const memory = options.memory ?? DEFAULT_MEMORY_PLAN;
  const pageGraceMs = options.pageGraceMs ?? PAGE_GRACE_MS;
  const thread = jobThread<DocumentTextThreadJob, DocumentTextAnswer, DocumentTextRead>({
    entry: 'document-text-worker',
    from: import.meta.url,
    name: 'document text',
    timeLimitMs: (job) => job.timeLimitMs + pageGraceMs,
    heapMb: memory.jobHeapMb,
    idleMs: memory.jobIdleMs,
    result: (answer) =>
      'error' in answer
        ? { error: answer.locked ? new LockedDocumentError(answer.error) : new Error(answer.error) }
        : { ok: { text: answer.text, pages: answer.pages, pagesRead: answer.pagesRead } },
  });
  return {
    read: (job) => thread.run({ ...job, releaseOcr: memory.releaseOcr }),
    close: thread.close,
  };
}
