/**
 * Migration 0019: a grant made before acceptance codes existed had no proof of its email,
 * so after the migration it gives nothing until its owner issues a code and it is accepted.
 */
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccessReader } from '../access/scope';
import { openSqlite, type Database } from '../db/database';
import { migrateToLatest, migrations } from '../db/migrate';
import { testEngine } from '../test/harness';

let open: Database | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

// The migration is the same on both engines; SQLite in memory is enough to run it.
describe.runIf(testEngine() === 'sqlite')('migration 0019-grant-acceptance', () => {
  it('leaves the grants made before it pending: the email alone no longer reads them', async () => {
    open = openSqlite(':memory:');
    const { db } = open;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo('0016-household');
    expect(error).toBeUndefined();
    const now = new Date().toISOString();
    for (const [id, email] of [
      ['owner', 'owner@example.com'],
      ['grantee', 'grandma@example.com'],
    ]) {
      await sql`insert into "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt")
        values (${id}, ${id}, ${email}, 0, ${now}, ${now})`.execute(db);
    }
    await sql`insert into "access_grants" ("id", "user_id", "person_id", "grantee_email", "role",
        "created_at", "updated_at")
      values ('g1', 'owner', 'owner', 'grandma@example.com', 'viewer', ${now}, ${now})`.execute(db);

    await migrateToLatest(db);
    const [grant] = await db.selectFrom('access_grants').selectAll().execute();
    expect(grant).toMatchObject({ grantee_id: null, acceptance_code_hash: null });
    expect((await createAccessReader(db)('grantee')).shares).toEqual([]);
  });
});
