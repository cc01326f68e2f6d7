/**
 * The user row keeps which Friends & Family Passcode the account last passed, not the
 * passcode's hash (docs/decisions/0048-passkeys-after-a-passcode-change.md).
 *
 * Each row had a copy of the server's Argon2id hash, replaced on every change: a copy that
 * answered nothing (sign-in checks the server's own, decision 0013), and that anything
 * handing out a user row handed out with it, a six-digit secret to guess offline. In its
 * place, `passcode_version`: a SHA-256 digest of the server's hash at the moment the account
 * last passed the passcode (sign-up, a password sign-in). It says which passcode was passed
 * and nothing about the digits (the hash's salt is not in it). A passkey or a single sign-on
 * works only while it is the current passcode's.
 *
 * Rows whose copy is the current hash get its digest: nobody has to sign in again for this
 * migration. The digest is written out here rather than imported, so that this file stays
 * as it shipped.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

interface Tables {
  user: { family_passcode: string | null; passcode_version: string | null };
  server_settings: { id: number; family_passcode: string };
}

export async function up(unknownDb: Kysely<unknown>): Promise<void> {
  const db = unknownDb as Kysely<Tables>;
  await db.schema.alterTable('user').addColumn('passcode_version', 'text').execute();
  const stored = await db
    .selectFrom('server_settings')
    .select('family_passcode')
    .where('id', '=', 1)
    .executeTakeFirst();
  if (stored) {
    await db
      .updateTable('user')
      .set({
        passcode_version: createHash('sha256').update(stored.family_passcode).digest('base64url'),
      })
      .where('family_passcode', '=', stored.family_passcode)
      .execute();
  }
  await db.schema.alterTable('user').dropColumn('family_passcode').execute();
}
