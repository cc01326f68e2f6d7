/**
 * A person's vaccine schedule can be turned off ('Not tracked for {name}'): a family member
 * whose shots are kept elsewhere, or who has their own doctor's plan, gets no 'Vaccines due',
 * no overdue doses in their PDF and no vaccine reminders. Tracked by default, as before.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('family_members')
    .addColumn('vaccines_tracked', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
}
