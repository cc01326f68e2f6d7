/**
 * The Friends & Family Passcode of the whole server: one Argon2id hash in the database
 * (the server_settings row), which every sign-up and every sign-in checks.
 *
 * Why the server's one hash, rather than the copy each user got at sign-up: a change is then
 * a single committed write, and from that commit on every check, on every instance sharing
 * the database, reads the new hash. The old passcode works for nobody at once, with no
 * restart, and there is no user row a change could miss. A user row keeps no copy of the
 * hash, only which passcode the account last passed (`passcode_version`, a digest of the
 * hash; migration 0041): a passkey or a single sign-on works only while that is the current
 * passcode, so that whoever got in with a leaked passcode is out of every way in at once
 * (docs/decisions/0048-passkeys-after-a-passcode-change.md).
 *
 * A change ends every session and every sign-in still waiting for its second factor, in
 * that same transaction: whoever got in with the old passcode is out, and everyone signs in
 * again with the new one. Nobody's records are touched. A sign-in or sign-up that checked
 * the old passcode just before the change and writes its session just after it is undone
 * by passcode-still-current.ts.
 *
 * Changes come from `npm run kin -- passcode` and from a start whose configured passcode
 * (FAMILY_PASSCODE, or the file in DATA_DIR) is not the stored one. Each is audited.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ownedRows } from '../access/scope';
import { recordAuditEvent } from '../audit/audit-log';
import type { DB, Engine, PasscodeSource } from '../db/schema';
import { nowTimestamp } from '../ids';
import type { Logger } from '../logger';
import type { PasswordHasher } from './password-hashing';

/** How a change came about, as its audit row's detail says. */
export type PasscodeChangeSource = 'command' | PasscodeSource;

/** better-auth's rows for a sign-in waiting for its second factor (and their attempt counts). */
const SECOND_FACTOR_CHALLENGES = '2fa-%';

const SETTINGS_ROW = 1;

export interface StoredPasscode {
  hash: string;
  from: PasscodeSource;
}

/** The server's passcode, hashed, or undefined before the first start has stored one. */
export async function storedPasscode(db: Kysely<DB>): Promise<StoredPasscode | undefined> {
  return db
    .selectFrom('server_settings')
    .select(['family_passcode as hash', 'family_passcode_from as from'])
    .where('id', '=', SETTINGS_ROW)
    .executeTakeFirst();
}

/**
 * Which passcode a hash is, as a user row keeps it: a SHA-256 digest of the Argon2id hash
 * (its random salt included), which tells passcodes apart and nothing about their digits.
 */
export function passcodeVersion(hash: string): string {
  return createHash('sha256').update(hash).digest('base64url');
}

/**
 * Whether the account passed the server's current passcode (at sign-up or a password
 * sign-in since the last change): what a passkey or single sign-on needs to sign it in.
 * With `engine` 'postgres' the passcode's row is read FOR SHARE, as isStillFamilyPasscode
 * reads it: a change under way is waited for.
 */
export async function passedCurrentPasscode(
  db: Kysely<DB>,
  userId: string,
  engine?: Engine,
): Promise<boolean> {
  const query = db
    .selectFrom('server_settings')
    .select('family_passcode')
    .where('id', '=', SETTINGS_ROW);
  const [stored, row] = await Promise.all([
    (engine === 'postgres' ? query.forShare() : query).executeTakeFirst(),
    ownedRows(db, 'user', userId).select('passcode_version').executeTakeFirst(),
  ]);
  return !!stored && row?.passcode_version === passcodeVersion(stored.family_passcode);
}

/**
 * The hash of the server's passcode when `passcode` is it, or null. With no passcode
 * stored yet, nothing matches: nobody gets in.
 */
export async function matchFamilyPasscode(
  db: Kysely<DB>,
  hasher: PasswordHasher,
  passcode: string,
): Promise<string | null> {
  const stored = await storedPasscode(db);
  if (!stored) return null;
  return (await hasher.verify({ hash: stored.hash, password: passcode })) ? stored.hash : null;
}

/**
 * Whether the server's passcode is still the one hashed as `hash`. On PostgreSQL the read
 * locks the row (FOR SHARE), so while a change that has written it is still under way this
 * waits for it to commit or roll back, and answers with its outcome.
 */
