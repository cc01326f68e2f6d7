/**
 * `backup`, `backups` and `restore FILE`: the operator's side of the SQLite backups, with
 * the same environment as the server (DATA_DIR, BACKUP_DIR, DATABASE_URL, …).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadOperationsConfig, type OperationsConfig } from '../config';
import { SQLITE_FILE_NAME } from '../db/database';
import { createLogger, type Logger } from '../logger';
import { listBackups, localStamp, type BackupEntry } from './backup';
import { backUpAndPrune } from './automatic-backups';
import { typedAs, type Command, type CommandContext } from './command';
import { DataDirBusyError, holdSharedLock } from './data-dir-lock';
import { restoreBackup, RestoreRefusedError } from './restore';

export const POSTGRES_MESSAGE =
  'Kin Health runs on PostgreSQL here (DATABASE_URL is set). PostgreSQL is backed up with ' +
  'pg_dump and restored with pg_restore: see docs/operations.md, "Backups".\n' +
  'These commands are for the embedded SQLite database.\n';

/** Sizes in decimal units, as the README gives them. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

function formatTime(date: Date): string {
  const stamp = localStamp(date);
  return `${stamp.slice(0, 10)} ${stamp.slice(11, 13)}:${stamp.slice(13, 15)}:${stamp.slice(15)}`;
}

function describeCheck(entry: BackupEntry): string {
  switch (entry.verification) {
    case 'ok':
      return 'ok';
    case 'failed':
      return `not verified: ${entry.record?.error ?? 'its check failed'}`;
    case 'changed':
      return 'changed since it was verified';
    default:
      return 'unverified (no record of a check)';
  }
}

/** The configuration, or null after saying what is wrong (or that this is PostgreSQL). */
function sqliteConfig(context: CommandContext): OperationsConfig | null {
  let config: OperationsConfig;
  try {
    config = loadOperationsConfig(context.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    context.stderr.write(`Configuration error: ${error.message}\n`);
    return null;
  }
  if (config.databaseUrl) {
    context.stderr.write(POSTGRES_MESSAGE);
    return null;
  }
  return config;
}

function commandLogger(config: OperationsConfig, context: CommandContext): Logger {
  return createLogger(config.logLevel, { write: (line: string) => context.stderr.write(line) });
}

const backup: Command = {
  args: '',
  summary: 'make a verified backup of the database now, and print its path',
  async run(args, context) {
    const config = sqliteConfig(context);
    if (!config) return 1;
    if (args.length) {
      context.stderr.write('backup takes no arguments (BACKUP_DIR says where backups go)\n');
      return 2;
    }
    const databaseFile = path.join(config.dataDir, SQLITE_FILE_NAME);
    if (!existsSync(databaseFile)) {
      context.stderr.write(
        `There is no database at ${databaseFile}: nothing to back up. ` +
          '(Set DATA_DIR as the server has it.)\n',
      );
      return 1;
    }
    let lock;
    try {
      // Shared with a running server; keeps a restore from swapping the file mid-copy.
      lock = holdSharedLock(config.dataDir);
    } catch (error) {
      if (!(error instanceof DataDirBusyError)) throw error;
      context.stderr.write(`${error.message}\n`);
      return 1;
    }
    try {
      const entry = await backUpAndPrune({
        databaseFile,
        backupDir: config.backup.dir,
        reason: 'manual',
        config: config.backup,
        logger: commandLogger(config, context),
      });
      const tables = Object.keys(entry.record?.tables ?? {}).length;
      context.stdout.write(
        `Backup made and verified: ${formatSize(entry.sizeBytes)}, integrity ok, ` +
          `row counts of all ${tables} tables match the database` +
          `, ${entry.record?.documents?.files ?? 0} document files kept and their hashes checked.` +
          `\n${entry.path}\n`,
      );
      return 0;
    } catch (error) {
      context.stderr.write(
        `${error instanceof Error ? error.message : String(error)}\n` +
          'The earlier backups are untouched.\n',
      );
      return 1;
    } finally {
      lock.release();
    }
  },
};

const backups: Command = {
  args: '',
  summary: 'list the backups in BACKUP_DIR: file, size, time, reason, verification',
  async run(_args, context) {
    const config = sqliteConfig(context);
    if (!config) return 1;
    const entries = listBackups(config.backup.dir);
    if (!entries.length) {
      context.stdout.write(`No backups in ${config.backup.dir} yet.\n`);
      return 0;
    }
    const rows = [
      ['file', 'size', 'time', 'reason', 'verification'],
      ...entries.map((entry) => [
        entry.name,
        formatSize(entry.sizeBytes),
        formatTime(entry.createdAt),
        entry.reason,
        describeCheck(entry),
      ]),
    ];
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    const lines = rows.map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join('  '),
    );
    context.stdout.write(
      `Backups in ${config.backup.dir}, newest first (times are local):\n\n${lines.join('\n')}\n`,
    );
    return 0;
  },
};

const restore: Command = {
  args: 'FILE',
  summary: 'put a backup in place of the database (stop the server first)',
  async run(args, context) {
    const config = sqliteConfig(context);
    if (!config) return 1;
    const [file, ...rest] = args;
    if (!file || rest.length) {
      context.stderr.write(`Usage: ${typedAs(context)} restore FILE\n`);
      return 2;
    }
    try {
      const report = await restoreBackup({
        source: file,
        dataDir: config.dataDir,
        backup: config.backup,
        logger: commandLogger(config, context),
      });
      const out = [
        `Checked ${report.restoredFrom}: integrity ok, ${report.tables} tables, ` +
          `schema ${report.schema}, ${report.documents.files} document files whose hashes match.`,
        report.keptAside
          ? `Kept the database it replaces in ${report.keptAside}` +
            (report.keptAsideVerified
              ? ' (verified).'
              : ' as it was: it could not be verified, so it is kept with its -wal file.')
          : 'There was no database to keep aside.',
        `Restored it to ${report.databaseFile}.`,
        report.pendingMigrations.length
          ? `Start Kin Health as usual: it will first bring the database up to date ` +
            `(${report.pendingMigrations.length} migration${report.pendingMigrations.length === 1 ? '' : 's'}).`
          : 'Start Kin Health as usual.',
      ];
      context.stdout.write(`${out.join('\n')}\n`);
      return 0;
    } catch (error) {
      if (error instanceof RestoreRefusedError || error instanceof DataDirBusyError) {
        context.stderr.write(`${error.message}\nNothing was changed.\n`);
        return 1;
      }
      context.stderr.write(
        `The restore failed: ${error instanceof Error ? error.message : String(error)}\n` +
          'The database in DATA_DIR was not replaced.\n',
      );
      return 1;
    }
  },
};

export const backupCommands: Record<string, Command> = { backup, backups, restore };
