/**
 * The rows of documents a request may touch (the access module says which), and their
 * files: kept in the document store once, removed when no document of their owner needs
 * them any more (a document, its member or its account deleted).
 */
import type { Kysely } from 'kysely';
import type { DocumentMimeType, DocumentType, StoredDocument } from '../../shared/documents';
import { ownedRow, ownedRows, updateOwned } from '../access/access';
import {
  deleteInScope,
  rowsInScope,
  scopeOf,
  scopeValues,
  type Access,
  type Scope,
} from '../access/scope';
import type { DB, DocumentsTable } from '../db/schema';
import { isId, newId, nowTimestamp } from '../ids';
import { withPersonNames } from '../persons/person-columns';
import type { DocumentFileStore } from './document-files';

export const DOCUMENTS_PAGE_SIZE = 50;

type Row = DocumentsTable & { family_member_name?: string | null };

/** The files a document keeps: its original, its display copy and its thumbnail. */
export const filesOf = (row: Pick<Row, 'sha256' | 'display_sha256' | 'thumbnail_sha256'>) =>
  [row.sha256, row.display_sha256, row.thumbnail_sha256].filter(
    (hash): hash is string => hash !== null,
  );

export function documentOfRow(row: Row): StoredDocument {
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
    record_type: row.record_type,
    record_id: row.record_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What is said of a file: whose it is, its title, type, date, name and record. */
export interface DocumentDetails {
  owner: string;
  member: string | null;
  title: string;
  document_type: DocumentType;
  document_date: string | null;
  file_name: string;
  /** The record it belongs to (the record type's path and its id), already checked. */
  record_type: string | null;
  record_id: string | null;
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

export function createDocumentRepository(db: Kysely<DB>, store: DocumentFileStore) {
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
      let query = selectDocuments(readScope(access, options.memberId));
      if (options.documentType) query = query.where('d.document_type', '=', options.documentType);
      if (options.recordId) {
        query = query
          .where('d.record_type', '=', options.recordType ?? '')
          .where('d.record_id', '=', options.recordId);
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
      return { documents: (rows as Row[]).map(documentOfRow), total: Number(total.total) };
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

    async create(document: NewDocument): Promise<StoredDocument> {
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
        record_type: document.record_type,
        record_id: document.record_id,
        created_at: now,
        updated_at: now,
      });
      await db.insertInto('documents').values(row).execute();
      return documentOfRow(row);
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

    /** A record was deleted: its documents stay with their person, attached to nothing. */
    async detachFromRecord(owner: string, recordType: string, recordId: string) {
      await updateOwned(db, 'documents', owner)
        .set({ record_type: null, record_id: null, updated_at: nowTimestamp() })
        .where('record_type', '=', recordType)
        .where('record_id', '=', recordId)
        .execute();
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
