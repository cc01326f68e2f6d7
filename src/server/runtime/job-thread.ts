/**
 * A thread of its own for one kind of job (a summary PDF, a document's thumbnail, a
 * document's text), so that the server's own thread never does that work. The thread starts
 * with the first job and stays (loading its libraries again would cost the next job); with
 * nothing in hand it keeps no process alive.
 *
 * The thread is handed one job at a time; the others wait here, taken in turn by whose they
 * are (`turnOf`: one of each account's, round the accounts, so that one account's many
 * uploads do not hold another's behind them all), else in the order sent. A job the thread
 * is still on after its time limit (a process's CPU time, CLOCK_LIMIT_FACTOR) fails, and the
 * thread is ended (a file that sends its
 * library into a loop would otherwise hold every later job behind it); so does a job whose
 * thread fails under it (a crash, its heap full). Only that job fails: the jobs waiting go
 * on, on a new thread. A thread given `idleMs` ends once it has had nothing to do for that
 * long, and gives back its memory (a library's WebAssembly memory, which never shrinks, and
 * its heap).
 *
 * Given `heapMb`, the "thread" is a process of its own, its heap that size: a job that fills
 * it ends that process alone. A worker thread's own heap limit (`resourceLimits`) is not a
 * bound: past it, V8 ends the worker or, depending on how the heap filled, aborts the whole
 * server (nodejs/node#47224; pdf.js indexing a PDF of a million objects did the second).
 * The worker's code takes its jobs the same way either way (runtime/job-port.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { processCpuMs } from './thread-priority';
import { workerSource } from './worker-source';

export interface JobThread<Job, Result> {
  run(job: Job): Promise<Result>;
  /** Ends the thread now, failing the job it is on and those waiting (it starts again if another job comes). */
  close(): Promise<void>;
  /**
   * Ends the thread now if it has no job in hand, giving back its memory at
   * once rather than `idleMs` later; a job sent afterwards starts it again.
   */
  rest(): void;
  /** Whether the thread is there now. */
  readonly running: boolean;
}

export interface JobThreadOptions<Job, Answer, Result> {
  /** The worker's entry point ('summary-pdf-worker'), beside the module `from` names. */
  entry: string;
  /** The caller's import.meta.url: its worker is beside it (runtime/worker-source.ts). */
  from: string;
  /** How the thread is named when it stops: 'The {name} thread stopped'. */
  name: string;
  /** The job's result from its answer, or the error it answers with. */
  result(answer: Answer): { ok: Result } | { error: Error };
  /**
   * How long the thread may spend on one job (the same for all, or each job's own), counted
   * from when the thread is handed it: its wait behind others does not count. A process's
   * time is the CPU time it spends (`cpuMs`), a thread's the clock's.
   */
  timeLimitMs?: number | ((job: Job) => number);
  /** How long the thread stays with nothing to do before it ends (none: it stays). */
  idleMs?: number;
  /** Whose a job is (an account's id): jobs waiting are taken one of each in turn. */
  turnOf?: (job: Job) => string;
  /**
   * The worker says when its libraries are loaded (runtime/job-port.ts `ready`): its first
   * job's time starts then.
   */
  announcesReady?: boolean;
  /**
   * Run the worker as a process of its own, its JavaScript heap at most this many MB: a job
   * that fills it fails, alone, and the server goes on.
   */
  heapMb?: number;
  /**
   * A job whose thread ends under it (JobThreadStoppedError: a native library's crash, the
   * process ended from outside) is run once more, on a new thread, behind the jobs waiting
   * in its turn; a second such end fails it. Not for a job past its time or its heap: that
   * is the job's own doing, and would be again.
   */
  againAfterCrash?: boolean;
}

/** What a job runs on: a worker thread, or a child process with the same few methods. */
interface Runner {
  postMessage(message: unknown): void;
  // A Worker's listeners take `any` (its message); the listeners below say what each gets.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: 'message' | 'error' | 'exit', listener: (value: any) => void): unknown;
  ref(): void;
  unref(): void;
  terminate(): Promise<unknown>;
  /** The CPU time it has spent so far, in ms; null (or no such method) where it cannot be read. */
  cpuMs?(): number | null;
}

