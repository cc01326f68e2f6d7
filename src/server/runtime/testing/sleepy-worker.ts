/**
 * A job thread's worker for job-thread.test.ts: does its jobs one at a time, in order, as
 * the documents thread does; each takes `ms` milliseconds, or keeps the thread busy for good
 * when `ms` is -1 (as a library in a loop would), or fills the thread's heap when it is -2
 * (as pdf.js indexing a million objects does). As a process, it dies at once (killed, as a
 * native library's crash would end it) when `ms` is -3 and its `marker` file is not there
 * yet (it makes it first), and always when -4. It runs as a thread or as a process.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { jobPort } from '../job-port';

const port = jobPort<{ id: number; ms: number; marker?: string }, { id: number; slept: number }>(
  'sleepy-worker',
);
let queue: Promise<void> = Promise.resolve();
port.onJob((job) => {
  queue = queue.then(async () => {
    if (job.ms === -1) {
      for (;;) {
        // Busy: the thread answers nothing more.
      }
    }
    if (job.ms === -4 || (job.ms === -3 && job.marker && !existsSync(job.marker))) {
      if (job.marker) writeFileSync(job.marker, '');
      process.kill(process.pid, 'SIGKILL');
      return;
    }
    if (job.ms === -2) {
      const kept: string[][] = [];
      for (;;) kept.push(Array.from({ length: 10_000 }, (_, i) => `object ${i}`));
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, job.ms)));
    port.answer({ id: job.id, slept: job.ms });
  });
});
