/**
 * The documents of an import: each checked (its person and its record are in the file), then
 * recognised (the same id, or the same file for the same person: 'already here'), and, when
 * new, its file read from the archive, its hash checked, and kept through the upload's own
 * intake (document-intake.ts: typed by its bytes, held to the quota, prepared on the
 * documents thread) before its row is written, attached to the records the file names.
 *
 * A file is prepared once however many rows name it (decision 0049): rows naming the same
 * file for the same person are one document, attached to every record they name; rows naming
 * it for several persons are a document each, made from the one file prepared; a file the
 * account holds already is not prepared again. Before anything is read, the rows the import
 * would bring in are held to what an import may ask (import-document-limits.ts).
 *
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
import { deleteOwned, ownedRow, ownedRows } from '../access/scope';
import type { Database } from '../db/database';
import type { DB } from '../db/schema';
import { onDocumentStored } from '../documents/document-hooks';
import {
  keepReceivedFile,
  receiveFile,
  type DocumentIntake,
  type KeptFiles,
} from '../documents/document-intake';
import { filesOf, type DocumentRepository } from '../documents/document-repository';
import { badRequest } from '../http/errors';
import type { ImportCounts } from '../../shared/import-preview';
import { newId } from '../ids';
import { insertAll, recordKey } from './import-rows';
import type { ArchiveFiles } from './import-archive';
import { checkDocumentBytes, checkDocumentCount } from './import-document-limits';
import { countMatches } from './import-plan';
import { WRITE_BATCH, type ImportWrites } from './import-writes';
import { key, tr } from '../../shared/i18n/translate';

/** What an import needs of documents: their rows and files, and how files are taken in. */
export interface DocumentImportDependencies {
  database: Database;
  documents: Pick<DocumentRepository, 'usedBytes' | 'releaseFiles'>;
  intake: DocumentIntake;
}

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
    const number = index + 1;
    if (document.family_member_id !== null && !memberIds.has(document.family_member_id)) {
      throw badRequest(
        tr('Document {number}: its family member is not in the file', { number }),
        'family_member_id',
      );
    }
    if ((document.record_type === null) !== (document.record_id === null)) {
      throw badRequest(
        tr('Document {number}: the record it is attached to is not in the file', { number }),
        'record_id',
      );
    }
    for (const record of exportedDocumentRecords(document)) {
      const member = records.get(recordKey(record.record_type, record.record_id));
      if (member === undefined || member !== document.family_member_id) {
        throw badRequest(
          tr('Document {number}: the record it is attached to is not in the file', { number }),
          'record_id',
        );
      }
    }
    return document;
  });
}

/** The account's documents, for recognising the file's and reusing their files. */
async function documentsHere(db: Kysely<DB>, userId: string) {
  return ownedRows(db, 'documents', userId)
    .select(['id', 'family_member_id', 'sha256', 'mime_type', 'size_bytes'])
    .select(['display_sha256', 'display_bytes', 'thumbnail_sha256', 'thumbnail_bytes'])
    .execute();
}

/** How a document row of the file stands. */
export type DocumentMatch =
  /** A document is made of it. */
  | { kind: 'new' }
  /** A document here: the same id (the account's own archive back), or the same file of the same person. */
  | { kind: 'same'; id: string; person: string | null }
  /** The same file of the same person as the new document of row `row`: that one document. */
  | { kind: 'with'; row: number };

/** A document's person here and its file: what makes two documents one. */
const fileKey = (person: string | null, sha256: string) => `${person ?? ''}\n${sha256}`;

const personOf = (document: CheckedDocument, memberIds: ReadonlyMap<string, string>) =>
  document.family_member_id === null ? null : memberIds.get(document.family_member_id)!;

/**
 * How each document of the file stands: the same id (the account's own archive back), or
 * the same file for the same person, is already here; the same file for the same person as
 * an earlier row of the file goes with that row's document; else it is new.
 */
