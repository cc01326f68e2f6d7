/**
 * A thread that does long work for an import is nicer than the server's own thread, which
 * answers everyone; the server's thread keeps its priority.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { WORKER_NICENESS, niceness } from './thread-priority';

describe.runIf(process.platform === 'linux')('a worker thread yielding to the server', () => {
  it('is nicer than the thread that started it, which keeps its own niceness', async () => {
    const before = niceness();
    const worker = new Worker(new URL('./testing/nicer-thread.ts', import.meta.url), {
      execArgv: ['--import', 'tsx'],
    });
    try {
      const reported = await new Promise<unknown>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(reported).toBe(Math.min(19, (before ?? 0) + WORKER_NICENESS));
      expect(niceness()).toBe(before);
    } finally {
      await worker.terminate();
    }
  });
});
