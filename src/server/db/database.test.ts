/**
 * The SQLite statement cache: each query shape is prepared once, within a bound. Bound values
 * written `+?`, meaning what `?` means. The SQLite files: owner-only.
 */
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KinSqliteDialect, openSqlite, withStatementCache } from './database';

let sqlite: SQLite.Database;
afterEach(() => {
  if (sqlite?.open) sqlite.close();
});

function cacheOf(size: number) {
  sqlite = new SQLite(':memory:');
  const prepare = vi.spyOn(sqlite, 'prepare');
  return { cache: withStatementCache(sqlite, size), prepare };
}

describe('the SQLite statement cache', () => {
  it('prepares a statement once and hands the same one out again', () => {
    const { cache, prepare } = cacheOf(10);
    const first = cache.prepare('select ? as value');
    const second = cache.prepare('select ? as value');
    expect(second).toBe(first);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(second.all([7])).toEqual([{ value: 7 }]);
  });

  it('keeps at most its size, forgetting the oldest first', () => {
    const { cache, prepare } = cacheOf(2);
    cache.prepare('select 1');
    cache.prepare('select 2');
    cache.prepare('select 1');
    expect(prepare).toHaveBeenCalledTimes(2);
    cache.prepare('select 3');
    expect(prepare).toHaveBeenCalledTimes(3);
    cache.prepare('select 2');
    cache.prepare('select 3');
    expect(prepare).toHaveBeenCalledTimes(3);
    cache.prepare('select 1');
    expect(prepare).toHaveBeenCalledTimes(4);
  });

  it('never hands out a statement that a streamed query is still reading', () => {
    const { cache } = cacheOf(10);
    const sql = 'select 1 as value union all select 2';
    const streaming = cache.prepare(sql);
    const rows = streaming.iterate([]);
    rows.next();
    const other = cache.prepare(sql);
    expect(other).not.toBe(streaming);
    expect(other.all([])).toEqual([{ value: 1 }, { value: 2 }]);
    rows.return?.();
  });

  it('closes the database', () => {
    const { cache } = cacheOf(10);
    cache.close();
    expect(sqlite.open).toBe(false);
  });
});

describe('bound values on SQLite', () => {
  interface Tables {
    t: { id: string; n: number; v: string | null };
    u: { id: string; name: string };
  }
  function engines() {
    sqlite = new SQLite(':memory:');
    sqlite.exec(`
      create table t (id text primary key, n integer not null, v text);
      create table u (id text primary key, name text not null);
      insert into t values ('a', 1, 'x'), ('b', 2, null), ('c', 10, 'y'), ('d', 0, '10');
      insert into u values ('x', 'Ann'), ('y', 'Bo');
    `);
    return {
      product: new Kysely<Tables>({ dialect: new KinSqliteDialect({ database: sqlite }) }),
      plain: new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) }),
    };
  }

  it('are written +? in every place a value goes, so that SQLite keeps each plan', () => {
    const { product } = engines();
    const query = product
      .selectFrom('t')
      .leftJoin('u', (join) => join.onRef('u.id', '=', 't.v').on('u.name', '!=', 'Zed'))
      .select(['t.id', 'u.name', sql<string>`${'literal'}`.as('given')])
      .where('t.id', '=', 'a')
      .where('t.n', 'in', [1, 2])
      .where('t.v', 'is not', null)
      .limit(5)
      .offset(1)
      .compile();
    expect(query.sql.match(/\?/g)).toHaveLength(7);
    expect(query.sql.match(/\+\?/g)).toHaveLength(7);
    expect(product.insertInto('u').values({ id: 'z', name: 'Zoë' }).compile().sql).toBe(
      'insert into "u" ("id", "name") values (+?, +?)',
    );
  });

  it('find what bare parameters find: the same rows, affinity and NULLs alike', async () => {
    const { product, plain } = engines();
    const queries = (db: Kysely<Tables>) => [
      // A number compared with a text column, and a text of digits with an integer column:
      // the column's affinity converts the value, for +? as for ?.
      db
        .selectFrom('t')
        .select('id')
        .where('v', '=', 10n as never),
      db
        .selectFrom('t')
        .select('id')
        .where('n', '=', '10' as never),
      db.selectFrom('t').select('id').where('v', 'is', null),
      db.selectFrom('t').select('id').where('v', 'is', 'x'),
      db
        .selectFrom('t')
        .select('id')
        .where('v', '=', null as never),
      db.selectFrom('t').select('id').where('n', '>=', 2).orderBy('id'),
      db.selectFrom('t').select('id').where('v', 'like', 'x%'),
      db
        .selectFrom('t')
        .innerJoin('u', 'u.id', 't.v')
        .select(['t.id', 'u.name'])
        .where('t.id', 'in', ['a', 'c'])
        .orderBy('t.id')
        .limit(1)
        .offset(1),
    ];
    const expected = await Promise.all(queries(plain).map((query) => query.execute()));
    const found = await Promise.all(queries(product).map((query) => query.execute()));
    expect(found).toEqual(expected);
    expect(expected.map((rows) => rows.length)).toEqual([1, 1, 1, 1, 0, 2, 1, 1]);
  });

  it('still find a row through its index', () => {
    const { product } = engines();
    const { sql: text, parameters } = product
      .selectFrom('t')
      .innerJoin('u', 'u.id', 't.v')
      .select('u.name')
      .where('t.id', '=', 'a')
      .compile();
    const plan = sqlite.prepare(`explain query plan ${text}`).all(...parameters) as {
      detail: string;
    }[];
    expect(plan.map((step) => step.detail)).toEqual([
      expect.stringMatching(/^SEARCH t USING INDEX sqlite_autoindex_t_1 \(id=\?\)$/),
      expect.stringMatching(/^SEARCH u USING INDEX sqlite_autoindex_u_1 \(id=\?\)$/),
    ]);
  });
});

describe('the SQLite files', () => {
  it('are readable by the server’s user alone, even in a directory others can read', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kin-modes-'));
    try {
      chmodSync(dir, 0o755);
      const file = path.join(dir, 'kin-health.db');
      const database = openSqlite(file);
      await sql`create table t (v text)`.execute(database.db);
      await sql`insert into t (v) values ('x')`.execute(database.db);
      for (const name of ['kin-health.db', 'kin-health.db-wal', 'kin-health.db-shm']) {
        expect(statSync(path.join(dir, name)).mode & 0o777, name).toBe(0o600);
      }
      await database.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('made readable by others before are made owner-only again', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kin-modes-'));
    try {
      const file = path.join(dir, 'kin-health.db');
      writeFileSync(file, '');
      chmodSync(file, 0o644);
      const database = openSqlite(file);
      await sql`create table t (v text)`.execute(database.db);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      await database.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
