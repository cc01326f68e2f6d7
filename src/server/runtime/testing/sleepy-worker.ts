/**
 * A job thread's worker for job-thread.test.ts: does its jobs one at a time, in order, as
 * the documents thread does; each takes `ms` milliseconds, or keeps the thread busy for good
 * when `ms` is negative (as a library in a loop would).
 */
import { parentPort } from 'node:worker_threads';

let queue: Promise<void> = Promise.resolve();
parentPort?.on('message', (job: { id: number; ms: number }) => {
  queue = queue.then(async () => {
    if (job.ms < 0) {
      for (;;) {
        // Busy: the thread answers nothing more.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, job.ms));
    parentPort?.postMessage({ id: job.id, slept: job.ms });
  });
});
