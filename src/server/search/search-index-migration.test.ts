/**
 * Migration 0038 on SQLite: the search index made again without prefix indexes and the
 * entries without an owner's index. What was findable before it still is, by the beginning
 * of a word; what is written after it is found and forgotten in the write's own transaction.
 */
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, type Database } from '../db/database';
import { completeSchema, migrateToLatest, migrations } from '../db/migrate';
import { testEngine } from '../test/harness';

let open: Database | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** The entries' titles the index matches, best first (the search repository's own match). */
async function matching(database: Database, query: string): Promise<string[]> {
  const { rows } = await sql<{ title: string }>`select e.title from search_entries e
    join search_text on search_text.rowid = e.id
    where search_text match ${query} order by bm25(search_text, 4.0, 1.0)`.execute(database.db);
  return rows.map((row) => row.title);
}

describe.runIf(testEngine() === 'sqlite')('migration 0038-search-index-lighter-writes', () => {
  it('keeps every entry findable by a prefix, and follows writes after it', async () => {
    open = openSqlite(':memory:');
    const database = open;
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0037-search-index-by-owner')).error).toBeUndefined();
    // The records' triggers, as a server before this migration had made them.
    await completeSchema(
      db,
      Object.keys(migrations).filter((name) => name < '0038'),
    );
    const now = new Date().toISOString();
    await sql`insert into "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt")
      values ('u1', 'Maria', 'maria@example.com', 0, ${now}, ${now})`.execute(db);
    const visit = (id: string, name: string, notes: string) =>
      sql`insert into visits (id, user_id, visit_name, visit_date, notes, created_at, updated_at)
        values (${id}, 'u1', ${name}, '2026-01-01', ${notes}, ${now}, ${now})`.execute(db);
    await visit('v1', 'Amoxicillin', 'Dr. José Patel');
    await visit('v2', 'Check-up', 'Bring the amoxicillin box');
    expect(await matching(database, '"am"*')).toEqual(['Amoxicillin', 'Check-up']);

    await migrateToLatest(db);
    const { rows: schema } = await sql<{ name: string; sql: string | null }>`
      select name, sql from sqlite_schema where name in ('search_text', 'search_entries_user_idx')`.execute(
      db,
    );
    expect(schema.map((row) => row.name)).toEqual(['search_text']);
    expect(schema[0]?.sql).not.toMatch(/prefix/);
    // A title's match ranks above the body's; two letters and an unaccented name still match.
    expect(await matching(database, '"am"*')).toEqual(['Amoxicillin', 'Check-up']);
    expect(await matching(database, '"jose"* "pat"*')).toEqual(['Amoxicillin']);

    await visit('v3', 'Amlodipine', 'Blood pressure');
    expect(await matching(database, '"aml"*')).toEqual(['Amlodipine']);
    await sql`update visits set visit_name = 'Ibuprofen' where id = 'v1'`.execute(db);
    expect(await matching(database, '"amox"*')).toEqual(['Check-up']);
    await sql`delete from visits where id = 'v2'`.execute(db);
    expect(await matching(database, '"amox"*')).toEqual([]);
    // An account's removal still takes its entries, without the owner's index.
    await sql`delete from "user" where id = 'u1'`.execute(db);
    expect(await matching(database, '"ibu"*')).toEqual([]);
    const { rows: left } = await sql<{
      n: number;
    }>`select count(*) as n from search_entries`.execute(db);
    expect(left[0]?.n).toBe(0);
  });
});
