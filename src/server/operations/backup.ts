/**
 * Backups of the embedded SQLite database: a copy made with SQLite's online backup while
 * the server serves, verified before it is kept, and a record of that check beside it.
 *
 * A backup is copied from one snapshot: a read-only connection of its own opens a read
 * transaction (WAL mode lets the server keep writing meanwhile), counts the rows of every
 * table, and the backup reads through that same transaction, so the counts and the copy are
 * of the same moment. It is written to a hidden temporary name, synced, opened again and
 * checked on a thread of its own (backup-check.ts: `PRAGMA integrity_check`, and every
 * table's row count against the snapshot's), and only then renamed into place. A failed
 * backup is deleted and never replaces or removes another one.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { countRowsInTurns, readingOnce } from './backup-check';
import { checkCopyOffThread } from './backup-check-thread';
import type { Logger } from '../logger';
import { backUpDocumentFiles, type DocumentFilesSummary } from '../documents/document-backups';

export type BackupReason = 'daily' | 'pre-migration' | 'manual' | 'pre-restore';

const REASONS: readonly BackupReason[] = ['daily', 'pre-migration', 'manual', 'pre-restore'];

/** What is known of a backup, kept beside it as `<name>.json`. */
export interface BackupRecord {
  /** The backup's file name (in the same directory). */
  file: string;
  /** When the copy's snapshot was taken (ISO, UTC). */
  createdAt: string;
  reason: BackupReason;
  sizeBytes: number;
  durationMs: number;
  /** `ok`: the file opened, its integrity check passed and every row count matched. */
  result: 'ok' | 'failed';
  /** What went wrong, when result is not ok. */
  error?: string;
  /** Rows per table, in the database at the moment of the copy (and so in the copy). */
  tables: Record<string, number>;
  /** The newest migration the database had: which release of the schema it is. */
  schema: string | null;
  /** The documents' files the backup names, kept in BACKUP_DIR/documents, each hash checked. */
  documents?: DocumentFilesSummary;
}

/** A backup file as the list shows it. */
export interface BackupEntry {
  name: string;
  path: string;
  sizeBytes: number;
  createdAt: Date;
  reason: BackupReason | 'unknown';
  /**
   * `ok` verified when written; `failed` kept although its check failed (a database kept
   * aside before a restore); `unverified` no record of a check; `changed` its size is no
   * longer the size that was checked. Only `ok` counts as a good backup.
   */
  verification: 'ok' | 'failed' | 'unverified' | 'changed';
  record: BackupRecord | null;
}

export class BackupError extends Error {}

const NAME_PATTERN =
  /^kin-health-(\d{4})-(\d{2})-(\d{2})-(\d{2})(\d{2})(\d{2})-([a-z-]+?)(?:-\d+)?\.db$/;
const TEMP_PREFIX = '.kin-health-';
/** A temporary file this old was left by a backup that died; anything younger may be live. */
const STALE_TEMP_MS = 60 * 60 * 1000;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `2025-06-30-030000`: the local date and time, as the file names carry it. */
export function localStamp(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}-` +
    `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`
  );
}

function uniqueName(dir: string, stamp: string, reason: BackupReason): string {
  for (let index = 1; ; index += 1) {
    const name = `kin-health-${stamp}-${reason}${index === 1 ? '' : `-${index}`}.db`;
    if (!existsSync(path.join(dir, name)) && !existsSync(path.join(dir, `${name}.json`))) {
      return name;
    }
  }
}

export function sidecarPath(file: string): string {
  return `${file}.json`;
}

/** Makes a file's content durable. */
export function syncFile(file: string) {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a rename or a deletion in a directory durable. */
export function syncDirectory(dir: string) {
  syncFile(dir);
}

/** Writes a whole file under a temporary name, syncs it, and renames it into place. */
export function writeFileDurably(file: string, content: string) {
  const temp = path.join(path.dirname(file), `${TEMP_PREFIX}${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(temp, content, { mode: 0o600, flag: 'wx' });
  syncFile(temp);
  renameSync(temp, file);
}

