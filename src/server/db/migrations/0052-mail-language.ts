/**
 * The language a queued mail is written in (CONTRACT §6 'Languages'): the language in force
 * when it was queued (the request's, or the account's for a reminder). A mail about an
 * account is written in the account's chosen language when it has one, decided when it is
 * sent; this one is for the others (a reset link asked for at the sign-in screen). Null for
 * rows queued before: English.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_queue').addColumn('language', 'text').execute();
}
