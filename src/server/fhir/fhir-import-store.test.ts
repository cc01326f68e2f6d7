/**
 * A FHIR import's writes, transaction by transaction: each is short (a pause of the
 * server's is one transaction; on SQLite its commit syncs the disk on the server's own
 * thread), and carries a batch of records together with the sources that name them, so
 * that a large file costs one commit per batch, not two.
 */
import { describe, expect, it } from 'vitest';
import { WRITE_BATCH } from '../data-transfer/import-writes';
import { createTestDatabase, insertTestUser } from '../test/harness';
import { importFhirBundle } from './fhir-import';
import { saveFhirImport } from './fhir-import-store';

const ALLERGIES = 450;

function allergyBundle(count: number) {
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: Array.from({ length: count }, (_, index) => ({
      resource: {
        resourceType: 'AllergyIntolerance',
        id: `a${index}`,
        code: { text: `Substance ${index}` },
        recordedDate: '2020-01-01',
      },
    })),
  };
}

describe('a FHIR import written a batch at a time', () => {
  it('commits each batch of records with their sources, in short transactions', async () => {
    let statements: string[] | null = null;
    const { database, drop } = await createTestDatabase({
      onStatement: (text) => statements?.push(text.trim().toLowerCase()),
    });
    try {
      const { db } = database;
      await insertTestUser(database, { id: 'u1', name: 'Ann', email: 'ann@example.com' });
      const bundle = importFhirBundle(allergyBundle(ALLERGIES), { familyMemberId: null });
      if (!bundle.ok) throw new Error(bundle.message);
      const person = {
        id: 'u1',
        name: 'Ann',
        date_of_birth: null,
        email: 'ann@example.com',
        family_member_id: null,
      };
      statements = [];
      const summary = await saveFhirImport(db, 'u1', person, bundle);
      expect(summary.imported).toEqual({ allergy: ALLERGIES });

      // Statements between a begin and its commit, one list per transaction.
      const transactions: string[][] = [];
      let open: string[] | null = null;
      for (const statement of statements as string[]) {
        if (statement.startsWith('begin')) open = [];
        else if (statement.startsWith('commit')) {
          if (open) transactions.push(open);
          open = null;
        } else open?.push(statement);
      }
      const writing = transactions.filter((list) => list.some((s) => s.startsWith('insert')));
      // 450 records: three batches of at most 200, each one commit for records and sources.
      expect(WRITE_BATCH).toBeLessThanOrEqual(200);
      expect(writing).toHaveLength(Math.ceil(ALLERGIES / WRITE_BATCH));
      for (const list of writing) {
        expect(list.some((s) => s.startsWith('insert into "allergies"'))).toBe(true);
        expect(list.some((s) => s.startsWith('insert into "fhir_import_sources"'))).toBe(true);
      }
      const sources = await db
        .selectFrom('fhir_import_sources')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(sources.n)).toBe(ALLERGIES);
    } finally {
      await drop();
    }
  });
});
