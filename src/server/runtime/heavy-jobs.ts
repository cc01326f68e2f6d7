/**
 * The server's heavy jobs, run a few at a time (config/memory.ts `heavyJobsAtOnce`: one
 * under 1 GB): reading and writing an import, a portal's records, a document's text by OCR.
 * Each holds tens to hundreds of megabytes while it runs; two at once on a small machine
 * could end the server. The others wait their turn, in the order they asked; one that waits
 * is told so (`onWait`), for the person waiting on it. One whose asker has gone (`signal`: the
 * browser left the page) leaves the queue and fails with the signal's reason, so that a
 * preview nobody waits for any more does not keep its turn, nor its account's import lock.
 *
 * The wait is for memory, not for fairness between accounts: each kind of job keeps its own
 * turns (the document-text queue's by account, an account's one import at a time).
 */
export interface HeavyJobs {
  /**
   * Runs `work` once a place is free; `onWait` is called first if it must wait. Should
   * `signal` abort while it waits, `work` never runs and the promise fails. A job that has
   * begun runs to its end.
   */
  run<T>(work: () => Promise<T>, onWait?: () => void, signal?: AbortSignal): Promise<T>;
  /**
   * Calls `listener` as each job begins, before its work: what holds memory it does not use
   * now (an idle job process) gives it to the job. Answers how to stop.
   */
  onBegin(listener: () => void): () => void;
  /**
   * Calls `listener` as each job ends, once its place is given on (what a job left behind
   * can be given back now). Answers how to stop.
   */
  onEnd(listener: () => void): () => void;
  /** How many run now. */
  readonly running: number;
  /** How many wait. */
  readonly waiting: number;
}

export function heavyJobs(atOnce: number): HeavyJobs {
  if (!Number.isInteger(atOnce) || atOnce < 1) {
    throw new Error(`heavy jobs: at least one at once, not ${atOnce}`);
  }
  let running = 0;
  const queue: (() => void)[] = [];
  const beginning = new Set<() => void>();
  const ending = new Set<() => void>();

  const take = async (onWait?: () => void, signal?: AbortSignal) => {
    signal?.throwIfAborted();
    if (running < atOnce && queue.length === 0) {
      running += 1;
      return;
    }
    onWait?.();
    // The place is handed over by the job that ends (running stays counted for it).
    await new Promise<void>((resolve, reject) => {
      const leave = () => {
        const at = queue.indexOf(turn);
        if (at >= 0) queue.splice(at, 1);
        reject(signal?.reason as Error);
      };
      const turn = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      queue.push(turn);
      signal?.addEventListener('abort', leave, { once: true });
    });
  };
  const give = () => {
    const next = queue.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    async run(work, onWait, signal) {
      await take(onWait, signal);
      try {
        for (const listener of beginning) listener();
        return await work();
      } finally {
        give();
        for (const listener of ending) listener();
      }
    },
    onBegin(listener) {
      beginning.add(listener);
      return () => beginning.delete(listener);
    },
    onEnd(listener) {
      ending.add(listener);
      return () => ending.delete(listener);
    },
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
  };
}
