/**
 * Documents prepared on a thread of their own (document-derive-worker.ts): a thumbnail is
 * made once, at upload, without the server's own thread decoding a photo or drawing a PDF.
 * The thread starts with the first upload and stays while uploads come (pdf.js takes a
 * second to load); it ends after IDLE_MS with none, giving back what pdf.js and the
 * pictures took. With nothing in hand it keeps no process alive. A thread that fails, or
 * takes longer than DERIVE_TIME_LIMIT_MS, is replaced by the next upload, and the jobs it
 * had in hand fail with it.
 */
import { jobThread } from '../runtime/job-thread';
import type { DeriveJob, Derived } from './derive-document';
import type { DeriveAnswer } from './document-derive-worker';

/** How long the thread may spend preparing one document (its wait behind others aside). */
export const DERIVE_TIME_LIMIT_MS = 30_000;

/** How long the thread stays with no upload to prepare. */
export const IDLE_MS = 60_000;

export interface DeriveThread {
  derive(job: DeriveJob): Promise<Derived>;
  close(): Promise<void>;
}

export function documentDeriveThread(): DeriveThread {
  const thread = jobThread<DeriveJob, DeriveAnswer, Derived>({
    entry: 'document-derive-worker',
    from: import.meta.url,
    name: 'documents',
    // A thumbnail takes under a second; a file that keeps its library busy longer is kept
    // without one (a PDF) or refused (an image), and the uploads behind it go on.
    timeLimitMs: DERIVE_TIME_LIMIT_MS,
    idleMs: IDLE_MS,
    result: (answer) =>
      'derived' in answer ? { ok: answer.derived } : { error: new Error(answer.error.message) },
  });
  return { derive: thread.run, close: thread.close };
}
