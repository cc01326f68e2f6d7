/**
 * The thread documents are prepared on (document-derive-thread.ts starts it): decoding a
 * HEIC photo (WebAssembly) and drawing a PDF's first page (pdf.js) are work on the thread
 * that runs them, which here is never the one answering requests. One job at a time, handed
 * over by the server's thread (runtime/job-thread.ts) as the one before is answered.
 */
import { collectGarbage } from '../runtime/collect-garbage';
import { jobPort } from '../runtime/job-port';
import { yieldToTheServer } from '../runtime/thread-priority';
import { loadPdfjs } from './pdf-pages';
import { processorFor } from './processors';
import type { DeriveJob, Derived } from './processors/processor';

export type DeriveAnswer =
  { id: number; derived: Derived } | { id: number; error: { name: string; message: string } };

const port = jobPort<DeriveJob & { id: number }, DeriveAnswer>('document-derive-worker');

// Nicer than the server's thread: a PDF that takes its 10 s to parse does not slow requests.
yieldToTheServer();
// pdf.js loaded before the thread says it is ready: its load is not the first PDF's time.
void loadPdfjs()
  .catch(() => {})
  .then(() => port.ready());

/** How long the thread waits, with no job in hand, before it collects what the last ones left. */
const COLLECT_AFTER_MS = 1000;

let queue: Promise<void> = Promise.resolve();
let inHand = 0;
let collection: NodeJS.Timeout | undefined;

port.onJob((job) => {
  inHand += 1;
  clearTimeout(collection);
  queue = queue
    .then(() =>
      processorFor(job.mimeType)
        .derive(job)
        .then(
          (derived) => {
            // sharp's buffers cannot be handed over as they are: each is copied once into
            // memory of its own, which is then handed over rather than copied again.
            const own = (bytes: Uint8Array | undefined) => {
              if (!bytes) return undefined;
              const copy = new Uint8Array(new ArrayBuffer(bytes.byteLength));
              copy.set(bytes);
              return copy;
            };
            const answer: Derived = {
              cleaned: derived.cleaned,
              display: own(derived.display),
              thumbnail: own(derived.thumbnail),
              undrawn: derived.undrawn,
            };
            const transfer = [answer.display, answer.thumbnail]
              .filter((bytes): bytes is Uint8Array => bytes !== undefined)
              .map((bytes) => bytes.buffer as ArrayBuffer);
            port.answer({ id: job.id, derived: answer }, transfer);
          },
          (error: unknown) => {
            const { name, message } = error instanceof Error ? error : new Error(String(error));
            port.answer({ id: job.id, error: { name, message } });
          },
        ),
    )
    // The queue goes on whatever one job did (an answer that could not be sent is one the
    // server's thread stops waiting for at its time limit).
    .catch(() => {})
    .finally(() => {
      inHand -= 1;
      // What the jobs decoded is garbage now, most of it outside V8's heap, where V8 would
      // leave it until it passed 64 MB: once uploads pause, the thread gives it back. Not
      // after each one: an archive's 40 documents would wait for 40 full collections.
      if (inHand === 0) {
        collection = setTimeout(() => collectGarbage('major'), COLLECT_AFTER_MS);
        collection.unref();
      }
    });
});
