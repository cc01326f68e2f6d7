/**
 * Documents prepared on a thread of their own (document-derive-worker.ts): a thumbnail is
 * made once, at upload, without the server's own thread decoding a photo or drawing a PDF.
 * The thread starts with the first upload and stays while uploads come (pdf.js takes a
 * second to load); it ends after the memory budget's `jobIdleMs` with none, giving back what
 * pdf.js and the pictures took. With nothing in hand it keeps no process alive.
 *
 * One account's upload cannot hold or fail another's (runtime/job-thread.ts): uploads are
 * prepared one at a time, one of each account's in turn; one that takes longer than its time
 * (PDF_TIME_LIMIT_MS for a PDF, DERIVE_TIME_LIMIT_MS for a photo), or whose parsing fills the
 * thread's heap past the budget's `jobHeapMb`, fails alone (a PDF is kept without a
 * thumbnail, an image refused), and the thread is replaced for the uploads waiting.
 */
import type { JobProcessMemory } from '../config/memory';
import { jobThread } from '../runtime/job-thread';
import type { DeriveAnswer } from './document-derive-worker';
import type { DeriveJob, Derived } from './processors/processor';

/**
 * How long the thread may spend preparing a photo (its wait behind others aside): a photo
 * that cannot be prepared is refused, so its time is generous (a 12-megapixel HEIC is
 * decoded in about a second).
 */
export const DERIVE_TIME_LIMIT_MS = 30_000;

/**
 * How long it may spend on a PDF's thumbnail: a PDF past it is kept without one. A scan's
 * first page is drawn in 0.5 s, a PDF of 600,000 objects with its cross-reference table in
 * 5 s; the uploads behind a PDF made to be slow wait this long at most.
 */
export const PDF_TIME_LIMIT_MS = 10_000;

export interface DeriveThread {
  derive(job: DeriveJob): Promise<Derived>;
  /** Ends the thread now if it is idle (a heavy job begins: runtime/job-thread.ts `rest`). */
  rest(): void;
  close(): Promise<void>;
  /** Whether its process is there now. */
  readonly running: boolean;
}

/**
 * The thread, its JavaScript heap and how long it stays with no upload to prepare given by
 * the memory budget (config/memory.ts). pdf.js keeps each object of a PDF it has to index (a
 * file without a valid cross-reference table) on the heap: a 24 MB file of 1.4 million empty
 * objects took 2.1 GB and a minute before. A scan's page, its pictures outside the heap
 * (sharp's, the canvas's), takes a few MB of it.
 */
export function documentDeriveThread(memory: JobProcessMemory): DeriveThread {
  const thread = jobThread<DeriveJob, DeriveAnswer, Derived>({
    entry: 'document-derive-worker',
    from: import.meta.url,
    name: 'documents',
    // A thumbnail takes under a second; a file that keeps its library busy longer is kept
    // without one (a PDF) or refused (an image), and the uploads behind it go on.
    timeLimitMs: (job) =>
      job.mimeType === 'application/pdf' ? PDF_TIME_LIMIT_MS : DERIVE_TIME_LIMIT_MS,
    heapMb: memory.jobHeapMb,
    // A photo refused, or a PDF or C-CDA kept without its copies, because the process
    // crashed under it (a native library's fault) is not the file's doing as far as anyone
    // can tell: it is prepared once more, on a new process.
    againAfterCrash: true,
    announcesReady: true,
    turnOf: (job) => job.owner ?? '',
    idleMs: memory.jobIdleMs,
    result: (answer) =>
      'derived' in answer ? { ok: answer.derived } : { error: new Error(answer.error.message) },
  });
  return {
    derive: thread.run,
    rest: thread.rest,
    close: thread.close,
    get running() {
      return thread.running;
    },
  };
}
