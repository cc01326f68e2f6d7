/**
 * The documents of an import: each checked (its person and its record are in the file), then
 * recognised (the same id, or the same file for the same person: 'already here'), and, when
 * new, its file read from the archive, its hash checked, and kept through the upload's own
 * intake (document-intake.ts: typed by its bytes, held to the quota, prepared on the
 * documents thread) before its row is written, attached to the record as it is called here.
 * Nothing of an archive's is stored before every new document's file is found in it and
 * they all fit the quota; a refusal later (a file whose bytes do not match its hash) takes
 * back what was kept.
 */
import type { Kysely } from 'kysely';
import {
  DOCUMENT_QUOTA_MESSAGE,
  type DocumentMimeType,
  type DocumentType,
} from '../../shared/documents';
import {
  exportedDocumentRecords,
  type ExportedDocument,
  type ImportFile,
} from '../../shared/data-export';
import { ApiError } from '../../shared/api-error';
import { ownedRow, ownedRows } from '../access/access';
import type { Database } from '../db/database';
import type { DB } from '../db/schema';
import { onDocumentStored } from '../documents/document-hooks';
import { keepReceivedFile, receiveFile, type DocumentIntake } from '../documents/document-intake';
import type { DocumentRepository } from '../documents/document-repository';
import { badRequest } from '../http/errors';
import { newId } from '../ids';
import { insertAll } from './data-transfer';
import type { ArchiveFiles } from './import-archive';
import type { RecordMatch } from './import-plan';
import type { ImportWrites } from './import-writes';

/** What an import needs of documents: their rows and files, and how files are taken in. */
export interface DocumentImportDependencies {
  database: Database;
  documents: Pick<DocumentRepository, 'usedBytes' | 'releaseFiles'>;
  intake: DocumentIntake;
}

/** Where a record of the file is, by its type's path and its id in the file. */
export const recordKey = (path: string, id: string) => `${path}\n${id}`;

export type CheckedDocument = ExportedDocument;

/**
 * Every document of the file checked against the rest of it: its person is a member of the
 * file (or the account holder), its record a record of the file, of the same person.
 */
export function checkDocuments(
  file: ImportFile,
  memberIds: ReadonlySet<string>,
  /** Each record of the file by recordKey: its member in the file (null: the account holder's). */
  records: ReadonlyMap<string, string | null>,
): CheckedDocument[] {
  return file.documents.map((document, index) => {
    const where = `Document ${index + 1}`;
    if (document.family_member_id !== null && !memberIds.has(document.family_member_id)) {
      throw badRequest(`${where}: its family member is not in the file`, 'family_member_id');
    }
    if ((document.record_type === null) !== (document.record_id === null)) {
      throw badRequest(`${where}: the record it is attached to is not in the file`, 'record_id');
    }
    for (const record of exportedDocumentRecords(document)) {
      const member = records.get(recordKey(record.record_type, record.record_id));
      if (member === undefined || member !== document.family_member_id) {
        throw badRequest(`${where}: the record it is attached to is not in the file`, 'record_id');
      }
    }
    return document;
  });
}

/** The account's documents, for recognising the file's. */
async function documentsHere(db: Kysely<DB>, userId: string) {
  return ownedRows(db, 'documents', userId).select(['id', 'family_member_id', 'sha256']).execute();
}

/**
 * How each document of the file stands: the same id (the account's own archive back), or the
 * same file for the same person, is already here; else it is new.
 */
export async function matchDocuments(
  db: Kysely<DB>,
  userId: string,
  documents: readonly CheckedDocument[],
  memberIds: ReadonlyMap<string, string>,
): Promise<RecordMatch[]> {
  if (documents.length === 0) return [];
  const existing = await documentsHere(db, userId);
  const taken = new Set<string>();
  return documents.map((document) => {
    const person =
      document.family_member_id === null ? null : memberIds.get(document.family_member_id)!;
    const found =
      existing.find((row) => row.id === document.id && !taken.has(row.id)) ??
      existing.find(
        (row) =>
          !taken.has(row.id) && row.sha256 === document.sha256 && row.family_member_id === person,
      );
    if (!found) return { kind: 'new' };
    taken.add(found.id);
    return { kind: 'same', id: found.id };
  });
}

/**
 * Refuses, before anything is written, an import whose new documents' files are not all in
 * the archive (or that has no archive), or that would go past the account's storage limit.
 */
