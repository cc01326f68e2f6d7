/**
 * Attempt limits and account locks.
 *
 * Attempts counted per account (and per link or token, later), so that a password, passcode
 * or code can be guessed only so many times whichever addresses the guesses come from.
 * better-auth's own limits (its rateLimit table) count per address; these complete them.
 *
 * One row per (scope, subject, action) and fixed window: `subject` is what the attempts are
 * against (a user id, an email), so deleting an account can delete its rows by subject.
 *
 * An account lock says that a long operation (an import) is running for the account, so a
 * second one, on this instance or another, is refused until it ends; a lock left by an
 * instance that died is taken over once it is old.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('attempt_limits')
    .addColumn('scope', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('window_started_at', 'bigint', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('attempt_limits_pk', ['scope', 'subject', 'action'])
    .execute();
  await db.schema
    .createIndex('attempt_limits_window_idx')
    .on('attempt_limits')
    .column('window_started_at')
    .execute();
  await db.schema
    .createTable('account_locks')
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('operation', 'text', (col) => col.notNull())
    .addColumn('acquired_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('account_locks_pk', ['user_id', 'operation'])
    .execute();
}
