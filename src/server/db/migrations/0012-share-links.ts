/**
 * Share links (SMART Health Links): one row per link a user made for one of their persons.
 * The row holds the shared records only as a JWE whose key lives in the link's fragment and
 * never reaches the server; a link is reached from outside by its manifest id (256 random
 * bits), never by its row id. A passcode is kept as an Argon2id hash, with the wrong
 * guesses it has left. `share_link_accesses` is each link's access log; `share_link_files`
 * the short-lived file addresses a manifest hands out. Everything goes with its account
 * and its family member.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('share_links')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('person_id', 'text', (col) => col.notNull())
    .addColumn('family_member_id', 'text', (col) =>
      col.references('family_members.id').onDelete('cascade'),
    )
    .addColumn('manifest_id', 'text', (col) => col.notNull().unique())
    .addColumn('label', 'text', (col) => col.notNull())
    .addColumn('jwe', 'text')
    .addColumn('passcode_hash', 'text')
    .addColumn('attempts_left', 'integer')
    .addColumn('opened_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('share_links_user_idx')
    .on('share_links')
    .columns(['user_id', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('share_links_member_idx')
    .on('share_links')
    .column('family_member_id')
    .execute();
  await db.schema
    .createIndex('share_links_expires_idx')
    .on('share_links')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('share_link_accesses')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('share_link_id', 'text', (col) =>
      col.notNull().references('share_links.id').onDelete('cascade'),
    )
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('ip_address', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('share_link_accesses_link_idx')
    .on('share_link_accesses')
    .columns(['share_link_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('share_link_files')
    .addColumn('ticket', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('share_link_id', 'text', (col) =>
      col.notNull().references('share_links.id').onDelete('cascade'),
    )
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('share_link_files_link_idx')
    .on('share_link_files')
    .column('share_link_id')
    .execute();
  await db.schema
    .createIndex('share_link_files_expires_idx')
    .on('share_link_files')
    .column('expires_at')
    .execute();
}
