/**
 * The mail queue: a message is a row before it is a send, so a crash between asking for a
 * mail and sending it loses nothing. An instance claims a row by moving its `claimed_until`
 * forward in one conditional update (several instances never send one row twice); a sent
 * row is deleted; a failed send waits until `next_attempt_at`. `user_id` is the account the
 * mail is about, when one is known (its rows go with it).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.references('user.id').onDelete('cascade'))
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('template', 'text', (col) => col.notNull())
    .addColumn('params', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('mail_queue_next_attempt_idx')
    .on('mail_queue')
    .column('next_attempt_at')
    .execute();
  await db.schema.createIndex('mail_queue_user_idx').on('mail_queue').column('user_id').execute();
}
