/**
 * A file read for an import on a thread of its own (import-file-worker.ts), started for the
 * one import and ended with it: what the kind's reader answers, without the server's own
 * thread parsing and mapping the whole file. A small file is read here: starting a thread
 * takes longer than reading it.
 */
import { Worker } from 'node:worker_threads';
import type { ImportKind } from '../../shared/imports';
import { workerSource } from '../runtime/worker-source';
import type { ImportedDocument } from '../fhir/fhir-documents';
import { noRecords } from '../fhir/fhir-import';
import { nextTurn } from '../data-transfer/import-plan';
import { NOT_IMPORTABLE } from '../../shared/imports';
import type { ReadFileResult, ReadOptions, ReceivedFile } from './file-readers';
import type { ImportFileJob, ImportFileMessage } from './import-file-worker';
import { readerFor } from './readers';
import { languageInForce } from '../i18n/server-language';

/**
 * Below this, a file is read on the server's own thread: a bundle of 256 kB is about two
 * thousand resources, read in some tens of milliseconds, less than starting a thread takes.
 */
export const THREAD_FROM_BYTES = 256 * 1024;

/** Reads a received file of a kind this server has a reader for (else refuses it). */
export function readFileOnThread(
  kind: ImportKind,
  file: ReceivedFile,
  options: ReadOptions,
): Promise<ReadFileResult> {
  const reader = readerFor(kind);
  if (!reader) return Promise.resolve({ ok: false, message: NOT_IMPORTABLE });
  if (file.size < THREAD_FROM_BYTES) return reader(file, options);
  const { url, execArgv } = workerSource(import.meta.url, 'import-file-worker');
  const records = noRecords();
  const documents: ImportedDocument[] = [];
  return new Promise<ReadFileResult>((resolve, reject) => {
    const thread = new Worker(url, {
      ...(execArgv ? { execArgv } : {}),
      workerData: { kind, file, options, language: languageInForce() } satisfies ImportFileJob,
    });
    let settled = false;
    const finish = (result: ReadFileResult) => {
      settled = true;
      resolve(result);
      void thread.terminate();
    };
    thread.on('message', (message: ImportFileMessage) => {
      if (message.kind === 'records' || message.kind === 'document') {
        if (message.kind === 'records')
          (records[message.type] as unknown[]).push(...message.records);
        else documents.push(message.document);
        // The next slice once others have had their turn.
        void nextTurn().then(() => thread.postMessage('next'));
      } else if (message.kind === 'refused') {
        finish({ ok: false, message: message.message });
      } else {
        const { kind: _done, patient, problems, ...counts } = message;
        finish({
          kind,
          patient,
          problems,
          records: { ok: true, records, documents, ...counts },
        });
      }
    });
    thread.on('error', (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    thread.on('exit', (code) => {
      if (!settled) reject(new Error(`The import thread stopped (exit code ${code})`));
      settled = true;
    });
  });
}
