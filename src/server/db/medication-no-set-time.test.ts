/**
 * Migration 0021: a medication kept before 'No set time' existed, taken on a schedule with
 * no time of day ticked, is read as taken at no set time; the others are not.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness';
import { migrations } from './migrate';

describe('migration 0021', () => {
  it('marks the scheduled medications without a time of day as taken at no set time', async () => {
    const { database, drop } = await createTestDatabase({ migrate: false });
    try {
      const { db } = database;
      for (const [name, migration] of Object.entries(migrations)) {
        if (name < '0021') await migration.up(db);
      }
      const now = new Date().toISOString();
      await sql`insert into "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt")
        values ('u1', 'Maria', 'maria@example.com', ${database.engine === 'postgres' ? sql`false` : sql`0`}, ${now}, ${now})`.execute(
        db,
      );
      const medication = (name: string, frequency: string | null, morning: number) =>
        sql`insert into "medications" ("id", "user_id", "medication_name", "frequency", "time_morning", "created_at", "updated_at")
          values (${name}, 'u1', ${name}, ${frequency}, ${morning}, ${now}, ${now})`.execute(db);
      await medication('daily-untimed', 'Daily', 0);
      await medication('weekly-untimed', 'Weekly', 0);
      await medication('daily-morning', 'Daily', 1);
      await medication('as-needed', 'As Needed', 0);
      await medication('no-frequency', null, 0);

      await migrations['0021-medication-no-set-time']?.up(db);
      const rows = await sql<{ id: string; no_set_time: number }>`
        select "id", "no_set_time" from "medications" order by "id"`.execute(db);
      expect(Object.fromEntries(rows.rows.map((row) => [row.id, Number(row.no_set_time)]))).toEqual(
        {
          'as-needed': 0,
          'daily-morning': 0,
          'daily-untimed': 1,
          'no-frequency': 0,
          'weekly-untimed': 1,
        },
      );
    } finally {
      await drop();
    }
  });
});
