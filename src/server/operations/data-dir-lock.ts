/**
 * Who is using the SQLite database in DATA_DIR. A server (and a backup command) holds a
 * shared lock for as long as it runs; a restore needs the lock to itself, so it cannot run
 * while a server does, and no server can start while it runs.
 *
 * The lock is SQLite's own: an open read transaction on a small database beside the real one
 * (`kin-health.lock`) holds a shared lock on that file, and `begin exclusive` needs all
 * other holders gone. These are operating-system file locks, so they end with the process
 * that held them, however it ended (even `kill -9`): a stale lock cannot outlive a server.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export const LOCK_FILE_NAME = 'kin-health.lock';

export class DataDirBusyError extends Error {}

export interface DataDirLock {
  release(): void;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

function openLock(dataDir: string, waitMs: number) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Rollback-journal mode (SQLite's default), where a reader's lock is on the file itself.
  return new SQLite(path.join(dataDir, LOCK_FILE_NAME), { timeout: waitMs });
}

/** Held by a server for its lifetime; waits a moment for a restore under way to finish. */
export function holdSharedLock(dataDir: string, waitMs = 5_000): DataDirLock {
  const db = openLock(dataDir, waitMs);
  try {
    db.exec('create table if not exists holder (id integer)');
    db.exec('begin');
    // The first read takes the shared lock; the open transaction keeps it.
    db.prepare('select count(*) from holder').get();
  } catch (error) {
    db.close();
    if (isBusy(error)) {
      throw new DataDirBusyError(
        `A restore is under way in ${dataDir}; try again once it has finished`,
      );
    }
    throw error;
  }
  return {
    release: () => {
      if (db.open) db.close();
    },
  };
}

/** Held by a restore; refused at once while anything else holds the lock. */
export function holdExclusiveLock(dataDir: string): DataDirLock {
  const db = openLock(dataDir, 0);
  try {
    db.exec('create table if not exists holder (id integer)');
    db.exec('begin exclusive');
  } catch (error) {
    db.close();
    if (isBusy(error)) {
      throw new DataDirBusyError(
        `Kin Health is running on ${dataDir} (or a backup of it is being made). ` +
          'Stop the server first, then run the restore again.',
      );
    }
    throw error;
  }
  return {
    release: () => {
      if (db.open) db.close();
    },
  };
}
