/**
 * `npm run kin -- restore FILE`: after a restore the API answers exactly what it answered
 * when the backup was made. It refuses to run beside a server, and refuses a file from a
 * newer release, a file that is not a SQLite database, and a damaged one, changing nothing.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../db/database';
import { changeFamily, readEverything, seedFamily } from '../test/family-records';
import { TestClient, testEngine } from '../test/harness';
import { lastLine, runKin } from '../test/kin-command';
import { createServerStorage, startServerProcess, stopServerProcess } from '../test/server-process';
import { capturingLogger, createSqliteDataDir } from '../test/sqlite-data-dir';
import { createBackup, listBackups } from './backup';
import { LOCK_FILE_NAME } from './data-dir-lock';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/**
 * Every file under a directory and a hash of its content; not the lock file, which holds no
 * data and which a restore creates when no server ever ran there.
 */
function fingerprint(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === LOCK_FILE_NAME) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return files;
}

describe.runIf(testEngine() === 'sqlite')('a restore', () => {
  it('brings back what the API answered at the time of the backup', async () => {
    const storage = await createServerStorage();
    cleanups.push(storage.drop);
    const env = { DATA_DIR: storage.env.DATA_DIR! };
    const server = await startServerProcess(env);
    cleanups.push(() => stopServerProcess(server, 'SIGKILL'));
    const client = TestClient.over(server.url);
    const family = await seedFamily(client);
    const atBackup = await readEverything(client, family);

    const backup = await runKin(['backup'], env);
    expect(backup.code, backup.stderr).toBe(0);
    const file = lastLine(backup.stdout);
    expect(existsSync(file)).toBe(true);

    // Then the family's data changes: an edit, deletions (Ana takes her records with her),
    // a new record, a new name.
    await changeFamily(client, family);
    const changed = await readEverything(client, family);
    expect(changed).not.toEqual(atBackup);

    // Not while the server runs.
    const refused = await runKin(['restore', file], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Kin Health is running on .*Stop the server first/s);
    expect(refused.stderr).toContain('Nothing was changed.');
    expect(await readEverything(client, family)).toEqual(changed);

    await stopServerProcess(server);
    const restored = await runKin(['restore', file], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain(
      `Restored it to ${path.join(env.DATA_DIR, SQLITE_FILE_NAME)}`,
    );
    const keptAside = /Kept the database it replaces in (\S+-pre-restore\.db) \(verified\)/.exec(
      restored.stdout,
    )?.[1];
    expect(keptAside).toBeDefined();
    expect(listBackups(path.join(env.DATA_DIR, 'backups'))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: keptAside, reason: 'pre-restore', verification: 'ok' }),
      ]),
    );
    const databaseFile = path.join(env.DATA_DIR, SQLITE_FILE_NAME);
    expect(statSync(databaseFile).mode & 0o777).toBe(0o600);
    expect(existsSync(`${databaseFile}-wal`)).toBe(false);
    expect(existsSync(`${databaseFile}-shm`)).toBe(false);

    // The same session, on the restored database: the same answers as at the backup.
    const again = await startServerProcess(env);
    cleanups.push(() => stopServerProcess(again, 'SIGKILL'));
    expect(await readEverything(client.against(again.url), family)).toEqual(atBackup);

    // And the database kept aside holds what was replaced.
    const aside = new SQLite(keptAside!, { readonly: true });
    expect(aside.prepare('select name from user').pluck().get()).toBe('Maria G.');
    aside.close();
  });

  it('onto a machine with no database puts the backup in place', async () => {
    const source = await createSqliteDataDir({ auditRows: 300 });
    cleanups.push(source.drop);
    const backup = await createBackup({
      databaseFile: source.databaseFile,
      backupDir: source.backup.dir,
      reason: 'manual',
      logger: capturingLogger().logger,
    });
    const fresh = path.join(source.dataDir, 'new-machine');
    const result = await runKin(['restore', backup.path], { DATA_DIR: fresh });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('There was no database to keep aside.');
    const restored = new SQLite(path.join(fresh, SQLITE_FILE_NAME), { readonly: true });
    expect(restored.prepare('select count(*) from audit_log').pluck().get()).toBe(300);
    restored.close();
  });

  it("from a copy of a database's files takes in the writes its -wal file holds", async () => {
    const source = await createSqliteDataDir({ auditRows: 10 });
    cleanups.push(source.drop);
    // Files copied from a machine whose server stopped without a checkpoint: the last 50
    // writes are only in the -wal file.
    const writer = new SQLite(source.databaseFile);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    const insert = writer.prepare(
      `insert into audit_log (id, event, created_at) values (?, 'later', '2025-01-02')`,
    );
    for (let index = 0; index < 50; index += 1) insert.run(`later-${index}`);
    const copies = path.join(source.dataDir, 'copied');
    mkdirSync(copies);
    const copied = path.join(copies, 'kin-health.db');
    copyFileSync(source.databaseFile, copied);
    copyFileSync(`${source.databaseFile}-wal`, `${copied}-wal`);
    writer.close();
    const given = fingerprint(copies);

    const fresh = path.join(source.dataDir, 'new-machine');
    const result = await runKin(['restore', copied], { DATA_DIR: fresh });
    expect(result.code, result.stderr).toBe(0);
    const restored = new SQLite(path.join(fresh, SQLITE_FILE_NAME), { readonly: true });
    expect(restored.prepare('select count(*) from audit_log').pluck().get()).toBe(60);
    restored.close();
    // Nothing of the restore's own is left beside the database, and the files given are as
    // they were.
    expect(readdirSync(fresh).sort()).toEqual([SQLITE_FILE_NAME, LOCK_FILE_NAME]);
    expect(fingerprint(copies)).toEqual(given);
  });

  it('keeps a damaged database aside as it was, with its -wal file', async () => {
    const storage = await createSqliteDataDir({ auditRows: 1_000 });
    cleanups.push(storage.drop);
    const backup = await createBackup({
      databaseFile: storage.databaseFile,
      backupDir: storage.backup.dir,
      reason: 'manual',
      logger: capturingLogger().logger,
    });
    const fd = openSync(storage.databaseFile, 'r+');
    writeSync(fd, Buffer.alloc(4 * 4096, 0xff), 0, 4 * 4096, 10 * 4096);
    closeSync(fd);
    const damaged = readFileSync(storage.databaseFile);
    // What a crash can leave beside it: a -wal file (here, not even a sound one).
    const wal = Buffer.from('left by a crash');
    writeFileSync(`${storage.databaseFile}-wal`, wal);

    const result = await runKin(['restore', backup.path], { DATA_DIR: storage.dataDir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/as it was: it could not be verified/);
    const aside = listBackups(storage.backup.dir).find((entry) => entry.reason === 'pre-restore');
    expect(aside?.verification).toBe('failed');
    expect(readFileSync(aside!.path).equals(damaged)).toBe(true);
    expect(readFileSync(`${aside!.path}-wal`).equals(wal)).toBe(true);
    // The old -wal file is gone from beside the restored database, which is the backup.
    expect(existsSync(`${storage.databaseFile}-wal`)).toBe(false);
    expect(readFileSync(storage.databaseFile).equals(readFileSync(backup.path))).toBe(true);
    const listed = await runKin(['backups'], { DATA_DIR: storage.dataDir });
    expect(listed.stdout).toMatch(/pre-restore\s+not verified: /);
  });
});

