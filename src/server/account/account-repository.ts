/**
 * The account's own rows, as the settings screens read and change them: the profile, the
 * second factor, the password hash a fresh proof is checked against, and deleting the
 * account with everything the server holds about the person.
 */
import type { Kysely } from 'kysely';
import type { Profile } from '../../shared/auth';
import type { PasskeyListItem } from '../../shared/passkeys';
import type { UnitSystem } from '../../shared/units';
import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode } from '../../shared/i18n/languages';
import { deleteOwned, ownedRows, updateOwned } from '../access/scope';
import { createShareLinkStore } from '../share-links/share-link-store';
import { recordAuditEvent, requestSource } from '../audit/audit-log';
import type { DB } from '../db/schema';

/** better-auth keeps a challenge's attempt count under this prefix and the challenge's id. */
const CHALLENGE_ATTEMPTS_PREFIX = '2fa-attempts-';

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

/** The account's passkeys, oldest first, as Profile Settings and the reset page list them. */
export async function passkeysOf(db: Kysely<DB>, userId: string): Promise<PasskeyListItem[]> {
  const rows = await ownedRows(db, 'passkey', userId)
    .select(['id', 'name', 'createdAt', 'last_used_at'])
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name ?? 'Passkey',
    created_at: iso(row.createdAt) ?? '',
    last_used_at: row.last_used_at,
  }));
}

/**
 * Removes passkeys of the account, in one transaction with its audit row: all of them, or
 * those of `ids` that are its own. Says how many went. `why` is the audit row's detail,
 * after the count ('2 passkeys · password reset').
 */
export async function removePasskeys(
  db: Kysely<DB>,
  userId: string,
  options: { ids: readonly string[] | 'all'; why: string; headers: Headers | undefined },
): Promise<number> {
  if (options.ids !== 'all' && options.ids.length === 0) return 0;
  return db.transaction().execute((trx) => removePasskeysIn(trx, userId, options));
}

/** removePasskeys inside the caller's transaction. */
async function removePasskeysIn(
  trx: Kysely<DB>,
  userId: string,
  options: { ids: readonly string[] | 'all'; why: string; headers: Headers | undefined },
): Promise<number> {
  const { ids, why, headers } = options;
  let query = deleteOwned(trx, 'passkey', userId);
  if (ids !== 'all') query = query.where('id', 'in', ids);
  const removed = await query.returning('id').execute();
  if (removed.length > 0) {
    await recordAuditEvent(trx, {
      ...requestSource(headers),
      event: 'passkeys_removed',
      userId,
      detail: `${removed.length} ${removed.length === 1 ? 'passkey' : 'passkeys'} · ${why}`,
    });
  }
  return removed.length;
}

/** The id of the account an email belongs to, if any (to write a refusal down against it). */
export async function userIdByEmail(db: Kysely<DB>, email: string | null): Promise<string | null> {
  if (!email) return null;
  const row = await db
    .selectFrom('user')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  return row?.id ?? null;
}

