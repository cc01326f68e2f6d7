/**
 * Import History (CONTRACT §6 'Bring records in', migration 0044): each file imported is
 * remembered with what it added (records, documents, the family member it made), noted in
 * the same transactions as those rows (import-writes.ts), so that a failed import leaves no
 * history. From it an import is undone within UNDO_DAYS: what it added is removed and nothing
 * else; a record edited since it came in is kept. Every record's page says where it came from.
 */
import type { Kysely } from 'kysely';
import { ApiError } from '../../shared/api-error';
import {
  UNDO_DAYS,
  type ImportedFrom,
  type ImportHistoryEntry,
  type ImportKind,
  type ImportUndone,
} from '../../shared/imports';
import { definitionsByType, recordDefinitions } from '../../shared/records';
import type { RecordTable } from '../../shared/records/definition';
import { deleteOwned, ownedBy, ownedRow, ownedRows, updateOwned } from '../access/scope';
import type { DB } from '../db/schema';
import { prepareQuery, type PreparedQuery } from '../db/prepared-query';
import { nowTimestamp } from '../ids';
import { key, tr } from '../../shared/i18n/translate';

/** An import being written: whose it is, what it is called and where its records go. */
export interface ImportNote {
  id: string;
  userId: string;
  kind: ImportKind;
  fileName: string;
  /** The person the records go to; null for the product's own export (the whole account). */
  person: { id: string; name: string; family_member_id: string | null } | null;
  /** The family member the import makes from the file's patient (`person=new`). */
  createdMemberId?: string | null;
}

export const IMPORT_NOT_FOUND = key('This import is not in your Import History');
export const IMPORT_ALREADY_UNDONE = key('This import has already been undone');

/** What an import adds, as Import History names it, by the table it is written to. */
const TRACKED_TABLES: ReadonlyMap<string, string> = new Map([
  ['family_members', 'family_member'],
  ['documents', 'document'],
  ...recordDefinitions.map((definition) => [definition.table, definition.type] as const),
]);

/** The name Import History gives the rows of `table`, or undefined when it does not keep them. */
export const trackedType = (table: string): string | undefined => TRACKED_TABLES.get(table);

/** The import's row, written as its first step (what it adds names it). */
export async function beginImport(db: Kysely<DB>, note: ImportNote): Promise<void> {
  await db
    .insertInto('imports')
    .values(
      ownedRow(note.userId, {
        id: note.id,
        person_id: note.person?.id ?? null,
        family_member_id: note.person?.family_member_id ?? null,
        person_name: note.person?.name ?? null,
        kind: note.kind,
        file_name: note.fileName,
        counts: '{}',
        created_member_id: note.createdMemberId ?? null,
        created_at: nowTimestamp(),
        finished_at: null,
        undone_at: null,
      }),
    )
    .execute();
}

/** Notes rows the import added (in the transaction that adds them). */
export async function noteAdded(
  db: Kysely<DB>,
  note: Pick<ImportNote, 'id' | 'userId'>,
  recordType: string,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .insertInto('import_records')
    .values(
      ids.map((record_id) =>
        ownedRow(note.userId, { import_id: note.id, record_type: recordType, record_id }),
      ),
    )
    .execute();
}

