/**
 * A household grant may 'Alert when a dose is missed' (CONTRACT §6 'Notifications'): the
 * minutes after a dose's reminder time that the grantee is alerted of it while it is still
 * unmarked; null for no alerts (decision 0065).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('access_grants')
    .addColumn('missed_dose_alert_minutes', 'integer', (col) =>
      col.check(sql`"missed_dose_alert_minutes" between 5 and 1440`),
    )
    .execute();
}
