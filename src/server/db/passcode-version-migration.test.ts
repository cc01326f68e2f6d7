/**
 * Migration 0041: a user row keeps which passcode it passed, not the passcode's hash. A row
 * whose copy was the server's hash gets that passcode's version (nobody signs in again for
 * the migration); any other gets none; the hash column is gone.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { passcodeVersion } from '../auth/family-passcode';
import { createTestDatabase } from '../test/harness';
import { completeSchema, migrations } from './migrate';

describe('migration 0041', () => {
  it('replaces each copy of the server’s passcode hash with its version, and drops the hash', async () => {
    const { database, drop } = await createTestDatabase({ migrate: false });
    try {
      const { db } = database;
      const before = Object.keys(migrations).filter((name) => name < '0041');
      for (const name of before) await migrations[name]!.up(db);
      await completeSchema(db, before);
      const now = new Date().toISOString();
      const no = database.engine === 'postgres' ? sql`false` : sql`0`;
      const serverHash = '$argon2id$v=19$m=1024,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';
      await sql`insert into "server_settings" ("id", "family_passcode", "family_passcode_from",
        "family_passcode_changed_at") values (1, ${serverHash}, 'file', ${now})`.execute(db);
      const user = (id: string, copy: string | null) =>
        sql`insert into "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt",
          "family_passcode") values (${id}, ${id}, ${`${id}@example.com`}, ${no}, ${now}, ${now},
          ${copy})`.execute(db);
      await user('current', serverHash);
      await user('stale', '$argon2id$v=19$m=1024,t=1,p=1$b3RoZXJzYWx0$b2xkaGFzaA');
      await user('none', null);

      await migrations['0041-passcode-version']!.up(db);

      const rows = await sql<{ id: string; passcode_version: string | null }>`
        select "id", "passcode_version" from "user" order by "id"`.execute(db);
      expect(rows.rows).toEqual([
        { id: 'current', passcode_version: passcodeVersion(serverHash) },
        { id: 'none', passcode_version: null },
        { id: 'stale', passcode_version: null },
      ]);
      const columns = await sql<{ name: string }>`${
        database.engine === 'postgres'
          ? sql`select column_name as name from information_schema.columns where table_name = 'user'`
          : sql`select name from pragma_table_info('user')`
      }`.execute(db);
      expect(columns.rows.map((row) => row.name)).not.toContain('family_passcode');
      const everything = await sql`select * from "user"`.execute(db);
      expect(JSON.stringify(everything.rows)).not.toContain('$argon2');
    } finally {
      await drop();
    }
  });
});
