/**
 * The account's language (CONTRACT §6 'Languages'): a language code from
 * src/shared/i18n/languages.ts, or null while none was chosen (the browser's decides in the
 * web app; mail, the PDF and share links then speak the language the account last used).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user').addColumn('language', 'text').execute();
}
