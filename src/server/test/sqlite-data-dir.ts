/**
 * A DATA_DIR with a Kin Health SQLite database in it, for the backup and restore tests:
 * migrated to this release (or to its first migrations only, like a database an older
 * release left), optionally padded with rows so that copying it takes a while.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely/migration';
import { sql } from 'kysely';
import { parseBackupConfig, type BackupConfig } from '../config';
import { openSqlite, SQLITE_FILE_NAME } from '../db/database';
import { completeSchema, migrations } from '../db/migrate';
import { createLogger, type Logger } from '../logger';

export interface SqliteDataDir {
  dataDir: string;
  databaseFile: string;
  backup: BackupConfig;
  drop: () => void;
}

export async function createSqliteDataDir(
  options: { migrationCount?: number; auditRows?: number } = {},
): Promise<SqliteDataDir> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-ops-'));
  const databaseFile = path.join(dataDir, SQLITE_FILE_NAME);
  const database = openSqlite(databaseFile);
  const names = Object.keys(migrations).slice(0, options.migrationCount);
  const migrator = new Migrator({
    db: database.db,
    provider: {
      getMigrations: async () => Object.fromEntries(names.map((name) => [name, migrations[name]!])),
    },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  await completeSchema(database.db, names);
  const rows = options.auditRows ?? 0;
  const filler = 'x'.repeat(400);
  for (let start = 0; start < rows; start += 500) {
    await database.db
      .insertInto('audit_log')
      .values(
        Array.from({ length: Math.min(500, rows - start) }, (_, index) => ({
          id: `filler-${start + index}`,
          user_id: null,
          email: null,
          event: 'filler',
          detail: `${filler}${randomBytes(8).toString('hex')}`,
          ip_address: null,
          user_agent: null,
          // Recent: older rows would be pruned by the audit retention as the server starts.
          created_at: new Date().toISOString(),
        })),
      )
      .execute();
  }
  await sql`pragma wal_checkpoint(truncate)`.execute(database.db);
  await database.close();
  return {
    dataDir,
    databaseFile,
    backup: parseBackupConfig({}, dataDir),
    drop: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A logger whose lines the test can read. */
export function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = createLogger('debug', {
    write: (line: string) => {
      lines.push(JSON.parse(line) as LogLine);
    },
  });
  return { logger, lines };
}

export const ERROR_LEVEL = 50;
