/**
 * The dose log: one row per dose marked taken or skipped (a medication, a day, a time of
 * day or 'As Needed', when, by whom). A scheduled dose has at most one mark (a partial
 * unique index; 'As Needed' doses are logged as often as they are taken). The rows go with
 * their medication and their account. Doses never marked are not rows: 'missed' is derived.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dose_log')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('medication_id', 'text', (col) =>
      col.notNull().references('medications.id').onDelete('cascade'),
    )
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('slot', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('marked_at', 'text', (col) => col.notNull())
    .addColumn('marked_by', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('dose_log_user_day_idx')
    .on('dose_log')
    .columns(['user_id', 'day'])
    .execute();
  await db.schema
    .createIndex('dose_log_scheduled_idx')
    .on('dose_log')
    .columns(['medication_id', 'day', 'slot'])
    .unique()
    .where(sql.ref('slot'), '<>', 'As Needed')
    .execute();
  await db.schema
    .createIndex('dose_log_medication_idx')
    .on('dose_log')
    .columns(['medication_id', 'day'])
    .execute();
}
