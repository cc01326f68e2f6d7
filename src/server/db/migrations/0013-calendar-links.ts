/**
 * Private calendar links: at most one per account, named by a 32-byte random token of
 * which only the SHA-256 is kept, so the database alone cannot open anyone's feed. The link
 * covers every person, or one (`person_id`: the user's own id or a family member's, gone
 * with the member). `last_read_ip` is the address of the last reading, so that a reading
 * from a new address is written to the audit log and a calendar app's hourly polling is not.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('calendar_links')
    .addColumn('user_id', 'text', (col) =>
      col.primaryKey().references('user.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('person_id', 'text')
    .addColumn('family_member_id', 'text', (col) =>
      col.references('family_members.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_read_at', 'text')
    .addColumn('last_read_ip', 'text')
    .execute();
}