/** Counts what the import added, per type, into its row; answers how many in all. */
export async function finishImport(
  db: Kysely<DB>,
  note: Pick<ImportNote, 'id' | 'userId'>,
): Promise<number> {
  const rows = await ownedRows(db, 'import_records', note.userId)
    .select(['record_type', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('import_id', '=', note.id)
    .groupBy('record_type')
    .execute();
  const counts = Object.fromEntries(rows.map((row) => [row.record_type, Number(row.n)]));
  await updateOwned(db, 'imports', note.userId)
    .set({ counts: JSON.stringify(counts), finished_at: nowTimestamp() })
    .where('id', '=', note.id)
    .execute();
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** An import that added nothing (a portal's sync with nothing new) is not kept in the history. */
export async function forgetEmptyImport(db: Kysely<DB>, note: Pick<ImportNote, 'id' | 'userId'>) {
  const added = await ownedRows(db, 'import_records', note.userId)
    .select('record_id')
    .where('import_id', '=', note.id)
    .executeTakeFirst();
  if (!added) await deleteOwned(db, 'imports', note.userId).where('id', '=', note.id).execute();
}

const undoDeadline = (createdAt: string) =>
  new Date(Date.parse(createdAt) + UNDO_DAYS * 24 * 60 * 60 * 1000).toISOString();

/** The account's imports, newest first. */
export async function listImports(db: Kysely<DB>, userId: string): Promise<ImportHistoryEntry[]> {
  const rows = await ownedRows(db, 'imports', userId)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const now = nowTimestamp();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind as ImportKind,
    file_name: row.file_name,
    person: row.person_id === null ? null : { id: row.person_id, name: row.person_name ?? '' },
    counts: JSON.parse(row.counts) as Record<string, number>,
    created_at: row.created_at,
    undone_at: row.undone_at,
    can_undo: row.undone_at === null && undoDeadline(row.created_at) > now,
  }));
}

type ImportedFromValues = { userId: string; recordType: string; recordId: string };

/** The one query of `importedFrom`, prepared once per database (it runs on every record's page). */
const importedFromQueries = new WeakMap<
  Kysely<DB>,
  PreparedQuery<ImportedFromValues, { file_name: string; created_at: string }>
>();

/** Where a record (or document) came from, while the import that added it stands. */
export async function importedFrom(
  db: Kysely<DB>,
  userId: string,
  recordType: string,
  recordId: string,
): Promise<ImportedFrom | null> {
  let query = importedFromQueries.get(db);
  if (!query) {
    query = prepareQuery(db, (v: ImportedFromValues) =>
      ownedRows(db, 'import_records', v.userId, 'added')
        .innerJoin('imports', (join) =>
          join.onRef('imports.id', '=', 'added.import_id').on(ownedBy('imports', v.userId)),
        )
        .select(['imports.file_name', 'imports.created_at'])
        .where('added.record_id', '=', v.recordId)
        .where('added.record_type', '=', v.recordType)
        .where('imports.undone_at', 'is', null)
        .orderBy('imports.created_at', 'desc')
        .limit(1),
    );
    importedFromQueries.set(db, query);
  }
  const [row] = await query({ userId, recordType, recordId });
  return row ? { file_name: row.file_name, imported_at: row.created_at } : null;
}

/** What undoing removes besides rows: a document's files and its search text. */
export interface UndoDependencies {
  /** Removes the owner's document as a delete does (its files freed); true when it was there. */
  deleteDocument(userId: string, documentId: string): Promise<boolean>;
  /** After a record is removed: documents attached to it are detached. */
  recordRemoved(userId: string, recordPath: string, recordId: string): Promise<void>;
}

/** The import of the user's, checked undoable: 404, 410 (undone) or 409 (too old). */
async function undoableImport(db: Kysely<DB>, userId: string, importId: string) {
  const row = await ownedRows(db, 'imports', userId)
    .selectAll()
    .where('id', '=', importId)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, IMPORT_NOT_FOUND);
  if (row.undone_at !== null) throw new ApiError(410, IMPORT_ALREADY_UNDONE);
  if (undoDeadline(row.created_at) <= nowTimestamp()) {
    throw new ApiError(
      409,
      tr('This import is more than {days} days old and can no longer be undone', {
        days: UNDO_DAYS,
      }),
    );
  }
  return row;
}

