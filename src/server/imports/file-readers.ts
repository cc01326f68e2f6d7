/**
 * What bringing a file in reads, whatever its kind (CONTRACT §6 'Bring records in'): each
 * kind's reader turns the file into the records the FHIR import already knows how to match,
 * write and remember (fhir-import-store.ts), plus the patient the file names and the rows
 * it could not read. Readers run off the request thread (import-file-worker.ts) and touch
 * no database: the person is chosen, and the records matched, after they have read.
 */
import type { Sex } from '../../shared/family-members';
import type { ImportKind, RowProblem } from '../../shared/imports';
import type { FhirImportResult, RecordSink } from '../fhir/fhir-import';
import type { RecordFeed } from '../fhir/record-feed';

/** A file as the server received it: spooled to disk, never whole in memory. */
export interface ReceivedFile {
  /** Where its bytes are on disk. */
  path: string;
  /** The name the user's file had (shown in Import History; not used to tell its kind). */
  name: string;
  size: number;
}

/** The patient a file names, to propose the family member it belongs to. */
export interface FilePatient {
  /** As the file writes it, given names first: 'Isabella Jones'. */
  name: string | null;
  /** `YYYY-MM-DD` */
  birth_date: string | null;
  sex: Sex | null;
  /** Ids the file gives the patient (a FHIR Patient.id): this server's own person id matches. */
  ids: string[];
}

export interface ReadOptions {
  /** Measurements from this day (`YYYY-MM-DD`, inclusive); none: from the first. */
  from?: string;
  /** Measurements up to this day (`YYYY-MM-DD`, inclusive); none: to the last. */
  to?: string;
  /**
   * The user's time zone (IANA, from the browser), for times a file writes without one
   * (a Dexcom export's, a CSV's): read on that clock. Default UTC.
   */
  timeZone?: string;
}

/** The records read, as the FHIR import reads a bundle (source ids, values, documents, skipped). */
export type ReadRecords = Extract<FhirImportResult, { ok: true }>;

export interface ReadFile {
  kind: ImportKind;
  patient: FilePatient | null;
  records: ReadRecords;
  /** Rows (CSV lines) that could not be read, each with its line number and why. */
  problems: RowProblem[];
}

export type ReadFileResult = ReadFile | { ok: false; message: string };

/**
 * A file being read for an import: its patient and the rows it could not read known, its
 * records handed on as they are read (record-feed.ts). A reading that is not taken to its end
 * is closed.
 */
export interface ReadingFile extends Omit<ReadFile, 'records'> {
  records: RecordFeed;
}

export type ReadingResult = ReadingFile | { ok: false; message: string };

/**
 * Where a reader that reads as it goes hands on what it has read: first the patient the
 * file names, once known, then its records, a slice at a time.
 */
export interface RecordHand {
  patient(patient: FilePatient | null): Promise<void>;
  records: RecordSink;
}

/**
 * Reads one kind of file. A reader may hand records on as it reads them (`hand`), after the
 * patient: they are then not in the records it answers, which hold only those it kept.
 */
export type FileReader = (
  file: ReceivedFile,
  options: ReadOptions,
  hand?: RecordHand,
) => Promise<ReadFileResult>;
