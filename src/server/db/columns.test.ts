/**
 * A record table's columns are declared twice: by its type's definition (the fields the
 * forms, the API and the repository know) and by the migrations that made the table. This
 * holds every table, on the engine under test, to its definition: the same columns, the
 * required fields NOT NULL, the yes/no fields NOT NULL with a default. And every table in
 * the database is either user data, with its owner column, or named as the server's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDefinitions } from '../../shared/records';
import { OWNER_COLUMNS } from '../access/access';
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
/** Who last changed a record: unknown (null) for a record older than migration 0016. */
const CHANGED_BY = 'changed_by';

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
        CHANGED_BY,
        ...(definition.memberLinked ? ['family_member_id'] : []),
        // The persons a record is for are kept beside it (contact_persons), not as a column.
        ...Object.entries(definition.fields)
          .filter(([, field]) => field.kind !== 'persons')
          .map(([name]) => name),
        ...(definition.keptColumns ?? []),
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
      expect(columns.get(CHANGED_BY)?.isNullable, CHANGED_BY).toBe(true);
    });
  },
);

/**
 * Tables that are no one user's rows to read through the access module: the server's own
 * settings, better-auth's short-lived values, keys and address counters, and the attempt
 * counters (kept per account or email, deleted with the account by its subject).
 */
const NOT_OWNED_TABLES = [
  'server_settings',
  'verification',
  'rateLimit',
  'jwks',
  'attempt_limits',
  'search_sources',
];
/**
 * SQLite's full-text index of the search entries (migration 0031) and the tables FTS5 keeps
 * it in: its text is the entries', which are user data with their owner.
 */
const SEARCH_INDEX = /^search_text(_data|_idx|_docsize|_config|_content)?$/;

describe('every table', () => {
  it('is user data, with the owner column the access module names, or the server’s own', async () => {
    const tables = await database.db.introspection.getTables();
    const owned = new Map(Object.entries(OWNER_COLUMNS));
    for (const table of tables) {
      if (NOT_OWNED_TABLES.includes(table.name) || SEARCH_INDEX.test(table.name)) continue;
      const owner = owned.get(table.name);
      expect(owner, `${table.name} is user data or listed as the server's own`).toBeDefined();
      expect(table.columns.map((column) => column.name)).toContain(owner);
    }
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(NOT_OWNED_TABLES));
  });
});