/** Ids of `table`'s rows among `ids` that are still as the import left them, and the rest. */
async function splitEdited(
  db: Kysely<DB>,
  userId: string,
  table: RecordTable | 'family_members' | 'documents',
  ids: readonly string[],
  importedAt: string,
): Promise<{ unchanged: string[]; edited: number }> {
  if (ids.length === 0) return { unchanged: [], edited: 0 };
  const rows = await ownedRows(db, table, userId)
    .select(['id', 'updated_at'] as never[])
    .where('id' as never, 'in', ids as never)
    .execute();
  const unchanged: string[] = [];
  let edited = 0;
  for (const row of rows as { id: string; updated_at: string }[]) {
    if (row.updated_at > importedAt) edited += 1;
    else unchanged.push(row.id);
  }
  return { unchanged, edited };
}

/** Whether anything is left in a family member: a record of any type, or a document. */
async function memberHasAnything(db: Kysely<DB>, userId: string, memberId: string) {
  for (const table of [
    ...recordDefinitions.filter((d) => d.memberLinked).map((d) => d.table),
    'documents' as const,
  ]) {
    const row = await ownedRows(db, table, userId)
      .select('id' as never)
      .where('family_member_id' as never, '=', memberId as never)
      .executeTakeFirst();
    if (row) return true;
  }
  return false;
}

/**
 * Removes what the import added and nothing else: records and documents not edited since
 * (documents with their files), then the family members it made once nothing is left in
 * them. The sources the removed records came from are forgotten, so that importing the
 * file again adds them again.
 */
export async function undoImport(
  db: Kysely<DB>,
  userId: string,
  importId: string,
  deps: UndoDependencies,
): Promise<ImportUndone> {
  const row = await undoableImport(db, userId, importId);
  const writtenAt = row.finished_at ?? row.created_at;
  const added = await ownedRows(db, 'import_records', userId)
    .select(['record_type', 'record_id'])
    .where('import_id', '=', importId)
    .execute();
  const byType = new Map<string, string[]>();
  for (const { record_type, record_id } of added) {
    const ids = byType.get(record_type) ?? [];
    ids.push(record_id);
    byType.set(record_type, ids);
  }
  let removed = 0;
  let keptEdited = 0;
  const removedIds: string[] = [];
  for (const [type, ids] of byType) {
    if (type === 'family_member') continue;
    if (type === 'document') {
      const { unchanged, edited } = await splitEdited(db, userId, 'documents', ids, writtenAt);
      keptEdited += edited;
      for (const id of unchanged) {
        if (await deps.deleteDocument(userId, id)) {
          removed += 1;
          removedIds.push(id);
        }
      }
      continue;
    }
    const definition = definitionsByType[type as keyof typeof definitionsByType];
    if (!definition) continue;
    const { unchanged, edited } = await splitEdited(db, userId, definition.table, ids, writtenAt);
    keptEdited += edited;
    for (let start = 0; start < unchanged.length; start += 500) {
      const batch = unchanged.slice(start, start + 500);
      await deleteOwned(db, definition.table, userId)
        .where('id' as never, 'in', batch as never)
        .execute();
      for (const id of batch) await deps.recordRemoved(userId, definition.path, id);
    }
    removed += unchanged.length;
    removedIds.push(...unchanged);
  }
  // The members it made, last: only when nothing is left in them (kept records, others' records).
  const members = byType.get('family_member') ?? [];
  const { unchanged, edited } = await splitEdited(db, userId, 'family_members', members, writtenAt);
  keptEdited += edited;
  for (const memberId of unchanged) {
    if (await memberHasAnything(db, userId, memberId)) continue;
    await deleteOwned(db, 'family_members', userId).where('id', '=', memberId).execute();
    removed += 1;
    removedIds.push(memberId);
  }
  for (let start = 0; start < removedIds.length; start += 500) {
    await deleteOwned(db, 'fhir_import_sources', userId)
      .where('record_id', 'in', removedIds.slice(start, start + 500))
      .execute();
  }
  await updateOwned(db, 'imports', userId)
    .set({ undone_at: nowTimestamp() })
    .where('id', '=', importId)
    .execute();
  return { removed, kept_edited: keptEdited };
}