describe.runIf(testEngine() === 'sqlite')('a restore refuses, and changes nothing,', () => {
  async function setUp() {
    const storage = await createSqliteDataDir({ auditRows: 1_000 });
    cleanups.push(storage.drop);
    const backup = await createBackup({
      databaseFile: storage.databaseFile,
      backupDir: storage.backup.dir,
      reason: 'manual',
      logger: capturingLogger().logger,
    });
    const elsewhere = path.join(storage.dataDir, 'elsewhere');
    mkdirSync(elsewhere);
    return { storage, backup, elsewhere };
  }

  async function expectRefusal(dataDir: string, file: string, message: string | RegExp) {
    const before = fingerprint(dataDir);
    const result = await runKin(['restore', file], { DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('Nothing was changed.');
    expect(fingerprint(dataDir)).toEqual(before);
  }

  it('a backup made by a newer Kin Health', async () => {
    const { storage, backup, elsewhere } = await setUp();
    const newer = path.join(elsewhere, 'newer.db');
    copyFileSync(backup.path, newer);
    const db = new SQLite(newer);
    db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run(
      '0099-from-the-future',
      new Date().toISOString(),
    );
    db.close();
    await expectRefusal(
      storage.dataDir,
      newer,
      'This backup was made by a newer version of Kin Health (migration 0099-from-the-future); ' +
        'upgrade Kin Health first',
    );
  });

  it('a file that is not a SQLite database', async () => {
    const { storage, elsewhere } = await setUp();
    const notSqlite = path.join(elsewhere, 'photo.db');
    writeFileSync(notSqlite, Buffer.from('\x89PNG\r\n\x1a\n'.repeat(600), 'latin1'));
    await expectRefusal(storage.dataDir, notSqlite, /is not a database Kin Health can restore/);

    const otherApp = path.join(elsewhere, 'other.db');
    const db = new SQLite(otherApp);
    db.exec('create table photos (id integer primary key)');
    db.close();
    await expectRefusal(storage.dataDir, otherApp, /is not a Kin Health database/);
  });

  it('a backup whose schema is not what its migrations make', async () => {
    const { storage, backup, elsewhere } = await setUp();
    const tampered = (name: string, statements: string) => {
      const file = path.join(elsewhere, name);
      copyFileSync(backup.path, file);
      const db = new SQLite(file);
      db.exec(statements);
      db.close();
      return file;
    };
    // A table more, and a trigger that copies every new session's token into it: the file
    // is sound (integrity ok) and its migrations are this release's.
    await expectRefusal(
      storage.dataDir,
      tampered(
        'stolen-sessions.db',
        `create table harvest (token text);
         create trigger harvest_sessions after insert on session
         begin insert into harvest (token) values (new.token); end;`,
      ),
      /stolen-sessions\.db has a schema its migrations do not make \(.*table harvest.*trigger harvest_sessions.*\)/s,
    );
    // A trigger alone, on a table that is there.
    await expectRefusal(
      storage.dataDir,
      tampered(
        'trigger.db',
        `create trigger rename_users after update on user
         begin update user set name = 'x' where id = new.id; end;`,
      ),
      /trigger rename_users/,
    );
    // An index dropped, and a view added.
    await expectRefusal(
      storage.dataDir,
      tampered(
        'changed.db',
        `drop index access_grants_grantee_idx;
         create view everyone as select email from user;`,
      ),
      /view everyone.*index access_grants_grantee_idx missing or changed/s,
    );
  });

  it('the database itself', async () => {
    const { storage } = await setUp();
    await expectRefusal(storage.dataDir, storage.databaseFile, /is the database itself/);
  });

  it('a damaged backup', async () => {
    const { storage, backup, elsewhere } = await setUp();
    const damaged = path.join(elsewhere, 'damaged.db');
    copyFileSync(backup.path, damaged);
    const fd = openSync(damaged, 'r+');
    writeSync(fd, Buffer.alloc(4 * 4096, 0xff), 0, 4 * 4096, 10 * 4096);
    closeSync(fd);
    await expectRefusal(storage.dataDir, damaged, /is (damaged|not a database Kin Health)/);

    const missing = path.join(elsewhere, 'missing.db');
    await expectRefusal(storage.dataDir, missing, /There is no file/);
  });
});
