/**
 * A backup is one moment of the database, verified before it is kept: made while a server
 * process serves and is written to, its row counts match the moment of the copy, its file
 * and record are private, and a copy that fails its check is removed without touching the
 * backups made before it.
 */
import { migrations } from '../db/migrate';
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_PASSCODE, TestClient, testEngine, uniqueEmail } from '../test/harness';
import { startServerProcess, stopServerProcess } from '../test/server-process';
import { capturingLogger, createSqliteDataDir } from '../test/sqlite-data-dir';
import { BackupError, createBackup, listBackups, sidecarPath, type BackupRecord } from './backup';
import { countRows, countRowsInTurns, ROWS_PER_COUNT, verifyCopy } from './backup-check';
import { checkCopyOffThread } from './backup-check-thread';
import { longestStall } from '../test/event-loop-stall';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function rowCounts(file: string): Record<string, number> {
  const db = new SQLite(file, { readonly: true });
  try {
    const names = db
      .prepare(`select name from sqlite_schema where type = 'table' order by name`)
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      names.map((name) => [name, db.prepare(`select count(*) from "${name}"`).pluck().get()]),
    ) as Record<string, number>;
  } finally {
    db.close();
  }
}

function fingerprint(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [
        name,
        createHash('sha256')
          .update(readFileSync(path.join(dir, name)))
          .digest('hex'),
      ]),
  );
}

