/**
 * The operator commands end to end, as typed: `npm run kin -- backup` prints the path of a
 * verified backup, `backups` lists them, wrong use prints the usage and fails, a wrong
 * setting names its variable, and on PostgreSQL the commands point to pg_dump.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testEngine } from '../test/harness';
import { lastLine, runKin } from '../test/kin-command';
import { createSqliteDataDir } from '../test/sqlite-data-dir';
import { sidecarPath, type BackupRecord } from './backup';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe.runIf(testEngine() === 'sqlite')('npm run kin', () => {
  it('-- backup prints the path of a verified backup, and -- backups lists it', async () => {
    const storage = await createSqliteDataDir({ auditRows: 500 });
    cleanups.push(storage.drop);
    const backupDir = path.join(storage.dataDir, 'elsewhere', 'backups');
    const env = { DATA_DIR: storage.dataDir, BACKUP_DIR: backupDir };

    const made = await runKin(['backup'], env, { asTyped: true });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/Backup made and verified: [\d.]+ (kB|MB), integrity ok/);
    const file = lastLine(made.stdout);
    expect(path.dirname(file)).toBe(backupDir);
    expect(path.basename(file)).toMatch(/^kin-health-\d{4}-\d{2}-\d{2}-\d{6}-manual\.db$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const record = JSON.parse(readFileSync(sidecarPath(file), 'utf8')) as BackupRecord;
    expect(record).toMatchObject({ result: 'ok', reason: 'manual' });
    expect(record.tables.audit_log).toBe(500);

    const listed = await runKin(['backups'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    const header = lines.findIndex((line) =>
      /^file\s+size\s+time\s+reason\s+verification$/.test(line),
    );
    expect(header).toBeGreaterThan(-1);
    const row = lines[header + 1]!.split(/\s{2,}/);
    const created = new Date(record.createdAt);
    const pad = (value: number) => String(value).padStart(2, '0');
    expect(row).toEqual([
      path.basename(file),
      record.sizeBytes < 1_000_000
        ? `${(record.sizeBytes / 1000).toFixed(1)} kB`
        : `${(record.sizeBytes / 1_000_000).toFixed(1)} MB`,
      `${created.getFullYear()}-${pad(created.getMonth() + 1)}-${pad(created.getDate())} ` +
        `${pad(created.getHours())}:${pad(created.getMinutes())}:${pad(created.getSeconds())}`,
      'manual',
      'ok',
    ]);
  });

  it('-- backups says when there are none yet', async () => {
    const storage = await createSqliteDataDir();
    cleanups.push(storage.drop);
    const listed = await runKin(['backups'], { DATA_DIR: storage.dataDir });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`No backups in ${storage.backup.dir} yet.`);
  });

  it('-- backup with no database there says so, and fails', async () => {
    const storage = await createSqliteDataDir();
    cleanups.push(storage.drop);
    const empty = path.join(storage.dataDir, 'empty');
    const result = await runKin(['backup'], { DATA_DIR: empty });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`There is no database at ${path.join(empty, 'kin-health.db')}`);
    expect(existsSync(empty)).toBe(false);
  });

  it('with an unknown command, or none, prints the usage and fails', async () => {
    for (const args of [['frobnicate'], []]) {
      const result = await runKin(args, {});
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Usage: npm run kin -- <command>');
      for (const command of ['backup', 'backups', 'restore FILE', 'passcode \\[DIGITS\\]']) {
        expect(result.stderr).toMatch(new RegExp(`^  ${command} `, 'm'));
      }
    }
    expect((await runKin(['frobnicate'], {})).stderr).toContain('Unknown command "frobnicate"');
    expect((await runKin(['restore'], {})).code).toBe(2);
  });

  it('in the container image, whose wrapper is `kin`, the usage names that', async () => {
    const env = { KIN_COMMAND: 'kin' };
    expect((await runKin([], env)).stderr).toContain('Usage: kin <command>');
    expect((await runKin(['restore'], env)).stderr).toContain('Usage: kin restore FILE');
  });

  it('names the variable of a wrong setting', async () => {
    const time = await runKin(['backups'], { BACKUP_TIME: '25:00' });
    expect(time.code).toBe(1);
    expect(time.stderr).toContain('BACKUP_TIME must be HH:MM (24-hour), not "25:00"');
    const daily = await runKin(['backups'], { BACKUP_KEEP_DAILY: '0' });
    expect(daily.code).toBe(1);
    expect(daily.stderr).toContain('BACKUP_KEEP_DAILY must be a whole number from 1 to 1000');
  });

  it('on PostgreSQL points to pg_dump and docs/operations.md, and fails', async () => {
    const env = { DATABASE_URL: 'postgres://kin@127.0.0.1:1/kin' };
    for (const args of [['backup'], ['backups'], ['restore', 'kin-health.dump']]) {
      const result = await runKin(args, env);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('PostgreSQL is backed up with pg_dump');
      expect(result.stderr).toContain('docs/operations.md');
    }
  });
});
