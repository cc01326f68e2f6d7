/**
 * The thread that reads a file for an import, whatever its kind (import-file-thread.ts starts
 * one per import; decision 0049): parsing 24 MB of JSON, or streaming gigabytes of XML, took
 * the server's own thread for seconds. It runs the kind's reader (readers.ts) on the file on
 * disk. It says first the patient the file names and the rows it could not read, then hands
 * the records on a slice at a time, as a streaming reader reads them or after the others have
 * read, and documents one by one (each with its file): each the next when the server asks for
 * it, once it has matched and written the one before (decision 0077), so that the server
 * never holds a whole file's records.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ImportKind, RowProblem } from '../../shared/imports';
import type { LanguageCode } from '../../shared/i18n/languages';
import { inLanguage } from '../i18n/server-language';
import { yieldToTheServer } from '../runtime/thread-priority';
import { FHIR_RECORD_TYPES, type FhirRecordType } from '../fhir/fhir-source';
import type { ImportedDocument, SkippedDocument } from '../fhir/fhir-documents';
import type { ImportedCounts, ImportedRecord, RecordSink } from '../fhir/fhir-import';
import type { FilePatient, ReadOptions, ReceivedFile, RecordHand } from './file-readers';
import { readerFor } from './readers';

export interface ImportFileJob {
  kind: ImportKind;
  file: ReceivedFile;
  options: ReadOptions;
  /** The language the reader's messages (summary, problems, refusal) are written in. */
  language: LanguageCode;
}

/** Records handed back per message. */
const SLICE = 500;

/**
 * What the thread says, in this order: the head, then each slice of records and each
 * document (one a time, the next when the server asks), then done; or, before the head,
 * refused.
 */
export type ImportFileMessage =
  | { kind: 'head'; patient: FilePatient | null; problems: RowProblem[] }
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
if (!port) throw new Error('import-file-worker runs as a worker thread only');

// Reading a large file takes this thread seconds of a core: the server's own thread goes first.
yieldToTheServer();
const job = workerData as ImportFileJob;
const reader = readerFor(job.kind);
if (!reader) throw new Error(`No reader for ${job.kind}`);

// A message at a time, the next when the server asks for it: posted all at once, the
// server's thread took every one of them in as one task (199k records, over a second during
// which it answered nothing else), and a reader that hands records on as it reads them
// (a streamed FHIR Bundle) reads no further than the server has matched and written.
let asked: (() => void) | undefined;
port.on('message', () => {
  const next = asked;
  asked = undefined;
  next?.();
});
const send = (message: ImportFileMessage) =>
  new Promise<void>((resolve) => {
    asked = resolve;
    port.postMessage(message);
  });
let headed = false;
const head = async (patient: FilePatient | null, problems: RowProblem[]) => {
  if (headed) return;
  headed = true;
  await send({ kind: 'head', patient, problems });
};
const records: RecordSink = async (type, read) => {
  for (let start = 0; start < read.length; start += SLICE) {
    await send({ kind: 'records', type, records: read.slice(start, start + SLICE) });
  }
};
const hand: RecordHand = { patient: (patient) => head(patient, []), records };

// The file read in the importing request's language, its words loaded first.
const result = await inLanguage(job.language, () => reader(job.file, job.options, hand));
if (!('records' in result)) {
  port.postMessage({ kind: 'refused', message: result.message } satisfies ImportFileMessage);
} else {
  const { records: read, patient, problems } = result;
  await head(patient, problems);
  for (const type of FHIR_RECORD_TYPES) await records(type, read.records[type]);
  for (const document of read.documents) await send({ kind: 'document', document });
  const { imported, skipped, skipped_documents, summary } = read;
  port.postMessage({
    kind: 'done',
    imported,
    skipped,
    skipped_documents,
    summary,
  } satisfies ImportFileMessage);
}