describe.runIf(testEngine() === 'sqlite')('a backup', () => {
  it('of a server being written to is one moment of its database, verified and private', async () => {
    // About 2.5 MB: a few hundred pages to copy.
    const storage = await createSqliteDataDir({ auditRows: 5_000 });
    cleanups.push(storage.drop);
    const server = await startServerProcess({ DATA_DIR: storage.dataDir });
    cleanups.push(() => stopServerProcess(server, 'SIGKILL'));

    const client = TestClient.over(server.url);
    const signUp = await client.request('POST', '/api/auth/sign-up/email', {
      name: 'Busy User',
      email: uniqueEmail('busy'),
      password: 'secret-password',
      passcode: TEST_PASSCODE,
    });
    expect(signUp.status).toBe(200);

    let acknowledged = 0;
    let writing = true;
    const writer = async (worker: number) => {
      for (let index = 0; writing; index += 1) {
        const response = await client
          .request('POST', '/api/notes', {
            title: `Note ${worker}-${index}`,
            content: 'Written while a backup is made',
          })
          .catch(() => null); // the server was stopped under it (a failed test)
        if (response?.status === 201) acknowledged += 1;
      }
    };
    const writers = Array.from({ length: 6 }, (_, worker) => writer(worker));
    cleanups.push(() => {
      writing = false;
    });
    while (acknowledged < 20) await new Promise((resolve) => setTimeout(resolve, 5));

    const { logger, lines } = capturingLogger();
    const before = acknowledged;
    let copied = 0;
    let heldAt: number | null = null;
    const entry = await createBackup({
      databaseFile: storage.databaseFile,
      backupDir: storage.backup.dir,
      reason: 'manual',
      logger,
      // A page at a time, held half-way until the server has answered 30 more writes.
      pagesPerStep: () => {
        copied += 1;
        if (copied < 200) return 1;
        heldAt ??= acknowledged;
        return acknowledged - heldAt < 30 ? 0 : 1;
      },
    });
    const during = acknowledged - before;
    writing = false;
    await Promise.all(writers);

    // The server kept answering writes while the copy was made.
    expect(heldAt).not.toBeNull();
    expect(during).toBeGreaterThanOrEqual(30);
    expect(entry.verification).toBe('ok');
    expect(path.dirname(entry.path)).toBe(storage.backup.dir);
    expect(entry.name).toMatch(/^kin-health-\d{4}-\d{2}-\d{2}-\d{6}-manual\.db$/);
    expect(statSync(entry.path).mode & 0o777).toBe(0o600);
    expect(statSync(sidecarPath(entry.path)).mode & 0o777).toBe(0o600);
    expect(statSync(storage.backup.dir).mode & 0o777).toBe(0o700);

    // The record beside it says what was checked, and it is true of the file.
    const record = JSON.parse(readFileSync(sidecarPath(entry.path), 'utf8')) as BackupRecord;
    expect(record).toMatchObject({ file: entry.name, reason: 'manual', result: 'ok' });
    expect(record.sizeBytes).toBe(statSync(entry.path).size);
    expect(record.schema).toBe(Object.keys(migrations).at(-1));
    expect(rowCounts(entry.path)).toEqual(record.tables);
    const copy = new SQLite(entry.path, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();

    // One moment: every note answered before the copy began is in it, and writes went on
    // after the moment it shows.
    expect(record.tables.notes).toBeGreaterThanOrEqual(before);
    expect(record.tables.audit_log).toBeGreaterThanOrEqual(5_000);
    await stopServerProcess(server);
    const live = rowCounts(storage.databaseFile);
    expect(live.notes).toBe(acknowledged);
    // Of the 30 answered while the copy was held, at most one per writer was sent before.
    expect(live.notes).toBeGreaterThanOrEqual(record.tables.notes! + 30 - 6);

    const written = lines.find((line) => line.msg === 'backup written and verified');
    expect(written).toMatchObject({ level: 30, path: entry.path, sizeBytes: record.sizeBytes });
    expect(written?.durationMs).toEqual(expect.any(Number));
  });

  it('that fails its check is removed, and the backups before it stay as they were', async () => {
    const storage = await createSqliteDataDir({ auditRows: 2_000 });
    cleanups.push(storage.drop);
    const { logger } = capturingLogger();
    const options = {
      databaseFile: storage.databaseFile,
      backupDir: storage.backup.dir,
      reason: 'daily' as const,
      logger,
    };
    await createBackup({ ...options, now: () => new Date(2025, 5, 1, 3) });
    await createBackup({ ...options, now: () => new Date(2025, 5, 2, 3) });
    const earlier = fingerprint(storage.backup.dir);
    expect(Object.keys(earlier)).toHaveLength(4);

    // A short write, as on a full disk.
    await expect(
      createBackup({
        ...options,
        beforeVerify: (file) => truncateSync(file, Math.floor(statSync(file).size / 2)),
      }),
    ).rejects.toThrow(BackupError);
    expect(fingerprint(storage.backup.dir)).toEqual(earlier);

    // Garbage over pages in the middle of the file.
    await expect(
      createBackup({
        ...options,
        beforeVerify: (file) => {
          const fd = openSync(file, 'r+');
          writeSync(fd, Buffer.alloc(3 * 4096, 0xff), 0, 3 * 4096, 8 * 4096);
          closeSync(fd);
        },
      }),
    ).rejects.toThrow(/failed its check/);
    expect(fingerprint(storage.backup.dir)).toEqual(earlier);

    // A copy that is a sound database, but not the one that was counted.
    await expect(
      createBackup({
        ...options,
        beforeVerify: (file) => {
          const db = new SQLite(file);
          db.exec(`delete from audit_log where rowid % 2 = 0`);
          db.close();
        },
      }),
    ).rejects.toThrow(/row counts differ \(audit_log: 1000 rows, expected 2000\)/);
    expect(fingerprint(storage.backup.dir)).toEqual(earlier);
    expect(listBackups(storage.backup.dir).map((entry) => entry.verification)).toEqual([
      'ok',
      'ok',
    ]);
  });

  it("has its copy checked in a process of its own, while the server's thread keeps turning", async () => {
    const storage = await createSqliteDataDir();
    cleanups.push(storage.drop);
    // 200,000 rows and an index on them for the integrity check to go through.
    const db = new SQLite(storage.databaseFile);
    db.exec(
      'create table bulk (id integer primary key, name text); create index bulk_name on bulk (name)',
    );
    const insert = db.prepare('insert into bulk (name) values (?)');
    db.transaction(() => {
      for (let row = 0; row < 200_000; row += 1) insert.run(randomBytes(12).toString('hex'));
    })();
    const counts = countRows(db);
    db.close();

    const here = await longestStall(async () => verifyCopy(storage.databaseFile, counts));
    // Three times there: a pause the busy machine makes in one is not the check's.
    const there = [];
    for (let run = 0; run < 3; run += 1) {
      there.push(await longestStall(() => checkCopyOffThread(storage.databaseFile, counts)));
    }
    expect(here.result).toBeNull();
    expect(there.map(({ result }) => result)).toEqual([null, null, null]);
    // Checked here, the loop stands still for the whole check; there, it keeps turning.
    expect(here.stallMs).toBeGreaterThan(40);
    expect(Math.min(...there.map(({ stallMs }) => stallMs))).toBeLessThan(here.stallMs / 3);
    // And a copy that is not what was counted is found there too.
    expect(await checkCopyOffThread(storage.databaseFile, { ...counts, bulk: 1 })).toMatch(
      /row counts differ \(bulk: 200000 rows, expected 1\)/,
    );
  });

  it("counts the snapshot's rows a part at a time, the server's thread given back between", async () => {
    const storage = await createSqliteDataDir();
    cleanups.push(storage.drop);
    const db = new SQLite(storage.databaseFile);
    db.exec(`
      create table bulk (id integer primary key, name text);
      create table sparse (name text);
      create table keyed (key text primary key, value text) without rowid;
      create virtual table words using fts5 (body);
    `);
    const insert = db.prepare('insert into bulk (name) values (?)');
    const word = db.prepare('insert into words (body) values (?)');
    db.transaction(() => {
      // Wide rows: counting them reads a page for every ten.
      for (let row = 0; row < 200_000; row += 1) insert.run(randomBytes(180).toString('hex'));
      for (let row = 0; row < 2 * ROWS_PER_COUNT + 7; row += 1) word.run(`word ${row}`);
      // Rowids far apart, the most negative and the largest there are among them.
      for (const rowid of [-(2n ** 63n), -5n, 1n, 2n ** 40n, 2n ** 63n - 1n]) {
        db.prepare('insert into sparse (rowid, name) values (?, ?)').run(rowid, 'x');
      }
      const keyed = db.prepare('insert into keyed (key, value) values (?, ?)');
      for (let row = 0; row < ROWS_PER_COUNT + 1; row += 1) keyed.run(`k${row}`, 'v');
    })();

    const atOnce = await longestStall(async () => countRows(db));
    // Three times in turns: a pause the busy machine makes in one is not the count's.
    const inTurns = [];
    for (let run = 0; run < 3; run += 1)
      inTurns.push(await longestStall(() => countRowsInTurns(db)));
    const direct = Object.fromEntries(
      Object.keys(atOnce.result).map((name) => [
        name,
        db.prepare(`select count(*) from "${name}"`).pluck().get() as number,
      ]),
    );
    db.close();
    expect(atOnce.result).toEqual(direct);
    for (const { result } of inTurns) expect(result).toEqual(direct);
    expect(direct).toMatchObject({
      bulk: 200_000,
      sparse: 5,
      keyed: ROWS_PER_COUNT + 1,
      words: 2 * ROWS_PER_COUNT + 7,
    });
    // At once, the loop stands still for the whole count; in turns, for a part of it.
    expect(atOnce.stallMs).toBeGreaterThan(20);
    expect(Math.min(...inTurns.map(({ stallMs }) => stallMs))).toBeLessThan(atOnce.stallMs / 3);
  });

  it('is listed from its record; a file without one, or changed since, is not good', async () => {
    const storage = await createSqliteDataDir();
    cleanups.push(storage.drop);
    const { logger } = capturingLogger();
    const made = await createBackup({
      databaseFile: storage.databaseFile,
      backupDir: storage.backup.dir,
      reason: 'pre-migration',
      logger,
      now: () => new Date(2025, 5, 3, 10, 15, 30),
    });
    expect(made.name).toBe('kin-health-2025-06-03-101530-pre-migration.db');
    const copied = path.join(storage.backup.dir, 'kin-health-2025-06-04-101530-manual.db');
    appendFileSync(copied, readFileSync(made.path));
    const list = listBackups(storage.backup.dir);
    expect(list.map((entry) => [entry.name, entry.reason, entry.verification])).toEqual([
      ['kin-health-2025-06-04-101530-manual.db', 'manual', 'unverified'],
      ['kin-health-2025-06-03-101530-pre-migration.db', 'pre-migration', 'ok'],
    ]);
    expect(list[1]?.createdAt).toEqual(new Date(2025, 5, 3, 10, 15, 30));

    appendFileSync(made.path, 'tampered');
    expect(listBackups(storage.backup.dir)[1]?.verification).toBe('changed');
  });
});
