/**
 * The text inside documents (issue #37): one row per document, first its job (pending,
 * then reading, while a worker holds its claim until `claimed_until`), then its text (done)
 * or why none came (failed). A restart finds the jobs where it left them: a claim that ran
 * out is claimed again. `user_id` is the document's owner, whose rows go with their
 * account; the document's own removal forgets its row (search/document-text.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_texts')
    .addColumn('document_id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('text', 'text')
    .addColumn('pages', 'integer')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('claimed_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('document_texts_waiting_idx')
    .on('document_texts')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('document_texts_user_idx')
    .on('document_texts')
    .column('user_id')
    .execute();
}
