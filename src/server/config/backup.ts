/**
 * Automatic backups of the embedded SQLite database (docs/operations.md, "Backups"):
 * BACKUP_DIR, BACKUP_TIME, BACKUP_KEEP_DAILY and BACKUP_KEEP_WEEKLY.
 */
import path from 'node:path';
import { z } from 'zod';
import { checked, parseEnv, unsetIfEmpty, type Env } from './env';

export interface BackupConfig {
  /** BACKUP_DIR, or DATA_DIR/backups. */
  dir: string;
  /** BACKUP_TIME: the daily backup's local time of day. */
  time: { hour: number; minute: number };
  /** BACKUP_KEEP_DAILY: days whose newest backup is kept (at least 1). */
  keepDaily: number;
  /** BACKUP_KEEP_WEEKLY: ISO weeks before those days whose newest backup is kept. */
  keepWeekly: number;
}

/** `BACKUP_TIME` is `HH:MM`, 24-hour, local time. */
const BACKUP_TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

function keepCountVariable(name: string, fallback: number, min: number) {
  return unsetIfEmpty(
    checked(
      (value) => /^\d+$/.test(value) && Number(value) >= min && Number(value) <= 1000,
      (value) => `${name} must be a whole number from ${min} to 1000, not "${value}"`,
    )
      .transform(Number)
      .default(fallback),
  );
}

export const backupEnv = z.object({
  BACKUP_DIR: unsetIfEmpty(z.string().optional()),
  BACKUP_TIME: unsetIfEmpty(
    checked(
      (value) => BACKUP_TIME.test(value),
      (value) => `BACKUP_TIME must be HH:MM (24-hour), not "${value}"`,
    )
      .transform((value): BackupConfig['time'] => {
        const [, hour, minute] = BACKUP_TIME.exec(value) ?? [];
        return { hour: Number(hour), minute: Number(minute) };
      })
      .default(() => ({ hour: 3, minute: 0 })),
  ),
  // At least one: the newest good backup is never deleted.
  BACKUP_KEEP_DAILY: keepCountVariable('BACKUP_KEEP_DAILY', 7, 1),
  BACKUP_KEEP_WEEKLY: keepCountVariable('BACKUP_KEEP_WEEKLY', 4, 0),
});

export function parseBackupConfig(env: Env, dataDir: string): BackupConfig {
  const backup = parseEnv(backupEnv, env);
  return {
    dir: backup.BACKUP_DIR ? path.resolve(backup.BACKUP_DIR) : path.join(dataDir, 'backups'),
    time: backup.BACKUP_TIME,
    keepDaily: backup.BACKUP_KEEP_DAILY,
    keepWeekly: backup.BACKUP_KEEP_WEEKLY,
  };
}
