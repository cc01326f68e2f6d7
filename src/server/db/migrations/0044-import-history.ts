/**
 * Import History (CONTRACT §6 'Bring records in'): one row per file imported (`imports`),
 * and one per record, document or family member it added (`import_records`), written in the
 * same transactions as what they name, so that a failed import leaves neither. An import is
 * undone from them: what it added is removed, and nothing else. `person_name` keeps the
 * name the person had, so that the history still reads after a member it made is removed.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('imports')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    // The person the records went to (the user's id, or a member's); null: the whole account.
    .addColumn('person_id', 'text')
    .addColumn('family_member_id', 'text')
    .addColumn('person_name', 'text')
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('file_name', 'text', (col) => col.notNull())
    // Added, per record type, as JSON: {"vital": 12, "document": 1}.
    .addColumn('counts', 'text', (col) => col.notNull())
    // The family member the import made from the file's patient (`person=new`).
    .addColumn('created_member_id', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    // When its last row was written: a record updated after it was edited since.
    .addColumn('finished_at', 'text')
    .addColumn('undone_at', 'text')
    .execute();
  await db.schema
    .createIndex('imports_user_idx')
    .on('imports')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('import_records')
    .addColumn('import_id', 'text', (col) =>
      col.notNull().references('imports.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    // A record type ('vital'), or 'document', or 'family_member'.
    .addColumn('record_type', 'text', (col) => col.notNull())
    .addColumn('record_id', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('import_records_pk', ['import_id', 'record_type', 'record_id'])
    .execute();
  await db.schema
    .createIndex('import_records_record_idx')
    .on('import_records')
    .columns(['user_id', 'record_id'])
    .execute();
}