export async function isStillFamilyPasscode(
  db: Kysely<DB>,
  engine: Engine,
  hash: string,
): Promise<boolean> {
  const query = db
    .selectFrom('server_settings')
    .select('family_passcode')
    .where('id', '=', SETTINGS_ROW);
  const row = await (engine === 'postgres' ? query.forShare() : query).executeTakeFirst();
  return row?.family_passcode === hash;
}

/**
 * Makes `hash` the server's passcode: one transaction replaces the stored hash, ends every
 * session and every waiting second factor, and audits the change. Users' rows keep the
 * version they passed: until each passes the new one, their passkeys and single sign-on
 * are refused.
 * `from` says where the server's configuration takes the passcode from now; a command's
 * change leaves that as it was.
 */
export async function changeFamilyPasscode(
  db: Kysely<DB>,
  change: { hash: string; source: PasscodeChangeSource; from?: PasscodeSource },
): Promise<void> {
  const { hash, source, from } = change;
  await db.transaction().execute(async (trx) => {
    const changedAt = nowTimestamp();
    // The passcode's row first: on PostgreSQL, a request making sure that the passcode it
    // checked still holds (isStillFamilyPasscode) waits from here until the commit; one
    // that read it before this has its rows in place already, for the deletes below.
    await trx
      .insertInto('server_settings')
      .values({
        id: SETTINGS_ROW,
        family_passcode: hash,
        family_passcode_from: from ?? 'file',
        family_passcode_changed_at: changedAt,
      })
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet({
          family_passcode: hash,
          family_passcode_changed_at: changedAt,
          ...(from ? { family_passcode_from: from } : {}),
        }),
      )
      .execute();
    await trx.deleteFrom('session').execute();
    await trx
      .deleteFrom('verification')
      .where('identifier', 'like', SECOND_FACTOR_CHALLENGES)
      .execute();
    await recordAuditEvent(trx, { event: 'passcode_changed', detail: source });
  });
}

export type SettledPasscode = 'stored' | 'changed' | 'unchanged';

/**
 * At start-up: makes the configured passcode the server's when it is not already (the same
 * change as the command's), or stores it when the database has none yet: a new database,
 * or one whose users signed up before the passcode was kept here, whose rows it marks as
 * having passed it (their sessions go on: nothing changed for them but where the hash is kept).
 */
export async function settleFamilyPasscode(
  db: Kysely<DB>,
  options: { passcode: string; from: PasscodeSource; hasher: PasswordHasher; logger: Logger },
): Promise<SettledPasscode> {
  const { passcode, from, hasher, logger } = options;
  let stored = await storedPasscode(db);
  if (!stored) {
    const hash = await hasher.hash(passcode);
    const first = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('server_settings')
        .values({
          id: SETTINGS_ROW,
          family_passcode: hash,
          family_passcode_from: from,
          family_passcode_changed_at: nowTimestamp(),
        })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return false;
      await trx
        .updateTable('user')
        .set({ passcode_version: passcodeVersion(hash) })
        .execute();
      return true;
    });
    if (first) {
      logger.info({ from }, 'the Friends & Family Passcode is kept in the database, hashed');
      return 'stored';
    }
    // Another instance, starting at the same moment, stored it first.
    stored = await storedPasscode(db);
    if (!stored) throw new Error('The Friends & Family Passcode could not be stored');
  }
  if (await hasher.verify({ hash: stored.hash, password: passcode })) {
    if (stored.from !== from) {
      await db
        .updateTable('server_settings')
        .set({ family_passcode_from: from })
        .where('id', '=', SETTINGS_ROW)
        .execute();
    }
    return 'unchanged';
  }
  await changeFamilyPasscode(db, { hash: await hasher.hash(passcode), source: from, from });
  // Never the digits: the logs carry no secret.
  logger.info(
    { from },
    from === 'FAMILY_PASSCODE'
      ? 'the Friends & Family Passcode changed to the one FAMILY_PASSCODE gives; every session ended'
      : 'the Friends & Family Passcode changed to the one in DATA_DIR; every session ended',
  );
  return 'changed';
}
