/**
 * The database: Kysely over better-sqlite3 (embedded, the default) or over pg (PostgreSQL,
 * when DATABASE_URL is set). Both run the same migrations and the same queries.
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DB, Engine } from './schema';

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  close(): Promise<void>;
}

export const SQLITE_FILE_NAME = 'kin-health.db';

/** pg returns 64-bit integers (count(*)) as strings; every count here fits a JS number. */
const INT8_OID = 20;
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export function openSqlite(file: string): Database {
  const sqlite = new SQLite(file);
  // A saved record must survive a power cut: WAL with a full sync on every commit.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    engine: 'sqlite',
    close: () => db.destroy(),
  };
}

export function openPostgres(connectionString: string, poolSize = 10): Database {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    types: pgTypes,
    // A database that cannot be reached answers 503 in seconds, not a hung request.
    connectionTimeoutMillis: 5_000,
  });
  // A connection that loses its server, idle in the pool or held between two queries,
  // must not take the process down with it: the query that needs it fails (503) instead,
  // and the pool opens a new connection once the server is back.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    engine: 'postgres',
    close: () => db.destroy(),
  };
}

export function openDatabase(options: { databaseUrl: string | null; dataDir: string }): Database {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : openSqlite(path.join(options.dataDir, SQLITE_FILE_NAME));
}
