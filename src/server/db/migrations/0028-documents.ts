/**
 * Documents: a person's uploaded papers (PDF or image files), each optionally attached to
 * one record (by its type's table and id; a record's deletion detaches it). The files are
 * content-addressed by their SHA-256, per owner: on SQLite, files under DATA_DIR/documents;
 * on PostgreSQL, the rows of `document_blobs` in chunks of bytea (decision 0033), so that
 * every app server behind a load balancer sees them. Both go with their member and account.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from './engine';

export async function up(db: Kysely<unknown>): Promise<void> {
  const engine = engineOf(db);
  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('family_member_id', 'text')
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('document_type', 'text', (col) => col.notNull())
    .addColumn('document_date', 'text')
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('mime_type', 'text', (col) => col.notNull())
    .addColumn('size_bytes', 'bigint', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('display_sha256', 'text')
    .addColumn('display_bytes', 'bigint')
    .addColumn('thumbnail_sha256', 'text')
    .addColumn('thumbnail_bytes', 'bigint')
    .addColumn('record_type', 'text')
    .addColumn('record_id', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addForeignKeyConstraint(
      'documents_member_fk',
      ['family_member_id', 'user_id'],
      'family_members',
      ['id', 'user_id'],
      (constraint) => constraint.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('documents_user_created_idx')
    .on('documents')
    .columns(['user_id', 'created_at'])
    .execute();
  // The timeline reads documents by (owner, date, id), as it reads every record type.
  await db.schema
    .createIndex('documents_user_date_idx')
    .on('documents')
    .columns(['user_id', 'document_date', 'id'])
    .execute();
  await db.schema
    .createIndex('documents_record_idx')
    .on('documents')
    .columns(['user_id', 'record_id'])
    .execute();
  await db.schema
    .createTable('document_blobs')
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('part', 'integer', (col) => col.notNull())
    .addColumn('data', engine === 'postgres' ? sql`bytea` : 'blob', (col) => col.notNull())
    .addPrimaryKeyConstraint('document_blobs_pk', ['user_id', 'sha256', 'part'])
    .execute();
}
