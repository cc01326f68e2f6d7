/**
 * The server's own settings: one row, no one user's data.
 *
 * It holds the Friends & Family Passcode of the whole server, hashed (Argon2id, as
 * passwords are), which every sign-up and sign-in checks: several instances on one database
 * therefore agree on it at once, and changing it is one write. Where the server's
 * configuration takes the passcode from (`FAMILY_PASSCODE` or the file in DATA_DIR) is kept
 * beside it, so that `npm run kin -- passcode` knows whether a start would change it back.
 *
 * The row is written by the first start after this migration (a migration does not know
 * the passcode): until then the table is empty, and nobody signs up or in.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_settings')
    // One row: its id is 1, and nothing else fits.
    .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('family_passcode', 'text', (col) => col.notNull())
    .addColumn('family_passcode_from', 'text', (col) => col.notNull())
    .addColumn('family_passcode_changed_at', 'text', (col) => col.notNull())
    .execute();
}
