/**
 * A backup's copy checked off the server's thread (backup-check-worker.ts): the answer is
 * the problem found, or null, as `verifyCopy` gives it in the thread.
 */
import { Worker } from 'node:worker_threads';
import { workerSource } from '../runtime/worker-source';

/** The copy's integrity and its row counts against `expected`; the problem found, or null. */
export function checkCopyOffThread(
  file: string,
  expected: Record<string, number>,
): Promise<string | null> {
  const { url, execArgv } = workerSource(import.meta.url, 'backup-check-worker');
  return new Promise((resolve) => {
    const thread = new Worker(url, {
      ...(execArgv ? { execArgv } : {}),
      workerData: { file, expected },
    });
    let answered = false;
    thread.once('message', (message: { problem: string | null }) => {
      answered = true;
      resolve(message.problem);
    });
    thread.once('error', (error) => {
      answered = true;
      resolve(`it could not be checked (${error.message})`);
    });
    thread.once('exit', (code) => {
      if (!answered) resolve(`it could not be checked (its thread ended with ${code})`);
    });
  });
}
