/**
 * 'Download my data': the one JSON file that holds a user's family members and every
 * record, and that imports back (into this account or another) to give the same data.
 */
import { currentLocale, key, tr } from './i18n/translate';
import { z } from 'zod';
import { DOCUMENT_MIME_TYPES, MAX_DOCUMENT_BYTES, MAX_DOCUMENT_RECORDS } from './documents';
import { documentUploadSchema } from './document-upload';
import { doseMarkSchema } from './dose-requests';
import type { DoseMark } from './doses';
import { recordDefinitions } from './records';
import type { RecordTable } from './records/definition';

export const EXPORT_FORMAT = 'kin-health-export';
/** Version 2 keys conditions by their table's name, `conditions` (version 1: `health_history`). */
export const EXPORT_VERSION = 2;
/** The versions an import reads. */
export const IMPORTABLE_VERSIONS = [1, 2] as const;

/**
 * How a contact's 'Cares For' names the account holder in the file: the file carries no
 * account id of this server, and an import gives the persons it holds new ids.
 */
export const EXPORTED_ACCOUNT_HOLDER = 'the-account-holder';

export type ExportedRow = Record<string, unknown> & {
  id: string;
  created_at: string;
  updated_at: string;
};

export interface DataExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exported_at: string;
  profile: { full_name: string; email: string };
  family_members: ExportedRow[];
  records: Record<RecordTable, ExportedRow[]>;
  /** Every dose marked taken or skipped; `medication_id` names a medication of the file. */
  dose_log: DoseMark[];
  /**
   * Every document: its person and the records it is attached to (`records`: each the
   * record type's path and a record of the file; `record_type` and `record_id` repeat the
   * first, or are null, for the servers that knew one record only). Its file is in the
   * archive, under `documents/{sha256}.{extension}` (archiveFileName).
   */
  documents: ExportedDocument[];
}

/** A document as an export holds it: its own fields, and the hash that names its file. */
export type ExportedDocument = z.output<typeof exportedDocument>;

/** What an import of the product's own file added, left and replaced. */
export interface ImportSummary {
  /** Family members added. */
  family_members: number;
  /** Records added. */
  records: number;
  /** Doses added to the dose log. */
  doses: number;
  /** Documents added (their files with them). */
  documents: number;
  /** Members and records already here (or here changed, and kept). */
  already_here: number;
  /** Members and records here that the file held changed, replaced by the file's. */
  replaced: number;
}

const timestamp = z.iso.datetime({ offset: true, error: () => tr('must be a date and time') });
const identity = {
  id: z
    .string({ error: () => tr('id is required') })
    .min(1)
    .max(100),
  created_at: timestamp,
  updated_at: timestamp,
};

/** One exported row: its identity is checked here, its fields by its type's own schema. */
const exportedRow = z.looseObject({ ...identity, family_member_id: z.string().nullish() });

const recordTables = z.object(
  Object.fromEntries(
    recordDefinitions.map((definition) => [
      definition.table,
      z.array(exportedRow).max(200_000).default([]),
    ]),
  ) as unknown as Record<RecordTable, z.ZodDefault<z.ZodArray<typeof exportedRow>>>,
);

/** The most documents an archive may hold (each one file). */
export const MAX_ARCHIVE_DOCUMENTS = 20_000;

const exportedDocument = z.object({
  ...identity,
  family_member_id: z.string().max(100).nullable(),
  title: documentUploadSchema.shape.title,
  document_type: documentUploadSchema.shape.document_type,
  document_date: z.iso.date({ error: () => tr('Document Date must be a date') }).nullable(),
  file_name: z
    .string()
    .trim()
    .min(1, { error: () => tr('file_name is required') })
    .max(255),
  mime_type: z.enum(DOCUMENT_MIME_TYPES, {
    error: () => tr('mime_type must be a PDF or an image type'),
  }),
  size_bytes: z.number().int().min(1).max(MAX_DOCUMENT_BYTES),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be a SHA-256 in hexadecimal'),
  record_type: z.string().max(40).nullable(),
  record_id: z.string().max(100).nullable(),
  /** Every record it is attached to; a file written before there could be several has none. */
  records: z
    .array(z.object({ record_type: z.string().max(40), record_id: z.string().max(100) }))
    .max(MAX_DOCUMENT_RECORDS)
    .optional(),
});

