/**
 * The thread documents are prepared on (document-derive-thread.ts starts it): decoding a
 * HEIC photo (WebAssembly) and drawing a PDF's first page (pdf.js) are work on the thread
 * that runs them, which here is never the one answering requests. One job at a time.
 */
import { parentPort } from 'node:worker_threads';
import { deriveDocument, type DeriveJob, type Derived } from './derive-document';

export type DeriveAnswer =
  { id: number; derived: Derived } | { id: number; error: { name: string; message: string } };

const port = parentPort;
if (!port) throw new Error('document-derive-worker runs as a worker thread only');

let queue: Promise<void> = Promise.resolve();
port.on('message', (job: DeriveJob & { id: number }) => {
  queue = queue.then(() =>
    deriveDocument(job).then(
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
        };
        const transfer = [answer.display, answer.thumbnail]
          .filter((bytes): bytes is Uint8Array => bytes !== undefined)
          .map((bytes) => bytes.buffer as ArrayBuffer);
        port.postMessage({ id: job.id, derived: answer } satisfies DeriveAnswer, transfer);
      },
      (error: unknown) => {
        const { name, message } = error instanceof Error ? error : new Error(String(error));
        port.postMessage({ id: job.id, error: { name, message } } satisfies DeriveAnswer);
      },
    ),
  );
});
