/**
 * The rows of documents a request may touch (the access module says which), and their
 * files: kept in the document store once, removed when no document of their owner needs
 * them any more (a document, its member or its account deleted).
 */
import { sql, type Kysely } from 'kysely';
import type {
  DocumentAttachment,
  DocumentMimeType,
  DocumentType,
  StoredDocument,
} from '../../shared/documents';
import type { DocumentRecord } from '../../shared/document-upload';
import {
  deleteInScope,
  membersOfScope,
  rowsInScope,
  scopeOf,
  scopeValues,
  updateInScope,
  ownedRow,
  ownedRows,
  updateOwned,
  type Access,
  type Scope,
} from '../access/scope';
import type { DB, DocumentsTable } from '../db/schema';
import { isId, newId, nowTimestamp } from '../ids';
import { withPersonNames } from '../persons/person-columns';
import type { DocumentFileStore } from './document-files';
import type { DocumentRecords } from './document-records';

export const DOCUMENTS_PAGE_SIZE = 50;

export type DocumentRow = DocumentsTable & { family_member_name?: string | null };
type Row = DocumentRow;

/** The files a document keeps: its original, its display copy and its thumbnail. */
export const filesOf = (row: Pick<Row, 'sha256' | 'display_sha256' | 'thumbnail_sha256'>) =>
  [row.sha256, row.display_sha256, row.thumbnail_sha256].filter(
    (hash): hash is string => hash !== null,
  );

