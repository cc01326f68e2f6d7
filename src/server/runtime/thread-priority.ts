/**
 * A worker thread that does long work (reading a large import) made nicer than the server's
 * own thread, which answers everyone: on a busy machine the server's thread waited behind
 * it (a 24 MB import held /api/health answers for hundreds of milliseconds while the
 * server's thread had nothing else to do). On Linux a thread id, which /proc/thread-self
 * names, is a valid target of setpriority, and the niceness is that thread's alone.
 * Elsewhere (no /proc), or where it is not allowed, the thread runs as it is.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much nicer such a thread is than the server's (0 to 19; higher yields more). */
export const WORKER_NICENESS = 10;

/** The calling thread's id, on Linux; null elsewhere. */
export function threadId(): number | null {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    return Number.isInteger(id) ? id : null;
  } catch {
    return null;
  }
}

/** Makes the calling thread (only it) nicer than the server's own. */
export function yieldToTheServer() {
  const id = threadId();
  if (id === null) return;
  try {
    setPriority(id, Math.min(19, getPriority(id) + WORKER_NICENESS));
  } catch {
    // Not allowed here: the thread keeps the server's priority.
  }
}

/** The calling thread's niceness, on Linux (field 19 of /proc/thread-self/stat); null elsewhere. */
export function niceness(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // The fields after the command's closing parenthesis, from field 3 (the state) on.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  } catch {
    return null;
  }
}