/** A child process as a Runner: its channel carries the jobs, copied as a thread's are. */
function processRunner(url: URL, execArgv: string[], heapMb: number, name: string): Runner {
  const child: ChildProcess = fork(fileURLToPath(url), [], {
    execArgv: [...execArgv, `--max-old-space-size=${heapMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    postMessage: (message) => child.send(message as never),
    on(event, listener: (value: unknown) => void) {
      if (event !== 'exit') return child.on(event, listener);
      return child.on('exit', (code, signal) => {
        // V8 aborts a process whose heap is full (SIGABRT): the job filled it.
        const full = signal === 'SIGABRT' || code === 134;
        const error = Object.assign(
          new Error(`The ${name} process ran out of memory (its heap is ${heapMb} MB)`),
          { code: 'ERR_WORKER_OUT_OF_MEMORY' },
        );
        listener(full ? error : (code ?? signal ?? -1));
      });
    },
    ref() {
      child.ref();
      child.channel?.ref();
    },
    unref() {
      child.unref();
      child.channel?.unref();
    },
    async terminate() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    cpuMs: () => processCpuMs(child.pid),
  };
}

/** What a worker says once its libraries are loaded (runtime/job-port.ts). */
export const READY = { ready: true } as const;
const isReady = (message: unknown): message is typeof READY =>
  typeof message === 'object' && message !== null && 'ready' in message && message.ready === true;

/** How long a thread that says when it is ready may take to be. */
export const START_LIMIT_MS = 60_000;

/**
 * A job's time is the CPU time its process spends on it, where that can be read (Linux): the
 * job threads are nicer than the server's (runtime/thread-priority.ts), and on a busy machine
 * one gets a tenth of a core or less, so that a thumbnail of half a second's work could take
 * longer than its limit on the clock. A job still running after this many times its limit on
 * the clock fails all the same (one waiting on something that never comes spends no CPU).
 */
export const CLOCK_LIMIT_FACTOR = 10;

/**
 * A job whose thread ended under it, not by the job's own limits: a crash in a native library
 * (a signal), or the process ended from outside.
 */
export class JobThreadStoppedError extends Error {
  constructor(thread: string, code: number | string) {
    super(
      `The ${thread} thread stopped (${typeof code === 'string' ? code : `exit code ${code}`})`,
    );
    this.name = 'JobThreadStoppedError';
  }
}

/** A job that was still running when its time ran out. */
export class JobTimeLimitError extends Error {
  constructor(
    readonly thread: string,
    readonly limitMs: number,
  ) {
    super(`The ${thread} thread took over ${limitMs} ms on one job`);
    this.name = 'JobTimeLimitError';
  }
}

/**
 * Whether a job failed for going past its thread's limits: its time, or the thread's heap
 * (Node's ERR_WORKER_OUT_OF_MEMORY). The same job would do so again.
 */
export function isPastLimits(error: unknown): boolean {
  return (
    error instanceof JobTimeLimitError ||
    (error instanceof Error && 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY')
  );
}

interface Waiting<Job, Result> {
  job: Job;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

interface InHand<Job, Result> extends Waiting<Job, Result> {
  id: number;
  thread: Runner;
  timer?: NodeJS.Timeout;
}

/**
 * Jobs waiting, by whose they are (an account's id), taken one of each in turn: the first
 * key is the next to have a turn.
 */
function jobsInTurn<T>() {
  const waiting = new Map<string, T[]>();
  /** Whose the last job handed over was. */
  let lastTurn: string | undefined;
  return {
    add(turn: string, job: T) {
      const jobs = waiting.get(turn);
      if (jobs) jobs.push(job);
      else waiting.set(turn, [job]);
    },
    /**
     * The next job waiting: the first of the next account's, which then goes last. The
     * account of the last job handed over waits for the others' turns, however early its
     * next job came.
     */
    takeNext(): T | undefined {
      let next = waiting.entries().next();
      if (next.done) return undefined;
      if (next.value[0] === lastTurn && waiting.size > 1) {
        waiting.delete(lastTurn);
        waiting.set(lastTurn, next.value[1]);
        next = waiting.entries().next();
        if (next.done) return undefined;
      }
      const [turn, jobs] = next.value;
      const job = jobs.shift();
      waiting.delete(turn);
      if (jobs.length > 0) waiting.set(turn, jobs);
      lastTurn = turn;
      return job;
    },
  };
}

/** A job's time limit: the same for all, or each job's own (none: no limit). */
function limitOf<Job>(options: Pick<JobThreadOptions<Job, never, never>, 'timeLimitMs'>, job: Job) {
  const limit = options.timeLimitMs;
  return typeof limit === 'function' ? limit(job) : limit;
}

/** A new thread for the options' worker: a worker thread, or a process when given `heapMb`. */
function newRunner(
  options: Pick<JobThreadOptions<never, never, never>, 'from' | 'entry' | 'heapMb' | 'name'>,
): Runner {
  const { url, execArgv } = workerSource(options.from, options.entry);
  return options.heapMb === undefined
    ? new Worker(url, execArgv ? { execArgv } : {})
    : processRunner(url, execArgv ?? [], options.heapMb, options.name);
}

export function jobThread<Job extends object, Answer extends { id: number }, Result>(
  options: JobThreadOptions<Job, Answer, Result>,
): JobThread<Job, Result> {
  let worker: Runner | undefined;
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | undefined;
  let inHand: InHand<Job, Result> | undefined;
  /** The threads that said they are ready (`announcesReady`). */
  const ready = new WeakSet<Runner>();
  const waiting = jobsInTurn<Waiting<Job, Result>>();
  const takeNext = waiting.takeNext;

  /** Settles the job in hand if it is `thread`'s, then hands the thread the next one. */
  function finish(thread: Runner, outcome: { ok: Result } | { error: Error }) {
    const job = inHand;
    if (!job || job.thread !== thread) return;
    inHand = undefined;
    clearTimeout(job.timer);
    if ('ok' in outcome) job.resolve(outcome.ok);
    else job.reject(outcome.error);
    handOver();
  }

  /** Hands the thread (started if need be) the next job waiting, or lets it rest. */
  function handOver() {
    if (inHand) return;
    const next = takeNext();
    if (!next) {
      worker?.unref();
      endWhenIdle();
      return;
    }
    clearTimeout(idleTimer);
    const thread = started();
    thread.ref();
    const job: InHand<Job, Result> = { ...next, id: nextId++, thread };
    inHand = job;
    // A thread that says when its libraries are loaded gets the time it takes to load them
    // (START_LIMIT_MS) besides its first job's: a cold start is not the job's time.
    if (options.announcesReady && !ready.has(thread)) {
      startClock(job, START_LIMIT_MS);
    } else startClock(job, limitOf(options, job.job));
    try {
      thread.postMessage({ ...next.job, id: job.id });
    } catch (error) {
      // A job that cannot be sent (a value that cannot be copied) fails alone.
      finish(thread, { error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  /**
   * Starts the clock of the job in hand, on `limit` (none: no limit): its thread's CPU time
   * where it can be read (CLOCK_LIMIT_FACTOR), else the clock's. The time is looked at when
   * the limit could have passed, and again as long as the job's CPU time has not reached it.
   */
  function startClock(job: InHand<Job, Result>, limit: number | undefined) {
    clearTimeout(job.timer);
    if (limit === undefined) return;
    const { thread } = job;
    const cpuAtStart = thread.cpuMs?.() ?? null;
    const clockAtStart = Date.now();
    const lookIn = (ms: number) => {
      job.timer = setTimeout(() => {
        const cpu = thread.cpuMs?.() ?? null;
        const onTheClock = Date.now() - clockAtStart;
        const spent = cpu === null || cpuAtStart === null ? onTheClock : cpu - cpuAtStart;
        const clockLeft = limit * CLOCK_LIMIT_FACTOR - onTheClock;
        if (spent >= limit || clockLeft <= 0) timeUp(job, limit);
        // A clock tick of /proc is 10 ms: not looked at more often than that.
        else lookIn(Math.max(20, Math.min(limit - spent, clockLeft)));
      }, ms);
      job.timer.unref();
    };
    lookIn(limit);
  }

  /** The job fails and its thread is ended; the jobs waiting go on, on a new one. */
  function timeUp(job: InHand<Job, Result>, limit: number) {
    const { thread } = job;
    if (worker === thread) worker = undefined;
    finish(thread, { error: new JobTimeLimitError(options.name, limit) });
    void thread.terminate();
  }

  /** Ends the thread if it is still without a job `idleMs` from now. */
  function endWhenIdle() {
    const idleMs = options.idleMs;
    const thread = worker;
    if (idleMs === undefined || !thread) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      // A job sent meanwhile stopped this clock; a thread that failed was replaced.
      if (worker !== thread || inHand) return;
      worker = undefined;
      void thread.terminate();
    }, idleMs);
    idleTimer.unref();
  }

  function started(): Runner {
    if (worker) return worker;
    const thread = newRunner(options);
    thread.on('message', (answer: Answer | typeof READY) => {
      if (isReady(answer)) {
        ready.add(thread);
        if (inHand?.thread !== thread) return;
        startClock(inHand, limitOf(options, inHand.job));
        return;
      }
      if (inHand?.thread !== thread || inHand.id !== answer.id) return;
      finish(thread, options.result(answer));
    });
    thread.on('error', (error: Error) => {
      if (worker === thread) worker = undefined;
      finish(thread, { error });
    });
    thread.on('exit', (code: number | string | Error) => {
      if (worker === thread) worker = undefined;
      finish(thread, {
        error: code instanceof Error ? code : new JobThreadStoppedError(options.name, code),
      });
    });
    worker = thread;
    return thread;
  }

  return {
    run(job) {
      const once = () =>
        new Promise<Result>((resolve, reject) => {
          waiting.add(options.turnOf?.(job) ?? '', { job, resolve, reject });
          handOver();
        });
      if (!options.againAfterCrash) return once();
      return once().catch((error: unknown) => {
        if (error instanceof JobThreadStoppedError) return once();
        throw error;
      });
    },
    rest() {
      const thread = worker;
      // Jobs wait only behind one in hand: without one, none waits.
      if (!thread || inHand) return;
      clearTimeout(idleTimer);
      worker = undefined;
      void thread.terminate();
    },
    async close() {
      clearTimeout(idleTimer);
      const closed = new Error(`The ${options.name} thread was closed`);
      for (let job = takeNext(); job; job = takeNext()) job.reject(closed);
      const thread = worker;
      worker = undefined;
      if (thread) {
        finish(thread, { error: closed });
        await thread.terminate();
      }
    },
    get running() {
      return worker !== undefined;
    },
  };
}
