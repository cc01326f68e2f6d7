/**
 * A file's records as its reading hands them on (decision 0077): a slice of one type's at a
 * time, in the order they were read, the next read only once the import has taken the one
 * before; then what the reading found besides them (its documents, what it skipped, its
 * summary). An import matches and writes each slice before it takes the next
 * (fhir-import-store.ts), so it never holds a whole file's records. A bundle already read
 * whole is fed a type at a time.
 */
import { FHIR_RECORD_TYPES, type FhirRecordType } from './fhir-source';
import type { FhirImportResult, ImportedRecord } from './fhir-import';

export type ReadBundle = Extract<FhirImportResult, { ok: true }>;

/** What a reading found besides its records. */
export type ReadRest = Omit<ReadBundle, 'ok' | 'records'>;

export interface RecordSlice {
  type: FhirRecordType;
  records: readonly ImportedRecord<object>[];
}

export interface RecordFeed {
  /** The slices, each once, in the order read: iterated once. */
  slices(): AsyncIterable<RecordSlice>;
  /** What the reading found besides its records, once every slice has been taken. */
  rest(): Promise<ReadRest>;
  /** Ends the reading: a feed not taken to its end is closed. */
  close(): Promise<void>;
}

/** A bundle read whole, fed a type at a time. */
export function wholeFeed(bundle: ReadBundle): RecordFeed {
  const { ok: _ok, records, ...rest } = bundle;
  return {
    async *slices() {
      for (const type of FHIR_RECORD_TYPES) {
        if (records[type].length > 0) yield { type, records: records[type] };
      }
    },
    rest: () => Promise.resolve(rest),
    close: () => Promise.resolve(),
  };
}

/** The feed of what was read: itself, or a whole bundle's. */
export const feedOf = (records: ReadBundle | RecordFeed): RecordFeed =>
  'slices' in records ? records : wholeFeed(records);
