/**
 * The process a backup's copy is checked in (backup-check-thread.ts starts one per backup):
 * the integrity check reads every page of the copy, 0.8 s for a 250 MB database on a quiet
 * core, which on the server's own thread held up every request meanwhile. A process of its
 * own, not a thread: what SQLite's reading held goes back to the system when it ends.
 */
import { verifyCopy } from './backup-check';

process.once('message', (message: { file: string; expected: Record<string, number> }) => {
  process.send?.({ problem: verifyCopy(message.file, message.expected) }, () =>
    process.disconnect(),
  );
});
