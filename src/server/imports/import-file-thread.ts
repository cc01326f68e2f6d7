/**
 * A file read for an import on a thread of its own (import-file-worker.ts), started for the
 * one import and ended with it: without the server's own thread parsing and mapping the whole
 * file. The reading is answered once the thread has said whom the file is of; its records are
 * then fed to the import a slice at a time (record-feed.ts), each read only once the import
 * has taken the one before (decision 0077). A small file is read here, whole: starting a
 * thread takes longer than reading it.
 */
import { Worker } from 'node:worker_threads';
import type { ImportKind } from '../../shared/imports';
import { workerSource } from '../runtime/worker-source';
import type { ImportedDocument } from '../fhir/fhir-documents';
import { wholeFeed, type ReadRest, type RecordFeed } from '../fhir/record-feed';
import { badRequest } from '../http/errors';
import { NOT_IMPORTABLE } from '../../shared/imports';
import type { ReadOptions, ReadingResult, ReceivedFile } from './file-readers';
import type { ImportFileJob, ImportFileMessage } from './import-file-worker';
import { readerFor } from './readers';
import { languageInForce } from '../i18n/server-language';

/**
 * Below this, a file is read on the server's own thread: a bundle of 256 kB is about two
 * thousand resources, read in some tens of milliseconds, less than starting a thread takes.
 */
export const THREAD_FROM_BYTES = 256 * 1024;

/** The thread's records, each slice asked for when the one before has been taken. */
function threadFeed(thread: Worker, ask: () => Promise<ImportFileMessage>): RecordFeed {
  const documents: ImportedDocument[] = [];
  let rest: ReadRest | undefined;
  return {
    async *slices() {
      for (;;) {
        const message = await ask();
        if (message.kind === 'records') yield { type: message.type, records: message.records };
        else if (message.kind === 'document') documents.push(message.document);
        else if (message.kind === 'refused') throw badRequest(message.message, 'file');
        else if (message.kind === 'done') {
          const { kind: _done, ...counts } = message;
          rest = { documents, ...counts };
          await thread.terminate();
          return;
        } else throw new Error(`The import thread said '${message.kind}' out of turn`);
      }
    },
    rest: () =>
      rest
        ? Promise.resolve(rest)
        : Promise.reject(new Error("The file's records were not all taken")),
    close: () => thread.terminate().then(() => undefined),
  };
}

/** Reads a received file of a kind this server has a reader for (else refuses it). */
export async function readFileOnThread(
  kind: ImportKind,
  file: ReceivedFile,
  options: ReadOptions,
): Promise<ReadingResult> {
  const reader = readerFor(kind);
  if (!reader) return { ok: false, message: NOT_IMPORTABLE };
  if (file.size < THREAD_FROM_BYTES) {
    const read = await reader(file, options);
    return 'records' in read ? { ...read, records: wholeFeed(read.records) } : read;
  }
  const { url, execArgv } = workerSource(import.meta.url, 'import-file-worker');
  return new Promise<ReadingResult>((resolve, reject) => {
    const thread = new Worker(url, {
      ...(execArgv ? { execArgv } : {}),
      workerData: { kind, file, options, language: languageInForce() } satisfies ImportFileJob,
    });
    let headed = false;
    let ended = false;
    let failure: Error | undefined;
    let answer:
      { resolve: (message: ImportFileMessage) => void; reject: (error: Error) => void } | undefined;
    const ask = () =>
      new Promise<ImportFileMessage>((resolveAnswer, rejectAnswer) => {
        if (failure) return rejectAnswer(failure);
        answer = { resolve: resolveAnswer, reject: rejectAnswer };
        thread.postMessage('next');
      });
    const fail = (error: Error) => {
      if (ended) return;
      ended = true;
      failure = error;
      if (!headed) reject(error);
      answer?.reject(error);
      answer = undefined;
    };
    thread.on('message', (message: ImportFileMessage) => {
      if (headed) {
        if (message.kind === 'done' || message.kind === 'refused') ended = true;
        const waiting = answer;
        answer = undefined;
        waiting?.resolve(message);
      } else if (message.kind === 'head') {
        headed = true;
        const { patient, problems } = message;
        resolve({ kind, patient, problems, records: threadFeed(thread, ask) });
      } else if (message.kind === 'refused') {
        ended = true;
        resolve({ ok: false, message: message.message });
        void thread.terminate();
      } else fail(new Error(`The import thread said '${message.kind}' before whom the file is of`));
    });
    thread.on('error', fail);
    thread.on('exit', (code) => fail(new Error(`The import thread stopped (exit code ${code})`)));
  });
}