export async function matchDocuments(
  db: Kysely<DB>,
  userId: string,
  documents: readonly CheckedDocument[],
  memberIds: ReadonlyMap<string, string>,
): Promise<DocumentMatch[]> {
  if (documents.length === 0) return [];
  const existing = await documentsHere(db, userId);
  const byId = new Map(existing.map((row) => [row.id, row]));
  const byFile = new Map<string, (typeof existing)[number]>();
  for (const row of existing) {
    const key = fileKey(row.family_member_id, row.sha256);
    if (!byFile.has(key)) byFile.set(key, row);
  }
  /** The row each new document is made of, by its person and file. */
  const made = new Map<string, number>();
  return documents.map((document, index): DocumentMatch => {
    const key = fileKey(personOf(document, memberIds), document.sha256);
    const here = byId.get(document.id) ?? byFile.get(key);
    if (here) return { kind: 'same', id: here.id, person: here.family_member_id };
    const first = made.get(key);
    if (first !== undefined) return { kind: 'with', row: first };
    made.set(key, index);
    return { kind: 'new' };
  });
}

/** Adds the documents to a preview's counts: a document each, however many rows name it. */
export function countDocuments(counts: ImportCounts, matches: readonly DocumentMatch[]) {
  countMatches(
    counts,
    'document',
    matches.filter((match) => match.kind !== 'with'),
  );
}

/**
 * Refuses, before anything is written or read of the documents' files: an import whose rows
 * to bring in are more than an import takes, in number or in bytes (each row counted with
 * its file); whose new documents' files are not all in the archive (or that has no archive);
 * or that would go past the account's storage limit.
 */
export async function checkDocumentFiles(
  db: Kysely<DB>,
  userId: string,
  documents: readonly CheckedDocument[],
  matches: readonly DocumentMatch[],
  files: ArchiveFiles | undefined,
  deps: DocumentImportDependencies | undefined,
): Promise<void> {
  const fresh = [...documents.entries()].filter(([index]) => matches[index]!.kind !== 'same');
  if (fresh.length === 0) return;
  if (!files || !deps) {
    throw badRequest(
      key(
        "Documents: their files are not in a JSON file; import the .zip archive 'Download my data' gave",
      ),
      'file',
    );
  }
  checkDocumentCount(fresh.length);
  const held = new Set((await documentsHere(db, userId)).map((row) => row.sha256));
  let work = 0;
  let needed = 0;
  for (const [index, document] of fresh) {
    const size = files.size(document.sha256);
    if (size === undefined) {
      throw badRequest(
        tr('Document {number}: its file is not in the archive', { number: index + 1 }),
        'file',
      );
    }
    work += size;
    if (held.has(document.sha256)) continue;
    held.add(document.sha256);
    needed += size;
  }
  checkDocumentBytes(work, deps.intake.quotaBytes);
  if ((await deps.documents.usedBytes(userId)) + needed > deps.intake.quotaBytes) {
    throw new ApiError(413, DOCUMENT_QUOTA_MESSAGE, 'file');
  }
}

/** An attachment to write: a document and a record here, dated as the row that names it. */
type Link = ReturnType<typeof linkRow>;

const linkRow = (
  userId: string,
  link: { document_id: string; record_type: string; record_id: string; created_at: string },
) => ownedRow(userId, link);

const linkKey = (link: Pick<Link, 'document_id' | 'record_type' | 'record_id'>) =>
  `${link.document_id}\n${recordKey(link.record_type, link.record_id)}`;

/** What a document here gives a new one made of the same file: its files, prepared already. */
function keptFilesOf(row: Awaited<ReturnType<typeof documentsHere>>[number]): KeptFiles {
  return {
    mime_type: row.mime_type as DocumentMimeType,
    size_bytes: Number(row.size_bytes),
    sha256: row.sha256,
    ...(row.display_sha256
      ? { display: { sha256: row.display_sha256, bytes: Number(row.display_bytes ?? 0) } }
      : {}),
    ...(row.thumbnail_sha256
      ? { thumbnail: { sha256: row.thumbnail_sha256, bytes: Number(row.thumbnail_bytes ?? 0) } }
      : {}),
  };
}

/**
 * Attaches documents already here to records, those not attached already, a batch at a time;
 * each batch is taken back should the import fail afterwards.
 */
