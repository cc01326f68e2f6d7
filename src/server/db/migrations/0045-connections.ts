/**
 * Patient portals (CONTRACT §6 'Connections'): a connection is one person's link to one
 * portal (`connections`), holding the portal's tokens sealed with a key derived from
 * AUTH_SECRET (connections/token-seal.ts); a connection being made is a `connection_starts`
 * row from the moment the browser is sent to the portal until it comes back (or ten minutes
 * pass), holding the PKCE verifier, sealed too, under its `state`.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('connections')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    // The person the portal's patient is: null for the account holder, as on records.
    .addColumn('family_member_id', 'text', (col) =>
      col.references('family_members.id').onDelete('cascade'),
    )
    // The provider's name in SMART_PROVIDERS, and its FHIR base URL when connected.
    .addColumn('portal', 'text', (col) => col.notNull())
    .addColumn('fhir_base_url', 'text', (col) => col.notNull())
    // The portal's id of its patient (the token response's `patient`).
    .addColumn('patient_id', 'text', (col) => col.notNull())
    .addColumn('scope', 'text', (col) => col.notNull())
    .addColumn('refresh_token', 'text')
    .addColumn('access_token', 'text')
    .addColumn('access_expires_at', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('problem', 'text')
    .addColumn('last_synced_at', 'text')
    .addColumn('last_sync_summary', 'text')
    // When the daily sync is next due; and, while a sync runs, until when it is claimed.
    .addColumn('next_sync_at', 'text', (col) => col.notNull())
    .addColumn('sync_claimed_until', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('connections_user_idx')
    .on('connections')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('connections_due_idx')
    .on('connections')
    .columns(['next_sync_at'])
    .execute();
  await db.schema
    .createTable('connection_starts')
    .addColumn('state', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('family_member_id', 'text', (col) =>
      col.references('family_members.id').onDelete('cascade'),
    )
    .addColumn('portal', 'text', (col) => col.notNull())
    .addColumn('code_verifier', 'text', (col) => col.notNull())
    // The connection a 'Reconnect' renews; null for a new one.
    .addColumn('connection_id', 'text', (col) =>
      col.references('connections.id').onDelete('cascade'),
    )
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
}
