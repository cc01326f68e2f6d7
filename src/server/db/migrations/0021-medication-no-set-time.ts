/**
 * 'No set time': a medication taken on a schedule (Daily, Twice Daily, Weekly) says so when
 * no time of day is ticked, and Today's Medications lists it under 'Any time'. Those kept
 * before, scheduled with no time ticked, are read as taken at no set time.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('medications')
    .addColumn('no_set_time', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`"no_set_time" in (0, 1)`),
    )
    .execute();
  await sql`
    update "medications" set "no_set_time" = 1
    where "frequency" in ('Daily', 'Twice Daily', 'Weekly')
      and "time_morning" = 0 and "time_noon" = 0 and "time_evening" = 0 and "time_night" = 0
  `.execute(db);
}
