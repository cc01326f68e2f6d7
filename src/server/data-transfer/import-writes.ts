/**
 * An import's writes, a short transaction at a time with a turn of the event loop between
 * two: the server answers others all along, and on SQLite its one connection is free for
 * their reads between two transactions (one transaction for a whole 199k-row file held
 * /api/health for 17 s; better-sqlite3 runs a whole transaction, its commit's fsync
 * included, without letting anything else in, so each transaction is one pause). Should a write fail, the rows already written are deleted again,
 * so that a failed import leaves nothing behind. Should the server stop in the middle, the
 * records already written are recognised when the file is imported again (import-plan.ts),
 * which brings in the rest and nothing twice. An import remembered in Import History
 * (import-history.ts) has its row written first and each row it adds noted in the
 * transaction that adds it: a failed import takes its history away with its rows, and finds
 * the rows to take back from those notes, so that it holds no list of them (199,000 ids for
 * a large file) while it writes.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { RecordDefinition, RecordTable } from '../../shared/records/definition';
import { deleteOwned, ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import { beginImport, noteAdded, trackedType, type ImportNote } from '../imports/import-history';
import { insertAll, replaceRecords } from './import-rows';
import { nextTurn } from './import-plan';

/**
 * Rows written per transaction: some milliseconds of SQLite's time with the commit, the
 * longest the server makes others wait for an import (500 rows, with their sources in a
 * transaction of their own, held /api/health for hundreds of milliseconds).
 */
export const WRITE_BATCH = 200;

type ImportTable =
  | 'family_members'
  | 'fhir_import_sources'
  | 'dose_log'
  | 'contact_persons'
  | 'documents'
  | RecordTable;

export interface ImportWrites {
  /**
   * Adds rows; `key` names the column that tells each apart, to delete it again. `alongside`
   * writes what goes with rows `start` to `end` in the same transaction (one commit for both).
   */
  insert(
    table: ImportTable,
    rows: Record<string, unknown>[],
    key?: string,
    alongside?: (db: Kysely<DB>, start: number, end: number) => Promise<void>,
  ): Promise<void>;
  /** Replaces the fields of records here with the file's; how many were replaced. */
  replace(
    definition: RecordDefinition,
    replacements: { id: string; values: Record<string, unknown> }[],
    now: string,
  ): Promise<number>;
  /**
   * One more step of its own (a batch of a different kind of write); `undo` takes it back
   * should the import fail afterwards.
   */
  step(
    write: (db: Kysely<DB>) => Promise<void>,
    undo?: (db: Kysely<DB>) => Promise<void>,
  ): Promise<void>;
  /** Takes back, should the import fail from now on, what steps after this write. */
  undoing(undo: (db: Kysely<DB>) => Promise<void>): void;
}

/**
 * The keys of rows an import added to a table, to take them back: listed, or as Import
 * History noted them (a query: `where(column, 'in', added)` takes either).
 */
type AddedRows =
  readonly unknown[] | SelectQueryBuilder<DB, 'import_records', { record_id: string }>;

export async function writeImport<T>(
  db: Kysely<DB>,
  userId: string,
  write: (writes: ImportWrites) => Promise<T>,
  /** The import as Import History remembers it (none: not remembered). */
  history?: ImportNote,
): Promise<T> {
  /** What takes back each step written, in the order they were. */
  const undos: ((db: Kysely<DB>) => Promise<void>)[] = [];
  /** The tables whose rows are taken back by Import History's notes. */
  const undoneByNotes = new Set<string>();
  const step = async (
    work: (trx: Kysely<DB>) => Promise<void>,
    undo?: (db: Kysely<DB>) => Promise<void>,
  ) => {
    await db.transaction().execute(work);
    if (undo) undos.push(undo);
    await nextTurn();
  };
  const writes: ImportWrites = {
    async insert(table, rows, key = 'id', alongside) {
      const type = trackedType(table);
      const remove = async (trx: Kysely<DB>, added: AddedRows) => {
        await deleteOwned(trx, table, userId)
          .where(key as never, 'in', added as never)
          .execute();
      };
      // Rows Import History notes are taken back by its notes: one undo for the table, in the
      // place of its first rows (the notes of rows never written are never there).
      const noted = history !== undefined && type !== undefined && key === 'id';
      if (noted && rows.length > 0 && !undoneByNotes.has(table)) {
        undoneByNotes.add(table);
        undos.push((trx) =>
          remove(
            trx,
            ownedRows(trx, 'import_records', userId)
              .select('record_id')
              .where('import_id', '=', history.id)
              .where('record_type', '=', type),
          ),
        );
      }
      for (let start = 0; start < rows.length; start += WRITE_BATCH) {
        const batch = rows.slice(start, start + WRITE_BATCH);
        const ids = batch.map((row) => row[key]);
        const end = start + batch.length;
        await step(
          async (trx) => {
            await insertAll(trx, table, batch);
            await alongside?.(trx, start, end);
            if (history && type) await noteAdded(trx, history, type, ids as string[]);
          },
          noted ? undefined : (trx) => remove(trx, ids),
        );
      }
    },
    async replace(definition, replacements, now) {
      for (let start = 0; start < replacements.length; start += WRITE_BATCH) {
        const batch = replacements.slice(start, start + WRITE_BATCH);
        await step(async (trx) => {
          await replaceRecords(trx, userId, definition, batch, now);
        });
      }
      return replacements.length;
    },
    step,
    undoing(undo) {
      undos.push(undo);
    },
  };
  try {
    if (history) {
      await step(
        (trx) => beginImport(trx, history),
        (db) => deleteOwned(db, 'imports', userId).where('id', '=', history.id).execute().then(),
      );
    }
    return await write(writes);
  } catch (error) {
    for (const undo of undos.reverse()) await undo(db);
    throw error;
  }
}
