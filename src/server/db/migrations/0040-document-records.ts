/**
 * A document attached to several records (CONTRACT §6 'Documents after upload', decision
 * 0044): the attachments leave the document's row (its `record_type` and `record_id`, one
 * record at most) for a table of their own, one row per document and record, so an
 * insurance card is one document on its policy and on a visit. `record_type` is the record
 * type's path (visits, insurance…), as before. A row goes with its document (and so with
 * its member and account) by foreign key; `user_id` is the document's owner, held to it by
 * the same key, so the access module reaches the rows by their owner as every other table.
 * The attachments there are move over as they are.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The key an attachment names its document by: the document and its owner together.
  await db.schema
    .createIndex('documents_id_user_idx')
    .on('documents')
    .columns(['id', 'user_id'])
    .unique()
    .execute();
  await db.schema
    .createTable('document_records')
    .addColumn('document_id', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('record_type', 'text', (col) => col.notNull())
    .addColumn('record_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('document_records_pk', ['document_id', 'record_type', 'record_id'])
    .addForeignKeyConstraint(
      'document_records_document_fk',
      ['document_id', 'user_id'],
      'documents',
      ['id', 'user_id'],
      (constraint) => constraint.onDelete('cascade'),
    )
    .execute();
  // A record's documents, and its deletion detaching them, by owner and record.
  await db.schema
    .createIndex('document_records_record_idx')
    .on('document_records')
    .columns(['user_id', 'record_id', 'record_type'])
    .execute();
  await sql`
    insert into "document_records" ("document_id", "user_id", "record_type", "record_id", "created_at")
    select "id", "user_id", "record_type", "record_id", "updated_at" from "documents"
    where "record_type" is not null and "record_id" is not null
  `.execute(db);
  await db.schema.dropIndex('documents_record_idx').execute();
  await db.schema.alterTable('documents').dropColumn('record_type').execute();
  await db.schema.alterTable('documents').dropColumn('record_id').execute();
}
