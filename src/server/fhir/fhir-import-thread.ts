/**
 * A FHIR bundle read for an import on a thread of its own (fhir-import-worker.ts), started
 * for the one import and ended with it: what fhir-import.ts answers, without the server's
 * own thread parsing and mapping the whole file.
 */
import { Worker } from 'node:worker_threads';
import { workerSource } from '../runtime/worker-source';
import { FHIR_RECORD_TYPES } from './fhir-source';
import type { ImportedDocument } from './fhir-documents';
import type { FhirImportOptions, FhirImportResult, ImportedRecords } from './fhir-import';
import { readFhirBytes } from './fhir-import';
import { nextTurn } from '../data-transfer/import-plan';
import type { FhirImportJob, FhirImportMessage } from './fhir-import-worker';

/**
 * Below this, a file is read on the server's own thread: a bundle of 256 kB is about two
 * thousand resources, read in some tens of milliseconds, less than starting a thread takes.
 */
export const THREAD_FROM_BYTES = 256 * 1024;

/** Reads the bundle's bytes (a large file's are handed over to the thread, no longer usable here). */
export function importFhirBundleOnThread(
  bytes: Uint8Array<ArrayBuffer>,
  options: FhirImportOptions,
): Promise<FhirImportResult> {
  if (bytes.byteLength < THREAD_FROM_BYTES) return Promise.resolve(readFhirBytes(bytes, options));
  const { url, execArgv } = workerSource(import.meta.url, 'fhir-import-worker');
  const records = Object.fromEntries(
    FHIR_RECORD_TYPES.map((type) => [type, []]),
  ) as unknown as ImportedRecords;
  const documents: ImportedDocument[] = [];
  return new Promise<FhirImportResult>((resolve, reject) => {
    const thread = new Worker(url, {
      ...(execArgv ? { execArgv } : {}),
      workerData: { bytes, options } satisfies FhirImportJob,
      transferList: [bytes.buffer],
    });
    let settled = false;
    const finish = (result: FhirImportResult) => {
      settled = true;
      resolve(result);
      void thread.terminate();
    };
    thread.on('message', (message: FhirImportMessage) => {
      if (message.kind === 'records' || message.kind === 'document') {
        if (message.kind === 'records')
          (records[message.type] as unknown[]).push(...message.records);
        else documents.push(message.document);
        // The next slice once others have had their turn.
        void nextTurn().then(() => thread.postMessage('next'));
      } else if (message.kind === 'refused') {
        finish({ ok: false, message: message.message });
      } else {
        const { kind: _done, ...counts } = message;
        finish({ ok: true, records, documents, ...counts });
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
