/**
 * 'Email reminders' (Profile Settings, 'Reminders'): an account may have its reminders sent
 * by email too, for phones where web push is not possible (decision 0029).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('reminder_settings')
    .addColumn('email_reminders', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`"email_reminders" in (0, 1)`),
    )
    .execute();
}
