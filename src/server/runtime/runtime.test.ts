/**
 * The runtime the product supports: Node.js 24 LTS or newer. The whole suite runs on it, and
 * the SQLite driver survives the garbage collector finalising its statements (better-sqlite3
 * before 13 aborted the process on Node 24.19 and later when it did).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the runtime', () => {
  it('is Node.js 24 or newer', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(major, `running on Node.js ${process.version}`).toBeGreaterThanOrEqual(24);
  });

  it('survives garbage collection of dropped SQLite statements after writes', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kin-gc-'));
    // Many statement shapes through the product's statement cache (which drops the oldest),
    // writes in between, then forced collections: the statements are finalised by the
    // garbage collector, outside any request.
    const script = `
      import { openSqlite } from './src/server/db/database.ts';
      import { sql } from 'kysely';
      const database = openSqlite(${JSON.stringify(path.join(dir, 'gc.db'))});
      await sql\`create table t (id integer primary key, v text)\`.execute(database.db);
      for (let round = 0; round < 40; round += 1) {
        for (let shape = 0; shape < 30; shape += 1) {
          await sql.raw('select ' + shape + ' + ' + round + ' as v').execute(database.db);
        }
        await sql\`insert into t (v) values (\${String(round)})\`.execute(database.db);
        globalThis.gc();
      }
      await database.close();
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
      globalThis.gc();
      console.log('survived');
    `;
    try {
      const result = spawnSync(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: process.cwd(), encoding: 'utf8', timeout: 60_000 },
      );
      expect(result.signal, result.stderr).toBeNull();
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain('survived');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
