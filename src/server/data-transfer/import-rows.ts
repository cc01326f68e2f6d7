/**
 * The writes an import of any kind is made of, shared by the export file's import, its
 * documents and a FHIR import: rows inserted a few hundred at a time, records replaced with
 * the file's fields, and the key a record of the file is known by.
 */
import type { Kysely } from 'kysely';
import type { RecordDefinition, RecordTable } from '../../shared/records/definition';
import { updateOwned } from '../access/scope';
import type { DB } from '../db/schema';
import { recordRows } from '../records/record-rows';

export const INSERT_BATCH = 500;

/** Where a record of the file is, by its type's path and its id in the file. */
export const recordKey = (path: string, id: string) => `${path}\n${id}`;

/** Inserts rows a few hundred at a time (SQLite and PostgreSQL bound a statement's values). */
export async function insertAll(
  db: Kysely<DB>,
  table:
    | 'family_members'
    | 'fhir_import_sources'
    | 'dose_log'
    | 'contact_persons'
    | 'documents'
    | 'document_records'
    | RecordTable,
  rows: Record<string, unknown>[],
) {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + INSERT_BATCH) as never)
      .execute();
  }
}

/** Replaces the fields of records here with the file's; how many were replaced. */
export async function replaceRecords(
  db: Kysely<DB>,
  userId: string,
  definition: RecordDefinition,
  replacements: readonly { id: string; values: Record<string, unknown> }[],
  now: string,
): Promise<number> {
  const rows = recordRows(definition);
  for (const { id, values } of replacements) {
    const { family_member_id: _member, ...fields } = rows.toRow(values);
    await updateOwned(db, definition.table, userId)
      .set({ ...fields, updated_at: now } as never)
      .where('id', '=', id)
      .execute();
  }
  return replacements.length;
}
