/**
 * The thread that reads a FHIR bundle for an import (fhir-import-thread.ts starts one per
 * import): parsing 24 MB of JSON and mapping 199k resources took the server's own thread
 * for seconds. The records go back a slice at a time, and documents one by one (each with
 * its file), the next when the server asks for it, so that the server takes each in while
 * still answering others, never one copy of them all in one go.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { yieldToTheServer } from '../runtime/thread-priority';
import type { FhirRecordType } from './fhir-source';
import type { ImportedDocument, SkippedDocument } from './fhir-documents';
import {
  readFhirBytes,
  type FhirImportOptions,
  type ImportedCounts,
  type ImportedRecord,
} from './fhir-import';

export interface FhirImportJob {
  bytes: Uint8Array<ArrayBuffer>;
  options: FhirImportOptions;
}

/** Records handed back per message. */
const SLICE = 500;

export type FhirImportMessage =
  | { kind: 'records'; type: FhirRecordType; records: ImportedRecord<object>[] }
  | { kind: 'document'; document: ImportedDocument }
  | {
      kind: 'done';
      imported: ImportedCounts;
      skipped: Record<string, number>;
      skipped_documents: SkippedDocument[];
      summary: string;
    }
  | { kind: 'refused'; message: string };

const port = parentPort;
if (!port) throw new Error('fhir-import-worker runs as a worker thread only');

// Reading a large file takes this thread seconds of a core: the server's own thread goes first.
yieldToTheServer();
const job = workerData as FhirImportJob;
const result = readFhirBytes(job.bytes, job.options);
if (!result.ok) {
  port.postMessage({ kind: 'refused', message: result.message } satisfies FhirImportMessage);
} else {
  const slices = (function* (): Generator<FhirImportMessage> {
    for (const [type, records] of Object.entries(result.records) as [
      FhirRecordType,
      ImportedRecord<object>[],
    ][]) {
      for (let start = 0; start < records.length; start += SLICE) {
        yield { kind: 'records', type, records: records.slice(start, start + SLICE) };
      }
    }
    for (const document of result.documents) yield { kind: 'document', document };
    const { imported, skipped, skipped_documents, summary } = result;
    yield { kind: 'done', imported, skipped, skipped_documents, summary };
  })();
  // A slice when the server asks for one: posted all at once, the server's thread took
  // every one of them in as one task (199k records, over a second during which it answered
  // nothing else).
  const next = () => {
    const slice = slices.next();
    if (!slice.done) port.postMessage(slice.value);
  };
  port.on('message', next);
  next();
}
