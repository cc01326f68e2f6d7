/**
 * The search index (issue #37): one row per searchable record or document in
 * `search_entries` (its owner, person, title, text and date), and each engine's own
 * full-text index over it. SQLite: an FTS5 table reading its text from the entries
 * (unicode61 with accents removed, prefix indexes for two- and three-letter prefixes), kept
 * by triggers on the entries. PostgreSQL: a `simple` tsvector of the unaccented text (title
 * weighted above the rest) in a generated column, with a GIN index; `unaccent` when the
 * extension can be created, else the same folding by `translate()` (docs/decisions/0036).
 *
 * The entries themselves are written by triggers on the record tables, made from the
 * record definitions after the migrations (server/search/search-index-sync.ts), which also
 * fills the index for the records there are: `search_sources` remembers what each table's
 * triggers were made from.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf, optionalExtension } from './engine';

/** Latin letters with marks, and the letters they fold to, for the translate() fallback. */
function foldingTable(): { from: string; to: string } {
  let from = '';
  let to = '';
  for (let code = 0xc0; code <= 0x24f; code += 1) {
    const letter = String.fromCodePoint(code);
    const folded = letter.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    if (folded.length === 1 && /[a-z]/.test(folded) && folded !== letter.toLowerCase()) {
      from += letter;
      to += folded;
    }
  }
  // Letters whose stroke is not a combining mark.
  for (const [letter, folded] of [
    ['ø', 'o'],
    ['Ø', 'o'],
    ['ł', 'l'],
    ['Ł', 'l'],
    ['đ', 'd'],
    ['Đ', 'd'],
  ]) {
    from += letter;
    to += folded;
  }
  return { from, to };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_sources')
    .addColumn('record_table', 'text', (col) => col.primaryKey())
    .addColumn('signature', 'text', (col) => col.notNull())
    .execute();

  if (engineOf(db) === 'postgres') {
    // The function names the extension's schema, with its dictionary (see optionalExtension).
    const unaccent = await optionalExtension(db, 'unaccent');
    if (unaccent) {
      await sql
        .raw(
          `create function kin_search_text(value text) returns text
        language sql immutable parallel safe
        as $$ select lower(${unaccent}.unaccent('${unaccent}.unaccent'::regdictionary, coalesce(value, ''))) $$`,
        )
        .execute(db);
    } else {
      const { from, to } = foldingTable();
      await sql
        .raw(
          `create function kin_search_text(value text) returns text
        language sql immutable parallel safe
        as $$ select translate(lower(coalesce(value, '')), '${from}', '${to}') $$`,
        )
        .execute(db);
    }
    await sql`create table search_entries (
      id bigint generated always as identity primary key,
      record_table text not null,
      record_id text not null,
      user_id text not null references "user"(id) on delete cascade,
      family_member_id text,
      title text not null,
      body text not null,
      record_date text,
      document tsvector generated always as (
        setweight(to_tsvector('simple'::regconfig, kin_search_text(title)), 'A') ||
        setweight(to_tsvector('simple'::regconfig, kin_search_text(body)), 'B')
      ) stored
    )`.execute(db);
    await sql`create index search_entries_document_idx on search_entries using gin (document)`.execute(
      db,
    );
  } else {
    await sql`create table search_entries (
      id integer primary key,
      record_table text not null,
      record_id text not null,
      user_id text not null references "user"(id) on delete cascade,
      family_member_id text,
      title text not null,
      body text not null,
      record_date text
    )`.execute(db);
    await sql`create virtual table search_text using fts5(
      title, body,
      content = 'search_entries', content_rowid = 'id',
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '2 3'
    )`.execute(db);
    await sql`create trigger search_entries_added after insert on search_entries begin
      insert into search_text (rowid, title, body) values (new.id, new.title, new.body);
    end`.execute(db);
    await sql`create trigger search_entries_removed after delete on search_entries begin
      insert into search_text (search_text, rowid, title, body)
      values ('delete', old.id, old.title, old.body);
    end`.execute(db);
    await sql`create trigger search_entries_changed after update on search_entries begin
      insert into search_text (search_text, rowid, title, body)
      values ('delete', old.id, old.title, old.body);
      insert into search_text (rowid, title, body) values (new.id, new.title, new.body);
    end`.execute(db);
  }
  await db.schema
    .createIndex('search_entries_record_idx')
    .on('search_entries')
    .columns(['record_table', 'record_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('search_entries_user_idx')
    .on('search_entries')
    .column('user_id')
    .execute();
}
