/**
 * The vaccine schedule: a family member's sex (CDSi's schedules differ by it, as HPV's
 * does), a shot's vaccine as a CVX code, and the schedule an account follows ('us-cdc' by
 * default, 'none' to turn it off).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('family_members').addColumn('sex', 'text').execute();
  await db.schema.alterTable('shots').addColumn('vaccine_code', 'text').execute();
  await db.schema
    .alterTable('user')
    .addColumn('vaccine_schedule', 'text', (col) => col.notNull().defaultTo('us-cdc'))
    .execute();
}
