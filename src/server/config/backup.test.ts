/**
 * The backup settings are read with the rest of the configuration at start-up: defaults when
 * unset, and a wrong value stops the server with a message naming its variable.
 */
import { TEST_PASSCODE } from '../test/test-passcode';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '.';

const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const base = {
  DATA_DIR: dataDir,
  FAMILY_PASSCODE: TEST_PASSCODE,
  AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
};

describe('the backup settings', () => {
  it('default to DATA_DIR/backups, 03:00, 7 daily and 4 weekly', () => {
    expect(loadConfig(base).backup).toEqual({
      dir: path.join(dataDir, 'backups'),
      time: { hour: 3, minute: 0 },
      keepDaily: 7,
      keepWeekly: 4,
    });
  });

  it('are read from BACKUP_DIR, BACKUP_TIME, BACKUP_KEEP_DAILY and BACKUP_KEEP_WEEKLY', () => {
    const config = loadConfig({
      ...base,
      BACKUP_DIR: 'relative/backups',
      BACKUP_TIME: '23:45',
      BACKUP_KEEP_DAILY: '14',
      BACKUP_KEEP_WEEKLY: '0',
    });
    expect(config.backup).toEqual({
      dir: path.resolve('relative/backups'),
      time: { hour: 23, minute: 45 },
      keepDaily: 14,
      keepWeekly: 0,
    });
    expect(loadConfig({ ...base, BACKUP_TIME: '4:05' }).backup.time).toEqual({
      hour: 4,
      minute: 5,
    });
  });

  it.each([
    ['BACKUP_TIME', '25:00', 'BACKUP_TIME must be HH:MM (24-hour), not "25:00"'],
    ['BACKUP_TIME', '3am', 'BACKUP_TIME must be HH:MM (24-hour), not "3am"'],
    ['BACKUP_TIME', '03:60', 'BACKUP_TIME must be HH:MM (24-hour), not "03:60"'],
    ['BACKUP_KEEP_DAILY', '0', 'BACKUP_KEEP_DAILY must be a whole number from 1 to 1000, not "0"'],
    [
      'BACKUP_KEEP_DAILY',
      '2.5',
      'BACKUP_KEEP_DAILY must be a whole number from 1 to 1000, not "2.5"',
    ],
    [
      'BACKUP_KEEP_WEEKLY',
      '-1',
      'BACKUP_KEEP_WEEKLY must be a whole number from 0 to 1000, not "-1"',
    ],
  ])('refuse %s=%s', (name, value, message) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(message);
  });
});
