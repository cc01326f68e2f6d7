/**
 * Bringing records in (CONTRACT §6): the kinds of file the product reads, and what the import
 * API answers for them. `POST /api/import?preview=true` reads a file (its kind told by its
 * content) and answers what importing it would do; the same file again, without `preview`,
 * writes it and is remembered in Import History (`GET /api/imports`), from where it can be
 * undone (`POST /api/imports/{id}/undo`).
 */
import { key } from './i18n/translate';
import type { ImportCounts, ImportTypeCounts } from './import-preview';

export const IMPORT_KINDS = ['kin-health-export', 'fhir', 'ccda', 'apple-health', 'csv'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** How each kind is named on /import. */
export const IMPORT_KIND_LABELS: Record<ImportKind, string> = {
  'kin-health-export': key('Kin Health export'),
  fhir: 'FHIR',
  ccda: 'C-CDA',
  'apple-health': 'Apple Health',
  csv: 'CSV',
};

export const NOT_IMPORTABLE = key('This file is not a kind Kin Health can import');

/** An import can be undone for this many days (and then only its records not edited since). */
export const UNDO_DAYS = 30;

/** A row of a file (a CSV line) that could not be read. */
export interface RowProblem {
  /** 1-based, as a spreadsheet numbers lines (the header is line 1). */
  line: number;
  message: string;
}

/** `person=new`: a family member made from the file's patient, in the same import. */
export const NEW_MEMBER = 'new';

/** What `POST /api/import?preview=true[&person={id}|new]&file={name}` answers. */
export interface FileImportPreview {
  kind: ImportKind;
  /** The file's name, as sent. */
  file_name: string;
  /** The patient the file names, when it names one. */
  patient: { name: string | null; birth_date: string | null; sex: string | null } | null;
  /**
   * The person the counts are for: the one asked for, else the member the file's patient
   * matches (by name and date of birth, or by this server's id); null for 'new' or no match.
   * A Kin Health export is the whole account's: null.
   */
  person_id: string | null;
  /** Offered when no member matches the file's patient: 'New family member: {name}'. */
  new_member: { name: string; date_of_birth: string | null; sex: string | null } | null;
  /** The chosen person and the file's patient differ: said, never silently accepted. */
  mismatch: string | null;
  counts: ImportCounts;
  totals: ImportTypeCounts;
  /** What is not brought in, and why: 'Procedure' → 3, or a sentence per reason. */
  skipped: Record<string, number>;
  /** Rows that could not be read: importing the rest needs `confirm=true`. */
  problems: RowProblem[];
  /** '23 new, 41 already here, 2 changed' */
  summary: string;
}

/** What writing a file answers (201). */
export interface FileImportDone {
  import_id: string;
  /** Records (and documents, family members) added: 'Imported {n} records'. */
  added: number;
  already_here: number;
  replaced: number;
  /** Set when `person=new` made a family member. */
  family_member_id: string | null;
  summary: string;
}

/** One import in Import History (`GET /api/imports`, newest first). */
export interface ImportHistoryEntry {
  id: string;
  kind: ImportKind;
  file_name: string;
  /** The person the records went to (null: a Kin Health export, the whole account). */
  person: { id: string; name: string } | null;
  /** Added, per record type ('document', 'family_member' too). */
  counts: Record<string, number>;
  created_at: string;
  undone_at: string | null;
  /** Within UNDO_DAYS and not undone. */
  can_undo: boolean;
}

/**
 * What `GET /api/imports/turn` answers: whether the account's import runs, and whether it
 * waits for its turn beside the server's other heavy jobs (KIN_MEMORY_MB).
 */
export interface ImportTurnState {
  running: boolean;
  waiting: boolean;
}

/** What `POST /api/imports/{id}/undo` answers. */
export interface ImportUndone {
  removed: number;
  /** Records added by the import but edited since: kept. */
  kept_edited: number;
}

/** On every record an import added (`GET /api/{records}/{id}`): 'Imported from {file} on {date}'. */
export interface ImportedFrom {
  file_name: string;
  /** UTC timestamp of the import. */
  imported_at: string;
}
