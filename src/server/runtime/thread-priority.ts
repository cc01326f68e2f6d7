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

/**
 * The fields of a /proc `stat` file from field 3 (the state) on, after the command's closing
 * parenthesis (a command may hold spaces); null where there is no such file.
 */
function statFields(path: string): string[] | null {
  try {
    const stat = readFileSync(path, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The calling thread's niceness, on Linux (field 19 of /proc/thread-self/stat); null elsewhere. */
export function niceness(): number | null {
  const fields = statFields('/proc/thread-self/stat');
  return fields ? Number(fields[16]) : null;
}

/** How many milliseconds a clock tick of /proc is (USER_HZ: 100 a second on Linux). */
const TICK_MS = 10;

/**
 * The CPU time a process has spent, all its threads, user and system, in milliseconds
 * (fields 14 and 15 of /proc/PID/stat), on Linux; null elsewhere, or once it has ended.
 */
export function processCpuMs(pid: number | undefined): number | null {
  const fields = pid === undefined ? null : statFields(`/proc/${pid}/stat`);
  if (!fields) return null;
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks * TICK_MS : null;
}
