/**
 * The search index on PostgreSQL, made fast for a heavy user (issue #37, docs/decisions/0041).
 *
 * - One GIN index over the owner and the words, `(user_id, document)`, through the trusted
 *   contrib extension `btree_gin` when it can be created: a search reads exactly the
 *   user's matching entries from it. With a GIN index over the words alone and a btree over
 *   the owner, the planner read every entry of a heavy user and tested each (the words'
 *   index guessed too dear beside the owner's), which cost 45–95 ms over 21,000 records.
 *   The index over the words alone then has nothing left to do and goes. Without the
 *   extension (a managed server without contrib), it stays.
 * - A short list of entries waiting to be merged into the GIN index: with the server's
 *   default (`gin_pending_list_limit`, 4 MB) tens of thousands of new entries (an import, a
 *   heavy user's records) waited in that list until autovacuum came by, each search read
 *   all of them, and the planner, seeing them, stopped using the index. 64 kB (the least
 *   PostgreSQL allows, a few hundred entries) keeps the list short; a write now and then
 *   merges it, in sorted batches still cheaper than merging each entry as it comes.
 *
 * SQLite's FTS5 keeps owner and words apart and merges its own segments: nothing changes.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf, optionalExtension } from './engine';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  const btreeGin = await optionalExtension(db, 'btree_gin');
  if (btreeGin) {
    // The operator class is named with its schema, so the index does not depend on search_path.
    const opclass = `${btreeGin}.text_ops`;
    await sql
      .raw(
        `create index search_entries_user_document_idx on search_entries
        using gin (user_id ${opclass}, document) with (gin_pending_list_limit = 64)`,
      )
      .execute(db);
    await sql`drop index search_entries_document_idx`.execute(db);
  } else {
    await sql`alter index search_entries_document_idx set (gin_pending_list_limit = 64)`.execute(
      db,
    );
    // What is waiting today is merged now, not at the next vacuum.
    await sql`select gin_clean_pending_list('search_entries_document_idx'::regclass)`.execute(db);
  }
}
