/**
 * The SQLite statement cache: each query shape is prepared once, within a bound. The SQLite
 * files: owner-only.
 */
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSqlite, withStatementCache } from './database';

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