function newestMigration(db: SQLite.Database): string | null {
  const table = db
    .prepare(`select 1 from sqlite_schema where type = 'table' and name = 'kysely_migration'`)
    .get();
  if (!table) return null;
  return (
    (db.prepare('select max(name) from kysely_migration').pluck().get() as string | null) ?? null
  );
}

export interface CreateBackupOptions {
  databaseFile: string;
  backupDir: string;
  reason: BackupReason;
  logger: Logger;
  now?: () => Date;
  /**
   * Pages copied per step (100); between steps the server serves. A function is asked before
   * each step: the tests hold a copy half-way with 0 while they write.
   */
  pagesPerStep?: number | (() => number);
  /** Stops a backup under way (the server is stopping); its temporary file is removed. */
  signal?: AbortSignal;
  /** Tests only: runs on the written copy before it is checked (to break it). */
  beforeVerify?: (file: string) => void | Promise<void>;
}

/** Copies the database into `backupDir` from one snapshot, verifies it, and keeps it. */
export async function createBackup(options: CreateBackupOptions): Promise<BackupEntry> {
  const { databaseFile, backupDir, reason, logger } = options;
  const now = options.now ?? (() => new Date());
  const started = performance.now();
  if (!existsSync(databaseFile)) throw new BackupError(`There is no database at ${databaseFile}`);

  const temp = path.join(backupDir, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}.db.tmp`);
  try {
    mkdirSync(backupDir, { recursive: true, mode: 0o700 });
    // Created here with its mode, so the copy is never readable by others, not even briefly.
    closeSync(openSync(temp, 'wx', 0o600));

    const source = readingOnce(
      new SQLite(databaseFile, { readonly: true, fileMustExist: true, timeout: 5000 }),
    );
    let createdAt: Date;
    let tables: Record<string, number>;
    let schema: string | null;
    try {
      source.exec('begin');
      createdAt = now();
      // The first read fixes the transaction's snapshot: these counts and the copy below
      // see the same committed state, whatever the server writes in between.
      tables = await countRowsInTurns(source);
      schema = newestMigration(source);
      await source.backup(temp, {
        progress: () => {
          if (options.signal?.aborted) throw new BackupError('The backup was stopped');
          const pages = options.pagesPerStep ?? 100;
          return typeof pages === 'function' ? pages() : pages;
        },
      });
      source.exec('commit');
    } finally {
      source.close();
    }

    // The copy keeps the source's WAL mode; a rollback-journal file opens read-only with no
    // -wal and -shm files beside it, and is one self-contained file to copy elsewhere.
    const copy = new SQLite(temp, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    syncFile(temp);
    await options.beforeVerify?.(temp);

    const problem = await checkCopyOffThread(temp, tables);
    if (problem) throw new BackupError(`The backup failed its check: ${problem}`);
    let documents: DocumentFilesSummary;
    try {
      documents = await backUpDocumentFiles({
        copy: temp,
        dataDir: path.dirname(databaseFile),
        backupDir,
      });
    } catch (error) {
      throw new BackupError(
        `The backup failed its check: ${error instanceof Error ? error.message : String(error)}`,
      );
    }

    const name = uniqueName(backupDir, localStamp(createdAt), reason);
    const file = path.join(backupDir, name);
    const record: BackupRecord = {
      file: name,
      createdAt: createdAt.toISOString(),
      reason,
      sizeBytes: statSync(temp).size,
      durationMs: Math.round(performance.now() - started),
      result: 'ok',
      tables,
      schema,
      documents,
    };
    // The record first: a crash between the two renames leaves a record with no file (ignored
    // and cleared), never a good file that looks unverified.
    writeFileDurably(sidecarPath(file), `${JSON.stringify(record, null, 2)}\n`);
    renameSync(temp, file);
    syncDirectory(backupDir);
    logger.info(
      { path: file, sizeBytes: record.sizeBytes, durationMs: record.durationMs, reason },
      'backup written and verified',
    );
    return entryOf(file, record);
  } catch (error) {
    rmSync(temp, { force: true });
    rmSync(`${temp}-journal`, { force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(
      `The backup failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

function readRecord(file: string): BackupRecord | null {
  try {
    const record = JSON.parse(readFileSync(sidecarPath(file), 'utf8')) as BackupRecord;
    return typeof record.createdAt === 'string' && typeof record.result === 'string'
      ? record
      : null;
  } catch {
    return null;
  }
}

function entryOf(file: string, record: BackupRecord | null): BackupEntry {
  const name = path.basename(file);
  const sizeBytes = statSync(file).size;
  const match = NAME_PATTERN.exec(name);
  const [, year, month, day, hour, minute, second, reasonInName] = match ?? [];
  const createdAt = record
    ? new Date(record.createdAt)
    : match
      ? new Date(
          Number(year),
          Number(month) - 1,
          Number(day),
          Number(hour),
          Number(minute),
          Number(second),
        )
      : statSync(file).mtime;
  const reason =
    record?.reason ??
    (REASONS.includes(reasonInName as BackupReason) ? (reasonInName as BackupReason) : 'unknown');
  const verification = !record
    ? 'unverified'
    : record.result !== 'ok'
      ? 'failed'
      : record.sizeBytes !== sizeBytes
        ? 'changed'
        : 'ok';
  return { name, path: file, sizeBytes, createdAt, reason, verification, record };
}

/** The backups in a directory, newest first. Files not named as backups are left out. */
export function listBackups(backupDir: string): BackupEntry[] {
  if (!existsSync(backupDir)) return [];
  const entries: BackupEntry[] = [];
  for (const name of readdirSync(backupDir)) {
    if (!NAME_PATTERN.test(name)) continue;
    const file = path.join(backupDir, name);
    try {
      entries.push(entryOf(file, readRecord(file)));
    } catch {
      // Deleted since the directory was read (retention in another process): not a backup.
    }
  }
  return entries.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/**
 * Clears what interrupted backups leave: temporary files older than an hour, and records
 * whose backup file is gone.
 */
export function removeLeftovers(backupDir: string, now: Date): string[] {
  if (!existsSync(backupDir)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(backupDir)) {
    const file = path.join(backupDir, name);
    const modified = statSync(file, { throwIfNoEntry: false })?.mtime.getTime() ?? Infinity;
    const stale = name.startsWith(TEMP_PREFIX) && now.getTime() - modified > STALE_TEMP_MS;
    const orphan =
      name.endsWith('.db.json') &&
      NAME_PATTERN.test(name.slice(0, -'.json'.length)) &&
      !existsSync(file.slice(0, -'.json'.length));
    if (stale || orphan) {
      rmSync(file, { force: true });
      removed.push(name);
    }
  }
  return removed;
}

/**
 * Keeps the files of a database that could not be backed up (it may be damaged: that may be
 * why it is being replaced) as they are, with a record saying they were not verified.
 */
export function keepFilesAside(options: {
  databaseFile: string;
  backupDir: string;
  reason: BackupReason;
  error: string;
  now?: Date;
}): BackupEntry {
  const { databaseFile, backupDir, reason } = options;
  const now = options.now ?? new Date();
  mkdirSync(backupDir, { recursive: true, mode: 0o700 });
  const started = performance.now();
  const name = uniqueName(backupDir, localStamp(now), reason);
  const file = path.join(backupDir, name);
  for (const suffix of ['', '-wal']) {
    if (!existsSync(databaseFile + suffix)) continue;
    const temp = path.join(backupDir, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}.tmp`);
    writeFileSync(temp, readFileSync(databaseFile + suffix), { mode: 0o600, flag: 'wx' });
    syncFile(temp);
    renameSync(temp, file + suffix);
  }
  const record: BackupRecord = {
    file: name,
    createdAt: now.toISOString(),
    reason,
    sizeBytes: statSync(file).size,
    durationMs: Math.round(performance.now() - started),
    result: 'failed',
    error: options.error,
    tables: {},
    schema: null,
  };
  writeFileDurably(sidecarPath(file), `${JSON.stringify(record, null, 2)}\n`);
  syncDirectory(backupDir);
  return entryOf(file, record);
}
