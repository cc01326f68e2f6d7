/** Prepared queries: built once, run with each call's values in their places. */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../test/harness';
import { readImmediately } from './database';
import {
  checkPreparedQueriesOnEveryCall,
  PreparedQueryError,
  prepareQuery,
  preparedShapes,
} from './prepared-query';

// A table of this test's own, outside the product's schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let db: Kysely<any>;
let drop: () => Promise<void>;
let engine: string;
beforeAll(async () => {
  const created = await createTestDatabase();
  db = created.database.db;
  engine = created.database.engine;
  drop = created.drop;
  await sql`create table samples (id integer primary key, owner text not null, name text not null)`.execute(
    db,
  );
  for (const [id, owner, name] of [
    [1, 'ann', 'a'],
    [2, 'ann', 'b'],
    [3, 'ann', 'c'],
    [4, 'ben', 'd'],
  ] as const) {
    await db.insertInto('samples').values({ id, owner, name }).execute();
  }
});
afterAll(() => drop());

type Values = { owner: string; after: number; limit: number };
const build = (values: Values) =>
  db
    .selectFrom('samples')
    .select(['id', 'name'])
    .where('owner', '=', values.owner)
    .where('id', '>', values.after)
    .where('name', '<>', 'z')
    .orderBy('id')
    .limit(values.limit);

describe('a prepared query', () => {
  it('answers as the same query built anew would, for each call’s values', async () => {
    const prepared = prepareQuery(db, build);
    for (const values of [
      { owner: 'ann', after: 0, limit: 2 },
      { owner: 'ann', after: 1, limit: 5 },
      { owner: 'ben', after: 0, limit: 5 },
      { owner: 'nobody', after: 0, limit: 5 },
    ]) {
      expect(await prepared(values)).toEqual(await build(values).execute());
    }
  });

  it('is built once with placeholders, and checked once against its first values', async () => {
    checkPreparedQueriesOnEveryCall(false);
    try {
      const builder = vi.fn(build);
      const prepared = prepareQuery(db, builder);
      await prepared({ owner: 'ann', after: 0, limit: 1 });
      await prepared({ owner: 'ben', after: 0, limit: 1 });
      await prepared({ owner: 'cy', after: 0, limit: 1 });
      expect(builder).toHaveBeenCalledTimes(2);
      expect(builder.mock.calls[0]?.[0].owner).not.toBe('ann');
      expect(builder.mock.calls[1]?.[0].owner).toBe('ann');
    } finally {
      checkPreparedQueriesOnEveryCall(true);
    }
  });

  it('refuses, loudly, a build function that branches on a value', async () => {
    type Filtered = { owner: string; name?: string };
    const branching = prepareQuery(db, (values: Filtered) => {
      const query = db.selectFrom('samples').select('id').where('owner', '=', values.owner);
      // Wrong: a placeholder is always truthy, so the prepared SQL always filters on name.
      return values.name ? query.where('name', '=', values.name) : query;
    });
    await expect(branching({ owner: 'ann' })).rejects.toThrow(PreparedQueryError);
    await expect(branching({ owner: 'ann' })).rejects.toThrow(/depends on its values/);
  });

  it('refuses a branch that only shows on a later call, while checking every call', async () => {
    type Filtered = { owner: string; name?: string };
    const branching = prepareQuery(db, (values: Filtered) => {
      const query = db.selectFrom('samples').select('id').where('owner', '=', values.owner);
      return values.name ? query.where('name', '=', values.name) : query;
    });
    await expect(branching({ owner: 'ann', name: 'a' })).resolves.toEqual([{ id: 1 }]);
    await expect(branching({ owner: 'ann' })).rejects.toThrow(PreparedQueryError);
  });

  it('refuses a build function that computes with a value, naming it', async () => {
    const computing = prepareQuery(db, (values: Values) =>
      db
        .selectFrom('samples')
        .select('id')
        .limit(Number(values.limit) + 1),
    );
    await expect(computing({ owner: 'ann', after: 0, limit: 1 })).rejects.toThrow(/"limit"/);
  });

  it('comes in shapes, each prepared the first time it is asked for', async () => {
    const shapes = preparedShapes<Values, { id: number; name: string }>();
    const prepare = vi.fn(() => prepareQuery(db, build));
    const first = shapes('by owner', prepare);
    expect(shapes('by owner', prepare)).toBe(first);
    shapes('another', prepare);
    expect(prepare).toHaveBeenCalledTimes(2);
  });
});

describe('a prepared read while another request holds a transaction open', () => {
  it('never sees the transaction’s writes before they are committed', async () => {
    const prepared = prepareQuery(db, build);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('samples').values({ id: 10, owner: 'cy', name: 'x' }).execute();
        inserted();
        await held;
        throw new Error('rolled back');
      })
      .catch((error: unknown) => error);

    await insertedYet;
    const read = prepared({ owner: 'cy', after: 0, limit: 5 });
    release();
    expect(await read).toEqual([]);
    expect(await transaction).toEqual(new Error('rolled back'));
    expect(await prepared({ owner: 'cy', after: 0, limit: 5 })).toEqual([]);
  });

  it('on SQLite runs on the spot when no transaction is open, and waits its turn otherwise', async () => {
    const query = build({ owner: 'ann', after: 0, limit: 5 }).compile();
    const rows = readImmediately(db, query.sql, query.parameters);
    if (engine === 'sqlite') expect(rows).toEqual(await db.executeQuery(query).then((r) => r.rows));
    else expect(rows).toBeUndefined();
    await db.transaction().execute(async (trx) => {
      await trx.selectFrom('samples').select('id').execute();
      expect(readImmediately(db, query.sql, query.parameters)).toBeUndefined();
    });
  });
});
