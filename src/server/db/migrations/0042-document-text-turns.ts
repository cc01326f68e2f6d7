/**
 * A document's text read within limits, and accounts' documents read in turn (decision
 * 0050): `pages_read` is how many of the document's `pages` its text came from (null: all of
 * them, as every text read before), and `claimed_at` when its job was last taken up, by
 * which the worker finds the account served least recently (its index: each account's
 * latest claim, read backwards).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('document_texts').addColumn('pages_read', 'integer').execute();
  await db.schema.alterTable('document_texts').addColumn('claimed_at', 'text').execute();
  await db.schema
    .createIndex('document_texts_turn_idx')
    .on('document_texts')
    .columns(['user_id', 'claimed_at'])
    .execute();
}
