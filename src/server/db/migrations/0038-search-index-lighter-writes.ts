/**
 * SQLite's search index made lighter to keep (issue #37's budget: its upkeep adds under 15%
 * to creating a record; docs/decisions/0036). Every create, edit and delete still updates the
 * index in its own transaction; what changes is how many pages that transaction writes.
 *
 * - No prefix indexes (`prefix='2 3'`): each word was written three times (the word, its
 *   first two and first three letters), and the merges FTS5 makes of its segments rewrote all
 *   three. A prefix query reads the words starting with it from the main index instead: as
 *   fast for the heavy user's one- and three-word searches (bench/search.ts), and each commit
 *   writes about 1.8 fewer pages.
 * - No index on the entries' owner: a search starts from the words' index and reads each
 *   match's entry by its rowid, so the owner's index was written by every create and read by
 *   nothing but an account's removal (which then reads the entries once).
 *
 * PostgreSQL's index is another (a GIN over owner and words, migration 0037): nothing changes.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from './engine';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'postgres') return;
  // The entries' triggers (migration 0031) name the index table, not its options: they keep
  // working with the table made again, and the index is rebuilt from the entries there are.
  await sql`drop table search_text`.execute(db);
  await sql`create virtual table search_text using fts5(
    title, body,
    content = 'search_entries', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`insert into search_text (search_text) values ('rebuild')`.execute(db);
  await sql`drop index search_entries_user_idx`.execute(db);
}
