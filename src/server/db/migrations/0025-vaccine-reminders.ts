/**
 * Vaccine reminders: a device's subscription asks for them or not (off for the devices
 * subscribed before).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('push_subscriptions')
    .addColumn('vaccine_reminders', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}