export function createAccountRepository(db: Kysely<DB>) {
  return {
    async profile(userId: string): Promise<Profile | undefined> {
      const row = await ownedRows(db, 'user', userId)
        .select(['id', 'email', 'name', 'password_common', 'vaccine_schedule', 'units', 'language'])
        .executeTakeFirst();
      return (
        row && {
          id: row.id,
          email: row.email,
          full_name: row.name,
          password_common: Boolean(row.password_common),
          vaccine_schedule: row.vaccine_schedule,
          units: row.units === 'us' ? 'us' : 'metric',
          language: isLanguageCode(row.language) ? row.language : null,
        }
      );
    },

    /** The account's settings beside its name: its vaccine schedule, its units. */
    async setSettings(
      userId: string,
      settings: { vaccine_schedule?: string; units?: string; language?: string },
    ): Promise<void> {
      const changes = Object.fromEntries(
        Object.entries(settings).filter(([, value]) => value !== undefined),
      );
      if (Object.keys(changes).length === 0) return;
      await updateOwned(db, 'user', userId).set(changes).execute();
    },

    /**
     * The language an account reads in: the one chosen, else `fallback` (English; in a
     * request, the request's own).
     */
    async languageOf(
      userId: string,
      fallback: LanguageCode = DEFAULT_LANGUAGE,
    ): Promise<LanguageCode> {
      const row = await ownedRows(db, 'user', userId).select('language').executeTakeFirst();
      return isLanguageCode(row?.language) ? row.language : fallback;
    },

    /** The units an account reads measures in. */
    async unitsOf(userId: string): Promise<UnitSystem> {
      const row = await ownedRows(db, 'user', userId).select('units').executeTakeFirst();
      return row?.units === 'us' ? 'us' : 'metric';
    },

    /** The authenticator app, if one was set up: its id and whether it was confirmed. */
    secondFactors(userId: string) {
      return ownedRows(db, 'twoFactor', userId).select(['id', 'verified']).execute();
    },

    async twoFactorEnabled(userId: string): Promise<boolean> {
      const row = await ownedRows(db, 'user', userId).select('twoFactorEnabled').executeTakeFirst();
      return Boolean(row?.twoFactorEnabled);
    },

    /**
     * 'Sign out everywhere and remove passkeys': in one transaction, every passkey and every
     * session of the account (this one too), with their audit rows.
     */
    async signOutEverywhere(userId: string, headers: Headers | undefined): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await removePasskeysIn(trx, userId, { ids: 'all', why: 'signed out everywhere', headers });
        await deleteOwned(trx, 'session', userId).execute();
        await recordAuditEvent(trx, {
          ...requestSource(headers),
          event: 'signed_out_everywhere',
          userId,
        });
      });
    },
    /** The hash of the account's password (better-auth's credential sign-in method). */
    async passwordHash(userId: string): Promise<string | null> {
      const row = await ownedRows(db, 'account', userId)
        .select('password')
        .where('providerId', '=', 'credential')
        .executeTakeFirst();
      return row?.password ?? null;
    },

    /**
     * Removes everything the server holds about the person, in one transaction: the user
     * row, and through its foreign keys their sessions, sign-in methods, two-factor
     * secrets, used codes, locks, family members and every record; and what no foreign key
     * reaches: their audit rows (which hold their email, addresses and devices, refused
     * sign-ins by their email included), better-auth's short-lived values that name them
     * (a waiting second factor and its attempt count), their attempt counts, and the share
     * links a grantee made of them.
     */
    async delete(userId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const user = await ownedRows(trx, 'user', userId).select('email').executeTakeFirst();
        if (!user) return false;
        const email = user.email.trim().toLowerCase();
        // better-auth's short-lived values are keyed by a random id; those of a waiting
        // second factor name the user in their value.
        const challenges = await trx
          .selectFrom('verification')
          .select('identifier')
          .where('value', '=', userId)
          .execute();
        const attemptCounts = challenges.map(
          ({ identifier }) => CHALLENGE_ATTEMPTS_PREFIX + identifier,
        );
        await trx
          .deleteFrom('verification')
          .where((eb) =>
            attemptCounts.length
              ? eb.or([eb('value', '=', userId), eb('identifier', 'in', attemptCounts)])
              : eb('value', '=', userId),
          )
          .execute();
        await deleteOwned(trx, 'audit_log', userId).execute();
        // Refused sign-ins with the email, before the account was known.
        await trx
          .deleteFrom('audit_log')
          .where('user_id', 'is', null)
          .where('email', '=', email)
          .execute();
        await trx.deleteFrom('attempt_limits').where('subject', 'in', [userId, email]).execute();
        // Access others gave this account ends with it: its email may one day be someone
        // else's. Each owner's security activity says so.
        const grants = await trx
          .deleteFrom('access_grants')
          .where(
            'access_grants.grantee_email',
            'in',
            ownedRows(trx, 'user', userId).select('email'),
          )
          .returning(['user_id', 'grantee_email'])
          .execute();
        for (const grant of grants) {
          await recordAuditEvent(trx, {
            event: 'access_removed',
            userId: grant.user_id,
            detail: `${grant.grantee_email} · account deleted`,
          });
        }
        await createShareLinkStore(trx).deleteLinksOfAccountPerson(userId);
        await deleteOwned(trx, 'user', userId).execute();
        return true;
      });
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
