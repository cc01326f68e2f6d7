/**
 * Whether an account's running operation (its import) is waiting for its turn beside the
 * server's other heavy jobs (KIN_MEMORY_MB, runtime/heavy-jobs.ts): the import page asks
 * (GET /api/imports/turn) and says 'Waiting for another import to finish'. Kept in the lock's
 * row, so that any server on one database answers it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('account_locks')
    .addColumn('waiting', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}
