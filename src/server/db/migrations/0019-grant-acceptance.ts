/**
 * A household grant takes effect only for the account that proves its email: the owner
 * passes on a one-time acceptance code (kept here only as its SHA-256), the account with
 * that email enters it, and from then on the grant is that account's (`grantee_id`), not
 * the email's. Grants made before this migration had no such proof: they wait for one like
 * a new grant (docs/decisions/0022-grant-acceptance.md).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('access_grants')
    .addColumn('grantee_id', 'text', (col) => col.references('user.id').onDelete('cascade'))
    .execute();
  await db.schema.alterTable('access_grants').addColumn('acceptance_code_hash', 'text').execute();
  await db.schema.alterTable('access_grants').addColumn('accepted_at', 'text').execute();
  await db.schema
    .createIndex('access_grants_grantee_id_idx')
    .on('access_grants')
    .column('grantee_id')
    .execute();
}
