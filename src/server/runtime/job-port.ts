/**
 * The side of a job thread's code that takes jobs and answers them (runtime/job-thread.ts),
 * the same whether it runs as a worker thread or as a process of its own (`heapMb`): the
 * jobs come on the thread's port or the process's channel, and go back the same way.
 */
import { parentPort } from 'node:worker_threads';
import type { READY } from './job-thread';

const ready: typeof READY = { ready: true };

export interface JobPort<Job, Answer> {
  /** Calls `handle` with each job sent. */
  onJob(handle: (job: Job) => void): void;
  /** Answers a job; `transfer`'s buffers are handed over where a thread can (not copied). */
  answer(answer: Answer, transfer?: ArrayBuffer[]): void;
  /** Says the libraries are loaded: the first job's time starts now (`announcesReady`). */
  ready(): void;
}

/** This thread's or this process's port; `name` says what runs here, in the error. */
export function jobPort<Job, Answer>(name: string): JobPort<Job, Answer> {
  const port = parentPort;
  if (port) {
    return {
      onJob: (handle) => port.on('message', handle),
      answer: (answer, transfer) => port.postMessage(answer, transfer),
      ready: () => port.postMessage(ready),
    };
  }
  const send = process.send?.bind(process);
  if (!send) throw new Error(`${name} runs as a worker thread or a child process only`);
  return {
    onJob: (handle) => process.on('message', (job) => handle(job as Job)),
    answer: (answer) => send(answer),
    ready: () => send(ready),
  };
}
