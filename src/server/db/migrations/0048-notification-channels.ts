/**
 * Notification channels besides web push and email (CONTRACT §6 'Notifications'):
 *
 * - `notification_channels`: an account's ntfy topic URL and webhook URL, one of each at
 *   most; a webhook's signing secret is derived from AUTH_SECRET and the row's `secret_salt`
 *   (a new salt is a new secret), so no secret is stored.
 * - `notification_queue`: what is to be sent to them, tried again with back-off
 *   (queue/retry-queue.ts, as mail is).
 * - `notification_deliveries`: each try's outcome, for the account's delivery log.
 * - `dose_action_tokens`: the 'Taken' and 'Skip' buttons of a dose reminder, each a
 *   single-use, expiring token kept as its SHA-256; the buttons of one reminder share a
 *   `group_key`, and using one uses them all.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notification_channels')
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('secret_salt', 'text')
    // Where the app is, for the links in notifications: BASE_URL, or else the address the
    // channel was set from (the job that sends reminders has no request to ask).
    .addColumn('app_url', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('notification_channels_pk', ['user_id', 'channel'])
    .execute();

  await db.schema
    .createTable('notification_queue')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('channel', 'text', (col) => col.notNull())
    // The notification (title, body, link, tag, and the doses its buttons mark), as JSON.
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('notification_queue_next_attempt_idx')
    .on('notification_queue')
    .column('next_attempt_at')
    .execute();
  await db.schema
    .createIndex('notification_queue_user_idx')
    .on('notification_queue')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('notification_deliveries')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('channel', 'text', (col) => col.notNull())
    // 'sent', 'retried' (failed, to be tried again) or 'failed' (given up).
    .addColumn('outcome', 'text', (col) => col.notNull())
    // What was sent ('Test', 'Reminder') and what the other end answered, in words.
    .addColumn('what', 'text', (col) => col.notNull())
    .addColumn('detail', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('notification_deliveries_user_idx')
    .on('notification_deliveries')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('dose_action_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    // The medications' owner: the marks are theirs.
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('group_key', 'text', (col) => col.notNull())
    // The medications of the reminder (a JSON array of ids), and the dose's day and time of day.
    .addColumn('medication_ids', 'text', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('slot', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('dose_action_tokens_group_idx')
    .on('dose_action_tokens')
    .columns(['user_id', 'group_key'])
    .execute();
  await db.schema
    .createIndex('dose_action_tokens_expiry_idx')
    .on('dose_action_tokens')
    .column('expires_at')
    .execute();
}
