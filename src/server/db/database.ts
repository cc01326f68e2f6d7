/**
 * The database: Kysely over better-sqlite3 (embedded, the default) or over pg (PostgreSQL,
 * when DATABASE_URL is set). Both run the same migrations and the same queries.
 */
import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteQueryCompiler,
  type QueryCompiler,
  type SqliteDatabase,
} from 'kysely';
import pg from 'pg';
import type { DB, Engine } from './schema';

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  /** The SQLite database file (backups copy it); null on PostgreSQL. */
  file: string | null;
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

/** More distinct statements than the app has query shapes, so the cache never churns. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query it runs, and preparing is SQLite parsing and planning the
 * statement anew: for the timeline's five-way union that cost more than running it. The
 * app runs a few hundred query shapes at most (values are bound as parameters, so the SQL
 * of a shape never changes), so each prepared statement is kept and reused. When more
 * shapes than the cache holds have been seen, the oldest goes (first in, first out: with a
 * bound above the app's shapes, that happens only to one-off statements, and a hit costs
 * one lookup). A statement still being iterated (a streamed query) is never handed out
 * twice: a fresh one is prepared instead.
 */
export function withStatementCache(
  sqlite: SQLite.Database,
  size = STATEMENT_CACHE_SIZE,
  onStatement?: (sql: string) => void,
): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sql) {
      onStatement?.(sql);
      const cached = statements.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(sql);
      if (cached) return statement;
      statements.set(sql, statement);
      if (statements.size > size) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      return statement;
    },
  };
}

/**
 * Kysely's SQLite compiler, writing each bound value as `+?` rather than `?`. The unary plus
 * changes nothing in what a statement means (the same value, no affinity of its own, as a
 * bare parameter has none; an index on the column compared still serves), but it keeps
 * SQLite from re-preparing the statement on every run.
 *
 * When SQLite plans a join, or a LIMIT, with a parameter in it, it notes that parameter as
 * one whose value might call for another plan (a 0 or 1 might). better-sqlite3 clears a
 * statement's parameters after each run, and clearing them throws away the plan of any
 * statement with such a note: the next run parses and plans it again. A visit read with its
 * member's name (one join) then cost 60 µs instead of 7, the timeline's union 206 µs instead
 * of 99, on every request. Behind a unary plus SQLite sees an expression, not a parameter,
 * and keeps the plan. How this was found and measured:
 * docs/decisions/0019-sqlite-statements-prepared-once.md.
 */
class SqliteParameterCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }
}

/** SQLite through Kysely, its statements kept prepared (see SqliteParameterCompiler). */
export class KinSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new SqliteParameterCompiler();
  }
}

type ImmediateReader = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

const immediateReaders = new WeakMap<object, ImmediateReader>();

/**
 * The rows of a read, run on the spot when the database allows it, or undefined: then run
 * it through Kysely as usual.
 *
 * better-sqlite3 answers synchronously; Kysely still runs each query through its
 * connection queue, a chain of a dozen promises, and Node pays a promise hook on each of
 * them once any AsyncLocalStorage is in use (better-auth's is). For a request's small reads
 * that chain cost more than SQLite did. A read is run on the spot when no transaction is
 * open on the connection: it is one statement in its own implicit transaction, exactly
 * what Kysely would run once its queue let it. While a transaction is open (it holds the
 * connection across awaits), the read waits its turn through Kysely, so it never sees
 * writes that are not yet committed. PostgreSQL reads always go through Kysely's pool.
 * What this saves on Node 24, measured:
 * docs/decisions/0009-library-code-rewritten-for-speed.md.
 */
export function readImmediately<Row>(
  // Any schema: the caller knows the rows its SQL reads.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  sql: string,
  parameters: readonly unknown[],
): Row[] | undefined {
  return immediateReaders.get(db)?.(sql, parameters) as Row[] | undefined;
}

/** SQLite's own companions of a database file, made with the file's own permissions. */
const SQLITE_COMPANIONS = ['', '-wal', '-shm', '-journal'];

/**
 * Health records are readable by the server's user alone: the file is made owner-only
 * before SQLite opens it (SQLite then makes its -wal and -shm with the same permissions),
 * and files left readable by others (by an older version, or a copy made by hand) are
 * made owner-only again.
 */
function keepOwnerOnly(file: string) {
  closeSync(openSync(file, 'a', 0o600));
  for (const suffix of SQLITE_COMPANIONS) {
    const companion = file + suffix;
    if (existsSync(companion) && (statSync(companion).mode & 0o077) !== 0)
      chmodSync(companion, 0o600);
  }
}

export interface OpenOptions {
  /** Sees every statement sent to the database (the API tests check each one's owner). */
  onStatement?: (sql: string) => void;
}

export function openSqlite(file: string, options: OpenOptions = {}): Database {
  if (file !== ':memory:') keepOwnerOnly(file);
  const sqlite = new SQLite(file);
  // A saved record must survive a power cut: WAL with a full sync on every commit.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const statements = withStatementCache(sqlite, STATEMENT_CACHE_SIZE, options.onStatement);
  const db = new Kysely<DB>({ dialect: new KinSqliteDialect({ database: statements }) });
  immediateReaders.set(db, (sql, parameters) => {
    if (sqlite.inTransaction) return undefined;
    const statement = statements.prepare(sql);
    return statement.reader ? statement.all(parameters) : undefined;
  });
  return {
    db,
    engine: 'sqlite',
    file,
    close: () => db.destroy(),
  };
}

export function openPostgres(
  connectionString: string,
  poolSize = 10,
  options: OpenOptions = {},
): Database {
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
  const { onStatement } = options;
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    ...(onStatement ? { log: (event) => onStatement(event.query.sql) } : {}),
  });
  return {
    db,
    engine: 'postgres',
    file: null,
    close: () => db.destroy(),
  };
}

export function openDatabase(options: { databaseUrl: string | null; dataDir: string }): Database {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : openSqlite(path.join(options.dataDir, SQLITE_FILE_NAME));
}