/** The records an exported document is attached to, from a file of any version. */
export function exportedDocumentRecords(
  document: Pick<ExportedDocument, 'record_type' | 'record_id' | 'records'>,
): { record_type: string; record_id: string }[] {
  if (document.records) return document.records;
  return document.record_type !== null && document.record_id !== null
    ? [{ record_type: document.record_type, record_id: document.record_id }]
    : [];
}

/** The extension of a document's file in an archive, by its type. */
const EXTENSIONS: Record<(typeof DOCUMENT_MIME_TYPES)[number], string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'application/xml': 'xml',
};

/** Whether a file's first bytes are a zip's (an archive of 'Download my data'). */
export const isZip = (bytes: Uint8Array) =>
  bytes.length >= 4 &&
  bytes[0] === 0x50 &&
  bytes[1] === 0x4b &&
  bytes[2] === 0x03 &&
  bytes[3] === 0x04;

/** The JSON's name in an archive. */
export const ARCHIVE_JSON_NAME = 'kin-health.json';

/** Where an archive keeps a document's file: named by its hash, with its type's extension. */
export function archiveFileName(document: { sha256: string; mime_type: string }): string {
  const extension = EXTENSIONS[document.mime_type as keyof typeof EXTENSIONS] ?? 'bin';
  return `documents/${document.sha256}.${extension}`;
}

/** A version 1 file's records, named as version 2 names them. */
function renameVersionOne(file: unknown): unknown {
  const { version, records } = (file ?? {}) as { version?: unknown; records?: unknown };
  if (version !== 1 || typeof records !== 'object' || records === null) return file;
  const { health_history: conditions, ...rest } = records as Record<string, unknown>;
  return { ...(file as object), records: { ...rest, conditions } };
}

/** The shape of an export file; each row is checked again by its own type's schema. */
export const dataExportSchema = z.preprocess(
  renameVersionOne,
  z.object(
    {
      format: z.literal(EXPORT_FORMAT, { error: () => tr('This is not a Kin Health export file') }),
      version: z.literal(IMPORTABLE_VERSIONS, {
        error: () =>
          tr('Only version {versions} export files can be imported', {
            versions: new Intl.ListFormat(currentLocale(), { type: 'disjunction' }).format(
              IMPORTABLE_VERSIONS.map(String),
            ),
          }),
      }),
      family_members: z.array(z.looseObject(identity)).max(1_000),
      records: recordTables,
      dose_log: z
        .array(doseMarkSchema.extend({ id: identity.id, marked_at: timestamp }))
        .max(1_000_000)
        .default([]),
      documents: z.array(exportedDocument).max(MAX_ARCHIVE_DOCUMENTS).default([]),
    },
    { error: () => tr('The file must be a Kin Health export (a JSON object)') },
  ),
);
export type ImportFile = z.output<typeof dataExportSchema>;

/**
 * The largest import file. The benchmark's heavy user (5 family members and 20,000 records
 * over ten years) exports 9.4 MB; this holds three times that. The browser checks it before
 * reading a file; the server, as the body arrives.
 */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;
/** A key: the English names MAX_IMPORT_BYTES in MB. */
export const IMPORT_TOO_LARGE = key('The file is too large to import (at most 32 MB)');

/**
 * The largest archive (JSON plus documents' files): an account's files stay within its
 * quota, so an archive larger than the quota and the JSON's own bound cannot be imported
 * anyway. Counted as it arrives; the server's own bound is the quota it is configured with.
 */
export const archiveLimitBytes = (quotaBytes: number) => quotaBytes + MAX_IMPORT_BYTES;

export const IMPORT_ALREADY_RUNNING = key(
  'An import into this account is already running. Wait for it to finish.',
);