/** A document as the API answers it, with the records it is attached to (named already). */
export function documentOfRow(row: Row, records: DocumentAttachment[]): StoredDocument {
  const base = `/api/documents/${row.id}`;
  return {
    id: row.id,
    user_id: row.user_id,
    family_member_id: row.family_member_id,
    person_name: row.family_member_name ?? null,
    title: row.title,
    document_type: row.document_type as DocumentType,
    document_date: row.document_date,
    file_name: row.file_name,
    mime_type: row.mime_type as DocumentMimeType,
    size_bytes: Number(row.size_bytes),
    thumbnail_url: row.thumbnail_sha256 ? `${base}/thumbnail/${row.thumbnail_sha256}` : null,
    view_url: `${base}/view`,
    file_url: `${base}/file`,
    records,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What is said of a document: its title, type and date. */
export interface DocumentFacts {
  title: string;
  document_type: DocumentType;
  document_date: string | null;
}

/** What is said of a file: whose it is, its title, type, date, name and records. */
export interface DocumentDetails extends DocumentFacts {
  owner: string;
  member: string | null;
  file_name: string;
  /** The records it is attached to (the record type's path and its id), already checked. */
  records: readonly DocumentRecord[];
}

/** A document and what its files are. */
export interface NewDocument extends DocumentDetails {
  mime_type: DocumentMimeType;
  size_bytes: number;
  sha256: string;
  display?: { sha256: string; bytes: number };
  thumbnail?: { sha256: string; bytes: number };
}

export interface DocumentListOptions {
  memberId?: string;
  documentType?: DocumentType;
  recordType?: string;
  recordId?: string;
  limit: number;
  offset: number;
}

/**
 * How long a reservation may stand: longer than any upload takes from its reservation to its
 * row (its preparation is stopped after 30 s). A reservation this old was left by an app
 * server that stopped before it wrote its row, and counts for nothing.
 */
export const RESERVATION_LIFETIME_MS = 60 * 60 * 1000;

/** A file about to be kept: its hash and size. */
export interface KeptFile {
  sha256: string;
  bytes: number;
}

/** The files a new document keeps, with their sizes. */
export const keptFilesOf = (document: NewDocument): KeptFile[] =>
  [
    { sha256: document.sha256, bytes: document.size_bytes },
    document.display,
    document.thumbnail,
  ].filter((file): file is KeptFile => file !== undefined);

class OverQuota extends Error {}

/** Each file of the owner's documents (by hash) and its size. */
async function fileSizes(db: Kysely<DB>, owner: string): Promise<Map<string, number>> {
  const rows = await ownedRows(db, 'documents', owner)
    .select(['sha256', 'size_bytes', 'display_sha256', 'display_bytes'])
    .select(['thumbnail_sha256', 'thumbnail_bytes'])
    .execute();
  const sizes = new Map<string, number>();
  for (const row of rows) {
    sizes.set(row.sha256, Number(row.size_bytes));
    if (row.display_sha256) sizes.set(row.display_sha256, Number(row.display_bytes ?? 0));
    if (row.thumbnail_sha256) sizes.set(row.thumbnail_sha256, Number(row.thumbnail_bytes ?? 0));
  }
  return sizes;
}

const total = (sizes: ReadonlyMap<string, number>) => {
  let sum = 0;
  for (const size of sizes.values()) sum += size;
  return sum;
};

/** The bytes of those files that are not among `sizes` already (each counted once). */
function newBytes(sizes: ReadonlyMap<string, number>, files: readonly KeptFile[]) {
  const fresh = new Map<string, number>();
  for (const file of files) if (!sizes.has(file.sha256)) fresh.set(file.sha256, file.bytes);
  return total(fresh);
}

/** The reservation less `bytes`, never below nothing. */
const lessReserved = (bytes: number) =>
  sql<number>`case when reserved_bytes > ${bytes} then reserved_bytes - ${bytes} else 0 end`;

/** The owner's storage: what their documents take, and what uploads have reserved. */
function documentStorage(db: Kysely<DB>) {
  return {
    /** The bytes the owner's documents take, files shared between them counted once each. */
    async usedBytes(owner: string): Promise<number> {
      return total(await fileSizes(db, owner));
    },

    /**
     * Reserves the owner's storage for files about to be kept (the bytes of those among
     * `files` that no document of theirs has already), in place of the `alreadyReserved`
     * bytes the same upload reserved before: answers the bytes now reserved, or undefined,
     * reserving nothing more, when the owner's documents, every upload's reservations and
     * these would pass `quotaBytes`. The account's row is updated first: its lock, held to
     * the transaction's end, makes every other reservation and insert of the account wait,
     * on whichever app server (decision 0052).
     */
    async reserve(
      owner: string,
      files: readonly KeptFile[],
      quotaBytes: number,
      alreadyReserved = 0,
    ): Promise<number | undefined> {
      const now = Date.now();
      return db
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('document_storage')
            .values(ownedRow(owner, { reserved_bytes: 0, reserved_at: now }))
            .onConflict((conflict) => conflict.column('user_id').doNothing())
            .execute();
          // Locked before the sizes are read: they are read as the last writer left them.
          await updateOwned(trx, 'document_storage', owner)
            .set({ reserved_at: sql<number>`reserved_at` })
            .execute();
          const sizes = await fileSizes(trx, owner);
          const needed = newBytes(sizes, files);
          const delta = needed - alreadyReserved;
          const live = sql<number>`case when reserved_at < ${now - RESERVATION_LIFETIME_MS} then 0 else reserved_bytes end`;
          const row = await updateOwned(trx, 'document_storage', owner)
            .set({
              reserved_bytes: sql<number>`case when ${live} + ${delta} > 0 then ${live} + ${delta} else 0 end`,
              reserved_at: now,
            })
            .returning('reserved_bytes')
            .executeTakeFirstOrThrow();
          if (delta > 0 && total(sizes) + Number(row.reserved_bytes) > quotaBytes) {
            throw new OverQuota();
          }
          return needed;
        })
        .catch((error: unknown) => {
          if (error instanceof OverQuota) return undefined;
          throw error;
        });
    },

    /** Gives back bytes an upload reserved and will not keep (it was refused, or failed). */
    async release(owner: string, bytes: number) {
      if (bytes <= 0) return;
      await updateOwned(db, 'document_storage', owner)
        .set({ reserved_bytes: lessReserved(bytes) })
        .execute();
    },
  };
}

