/**
 * The search index's GIN index on PostgreSQL keeps a short list of entries not yet merged
 * (issue #37). With the server's default (`gin_pending_list_limit`, 4 MB) tens of thousands
 * of new entries (an import, a heavy user's records) waited in that list until autovacuum
 * came by, and every search read all of them one by one; the planner, seeing the list,
 * turned to reading every entry of the user instead. 64 kB (the least PostgreSQL allows, a
 * few hundred entries) keeps the list short: a write now and then merges it, in sorted
 * batches still cheaper than merging each entry as it comes (docs/decisions/0041).
 * SQLite's FTS5 merges its own segments and has nothing to change.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from './engine';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql`alter index search_entries_document_idx set (gin_pending_list_limit = 64)`.execute(db);
  // What is waiting today is merged now, not at the next vacuum.
  await sql`select gin_clean_pending_list('search_entries_document_idx'::regclass)`.execute(db);
}
