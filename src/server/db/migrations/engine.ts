/** Which engine a migration runs on, for the few statements that differ between them. */
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Engine } from '../schema';

export function engineOf(db: Kysely<unknown>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
