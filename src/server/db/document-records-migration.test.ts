/**
 * Migration 0040: the documents attached to a record before it keep that attachment, now a
 * row of `document_records`; the others are attached to nothing; the documents' search
 * entries (triggers on their table) still follow every change, and a document's removal
 * takes its attachments with it.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness';
import { completeSchema, migrations } from './migrate';

describe('migration 0040', () => {
  it('moves each attachment to document_records and drops the old columns', async () => {
    const { database, drop } = await createTestDatabase({ migrate: false });
    try {
      const { db } = database;
      const before = Object.keys(migrations).filter((name) => name < '0040');
      for (const name of before) await migrations[name]!.up(db);
      // The search index's triggers on documents, as a server made them at its last start.
      await completeSchema(db, before);
      const now = new Date().toISOString();
      const no = database.engine === 'postgres' ? sql`false` : sql`0`;
      await sql`insert into "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt")
        values ('u1', 'Maria', 'maria@example.com', ${no}, ${now}, ${now})`.execute(db);
      const document = (id: string, recordType: string | null, recordId: string | null) =>
        sql`insert into "documents" ("id", "user_id", "title", "document_type", "file_name",
          "mime_type", "size_bytes", "sha256", "record_type", "record_id", "created_at", "updated_at")
          values (${id}, 'u1', ${`Card ${id}`}, 'Insurance Card', 'card.jpg', 'image/jpeg', 10,
          ${'a'.repeat(64)}, ${recordType}, ${recordId}, ${now}, ${now})`.execute(db);
      await document('d1', 'insurance', 'policy-1');
      await document('d2', null, null);
      await document('d3', 'visits', 'visit-1');

      await migrations['0040-document-records']!.up(db);

      const rows = await sql<{ document_id: string; user_id: string; record_type: string }>`
        select "document_id", "user_id", "record_type", "record_id" from "document_records"
        order by "document_id"`.execute(db);
      expect(rows.rows).toEqual([
        { document_id: 'd1', user_id: 'u1', record_type: 'insurance', record_id: 'policy-1' },
        { document_id: 'd3', user_id: 'u1', record_type: 'visits', record_id: 'visit-1' },
      ]);
      const columns = await sql<{ name: string }>`${
        database.engine === 'postgres'
          ? sql`select column_name as name from information_schema.columns where table_name = 'documents'`
          : sql`select name from pragma_table_info('documents')`
      }`.execute(db);
      expect(columns.rows.map((row) => row.name)).not.toContain('record_id');
      expect(columns.rows.map((row) => row.name)).not.toContain('record_type');

      // The triggers still keep the search index.
      await sql`update "documents" set "title" = 'Renamed' where "id" = 'd1'`.execute(db);
      const entry = await sql<{ title: string }>`
        select "title" from "search_entries" where "record_id" = 'd1'`.execute(db);
      expect(entry.rows).toEqual([{ title: 'Renamed' }]);

      // An attachment goes with its document, and names its document's owner.
      await sql`delete from "documents" where "id" = 'd1'`.execute(db);
      const left = await sql<{ document_id: string }>`
        select "document_id" from "document_records"`.execute(db);
      expect(left.rows).toEqual([{ document_id: 'd3' }]);
      await expect(
        sql`insert into "document_records" ("document_id", "user_id", "record_type", "record_id", "created_at")
          values ('d3', 'someone-else', 'visits', 'visit-2', ${now})`.execute(db),
      ).rejects.toThrow();
    } finally {
      await drop();
    }
  });
});
