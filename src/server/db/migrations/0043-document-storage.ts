/**
 * The storage an account's uploads have reserved (decision 0052): one row per account, the
 * bytes of the files being kept this moment and not yet in a document's row. An upload adds
 * its file's size here before its file is kept, in the transaction that checks the limit,
 * and takes it off in the transaction that writes its row; the row's update is what makes two
 * uploads of one account, on one app server or two, check the limit one after the other.
 * `reserved_at` (milliseconds) is when the last reservation was made: one older than any
 * upload takes was left by a server that stopped, and counts for nothing.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_storage')
    .addColumn('user_id', 'text', (col) =>
      col.primaryKey().references('user.id').onDelete('cascade'),
    )
    .addColumn('reserved_bytes', 'bigint', (col) => col.notNull())
    .addColumn('reserved_at', 'bigint', (col) => col.notNull())
    .execute();
}
