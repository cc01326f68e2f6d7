/**
 * Summary PDFs made on a thread of their own (summary-pdf-worker.ts), so that a busy summary's
 * second of layout never holds up anyone else's request. The thread starts with the first
 * summary asked for and makes them one at a time; it then stays, as pdfmake stayed loaded
 * when summaries were made on the server's own thread: starting it and loading pdfmake and
 * the fonts again would add about half a second to the next summary. With nothing in hand it
 * keeps no process alive. A thread that fails is replaced by the next summary asked for, and
 * the summaries it had in hand fail with it.
 */
import { Worker } from 'node:worker_threads';
import type { PersonSummary } from '../../shared/person-summary';
import type { RenderSummaryOptions } from './render-summary-pdf';
import type { SummaryPdfAnswer, SummaryPdfJob } from './summary-pdf-worker';
import { workerSource } from '../runtime/worker-source';

interface Pending {
  thread: Worker;
  resolve: (pdf: Uint8Array<ArrayBuffer>) => void;
  reject: (error: Error) => void;
}

export interface SummaryPdfThread {
  /** The PDF's bytes, handed over by the thread: the answer's body as they are. */
  render(summary: PersonSummary, options: RenderSummaryOptions): Promise<Uint8Array<ArrayBuffer>>;
  /** Ends the thread now (it starts again if another summary is asked for). */
  close(): Promise<void>;
  /** Whether the thread is there now. */
  readonly running: boolean;
}

export function summaryPdfThread(): SummaryPdfThread {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  /** Fails the summaries a thread had in hand. */
  function failAll(thread: Worker, error: Error) {
    for (const [id, job] of pending) {
      if (job.thread !== thread) continue;
      pending.delete(id);
      job.reject(error);
    }
  }

  function settle(answer: SummaryPdfAnswer) {
    const job = pending.get(answer.id);
    if (!job) return;
    pending.delete(answer.id);
    if ('pdf' in answer) {
      job.resolve(answer.pdf);
    } else {
      const error = answer.error.name === 'RangeError' ? new RangeError() : new Error();
      error.message = answer.error.message;
      job.reject(error);
    }
    if (pending.size === 0) worker?.unref();
  }

  function started(): Worker {
    if (worker) return worker;
    const { url, execArgv } = workerSource(import.meta.url, 'summary-pdf-worker');
    const thread = new Worker(url, execArgv ? { execArgv } : {});
    thread.on('message', settle);
    thread.on('error', (error) => {
      if (worker === thread) worker = undefined;
      failAll(thread, error);
    });
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined;
      failAll(thread, new Error(`The summary thread stopped (exit code ${code})`));
    });
    worker = thread;
    return thread;
  }

  async function stop() {
    const thread = worker;
    worker = undefined;
    if (thread) await thread.terminate();
  }

  return {
    render(summary, options) {
      const thread = started();
      thread.ref();
      const id = nextId++;
      return new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
        pending.set(id, { thread, resolve, reject });
        thread.postMessage({ id, summary, timeZone: options.timeZone } satisfies SummaryPdfJob);
      });
    },
    close: stop,
    get running() {
      return worker !== undefined;
    },
  };
}

let shared: SummaryPdfThread | undefined;

/** The process's one summary thread, for every app in it. */
export function sharedSummaryPdfThread(): SummaryPdfThread {
  shared ??= summaryPdfThread();
  return shared;
}
