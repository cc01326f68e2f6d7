/** Which engine a migration runs on, for the few statements that differ between them. */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Engine } from '../schema';

export function engineOf(db: Kysely<unknown>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * PostgreSQL: creates a contrib extension if the server has it and the user may (a trusted
 * extension needs only the database's owner), and answers the schema it lives in, quoted for
 * SQL, or null when it could not be made. Naming the schema keeps what uses it working
 * whatever the search_path (pg_dump and pg_restore empty it).
 */
export async function optionalExtension(db: Kysely<unknown>, name: string): Promise<string | null> {
  await sql
    .raw(
      `do $$ begin
      create extension if not exists ${name};
    exception when others then null;
    end $$`,
    )
    .execute(db);
  const { rows } = await sql<{ schema: string }>`select n.nspname as schema
    from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = ${name}`.execute(db);
  const schema = rows[0]?.schema;
  return schema === undefined ? null : `"${schema.replaceAll('"', '""')}"`;
}
