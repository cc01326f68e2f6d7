/** The SQLite statement cache: each query shape is prepared once, within a bound. */
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withStatementCache } from './database';

let sqlite: SQLite.Database;
afterEach(() => {
  if (sqlite.open) sqlite.close();
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

  it('keeps at most its size, forgetting the least recently used', () => {
    const { cache, prepare } = cacheOf(2);
    cache.prepare('select 1');
    cache.prepare('select 2');
    cache.prepare('select 1');
    cache.prepare('select 3');
    expect(prepare).toHaveBeenCalledTimes(3);
    cache.prepare('select 1');
    expect(prepare).toHaveBeenCalledTimes(3);
    cache.prepare('select 2');
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
