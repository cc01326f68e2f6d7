/**
 * Medication supply (CONTRACT §6 'Medication supply'): what is on hand, what one dose takes
 * of it (1 unless told), the refills left and when the prescription ends; the pack size
 * 'Refilled' last added (offered again next time); and on each dose mark what it took from
 * the supply, so that an undo gives back exactly that (nothing when there was no supply
 * kept, or the mark was a skip). And 'Refill reminders' in the account's reminder settings:
 * on unless turned off, so many days before a medication runs out (7 unless told).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('medications')
    .addColumn('quantity_on_hand', 'double precision')
    .execute();
  await db.schema
    .alterTable('medications')
    .addColumn('dose_amount', 'double precision', (col) => col.defaultTo(1))
    .execute();
  await db.schema.alterTable('medications').addColumn('refills_left', 'double precision').execute();
  await db.schema.alterTable('medications').addColumn('prescription_ends', 'text').execute();
  await db.schema.alterTable('medications').addColumn('pack_size', 'double precision').execute();
  await db.schema.alterTable('dose_log').addColumn('supply_used', 'double precision').execute();
  await db.schema
    .alterTable('reminder_settings')
    .addColumn('refill_reminders', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(1)
        .check(sql`"refill_reminders" in (0, 1)`),
    )
    .execute();
  await db.schema
    .alterTable('reminder_settings')
    .addColumn('refill_days', 'integer', (col) => col.notNull().defaultTo(7))
    .execute();
}
