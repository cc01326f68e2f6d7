/**
 * Documents prepared on a thread of their own (document-derive-worker.ts): a thumbnail is
 * made once, at upload, without the server's own thread decoding a photo or drawing a PDF.
 * The thread starts with the first upload and stays (pdf.js takes a second to load); with
 * nothing in hand it keeps no process alive. A thread that fails is replaced by the next
 * upload, and the jobs it had in hand fail with it.
 */
import { Worker } from 'node:worker_threads';
import { workerSource } from '../runtime/worker-source';
import type { DeriveJob, Derived } from './derive-document';
import type { DeriveAnswer } from './document-derive-worker';

interface Pending {
  thread: Worker;
  resolve: (derived: Derived) => void;
  reject: (error: Error) => void;
}

export interface DeriveThread {
  derive(job: DeriveJob): Promise<Derived>;
  close(): Promise<void>;
}

export function documentDeriveThread(): DeriveThread {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  function failAll(thread: Worker, error: Error) {
    for (const [id, job] of pending) {
      if (job.thread !== thread) continue;
      pending.delete(id);
      job.reject(error);
    }
  }

  function settle(answer: DeriveAnswer) {
    const job = pending.get(answer.id);
    if (!job) return;
    pending.delete(answer.id);
    if ('derived' in answer) job.resolve(answer.derived);
    else job.reject(new Error(answer.error.message));
    if (pending.size === 0) worker?.unref();
  }

  function started(): Worker {
    if (worker) return worker;
    const { url, execArgv } = workerSource(import.meta.url, 'document-derive-worker');
    const thread = new Worker(url, execArgv ? { execArgv } : {});
    thread.on('message', settle);
    thread.on('error', (error) => {
      if (worker === thread) worker = undefined;
      failAll(thread, error);
    });
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined;
      failAll(thread, new Error(`The documents thread stopped (exit code ${code})`));
    });
    worker = thread;
    return thread;
  }

  return {
    derive(job) {
      const thread = started();
      thread.ref();
      const id = nextId++;
      return new Promise<Derived>((resolve, reject) => {
        pending.set(id, { thread, resolve, reject });
        thread.postMessage({ ...job, id });
      });
    },
    async close() {
      const thread = worker;
      worker = undefined;
      if (thread) await thread.terminate();
    },
  };
}
