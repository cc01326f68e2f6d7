/**
 * Reminders by web push: each account's reminder settings (its time zone, the times of the
 * four times of day, whether names are hidden on the lock screen), the push subscriptions
 * of its devices (each with its own 'Medication reminders' and 'Visit reminders'), and the
 * reminders already sent, one row each: the unique key is the claim that makes a reminder
 * go out once, whichever instance finds it first (docs/decisions/0015-reminders.md).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reminder_settings')
    .addColumn('user_id', 'text', (col) =>
      col.primaryKey().references('user.id').onDelete('cascade'),
    )
    .addColumn('time_zone', 'text', (col) => col.notNull())
    .addColumn('time_morning', 'text', (col) => col.notNull())
    .addColumn('time_noon', 'text', (col) => col.notNull())
    .addColumn('time_evening', 'text', (col) => col.notNull())
    .addColumn('time_night', 'text', (col) => col.notNull())
    .addColumn('hide_names', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (col) => col.notNull().unique())
    .addColumn('p256dh', 'text', (col) => col.notNull())
    .addColumn('auth', 'text', (col) => col.notNull())
    .addColumn('medication_reminders', 'integer', (col) => col.notNull())
    .addColumn('visit_reminders', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('push_subscriptions_user_idx')
    .on('push_subscriptions')
    .column('user_id')
    .execute();
  await db.schema
    .createTable('reminders_sent')
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('reminder_key', 'text', (col) => col.notNull())
    .addColumn('due_at', 'text', (col) => col.notNull())
    .addColumn('sent_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('reminders_sent_pk', ['user_id', 'reminder_key'])
    .execute();
  await db.schema
    .createIndex('reminders_sent_due_idx')
    .on('reminders_sent')
    .column('due_at')
    .execute();
}
