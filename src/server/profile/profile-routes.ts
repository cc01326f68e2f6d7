/**
 * /api/profile (the user's full name and email) and /api/account (deleting the account with
 * every record, member and session it owns, and writing down in the audit log that it was).
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { profileUpdateSchema, type Profile } from '../../shared/auth';
import { recordAuditEvent, requestSource } from '../audit/audit-log';
import type { Auth } from '../auth/auth';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validate';

async function readProfile(db: Kysely<DB>, userId: string): Promise<Profile | undefined> {
  const row = await db
    .selectFrom('user')
    .select(['id', 'email', 'name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return row && { id: row.id, email: row.email, full_name: row.name };
}

/** Set-Cookie values that make the browser forget every auth cookie. */
async function expiredAuthCookies(auth: Auth): Promise<string[]> {
  const { authCookies } = await auth.$context;
  return [authCookies.sessionToken, authCookies.sessionData, authCookies.dontRememberToken].map(
    (cookie) => {
      const secure = cookie.attributes.secure ? '; Secure' : '';
      return `${cookie.name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`;
    },
  );
}

export function profileRoutes(db: Kysely<DB>, auth: Auth) {
  return new Hono<AppEnv>()
    .get('/profile', async (c) => {
      const profile = await readProfile(db, c.var.user.id);
      if (!profile) throw notFound('Profile not found');
      return c.json(profile);
    })
    .put('/profile', validate('json', profileUpdateSchema), async (c) => {
      await auth.api.updateUser({
        headers: c.req.raw.headers,
        body: { name: c.req.valid('json').full_name },
      });
      const profile = await readProfile(db, c.var.user.id);
      if (!profile) throw notFound('Profile not found');
      return c.json(profile);
    })
    .delete('/account', async (c) => {
      // One transaction: the audit row, and one statement whose foreign keys take the
      // sessions, accounts, family members and every record with the user; all of it or
      // nothing. The audit row is not the user's, so it stays.
      const userId = c.var.user.id;
      await db.transaction().execute(async (trx) => {
        await recordAuditEvent(trx, {
          event: 'account_deleted',
          userId,
          ...requestSource(c.req.raw.headers),
        });
        await trx.deleteFrom('user').where('id', '=', userId).execute();
      });
      for (const cookie of await expiredAuthCookies(auth))
        c.header('set-cookie', cookie, { append: true });
      return c.body(null, 204);
    });
}