/** The owner's stored files: kept while a document of theirs keeps them. */
function documentFilesOf(db: Kysely<DB>, store: DocumentFileStore) {
  /** Removes the owner's files among `hashes` that no document of theirs keeps any more. */
  async function releaseFiles(owner: string, hashes: readonly string[]) {
    if (hashes.length === 0) return;
    const kept = await ownedRows(db, 'documents', owner)
      .select(['sha256', 'display_sha256', 'thumbnail_sha256'])
      .where((eb) =>
        eb.or([
          eb('sha256', 'in', hashes),
          eb('display_sha256', 'in', hashes),
          eb('thumbnail_sha256', 'in', hashes),
        ]),
      )
      .execute();
    const needed = new Set(kept.flatMap(filesOf));
    for (const hash of new Set(hashes)) {
      if (!needed.has(hash)) await store.remove(owner, hash);
    }
  }

  return {
    /** The files of a member's documents, read before the member (and they) are deleted. */
    async filesOfMember(owner: string, memberId: string): Promise<string[]> {
      const rows = await ownedRows(db, 'documents', owner)
        .select(['sha256', 'display_sha256', 'thumbnail_sha256'])
        .where('family_member_id', '=', memberId)
        .execute();
      return rows.flatMap(filesOf);
    },

    releaseFiles,

    /** A person's documents, oldest first (an export of theirs: the owner reads them). */
    async ofPerson(owner: string, memberId: string | null): Promise<DocumentsTable[]> {
      return ownedRows(db, 'documents', owner)
        .selectAll()
        .where('family_member_id', memberId === null ? 'is' : '=', memberId)
        .orderBy('created_at')
        .orderBy('id')
        .execute() as Promise<DocumentsTable[]>;
    },

    /** A file of the owner's, as a stream. */
    readFile(owner: string, sha256: string) {
      return store.read(owner, sha256);
    },

    /** The account is gone: every file of theirs goes too. */
    async removeOwnerFiles(owner: string) {
      await store.removeOwner(owner);
    },
  };
}

