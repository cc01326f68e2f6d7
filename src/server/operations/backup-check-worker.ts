/**
 * The thread a backup's copy is checked on (backup-check-thread.ts starts one per backup):
 * the integrity check reads every page of the copy, 0.8 s for a 250 MB database on a quiet
 * core, which on the server's own thread held up every request meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { verifyCopy } from './backup-check';

const { file, expected } = workerData as { file: string; expected: Record<string, number> };
parentPort?.postMessage({ problem: verifyCopy(file, expected) });
