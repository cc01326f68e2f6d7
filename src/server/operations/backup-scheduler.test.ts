/**
 * When backups happen, on an injected clock: daily at BACKUP_TIME (local), soon after a start
 * that finds today's backup missing, again after a failure (logged at error level, the
 * earlier backups untouched), and never once stopped. The timer never keeps the process up.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../test/fake-clock';
import { testEngine } from '../test/harness';
import { capturingLogger, createSqliteDataDir, ERROR_LEVEL } from '../test/sqlite-data-dir';
import { heavyJobs } from '../runtime/heavy-jobs';
import { startAutomaticBackups } from './automatic-backups';
import { createBackup, listBackups } from './backup';
import { MAX_TIMER_MS, scheduleBackups, systemClock } from './backup-scheduler';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const at3 = { hour: 3, minute: 0 };
const MINUTE = 60_000;

/** A scheduler over a stand-in backup that records when it ran. */
function schedulerAt(start: Date, lastGood: Date | null, fail = () => false) {
  const clock = new FakeClock(start);
  const runs: Date[] = [];
  const { logger, lines } = capturingLogger();
  const scheduler = scheduleBackups({
    time: at3,
    clock,
    logger,
    lastGoodBackup: () => lastGood,
    backUp: async () => {
      runs.push(clock.now());
      if (fail()) throw new Error('disk full');
    },
  });
  cleanups.push(() => scheduler.stop());
  const advanceTo = (date: Date) => clock.advanceTo(date, () => scheduler.idle());
  return { clock, runs, lines, scheduler, advanceTo };
}

describe.runIf(testEngine() === 'sqlite')('the backup schedule', () => {
  it('backs up every day at BACKUP_TIME, local time', async () => {
    const { clock, runs, scheduler, advanceTo } = schedulerAt(
      new Date(2025, 5, 10, 2, 0),
      new Date(2025, 5, 9, 3, 0, 4),
    );
    expect(scheduler.nextRunAt()).toEqual(new Date(2025, 5, 10, 3, 0));
    await advanceTo(new Date(2025, 5, 10, 2, 59, 59));
    expect(runs).toEqual([]);
    await advanceTo(new Date(2025, 5, 13, 3, 30));
    expect(runs).toEqual([
      new Date(2025, 5, 10, 3, 0),
      new Date(2025, 5, 11, 3, 0),
      new Date(2025, 5, 12, 3, 0),
      new Date(2025, 5, 13, 3, 0),
    ]);
    expect(scheduler.nextRunAt()).toEqual(new Date(2025, 5, 14, 3, 0));
    // One timer at a time, none longer than an hour (the wall clock is looked at again).
    expect(clock.pending()).toHaveLength(1);
    expect(Math.max(...clock.requestedWaits)).toBeLessThanOrEqual(MAX_TIMER_MS);
  });

  it("catches up soon after a start that finds today's backup missing", async () => {
    const missed = schedulerAt(new Date(2025, 5, 10, 10, 0), new Date(2025, 5, 9, 3, 0));
    expect(missed.scheduler.nextRunAt()).toEqual(new Date(2025, 5, 10, 10, 1));
    await missed.advanceTo(new Date(2025, 5, 11, 4, 0));
    expect(missed.runs).toEqual([new Date(2025, 5, 10, 10, 1), new Date(2025, 5, 11, 3, 0)]);

    // A new installation, started after the time: its first backup soon.
    const first = schedulerAt(new Date(2025, 5, 10, 10, 0), null);
    expect(first.scheduler.nextRunAt()).toEqual(new Date(2025, 5, 10, 10, 1));
  });

  it('does not catch up when today has its backup, or its time is still ahead', async () => {
    const done = schedulerAt(new Date(2025, 5, 10, 10, 0), new Date(2025, 5, 10, 3, 0, 5));
    expect(done.scheduler.nextRunAt()).toEqual(new Date(2025, 5, 11, 3, 0));
    await done.advanceTo(new Date(2025, 5, 11, 2, 59));
    expect(done.runs).toEqual([]);

    const early = schedulerAt(new Date(2025, 5, 10, 1, 0), null);
    expect(early.scheduler.nextRunAt()).toEqual(new Date(2025, 5, 10, 3, 0));
  });

  it('retries a failed backup three times, then waits for the next day', async () => {
    const { runs, lines, scheduler, advanceTo } = schedulerAt(
      new Date(2025, 5, 10, 2, 0),
      new Date(2025, 5, 9, 3, 0),
      () => true,
    );
    await advanceTo(new Date(2025, 5, 10, 4, 0));
    expect(runs).toEqual([
      new Date(2025, 5, 10, 3, 0),
      new Date(2025, 5, 10, 3, 1),
      new Date(2025, 5, 10, 3, 6),
      new Date(2025, 5, 10, 3, 21),
    ]);
    const errors = lines.filter((line) => line.level === ERROR_LEVEL);
    expect(errors.map((line) => line.attempt)).toEqual([1, 2, 3, 4]);
    expect(errors.at(-1)?.retryAt).toBeNull();
    expect(scheduler.nextRunAt()).toEqual(new Date(2025, 5, 11, 3, 0));
  });

  it('clears its timer and stops a backup under way when stopped', async () => {
    const clock = new FakeClock(new Date(2025, 5, 10, 10, 0));
    let signalSeen: AbortSignal | null = null;
    const scheduler = scheduleBackups({
      time: at3,
      clock,
      logger: capturingLogger().logger,
      lastGoodBackup: () => null,
      backUp: (signal) =>
        new Promise((_resolve, reject) => {
          signalSeen = signal;
          signal.addEventListener('abort', () => reject(new Error('stopped')));
        }),
    });
    await clock.advanceTo(new Date(2025, 5, 10, 10, 1));
    expect(signalSeen).not.toBeNull();
    await scheduler.stop();
    expect(signalSeen!.aborted).toBe(true);
    expect(clock.pending()).toEqual([]);
    expect(scheduler.nextRunAt()).toBeNull();
  });

  it('never keeps the process alive with its timer', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout');
    const before = timers().length;
    const scheduler = scheduleBackups({
      time: at3,
      clock: systemClock,
      logger: capturingLogger().logger,
      lastGoodBackup: () => new Date(),
      backUp: async () => {},
    });
    expect(scheduler.nextRunAt()).not.toBeNull();
    expect(timers()).toHaveLength(before);
    await scheduler.stop();
  });
});

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