/** Writes of documents the request may write: their rows, their records, their files. */
function documentWrites(
  db: Kysely<DB>,
  attachments: Pick<DocumentRecords, 'attach' | 'keepOnly'>,
  releaseFiles: (owner: string, hashes: readonly string[]) => Promise<void>,
  get: (access: Access, id: string) => Promise<Row | undefined>,
) {
  const writeScope = (access: Access): Scope =>
    scopeOf(access, { memberLinked: true, write: true });

  return {
    /**
     * Writes a document's row. With `storage`, the bytes its upload reserved are given back
     * in the same transaction, and the row is written only if the owner's documents with it
     * and the other uploads' reservations stay within `quotaBytes` (checked again, under the
     * account's lock, with the files' real sizes): undefined when they do not.
     */
    async create(
      document: NewDocument,
      storage?: { reservedBytes: number; quotaBytes: number },
    ): Promise<Row | undefined> {
      const now = nowTimestamp();
      const row = ownedRow(document.owner, {
        id: newId(),
        family_member_id: document.member,
        title: document.title,
        document_type: document.document_type,
        document_date: document.document_date,
        file_name: document.file_name,
        mime_type: document.mime_type,
        size_bytes: document.size_bytes,
        sha256: document.sha256,
        display_sha256: document.display?.sha256 ?? null,
        display_bytes: document.display?.bytes ?? null,
        thumbnail_sha256: document.thumbnail?.sha256 ?? null,
        thumbnail_bytes: document.thumbnail?.bytes ?? null,
        created_at: now,
        updated_at: now,
      });
      const written = await db.transaction().execute(async (trx) => {
        if (storage) {
          const left = await updateOwned(trx, 'document_storage', document.owner)
            .set({ reserved_bytes: lessReserved(storage.reservedBytes) })
            .returning('reserved_bytes')
            .executeTakeFirst();
          const sizes = await fileSizes(trx, document.owner);
          const after = total(sizes) + newBytes(sizes, keptFilesOf(document));
          // Refused: the reservation is given back all the same (this transaction commits).
          if (after + Number(left?.reserved_bytes ?? 0) > storage.quotaBytes) return false;
        }
        await trx.insertInto('documents').values(row).execute();
        await attachments.attach(trx, document.owner, row.id, document.records);
        return true;
      });
      return written ? row : undefined;
    },

    /**
     * Changes a document the request may write (its person checked already, of the same
     * owner) and, when `records` is given, sets the records it is attached to (checked
     * already): all in one transaction. Undefined when it is not one the request may write.
     */
    async update(
      access: Access,
      id: string,
      changes: DocumentFacts & { owner: string; member: string | null },
      records: readonly DocumentRecord[] | undefined,
    ): Promise<Row | undefined> {
      if (!isId(id)) return undefined;
      const changed = await db.transaction().execute(async (trx) => {
        const result = await updateInScope(trx, 'documents', writeScope(access))
          .set({
            title: changes.title,
            document_type: changes.document_type,
            document_date: changes.document_date,
            family_member_id: changes.member,
            updated_at: nowTimestamp(),
          })
          .where('id', '=', id)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        if (records) {
          await attachments.keepOnly(trx, changes.owner, id, records);
          await attachments.attach(trx, changes.owner, id, records);
        }
        return true;
      });
      return changed ? get(access, id) : undefined;
    },

    /** Deletes a document the request may write, and its files no other document keeps. */
    async delete(access: Access, id: string): Promise<Row | undefined> {
      if (!isId(id)) return undefined;
      const scope = writeScope(access);
      const row = (await rowsInScope(db, 'documents', scope, scopeValues(scope))
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()) as Row | undefined;
      if (!row) return undefined;
      await deleteInScope(db, 'documents', scope).where('id', '=', id).execute();
      await releaseFiles(row.user_id, filesOf(row));
      return row;
    },
  };
}

export function createDocumentRepository(
  db: Kysely<DB>,
  store: DocumentFileStore,
  attachments: Pick<DocumentRecords, 'attach' | 'keepOnly'>,
) {
  const readScope = (access: Access, personId?: string): Scope =>
    scopeOf(access, { memberLinked: true, personId });

  function selectDocuments(scope: Scope) {
    const values = scopeValues(scope);
    return withPersonNames(
      rowsInScope(db, 'documents', scope, values, 'd').selectAll('d'),
      scope,
      values,
      'd',
    );
  }

  const files = documentFilesOf(db, store);

  async function get(access: Access, id: string): Promise<Row | undefined> {
    if (!isId(id)) return undefined;
    return (await selectDocuments(readScope(access)).where('d.id', '=', id).executeTakeFirst()) as
      Row | undefined;
  }

  return {
    async list(access: Access, options: DocumentListOptions) {
      const scope = readScope(access, options.memberId);
      let query = selectDocuments(scope);
      if (options.documentType) query = query.where('d.document_type', '=', options.documentType);
      if (options.recordId) {
        // Attached to the record: a row of document_records of the document's own owner.
        const values = scopeValues(scope);
        const recordId = options.recordId;
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('document_records as a')
              .select(sql.lit(1).as('one'))
              .whereRef('a.document_id', '=', 'd.id')
              .where(membersOfScope(scope, values, 'a'))
              .where('a.record_id', '=', recordId)
              .where('a.record_type', '=', options.recordType ?? ''),
          ),
        );
      }
      const [rows, total] = await Promise.all([
        query
          .orderBy('d.created_at', 'desc')
          .orderBy('d.id', 'desc')
          .limit(options.limit)
          .offset(options.offset)
          .execute(),
        query
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows as Row[], total: Number(total.total) };
    },

    get,
    ...documentStorage(db),
    ...documentWrites(db, attachments, files.releaseFiles, get),
    ...files,
  };
}

export type DocumentRepository = ReturnType<typeof createDocumentRepository>;
