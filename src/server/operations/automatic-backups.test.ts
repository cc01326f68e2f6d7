/**
 * Before this release's migrations run on an existing database, the server keeps a verified
 * copy of it as it was; when it cannot, it migrates nothing and says why. A new database,
 * or one with nothing to migrate, is not copied.
 */
import { migrations } from '../db/migrate';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { testEngine } from '../test/harness';
import { startServerProcess, stopServerProcess } from '../test/server-process';
import { createSqliteDataDir } from '../test/sqlite-data-dir';
import { listBackups } from './backup';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function appliedMigrations(file: string): string[] {
  const db = new SQLite(file, { readonly: true });
  try {
    return db.prepare('select name from kysely_migration order by name').pluck().all() as string[];
  } finally {
    db.close();
  }
}

describe.runIf(testEngine() === 'sqlite')('the backup before a migration', () => {
  it('is made when an existing database has migrations to run, and only then', async () => {
    // A database an older release left: the first five migrations of this one.
    const storage = await createSqliteDataDir({ migrationCount: 5, auditRows: 100 });
    cleanups.push(storage.drop);
    const older = appliedMigrations(storage.databaseFile);
    expect(older.at(-1)).toBe('0005-record-counts');

    const first = await startServerProcess({ DATA_DIR: storage.dataDir });
    cleanups.push(() => stopServerProcess(first, 'SIGKILL'));
    const [backup, ...others] = listBackups(storage.backup.dir);
    expect(others).toEqual([]);
    expect(backup).toMatchObject({ reason: 'pre-migration', verification: 'ok' });
    expect(backup?.name).toMatch(/-pre-migration\.db$/);
    expect(backup?.record?.schema).toBe('0005-record-counts');
    expect(backup?.record?.tables).toMatchObject({ kysely_migration: 5, audit_log: 100 });
    expect(appliedMigrations(backup!.path)).toEqual(older);
    await stopServerProcess(first);
    expect(appliedMigrations(storage.databaseFile)).toHaveLength(Object.keys(migrations).length);

    // Nothing left to migrate: no new copy.
    const second = await startServerProcess({ DATA_DIR: storage.dataDir });
    cleanups.push(() => stopServerProcess(second, 'SIGKILL'));
    await stopServerProcess(second);
    expect(listBackups(storage.backup.dir)).toHaveLength(1);
  });

  it('is not made for a new database', async () => {
    const storage = await createSqliteDataDir({ migrationCount: 0 });
    cleanups.push(storage.drop);
    const server = await startServerProcess({ DATA_DIR: storage.dataDir });
    cleanups.push(() => stopServerProcess(server, 'SIGKILL'));
    await stopServerProcess(server);
    expect(listBackups(storage.backup.dir)).toEqual([]);
    expect(appliedMigrations(storage.databaseFile)).toHaveLength(Object.keys(migrations).length);
  });

  it('that cannot be made stops the start, and nothing is migrated', async () => {
    const storage = await createSqliteDataDir({ migrationCount: 5 });
    cleanups.push(storage.drop);
    // BACKUP_DIR names a file: no backup can be written there.
    const notADirectory = path.join(storage.dataDir, 'not-a-directory');
    writeFileSync(notADirectory, '');
    await expect(
      startServerProcess({ DATA_DIR: storage.dataDir, BACKUP_DIR: notADirectory }),
    ).rejects.toThrow(
      /could not back up the database before migrating it, so nothing was migrated/,
    );
    expect(appliedMigrations(storage.databaseFile)).toHaveLength(5);
  });
});
