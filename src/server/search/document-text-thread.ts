/**
 * The document-text thread (document-text-worker.ts), started with the first document to
 * read and kept while there are more: it ends after IDLE_MS with none, giving back what
 * OCR took (tesseract's WebAssembly memory never shrinks while it lives). With nothing in
 * hand it keeps no process alive. A thread that fails is replaced by the next document, and
 * the one it had fails with it.
 */
import { jobThread } from '../runtime/job-thread';
import type { DocumentTextAnswer, DocumentTextJob } from './document-text-worker';

/** How long the thread stays with no document to read. */
export const IDLE_MS = 60_000;

export interface DocumentTextThread {
  read(job: Omit<DocumentTextJob, 'id'>): Promise<{ text: string; pages: number }>;
  close(): Promise<void>;
}

export function documentTextThread(): DocumentTextThread {
  const thread = jobThread<
    Omit<DocumentTextJob, 'id'>,
    DocumentTextAnswer,
    { text: string; pages: number }
  >({
    entry: 'document-text-worker',
    from: import.meta.url,
    name: 'document text',
    idleMs: IDLE_MS,
    result: (answer) =>
      'error' in answer
        ? { error: new Error(answer.error) }
        : { ok: { text: answer.text, pages: answer.pages } },
  });
  return { read: thread.run, close: thread.close };
}
