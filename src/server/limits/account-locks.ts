/**
 * One long operation of a kind per account at a time (an import), across every instance:
 * a row claimed with one insert, released when the operation ends. A lock older than the
 * operation could ever take (its instance died holding it) is taken over.
 */
import type { Kysely } from 'kysely';
import { deleteOwned, ownedRow } from '../access/scope';
import type { DB } from '../db/schema';

/** Longer than any import takes; a lock this old was left by an instance that stopped. */
const STALE_AFTER_MS = 10 * 60 * 1000;

/**
 * Runs `operation` holding the account's lock, or returns `undefined` at once when another
 * operation of the kind holds it.
 */
export async function withAccountLock<T>(
  db: Kysely<DB>,
  key: { userId: string; operation: string },
  operation: () => Promise<T>,
): Promise<{ result: T } | undefined> {
  const now = Date.now();
  await deleteOwned(db, 'account_locks', key.userId)
    .where('operation', '=', key.operation)
    .where('acquired_at', '<', now - STALE_AFTER_MS)
    .execute();
  const claimed = await db
    .insertInto('account_locks')
    .values(ownedRow(key.userId, { operation: key.operation, acquired_at: now }))
    .onConflict((conflict) => conflict.columns(['user_id', 'operation']).doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) return undefined;
  try {
    return { result: await operation() };
  } finally {
    await deleteOwned(db, 'account_locks', key.userId)
      .where('operation', '=', key.operation)
      .where('acquired_at', '=', now)
      .execute();
  }
}