async function attachHere(writes: ImportWrites, db: Kysely<DB>, userId: string, links: Link[]) {
  if (links.length === 0) return;
  const attached = await ownedRows(db, 'document_records', userId)
    .select(['document_id', 'record_type', 'record_id'])
    .execute();
  const already = new Set(attached.map(linkKey));
  const fresh = links.filter((link) => !already.has(linkKey(link)));
  for (let start = 0; start < fresh.length; start += WRITE_BATCH) {
    const batch = fresh.slice(start, start + WRITE_BATCH);
    await writes.step(
      (trx) => insertAll(trx, 'document_records', batch),
      async (trx) => {
        for (const link of batch) {
          await deleteOwned(trx, 'document_records', userId)
            .where('document_id', '=', link.document_id)
            .where('record_type', '=', link.record_type)
            .where('record_id', '=', link.record_id)
            .execute();
        }
      },
    );
  }
}

/**
 * Keeps the new documents' files and writes their rows, each attached to the records its
 * rows name, and attaches the documents already here to the records the file names them on;
 * the hashes kept are added to `kept` as they are (for the caller to take back should the
 * import fail). Answers the new rows' ids.
 */
export async function writeDocuments(
  writes: ImportWrites,
  input: {
    userId: string;
    documents: readonly CheckedDocument[];
    matches: readonly DocumentMatch[];
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
  const here = await documentsHere(deps.database.db, userId);
  // Files the account holds already take nothing more, and are not prepared again.
  const held = new Set(here.flatMap(filesOf));
  const prepared = new Map<string, KeptFiles>(here.map((row) => [row.sha256, keptFilesOf(row)]));

  /** A row's file, prepared the first time a row names it. */
  async function prepare(document: CheckedDocument, index: number): Promise<KeptFiles> {
    const ready = prepared.get(document.sha256);
    if (ready) return ready;
    const incoming = await intake.store.incomingFile();
    const received = await receiveFile(await files.read(document.sha256), incoming);
    if (received.sha256 !== document.sha256) {
      throw badRequest(
        tr(
          'Document {number}: its file in the archive does not match its SHA-256; nothing was imported',
          { number: index + 1 },
        ),
        'file',
      );
    }
    const stored = await keepReceivedFile(intake, {
      owner: userId,
      file: incoming,
      received,
      usedBytes: used,
      asArchived: true,
      // The product's own archive: a C-CDA an import kept comes back as it went.
      acceptXml: true,
    });
    for (const file of [stored, stored.display, stored.thumbnail]) {
      if (!file) continue;
      const hash = file.sha256;
      if (held.has(hash) || kept.includes(hash)) continue;
      kept.push(hash);
      used += 'size_bytes' in file ? file.size_bytes : file.bytes;
    }
    prepared.set(document.sha256, stored);
    return stored;
  }

  /** The attachments to write, each once: of new documents, and of documents here. */
  const links = new Map<string, Link>();
  const linksHere = new Map<string, Link>();
  const attach = (to: Map<string, Link>, documentId: string, document: CheckedDocument) => {
    for (const record of exportedDocumentRecords(document)) {
      const recordId = recordIds.get(recordKey(record.record_type, record.record_id));
      if (!recordId) continue;
      const link = linkRow(userId, {
        document_id: documentId,
        record_type: record.record_type,
        record_id: recordId,
        created_at: document.updated_at,
      });
      if (!to.has(linkKey(link))) to.set(linkKey(link), link);
    }
  };

  const rows: Record<string, unknown>[] = [];
  /** The new document each row made, by its row. */
  const made = new Map<number, string>();
  for (const [index, document] of documents.entries()) {
    const match = matches[index]!;
    if (match.kind === 'with') {
      attach(links, made.get(match.row)!, document);
      continue;
    }
    if (match.kind === 'same') {
      // Only to records of the document's own person (it may have moved since the export).
      if (match.person === personOf(document, memberIds)) attach(linksHere, match.id, document);
      continue;
    }
    const stored = await prepare(document, index);
    const id = newId();
    made.set(index, id);
    attach(links, id, document);
    rows.push(
      ownedRow(userId, {
        id,
        family_member_id: personOf(document, memberIds),
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
    const batch = [...links.values()].filter((link) => ids.has(link.document_id));
    if (batch.length > 0) await insertAll(trx, 'document_records', batch);
  });
  await attachHere(writes, deps.database.db, userId, [...linksHere.values()]);
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
