/**
 * A record table's columns are declared twice: by its type's definition (the fields the
 * forms, the API and the repository know) and by the migrations that made the table. This
 * holds every table, on the engine under test, to its definition: the same columns, the
 * required fields NOT NULL, the yes/no fields NOT NULL with a default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDefinitions } from '../../shared/records';
import type { RecordDefinition } from '../../shared/records/definition';
import { createTestDatabase } from '../test/harness';
import type { Database } from './database';

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
});
afterAll(() => drop());

/** Columns every record table has, beside its fields. */
const IDENTITY = ['id', 'user_id', 'created_at', 'updated_at'];

describe.each(recordDefinitions.map((definition) => [definition.table, definition] as const))(
  'the %s table',
  (table, definition: RecordDefinition) => {
    it('has exactly the columns its definition declares', async () => {
      const tables = await database.db.introspection.getTables();
      const found = tables.find((candidate) => candidate.name === table);
      expect(found, `${table} exists`).toBeDefined();
      const columns = new Map(found?.columns.map((column) => [column.name, column]));
      const expected = [
        ...IDENTITY,
        ...(definition.memberLinked ? ['family_member_id'] : []),
        ...Object.keys(definition.fields),
      ];
      expect([...columns.keys()].sort()).toEqual([...new Set(expected)].sort());

      for (const [name, field] of Object.entries(definition.fields)) {
        const column = columns.get(name);
        if (field.kind === 'checkbox') {
          expect(column?.isNullable, `${name} is a yes/no field`).toBe(false);
          expect(column?.hasDefaultValue, `${name} defaults to no`).toBe(true);
        } else if (field.required) {
          expect(column?.isNullable, `${name} is required`).toBe(false);
        }
      }
      for (const name of IDENTITY) {
        // SQLite lets a TEXT PRIMARY KEY hold NULL (its documented quirk, kept for backward
        // compatibility); every insert here sets the id.
        if (name === 'id' && database.engine === 'sqlite') continue;
        expect(columns.get(name)?.isNullable, name).toBe(false);
      }
    });
  },
);
