/**
 * A backup's copy checked off the server's thread, in a process of its own
 * (backup-check-worker.ts): the answer is the problem found, or null, as `verifyCopy` gives it
 * there.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { workerSource } from '../runtime/worker-source';

/** The copy's integrity and its row counts against `expected`; the problem found, or null. */
export function checkCopyOffThread(
  file: string,
  expected: Record<string, number>,
): Promise<string | null> {
  const { url, execArgv } = workerSource(import.meta.url, 'backup-check-worker');
  return new Promise((resolve) => {
    const child = fork(fileURLToPath(url), [], {
      execArgv: execArgv ?? [],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let answered = false;
    child.once('message', (message: { problem: string | null }) => {
      answered = true;
      resolve(message.problem);
    });
    child.once('error', (error) => {
      answered = true;
      resolve(`it could not be checked (${error.message})`);
    });
    child.once('exit', (code, signal) => {
      if (!answered) resolve(`it could not be checked (its process ended with ${signal ?? code})`);
    });
    child.send({ file, expected });
  });
}
