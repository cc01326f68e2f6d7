/**
 * Which reader reads each kind of file (file-readers.ts). The product's own export is not
 * here: it is the account's whole data, read by data-transfer/import-user-data.ts. A kind
 * with no reader here is refused as a file Kin Health cannot import.
 *
 * Each reader lives with its kind: FHIR in read-fhir-file.ts, C-CDA in ccda/, Apple Health
 * in apple-health/, CSV in csv/.
 */
import type { ImportKind } from '../../shared/imports';
import type { FileReader } from './file-readers';
import { readAppleHealthFile } from './apple-health/read-apple-health';
import { readCcdaFile } from './ccda/read-ccda';
import { readCsvFile } from './csv/read-csv';
import { readFhirFile } from './read-fhir-file';

export type ReadableKind = Exclude<ImportKind, 'kin-health-export'>;

export const FILE_READERS: Record<ReadableKind, FileReader> = {
  fhir: readFhirFile,
  ccda: readCcdaFile,
  'apple-health': readAppleHealthFile,
  csv: readCsvFile,
};

/** The reader of a kind, or undefined when this server reads no such files. */
export const readerFor = (kind: ImportKind): FileReader | undefined =>
  kind === 'kin-health-export' ? undefined : FILE_READERS[kind];
