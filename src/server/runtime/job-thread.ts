/**
 * A thread of its own for one kind of job (a summary PDF, a document's thumbnail, a
 * document's text), so that the server's own thread never does that work. The thread starts
 * with the first job and stays (loading its libraries again would cost the next job); with
 * nothing in hand it keeps no process alive. Each job is sent with an id its answer names. A
 * thread that fails is replaced by the next job, and the jobs it had in hand fail with it;
 * so does a thread still on one job after `timeLimitMs` (a file that sends its library into
 * a loop would otherwise hold every later job behind it). A thread given `idleMs` ends once
 * it has had nothing to do for that long, and gives back its memory (a library's WebAssembly
 * memory, which never shrinks, and its heap).
 */
import { Worker } from 'node:worker_threads';
import { workerSource } from './worker-source';

export interface JobThread<Job, Result> {
  run(job: Job): Promise<Result>;
  /** Ends the thread now (it starts again if another job comes). */
  close(): Promise<void>;
  /** Whether the thread is there now. */
  readonly running: boolean;
}

export interface JobThreadOptions<Answer, Result> {
  /** The worker's entry point ('summary-pdf-worker'), beside the module `from` names. */
  entry: string;
  /** The caller's import.meta.url: its worker is beside it (runtime/worker-source.ts). */
  from: string;
  /** How the thread is named when it stops: 'The {name} thread stopped'. */
  name: string;
  /** The job's result from its answer, or the error it answers with. */
  result(answer: Answer): { ok: Result } | { error: Error };
  /**
   * How long the thread may spend on one job. The thread does its jobs one at a time, in the
   * order sent, so a job's time counts from when the one before it is answered.
   */
  timeLimitMs?: number;
  /** How long the thread stays with nothing to do before it ends (none: it stays). */
  idleMs?: number;
}

export function jobThread<Job extends object, Answer extends { id: number }, Result>(
  options: JobThreadOptions<Answer, Result>,
): JobThread<Job, Result> {
  let worker: Worker | undefined;
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | undefined;
  const pending = new Map<
    number,
    {
      thread: Worker;
      resolve: (result: Result) => void;
      reject: (error: Error) => void;
      timer?: NodeJS.Timeout;
    }
  >();

  /** Fails the jobs a thread had in hand. */
  function failAll(thread: Worker, error: Error) {
    for (const [id, job] of pending) {
      if (job.thread !== thread) continue;
      pending.delete(id);
      clearTimeout(job.timer);
      job.reject(error);
    }
  }

  /** Starts the clock of the thread's oldest job, the one it is on now. */
  function timeOldest(thread: Worker) {
    const limit = options.timeLimitMs;
    if (limit === undefined) return;
    const oldest = [...pending.values()].find((job) => job.thread === thread);
    if (!oldest || oldest.timer) return;
    oldest.timer = setTimeout(() => {
      // The thread is ended and its jobs fail; the next job starts another.
      if (worker === thread) worker = undefined;
      failAll(thread, new Error(`The ${options.name} thread took over ${limit} ms on one job`));
      void thread.terminate();
    }, limit);
    oldest.timer.unref();
  }

  function settle(answer: Answer) {
    const job = pending.get(answer.id);
    if (!job) return;
    pending.delete(answer.id);
    clearTimeout(job.timer);
    const outcome = options.result(answer);
    if ('ok' in outcome) job.resolve(outcome.ok);
    else job.reject(outcome.error);
    timeOldest(job.thread);
    if (pending.size === 0) {
      worker?.unref();
      endWhenIdle();
    }
  }

  /** Ends the thread if it is still without a job `idleMs` from now. */
  function endWhenIdle() {
    const idleMs = options.idleMs;
    const thread = worker;
    if (idleMs === undefined || !thread) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      // A job sent meanwhile stopped this clock; a thread that failed was replaced.
      if (worker !== thread) return;
      worker = undefined;
      void thread.terminate();
    }, idleMs);
    idleTimer.unref();
  }

  function started(): Worker {
    if (worker) return worker;
    const { url, execArgv } = workerSource(options.from, options.entry);
    const thread = new Worker(url, execArgv ? { execArgv } : {});
    thread.on('message', settle);
    thread.on('error', (error) => {
      if (worker === thread) worker = undefined;
      failAll(thread, error);
    });
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined;
      failAll(thread, new Error(`The ${options.name} thread stopped (exit code ${code})`));
    });
    worker = thread;
    return thread;
  }

  return {
    run(job) {
      clearTimeout(idleTimer);
      const thread = started();
      thread.ref();
      const id = nextId++;
      return new Promise<Result>((resolve, reject) => {
        pending.set(id, { thread, resolve, reject });
        thread.postMessage({ ...job, id });
        timeOldest(thread);
      });
    },
    async close() {
      clearTimeout(idleTimer);
      const thread = worker;
      worker = undefined;
      if (thread) await thread.terminate();
    },
    get running() {
      return worker !== undefined;
    },
  };
}
