/**
 * The backups the server makes by itself: daily (backup-scheduler.ts) and before a
 * migration runs on an existing database. Each keeps the retention policy afterwards.
 *
 * The daily one is a heavy job (runtime/heavy-jobs.ts): it reads the whole database twice
 * and holds tens of megabytes meanwhile, so under a small memory budget it waits for an
 * import or a document's OCR to end rather than run beside it (decision 0083).
 */
import type { BackupConfig } from '../config';
import type { Database } from '../db/database';
import { migrationStatus } from '../db/migrate';
import type { Logger } from '../logger';
import type { HeavyJobs } from '../runtime/heavy-jobs';
import { createBackup, listBackups, type BackupEntry, type CreateBackupOptions } from './backup';
import { applyRetention } from './backup-retention';
import { scheduleBackups, type BackupScheduler, type Clock } from './backup-scheduler';

/** A verified backup now, then the retention policy (whose failure fails nothing). */
export async function backUpAndPrune(
  options: CreateBackupOptions & { config: BackupConfig },
): Promise<BackupEntry> {
  const entry = await createBackup(options);
  try {
    applyRetention({
      backupDir: options.backupDir,
      policy: options.config,
      logger: options.logger,
      now: options.now?.(),
    });
  } catch (error) {
    options.logger.warn({ err: error }, 'old backups could not be removed');
  }
  return entry;
}

export function startAutomaticBackups(options: {
  databaseFile: string;
  config: BackupConfig;
  logger: Logger;
  /** Where the backup waits its turn beside the server's other heavy jobs. */
  heavyJobs: HeavyJobs;
  clock?: Clock;
  catchUpDelayMs?: number;
  retryDelaysMs?: readonly number[];
  /** Tests only: see CreateBackupOptions. */
  beforeVerify?: CreateBackupOptions['beforeVerify'];
}): BackupScheduler {
  const { databaseFile, config, logger, clock } = options;
  return scheduleBackups({
    time: config.time,
    logger,
    clock,
    catchUpDelayMs: options.catchUpDelayMs,
    retryDelaysMs: options.retryDelaysMs,
    lastGoodBackup: () => {
      try {
        return (
          listBackups(config.dir).find((entry) => entry.verification === 'ok')?.createdAt ?? null
        );
      } catch (error) {
        // An unreadable BACKUP_DIR does not stop the server: the backup that is then due
        // fails, and says so at error level.
        logger.error({ err: error, dir: config.dir }, 'the backups could not be listed');
        return null;
      }
    },
    backUp: (signal) =>
      options.heavyJobs.run(
        () =>
          backUpAndPrune({
            databaseFile,
            backupDir: config.dir,
            reason: 'daily',
            config,
            logger,
            signal,
            now: clock ? () => clock.now() : undefined,
            beforeVerify: options.beforeVerify,
          }),
        () => logger.info('the daily backup waits for another heavy job to end'),
        signal,
      ),
  });
}

/**
 * Before this release's migrations change an existing SQLite database, a verified copy of it
 * as it was. A new database (no migration applied yet) has nothing to keep. When the copy
 * cannot be made, nothing is migrated: the start fails, saying why.
 */
export async function backUpBeforeMigrating(
  database: Database,
  config: BackupConfig,
  logger: Logger,
): Promise<BackupEntry | null> {
  if (!database.file) return null;
  const { applied, pending } = await migrationStatus(database.db);
  if (!applied.length || !pending.length) return null;
  logger.info({ pending }, 'backing up the database before migrating it');
  try {
    return await backUpAndPrune({
      databaseFile: database.file,
      backupDir: config.dir,
      reason: 'pre-migration',
      config,
      logger,
    });
  } catch (error) {
    throw new Error(
      `could not back up the database before migrating it, so nothing was migrated. ` +
        `${error instanceof Error ? error.message : String(error)} ` +
        `(BACKUP_DIR is ${config.dir}; free some space there or point BACKUP_DIR elsewhere)`,
      { cause: error },
    );
  }
}