describe.runIf(testEngine() === 'sqlite')('a scheduled backup that fails its check', () => {
  it('is logged at error level, retried, and leaves the earlier backups in place', async () => {
    const storage = await createSqliteDataDir({ auditRows: 1_000 });
    cleanups.push(storage.drop);
    const quiet = capturingLogger().logger;
    for (const day of [8, 9]) {
      await createBackup({
        databaseFile: storage.databaseFile,
        backupDir: storage.backup.dir,
        reason: 'daily',
        logger: quiet,
        now: () => new Date(2025, 5, day, 3, 0),
      });
    }
    const earlier = fingerprint(storage.backup.dir);

    // The first two copies of the 10th are broken (a short write; rows lost), the third is
    // sound. On the 11th, every copy is broken.
    let attempt = 0;
    const breakCopy = (file: string) => {
      attempt += 1;
      const day = clock.now().getDate();
      if (day === 10 && attempt === 1) truncateSync(file, Math.floor(statSync(file).size / 2));
      if ((day === 10 && attempt === 2) || day === 11) {
        const db = new SQLite(file);
        db.exec('delete from audit_log where rowid < 10');
        db.close();
      }
    };
    const clock = new FakeClock(new Date(2025, 5, 10, 2, 0));
    const { logger, lines } = capturingLogger();
    const backups = startAutomaticBackups({
      databaseFile: storage.databaseFile,
      config: storage.backup,
      logger,
      heavyJobs: heavyJobs(1),
      clock,
      retryDelaysMs: [MINUTE, 5 * MINUTE],
      beforeVerify: breakCopy,
    });
    cleanups.push(() => backups.stop());
    const advanceTo = (date: Date) => clock.advanceTo(date, () => backups.idle());

    await advanceTo(new Date(2025, 5, 10, 3, 0));
    let errors = lines.filter((line) => line.level === ERROR_LEVEL);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ attempt: 1, err: { message: /failed its check/ } });
    expect(backups.nextRunAt()).toEqual(new Date(2025, 5, 10, 3, 1));
    expect(fingerprint(storage.backup.dir)).toEqual(earlier);

    await advanceTo(new Date(2025, 5, 10, 3, 1));
    errors = lines.filter((line) => line.level === ERROR_LEVEL);
    expect(errors).toHaveLength(2);
    expect(errors[1]).toMatchObject({ attempt: 2, err: { message: /row counts differ/ } });
    expect(backups.nextRunAt()).toEqual(new Date(2025, 5, 10, 3, 6));
    expect(fingerprint(storage.backup.dir)).toEqual(earlier);

    await advanceTo(new Date(2025, 5, 10, 3, 6));
    expect(
      listBackups(storage.backup.dir).map((entry) => [entry.name, entry.verification]),
    ).toEqual([
      ['kin-health-2025-06-10-030600-daily.db', 'ok'],
      ['kin-health-2025-06-09-030000-daily.db', 'ok'],
      ['kin-health-2025-06-08-030000-daily.db', 'ok'],
    ]);
    expect(backups.nextRunAt()).toEqual(new Date(2025, 5, 11, 3, 0));
    const withThird = fingerprint(storage.backup.dir);

    attempt = 0;
    await advanceTo(new Date(2025, 5, 11, 12, 0));
    errors = lines.filter((line) => line.level === ERROR_LEVEL);
    expect(errors.slice(2).map((line) => line.attempt)).toEqual([1, 2, 3]);
    expect(errors.at(-1)?.msg).toMatch(/failed again; the earlier backups are untouched/);
    expect(backups.nextRunAt()).toEqual(new Date(2025, 5, 12, 3, 0));
    // Nothing replaced, nothing deleted, nothing half-written left behind.
    expect(fingerprint(storage.backup.dir)).toEqual(withThird);
  });

  it('stopped half-way leaves no temporary file', async () => {
    const storage = await createSqliteDataDir({ auditRows: 1_000 });
    cleanups.push(storage.drop);
    const stop = new AbortController();
    let steps = 0;
    await expect(
      createBackup({
        databaseFile: storage.databaseFile,
        backupDir: storage.backup.dir,
        reason: 'daily',
        logger: capturingLogger().logger,
        signal: stop.signal,
        pagesPerStep: () => {
          steps += 1;
          if (steps === 20) stop.abort();
          return 1;
        },
      }),
    ).rejects.toThrow(/stopped/);
    expect(readdirSync(storage.backup.dir)).toEqual([]);
  });

  it("waits for another heavy job to end (an import, a document's OCR) before it copies", async () => {
    const storage = await createSqliteDataDir({ auditRows: 1_000 });
    cleanups.push(storage.drop);
    const heavy = heavyJobs(1);
    let endImport = () => {};
    const importing = heavy.run(() => new Promise<void>((resolve) => (endImport = resolve)));
    const clock = new FakeClock(new Date(2025, 5, 10, 2, 0));
    const { logger, lines } = capturingLogger();
    const backups = startAutomaticBackups({
      databaseFile: storage.databaseFile,
      config: storage.backup,
      logger,
      heavyJobs: heavy,
      clock,
    });
    cleanups.push(() => backups.stop());

    await clock.advanceTo(new Date(2025, 5, 10, 3, 0));
    await vi.waitFor(() => expect(heavy.waiting).toBe(1));
    expect(lines.map((line) => line.msg)).toContain(
      'the daily backup waits for another heavy job to end',
    );
    expect(listBackups(storage.backup.dir)).toEqual([]);

    endImport();
    await importing;
    await backups.idle();
    expect(listBackups(storage.backup.dir).map((entry) => entry.verification)).toEqual(['ok']);
    expect(heavy.running).toBe(0);
  });
});
