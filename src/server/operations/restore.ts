/**
 * Putting a backup in place of the SQLite database, with the server stopped. The file is
 * copied into DATA_DIR and checked there first (a SQLite database, integrity ok, a Kin Health
 * schema no newer than this release's, and exactly the tables, indexes, triggers and views
 * its migrations make); only then is the current database kept aside in BACKUP_DIR and the
 * copy renamed into its place. A refused file changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { BackupConfig } from '../config';
import { openSqlite, SQLITE_FILE_NAME } from '../db/database';
import { completeSchema, migrations } from '../db/migrate';
import type { Logger } from '../logger';
import { createBackup, keepFilesAside, syncDirectory, syncFile } from './backup';
import { integrityProblem } from './backup-check';
import { holdExclusiveLock } from './data-dir-lock';
import {
  DOCUMENTS_DIR_NAME,
  restoreDocumentFiles,
  type DocumentFilesSummary,
} from '../documents/document-backups';

export class RestoreRefusedError extends Error {}

export interface RestoreReport {
  restoredFrom: string;
  databaseFile: string;
  /** Where the database that was replaced now is, or null when there was none. */
  keptAside: string | null;
  /** Whether that copy passed its check (a damaged database is kept as it was). */
  keptAsideVerified: boolean;
  /** The newest migration the backup has. */
  schema: string;
  /** Migrations of this release the next start will apply to it. */
  pendingMigrations: string[];
  tables: number;
  /** The documents' files the restored database names, each back in DATA_DIR, hash checked. */
  documents: DocumentFilesSummary;
}

/** One entry of a database's schema: a table, an index, a trigger or a view, as made. */
interface SchemaEntry {
  type: string;
  name: string;
  sql: string | null;
}

/**
 * A database's schema, SQLite's own entries aside (those it derives from the tables, and
 * the statistics `pragma optimize` may gather).
 */
const SCHEMA_QUERY = `select type, name, sql from sqlite_schema
  where substr(name, 1, 7) <> 'sqlite_' order by type, name`;

/** The schema this release's migrations make, up to and including `last`, in a fresh database. */
async function schemaOfMigrations(last: string): Promise<SchemaEntry[]> {
  const fresh = openSqlite(':memory:');
  try {
    const migrator = new Migrator({
      db: fresh.db,
      provider: { getMigrations: async () => migrations },
    });
    const { error } = await migrator.migrateTo(last);
    if (error) throw error instanceof Error ? error : new Error(String(error));
    const names = Object.keys(migrations);
    await completeSchema(fresh.db, names.slice(0, names.indexOf(last) + 1));
    return (await sql<SchemaEntry>`${sql.raw(SCHEMA_QUERY)}`.execute(fresh.db)).rows;
  } finally {
    await fresh.close();
  }
}

const describeEntry = (entry: SchemaEntry) => `${entry.type} ${entry.name}`;

/**
 * Refuses a backup whose schema differs from the one its migrations make: a table, index,
 * trigger or view more, less or defined otherwise (a trigger copying every new session's
 * token into a table of its own passes an integrity check).
 */
async function refuseForeignSchema(schema: SchemaEntry[], applied: string[], source: string) {
  const inOrder = Object.keys(migrations).slice(0, applied.length);
  if (applied.some((name, index) => name !== inOrder[index])) {
    throw new RestoreRefusedError(
      `${source} has migrations this release never applies in that order (${applied.join(', ')})`,
    );
  }
  const expected = applied.length ? await schemaOfMigrations(applied.at(-1) as string) : [];
  const key = (entry: SchemaEntry) => `${entry.type} ${entry.name} ${entry.sql ?? ''}`;
  const expectedKeys = new Set(expected.map(key));
  const foundKeys = new Set(schema.map(key));
  const differences = [
    ...schema.filter((entry) => !expectedKeys.has(key(entry))).map(describeEntry),
    ...expected
      .filter((entry) => !foundKeys.has(key(entry)))
      .map((entry) => `${describeEntry(entry)} missing or changed`),
  ];
  if (differences.length) {
    throw new RestoreRefusedError(
      `${source} has a schema its migrations do not make (${[...new Set(differences)].join('; ')}): ` +
        'it may have been tampered with',
    );
  }
}

