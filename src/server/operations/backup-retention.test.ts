/**
 * Retention: 7 daily and 4 weekly backups by default, counted over good backups only. Thirty
 * days of real backups made on an injected clock leave exactly those eleven.
 */
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../test/fake-clock';
import { testEngine } from '../test/harness';
import { capturingLogger, createSqliteDataDir } from '../test/sqlite-data-dir';
import { heavyJobs } from '../runtime/heavy-jobs';
import { startAutomaticBackups } from './automatic-backups';
import { listBackups, sidecarPath } from './backup';
import { applyRetention, isoWeek, selectBackups } from './backup-retention';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

type Entry = Parameters<typeof selectBackups>[0][number];

function entry(name: string, createdAt: Date, verification: Entry['verification'] = 'ok'): Entry {
  return { name, createdAt, verification };
}

/** One good backup a day at 03:00, June `from` to `to` 2025, named by day. */
function dailies(from: number, to: number): Entry[] {
  return Array.from({ length: to - from + 1 }, (_, index) =>
    entry(`d${from + index}`, new Date(2025, 5, from + index, 3, 0)),
  );
}

const defaults = { keepDaily: 7, keepWeekly: 4 };

describe('which backups are kept', () => {
  it('names ISO weeks Monday to Sunday, the year going with the Thursday', () => {
    expect(isoWeek(new Date(2025, 5, 22))).toBe('2025-W25'); // a Sunday
    expect(isoWeek(new Date(2025, 5, 23))).toBe('2025-W26'); // the Monday after
    expect(isoWeek(new Date(2024, 11, 30))).toBe('2025-W01');
    expect(isoWeek(new Date(2021, 0, 3))).toBe('2020-W53');
  });

  it('keeps the newest of each of 7 days, then the newest of each of 4 weeks before them', () => {
    // June 2025: the 30th is a Monday; days 24-30 are the daily window; before it, the
    // weeks of the 23rd (Mon 23 only), 16-22, 9-15 and 2-8.
    const { keep, remove } = selectBackups(dailies(1, 30), defaults);
    expect(keep.sort()).toEqual(
      ['d8', 'd15', 'd22', 'd23', 'd24', 'd25', 'd26', 'd27', 'd28', 'd29', 'd30'].sort(),
    );
    expect(remove).toHaveLength(19);
  });

  it('counts days that have a backup, so a server that was off keeps what it had', () => {
    const entries = [...dailies(1, 3), ...dailies(20, 21)];
    expect(selectBackups(entries, defaults).remove).toEqual([]);
  });

  it('keeps one backup a day: the newest, whatever made it', () => {
    const entries = [
      ...dailies(1, 7),
      entry('manual-7', new Date(2025, 5, 7, 14, 0)),
      entry('pre-migration-7', new Date(2025, 5, 7, 9, 0)),
    ];
    const { keep, remove } = selectBackups(entries, defaults);
    expect(keep).toContain('manual-7');
    expect(remove.sort()).toEqual(['d7', 'pre-migration-7']);
  });

  it('never counts nor deletes a backup that is not good', () => {
    // Were these two counted, July 1 and 2 would push June 24 and 25 out of the window.
    const entries = [
      ...dailies(1, 30),
      entry('failed', new Date(2025, 6, 1, 3, 0), 'failed'),
      entry('unverified', new Date(2025, 6, 2, 3, 0), 'unverified'),
      entry('changed', new Date(2025, 5, 2, 13, 0), 'changed'),
    ];
    const { keep, remove } = selectBackups(entries, defaults);
    expect(keep).toEqual(expect.arrayContaining(['d24', 'd25', 'd30']));
    expect(keep).not.toEqual(expect.arrayContaining(['failed']));
    expect(remove).toHaveLength(19);
    for (const name of ['failed', 'unverified', 'changed']) expect(remove).not.toContain(name);
  });

  it('with BACKUP_KEEP_DAILY=1 and BACKUP_KEEP_WEEKLY=0 keeps the newest good backup alone', () => {
    const { keep } = selectBackups(dailies(1, 30), { keepDaily: 1, keepWeekly: 0 });
    expect(keep).toEqual(['d30']);
  });
});

describe.runIf(testEngine() === 'sqlite')('thirty days of automatic backups', () => {
  it('leave the 7 daily and 4 weekly ones; files that are not good backups stay', async () => {
    const storage = await createSqliteDataDir();
    cleanups.push(storage.drop);
    // A file of the operator's, and a backup whose record says it failed: never deleted.
    const foreign = path.join(storage.backup.dir, 'kin-health-2025-05-31-120000-manual.db');
    const failed = path.join(storage.backup.dir, 'kin-health-2025-05-30-120000-manual.db');
    mkdirSync(storage.backup.dir, { recursive: true });
    writeFileSync(foreign, 'not checked');
    writeFileSync(failed, 'checked, bad');
    writeFileSync(
      sidecarPath(failed),
      JSON.stringify({
        file: path.basename(failed),
        createdAt: new Date(2025, 4, 30, 12).toISOString(),
        reason: 'manual',
        result: 'failed',
        error: 'row counts differ',
        sizeBytes: 12,
        tables: {},
      }),
    );

    const clock = new FakeClock(new Date(2025, 5, 1, 2, 0));
    const { logger, lines } = capturingLogger();
    const backups = startAutomaticBackups({
      databaseFile: storage.databaseFile,
      config: storage.backup,
      logger,
      heavyJobs: heavyJobs(1),
      clock,
    });
    cleanups.push(() => backups.stop());
    await clock.advanceTo(new Date(2025, 5, 30, 12, 0), () => backups.idle());

    const days = listBackups(storage.backup.dir)
      .filter((backup) => backup.verification === 'ok')
      .map((backup) => backup.createdAt.getDate());
    expect(days).toEqual([30, 29, 28, 27, 26, 25, 24, 23, 22, 15, 8]);
    const files = readdirSync(storage.backup.dir).sort();
    expect(files).toContain(path.basename(foreign));
    expect(files).toContain(path.basename(failed));
    // Each backup and its record, the two kept files and the failed one's record.
    expect(files).toHaveLength(11 * 2 + 3);
    expect(lines.filter((line) => line.msg === 'old backup removed')).toHaveLength(19);
    expect(lines.filter((line) => line.msg === 'backup written and verified')).toHaveLength(30);
    expect(readFileSync(foreign, 'utf8')).toBe('not checked');
  });

  it('clears records whose backup is gone, and temporary files an hour old', async () => {
    const storage = await createSqliteDataDir();
    cleanups.push(storage.drop);
    mkdirSync(storage.backup.dir, { recursive: true });
    const orphan = path.join(storage.backup.dir, 'kin-health-2025-06-01-030000-daily.db.json');
    const oldTemp = path.join(storage.backup.dir, '.kin-health-0123456789ab.db.tmp');
    const newTemp = path.join(storage.backup.dir, '.kin-health-ba9876543210.db.tmp');
    for (const file of [orphan, oldTemp, newTemp]) writeFileSync(file, '{}');
    const now = new Date();
    const twoHoursAgo = new Date(now.getTime() - 2 * 3_600_000);
    utimesSync(oldTemp, twoHoursAgo, twoHoursAgo);
    applyRetention({
      backupDir: storage.backup.dir,
      policy: defaults,
      logger: capturingLogger().logger,
      now,
    });
    // The young one may belong to a backup under way in another process.
    expect(readdirSync(storage.backup.dir)).toEqual([path.basename(newTemp)]);
  });
});
