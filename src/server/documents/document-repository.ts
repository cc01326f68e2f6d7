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
import { ownedRow, ownedRows } from '../access/access';
import {
  deleteInScope,
  membersOfScope,
  rowsInScope,
  scopeOf,
  scopeValues,
  updateInScope,
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

export function createDocumentRepository(
  db: Kysely<DB>,
  store: DocumentFileStore,
  attachments: Pick<DocumentRecords, 'attach' | 'keepOnly'>,
) {
  const readScope = (access: Access, personId?: string): Scope =>
    scopeOf(access, { memberLinked: true, personId });
  const writeScope = (access: Access): Scope =>
    scopeOf(access, { memberLinked: true, write: true });

  function selectDocuments(scope: Scope) {
    const values = scopeValues(scope);
    return withPersonNames(
      rowsInScope(db, 'documents', scope, values, 'd').selectAll('d'),
      scope,
      values,
      'd',
    );
  }

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

    async get(access: Access, id: string): Promise<Row | undefined> {
      if (!isId(id)) return undefined;
      return (await selectDocuments(readScope(access))
        .where('d.id', '=', id)
        .executeTakeFirst()) as Row | undefined;
    },

    /** The bytes the owner's documents take, files shared between them counted once each. */
    async usedBytes(owner: string): Promise<number> {
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
      let total = 0;
      for (const size of sizes.values()) total += size;
      return total;
    },

    async create(document: NewDocument): Promise<Row> {
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
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('documents').values(row).execute();
        await attachments.attach(trx, document.owner, row.id, document.records);
      });
      return row;
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
      return changed ? this.get(access, id) : undefined;
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

export type DocumentRepository = ReturnType<typeof createDocumentRepository>;