/** Checks a copy of a backup; its applied migrations, or a refusal saying what is wrong. */
function checkCandidate(
  file: string,
  source: string,
): { applied: string[]; tables: number; schema: SchemaEntry[] } {
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(file, { fileMustExist: true });
    // Also the first read of the file: anything but a SQLite database fails here. A backup
    // may be in WAL mode; in rollback mode the check leaves no -wal file behind.
    db.pragma('journal_mode = DELETE');
    const problem = integrityProblem(db);
    if (problem) {
      throw new RestoreRefusedError(`${source} is damaged (integrity check: ${problem})`);
    }
    const tables = db
      .prepare(`select name from sqlite_schema where type = 'table'`)
      .pluck()
      .all() as string[];
    if (!tables.includes('kysely_migration') || !tables.includes('user')) {
      throw new RestoreRefusedError(
        `${source} is a SQLite database, but it is not a Kin Health database`,
      );
    }
    const applied = db
      .prepare('select name from kysely_migration order by name')
      .pluck()
      .all() as string[];
    const unknown = applied.filter((name) => !(name in migrations));
    if (unknown.length) {
      throw new RestoreRefusedError(
        `This backup was made by a newer version of Kin Health (migration ${unknown[0]}); ` +
          'upgrade Kin Health first',
      );
    }
    const schema = db.prepare(SCHEMA_QUERY).all() as SchemaEntry[];
    return { applied, tables: tables.length, schema };
  } catch (error) {
    if (error instanceof RestoreRefusedError) throw error;
    throw new RestoreRefusedError(
      `${source} is not a database Kin Health can restore: ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  } finally {
    db?.close();
  }
}

export async function restoreBackup(options: {
  source: string;
  dataDir: string;
  backup: BackupConfig;
  logger: Logger;
}): Promise<RestoreReport> {
  const source = path.resolve(options.source);
  if (!existsSync(source) || !statSync(source).isFile()) {
    throw new RestoreRefusedError(`There is no file ${source}`);
  }
  const databaseFile = path.join(path.resolve(options.dataDir), SQLITE_FILE_NAME);
  if (source === databaseFile) {
    throw new RestoreRefusedError(`${source} is the database itself, not a backup of it`);
  }
  const lock = holdExclusiveLock(options.dataDir);
  const temp = path.join(
    options.dataDir,
    `.${SQLITE_FILE_NAME}.restore-${randomBytes(6).toString('hex')}`,
  );
  try {
    await copyFile(source, temp);
    chmodSync(temp, 0o600);
    // Copied files of a database in WAL mode: its -wal file holds the latest writes. Beside
    // the copy, SQLite reads it in, and the switch to rollback mode below folds it into the
    // copy. (A -wal file of some other database is not replayed: SQLite checks its frames.)
    if (existsSync(`${source}-wal`)) {
      await copyFile(`${source}-wal`, `${temp}-wal`);
      chmodSync(`${temp}-wal`, 0o600);
    }
    const { applied, tables, schema } = checkCandidate(temp, source);
    await refuseForeignSchema(schema, applied, source);
    syncFile(temp);
    // Every document's file back in DATA_DIR, from the backups' files (BACKUP_DIR/documents,
    // or beside the file restored from), or no restore at all.
    let documents: DocumentFilesSummary;
    try {
      const besideSource = path.dirname(source);
      const backupDir = existsSync(path.join(besideSource, DOCUMENTS_DIR_NAME))
        ? besideSource
        : options.backup.dir;
      documents = await restoreDocumentFiles({
        databaseFile: temp,
        dataDir: options.dataDir,
        backupDir,
      });
    } catch (error) {
      throw new RestoreRefusedError(
        `${source} cannot be restored whole: ${error instanceof Error ? error.message : String(error)}`,
      );
    }

    let keptAside: string | null = null;
    let keptAsideVerified = false;
    if (existsSync(databaseFile)) {
      try {
        const entry = await createBackup({
          databaseFile,
          backupDir: options.backup.dir,
          reason: 'pre-restore',
          logger: options.logger,
        });
        keptAside = entry.path;
        keptAsideVerified = true;
      } catch (error) {
        // It may be damaged, which may be why it is being replaced: keep its files as they are.
        const entry = keepFilesAside({
          databaseFile,
          backupDir: options.backup.dir,
          reason: 'pre-restore',
          error: error instanceof Error ? error.message : String(error),
        });
        keptAside = entry.path;
      }
    }

    // A -wal file left beside the database belongs to the old one: SQLite would replay it
    // onto the restored file. Removed first, so a stop half-way never pairs the two.
    for (const suffix of ['-wal', '-shm', '-journal'])
      rmSync(databaseFile + suffix, { force: true });
    syncDirectory(options.dataDir);
    renameSync(temp, databaseFile);
    syncDirectory(options.dataDir);
    options.logger.info({ source, databaseFile, keptAside }, 'backup restored');
    return {
      restoredFrom: source,
      databaseFile,
      keptAside,
      keptAsideVerified,
      schema: applied.at(-1) ?? '',
      pendingMigrations: Object.keys(migrations).filter((name) => !applied.includes(name)),
      tables,
      documents,
    };
  } finally {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(temp + suffix, { force: true });
    lock.release();
  }
}
