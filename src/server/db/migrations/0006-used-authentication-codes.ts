/**
 * Authenticator-app codes already used, so that one cannot be used twice while it is still
 * valid (OWASP ASVS 2.8.4). A code is kept as an HMAC with the server's secret, never as
 * itself, and only while it could still be accepted; the user's removal removes their rows.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('used_authentication_codes')
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('used_authentication_codes_pk', ['user_id', 'code_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('used_authentication_codes').execute();
}
