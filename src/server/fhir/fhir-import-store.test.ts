/**
 * A FHIR import's writes, transaction by transaction: each is short (a pause of the
 * server's is one transaction; on SQLite its commit syncs the disk on the server's own
 * thread), and carries a batch of records together with the sources that name them, so
 * that a large file costs one commit per batch, not two. The records come a slice at a time
 * (record-feed.ts): each is written before the next is taken, and matched against the
 * person's records across slices.
 */
import { describe, expect, it } from 'vitest';
import { WRITE_BATCH } from '../data-transfer/import-writes';
import { createTestDatabase, insertTestUser } from '../test/harness';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { importFhirBundle, type ImportedRecord } from './fhir-import';
import { previewFhirImport, saveFhirImport } from './fhir-import-store';
import type { ReadBundle, RecordFeed } from './record-feed';

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

const PERSON = {
  id: 'u1',
  name: 'Ann',
  date_of_birth: null,
  email: 'ann@example.com',
  family_member_id: null,
};

/** The bundle's allergies fed in slices of `size`; `between` runs before each is taken and at the end. */
function slicedFeed(bundle: ReadBundle, size: number, between: () => Promise<void>): RecordFeed {
  const { ok: _ok, records, ...rest } = bundle;
  const all: readonly ImportedRecord<object>[] = records.allergy;
  return {
    async *slices() {
      for (let start = 0; start < all.length; start += size) {
        await between();
        yield { type: 'allergy', records: all.slice(start, start + size) };
      }
      await between();
    },
    rest: () => Promise.resolve(rest),
    close: () => Promise.resolve(),
  };
}

const allergiesIn = async (db: Kysely<DB>) =>
  Number(
    (
      await db
        .selectFrom('allergies')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A database with Ann signed up, and a bundle of her `count` allergies read whole. */
async function withAllergies(
  count: number,
  test: (db: Kysely<DB>, bundle: ReadBundle) => Promise<void>,
) {
  const { database, drop } = await createTestDatabase();
  try {
    await insertTestUser(database, { id: 'u1', name: 'Ann', email: 'ann@example.com' });
    const bundle = importFhirBundle(allergyBundle(count), { familyMemberId: null });
    if (!bundle.ok) throw new Error(bundle.message);
    await test(database.db, bundle);
  } finally {
    await drop();
  }
}

describe('a FHIR import fed a slice at a time', () => {
  it('writes each slice (but for less than a batch) before it takes the next, and matches across slices', async () =>
    withAllergies(1_000, async (db, bundle) => {
      const written: number[] = [];
      const summary = await saveFhirImport(
        db,
        'u1',
        PERSON,
        slicedFeed(bundle, 300, async () => {
          written.push(await allergiesIn(db));
        }),
      );
      expect(summary.imported).toEqual({ allergy: 1_000 });
      // Before each slice is taken, the ones before it are written, but for less than a batch.
      const taken = [0, 300, 600, 900];
      expect(written).toEqual([
        ...taken.map((count) => Math.floor(count / WRITE_BATCH) * WRITE_BATCH),
        1_000,
      ]);

      // Cut otherwise, the same file is all here: each record here answers once, across slices.
      const preview = await previewFhirImport(
        db,
        'u1',
        PERSON,
        slicedFeed(bundle, 70, () => Promise.resolve()),
        { quotaBytes: Number.POSITIVE_INFINITY },
      );
      expect(preview.counts).toEqual({ allergy: { new: 0, already_here: 1_000, changed: 0 } });
      const again = await saveFhirImport(
        db,
        'u1',
        PERSON,
        slicedFeed(bundle, 70, () => Promise.resolve()),
      );
      expect(again.imported).toEqual({});
      expect(again.already_imported).toBe(1_000);
      expect(await allergiesIn(db)).toBe(1_000);
    }));

  it.each([
    ['without a history', false],
    ['remembered in Import History', true],
  ])('takes back what it wrote when a slice cannot be read (%s)', async (_, remembered) =>
    withAllergies(600, async (db, bundle) => {
      // The first import's records are here, and stay: the second finds some by their source,
      // some (their source forgotten) by their content, and adds the rest before it fails.
      await saveFhirImport(
        db,
        'u1',
        PERSON,
        slicedFeed(bundle, 250, () => Promise.resolve()),
        'keep',
        undefined,
        {},
      );
      const first = await db
        .selectFrom('fhir_import_sources')
        .selectAll()
        .orderBy('source_id')
        .execute();
      await db
        .deleteFrom('fhir_import_sources')
        .where('source_id', '>', 'AllergyIntolerance/a2')
        .execute();
      await db.deleteFrom('allergies').where('substance', '>', 'Substance 4').execute();
      const before = await allergiesIn(db);
      const kept = await db
        .selectFrom('fhir_import_sources')
        .selectAll()
        .orderBy('source_id')
        .execute();
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThan(first.length);

      let taken = 0;
      const failing = slicedFeed(bundle, 250, async () => {
        taken += 1;
        if (taken === 3) throw new Error('The import thread stopped (exit code 1)');
      });
      const history = {
        id: 'import-1',
        userId: 'u1',
        kind: 'fhir' as const,
        fileName: 'allergies.json',
        person: { id: 'u1', name: 'Ann', family_member_id: null },
      };
      await expect(
        saveFhirImport(db, 'u1', PERSON, failing, 'keep', undefined, remembered ? { history } : {}),
      ).rejects.toThrow('exit code 1');
      expect(await allergiesIn(db)).toBe(before);
      expect(
        await db.selectFrom('fhir_import_sources').selectAll().orderBy('source_id').execute(),
      ).toEqual(kept);
      expect(await db.selectFrom('imports').selectAll().execute()).toEqual([]);
      expect(await db.selectFrom('import_records').selectAll().execute()).toEqual([]);
    }),
  );
});

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
      statements = [];
      const summary = await saveFhirImport(db, 'u1', PERSON, bundle);
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
