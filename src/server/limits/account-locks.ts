/**
 * One long operation of a kind per account at a time (an import), across every instance:
 * a row claimed with one insert, released when the operation ends. A lock older than the
 * operation could ever take (its instance died holding it) is taken over.
 */
import type { ImportTurnState } from '../../shared/imports';
import type { Kysely } from 'kysely';
import { deleteOwned, ownedRow, ownedRows, updateOwned } from '../access/scope';
import type { DB } from '../db/schema';

/** Longer than any import takes; a lock this old was left by an instance that stopped. */
const STALE_AFTER_MS = 10 * 60 * 1000;

/** A lock held: what its operation may say about itself while it runs. */
export interface HeldLock {
  /** Whether the operation waits for its turn beside the server's heavy jobs. */
  setWaiting(waiting: boolean): Promise<void>;
}

/** Whether the account's operation of this kind is running, and waiting for its turn. */
export async function lockState(
  db: Kysely<DB>,
  key: { userId: string; operation: string },
): Promise<ImportTurnState> {
  const row = await ownedRows(db, 'account_locks', key.userId)
    .select('waiting')
    .where('operation', '=', key.operation)
    .where('acquired_at', '>=', Date.now() - STALE_AFTER_MS)
    .executeTakeFirst();
  return { running: row !== undefined, waiting: row?.waiting === 1 };
}

/**
 * Runs `operation` holding the account's lock, or returns `undefined` at once when another
 * operation of the kind holds it.
 */
export async function withAccountLock<T>(
  db: Kysely<DB>,
  key: { userId: string; operation: string },
  operation: (lock: HeldLock) => Promise<T>,
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
    return {
      result: await operation({
        async setWaiting(waiting) {
          await updateOwned(db, 'account_locks', key.userId)
            .set({ waiting: waiting ? 1 : 0 })
            .where('operation', '=', key.operation)
            .where('acquired_at', '=', now)
            .execute();
        },
      }),
    };
  } finally {
    await deleteOwned(db, 'account_locks', key.userId)
      .where('operation', '=', key.operation)
      .where('acquired_at', '=', now)
      .execute();
  }
}
