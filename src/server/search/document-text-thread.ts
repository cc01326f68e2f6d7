/**
 * The document-text thread (document-text-worker.ts), started with the first document to
 * read and kept while there are more; with nothing in hand it keeps no process alive. A
 * thread that fails is replaced by the next document, and the one it had fails with it.
 */
import { Worker } from 'node:worker_threads';
import { workerSource } from '../runtime/worker-source';
import type { DocumentTextAnswer, DocumentTextJob } from './document-text-worker';

export interface DocumentTextThread {
  read(job: Omit<DocumentTextJob, 'id'>): Promise<{ text: string; pages: number }>;
  close(): Promise<void>;
}

export function documentTextThread(): DocumentTextThread {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    {
      thread: Worker;
      resolve: (value: { text: string; pages: number }) => void;
      reject: (error: Error) => void;
    }
  >();

  function failAll(thread: Worker, error: Error) {
    for (const [id, job] of pending) {
      if (job.thread !== thread) continue;
      pending.delete(id);
      job.reject(error);
    }
  }

  function started(): Worker {
    if (worker) return worker;
    const { url, execArgv } = workerSource(import.meta.url, 'document-text-worker');
    const thread = new Worker(url, execArgv ? { execArgv } : {});
    thread.on('message', (answer: DocumentTextAnswer) => {
      const job = pending.get(answer.id);
      if (!job) return;
      pending.delete(answer.id);
      if ('error' in answer) job.reject(new Error(answer.error));
      else job.resolve({ text: answer.text, pages: answer.pages });
      if (pending.size === 0) thread.unref();
    });
    thread.on('error', (error) => {
      if (worker === thread) worker = undefined;
      failAll(thread, error);
    });
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined;
      failAll(thread, new Error(`The document text thread stopped (exit code ${code})`));
    });
    worker = thread;
    return thread;
  }

  return {
    read(job) {
      const thread = started();
      thread.ref();
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { thread, resolve, reject });
        thread.postMessage({ ...job, id } satisfies DocumentTextJob);
      });
    },
    async close() {
      const thread = worker;
      worker = undefined;
      if (thread) await thread.terminate();
    },
  };
}
