/**
 * A job thread's worker for job-thread.test.ts: answers each job after `ms` milliseconds, or
 * never when `ms` is negative (a job that keeps its thread busy for good).
 */
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', (job: { id: number; ms: number }) => {
  if (job.ms < 0) {
    for (;;) {
      // Busy, as a library in a loop is: the thread answers nothing more.
    }
  }
  setTimeout(() => parentPort?.postMessage({ id: job.id, slept: job.ms }), job.ms);
});
