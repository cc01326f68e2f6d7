/**
 * Deleting an account removes everything the server holds about the person, in one
 * transaction: the user row, and through its foreign keys their sessions, sign-in methods,
 * two-factor secrets, used codes, family members and every record; and what no foreign key
 * reaches: their audit rows (which hold their email, addresses and devices, including
 * refused sign-ins by their email), better-auth's short-lived values that name them (a
 * waiting second factor and its attempt count), and their attempt counts.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

/** better-auth keeps a challenge's attempt count under this prefix and the challenge's id. */
const CHALLENGE_ATTEMPTS_PREFIX = '2fa-attempts-';

export async function deleteAccount(db: Kysely<DB>, userId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('user')
      .select('email')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) return false;
    const email = user.email.trim().toLowerCase();
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
    await trx
      .deleteFrom('audit_log')
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('email', '=', email)]))
      .execute();
    await trx.deleteFrom('attempt_limits').where('subject', 'in', [userId, email]).execute();
    await trx.deleteFrom('user').where('id', '=', userId).execute();
    return true;
  });
}