export async function checkDocumentFiles(
  db: Kysely<DB>,
  userId: string,
  documents: readonly CheckedDocument[],
  matches: readonly RecordMatch[],
  files: ArchiveFiles | undefined,
  deps: DocumentImportDependencies | undefined,
): Promise<void> {
  const fresh = documents.filter((_document, index) => matches[index]!.kind === 'new');
  if (fresh.length === 0) return;
  if (!files || !deps) {
    throw badRequest(
      "Documents: their files are not in a JSON file; import the .zip archive 'Download my data' gave",
      'file',
    );
  }
  const held = new Set((await documentsHere(db, userId)).map((row) => row.sha256));
  let needed = 0;
  for (const [index, document] of documents.entries()) {
    if (matches[index]!.kind !== 'new') continue;
    const size = files.size(document.sha256);
    if (size === undefined) {
      throw badRequest(`Document ${index + 1}: its file is not in the archive`, 'file');
    }
    if (held.has(document.sha256)) continue;
    held.add(document.sha256);
    needed += size;
  }
  if ((await deps.documents.usedBytes(userId)) + needed > deps.intake.quotaBytes) {
    throw new ApiError(413, DOCUMENT_QUOTA_MESSAGE, 'file');
  }
}

/**
 * Keeps the new documents' files and writes their rows; the hashes kept are added to `kept`
 * as they are (for the caller to take back should the import fail). Answers the new rows' ids.
 */
export async function writeDocuments(
  writes: ImportWrites,
  input: {
    userId: string;
    documents: readonly CheckedDocument[];
    matches: readonly RecordMatch[];
    memberIds: ReadonlyMap<string, string>;
    /** Each record of the file (recordKey) and its id here. */
    recordIds: ReadonlyMap<string, string>;
    files: ArchiveFiles;
    deps: DocumentImportDependencies;
    kept: string[];
  },
): Promise<string[]> {
  const { userId, documents, matches, memberIds, recordIds, files, deps, kept } = input;
  const { intake } = deps;
  let used = await deps.documents.usedBytes(userId);
  // Files the account holds already take nothing more.
  const held = new Set((await documentsHere(deps.database.db, userId)).map((row) => row.sha256));
  const rows: Record<string, unknown>[] = [];
  const links: { document_id: string; [column: string]: unknown }[] = [];
  for (const [index, document] of documents.entries()) {
    if (matches[index]!.kind !== 'new') continue;
    const incoming = await intake.store.incomingFile();
    const received = await receiveFile(await files.read(document.sha256), incoming);
    if (received.sha256 !== document.sha256) {
      throw badRequest(
        `Document ${index + 1}: its file in the archive does not match its SHA-256; nothing was imported`,
        'file',
      );
    }
    const stored = await keepReceivedFile(intake, {
      owner: userId,
      file: incoming,
      received,
      usedBytes: used,
      asArchived: true,
    });
    for (const file of [stored, stored.display, stored.thumbnail]) {
      if (!file) continue;
      const hash = file.sha256;
      if (held.has(hash) || kept.includes(hash)) continue;
      kept.push(hash);
      used += 'size_bytes' in file ? file.size_bytes : file.bytes;
    }
    const id = newId();
    for (const record of exportedDocumentRecords(document)) {
      const recordId = recordIds.get(recordKey(record.record_type, record.record_id));
      if (!recordId) continue;
      links.push(
        ownedRow(userId, {
          document_id: id,
          record_type: record.record_type,
          record_id: recordId,
          created_at: document.updated_at,
        }),
      );
    }
    rows.push(
      ownedRow(userId, {
        id,
        family_member_id:
          document.family_member_id === null ? null : memberIds.get(document.family_member_id),
        title: document.title,
        document_type: document.document_type as DocumentType,
        document_date: document.document_date,
        file_name: document.file_name,
        mime_type: stored.mime_type satisfies DocumentMimeType,
        size_bytes: stored.size_bytes,
        sha256: stored.sha256,
        display_sha256: stored.display?.sha256 ?? null,
        display_bytes: stored.display?.bytes ?? null,
        thumbnail_sha256: stored.thumbnail?.sha256 ?? null,
        thumbnail_bytes: stored.thumbnail?.bytes ?? null,
        created_at: document.created_at,
        updated_at: document.updated_at,
      }),
    );
  }
  // Each batch's attachments in its documents' transaction: a document never stands without them.
  await writes.insert('documents', rows, 'id', async (trx, start, end) => {
    const ids = new Set(rows.slice(start, end).map((row) => row.id));
    const batch = links.filter((link) => ids.has(link.document_id));
    if (batch.length > 0) await insertAll(trx, 'document_records', batch);
  });
  return rows.map((row) => row.id as string);
}

/** The new documents are stored: their text is read for search, as an upload's is. */
export async function documentsStored(
  deps: DocumentImportDependencies,
  userId: string,
  ids: readonly string[],
) {
  for (const documentId of ids) await onDocumentStored(deps.database, { documentId, userId });
}
