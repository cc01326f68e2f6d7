/**
 * /api/profile (the user's full name and email) and /api/account (deleting the account and
 * everything about it, after a fresh proof that the person is its owner).
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { profileUpdateSchema, type Profile } from '../../shared/auth';
import { freshProofSchema } from '../../shared/security';
import { deleteAccount } from '../account/account-deletion';
import type { RequireFreshProof } from '../account/fresh-proof';
import type { Auth } from '../auth/auth';
import type { Logger } from '../logger';
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

export function profileRoutes(
  db: Kysely<DB>,
  auth: Auth,
  requireFreshProof: RequireFreshProof,
  logger: Logger,
) {
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
    .delete('/account', validate('json', freshProofSchema), async (c) => {
      const userId = c.var.user.id;
      await requireFreshProof(c.req.raw.headers, userId, c.req.valid('json'), 'account-deletion');
      await deleteAccount(db, userId);
      // Nothing that names the person stays behind, in the database or in the log.
      logger.info('an account was deleted');
      for (const cookie of await expiredAuthCookies(auth))
        c.header('set-cookie', cookie, { append: true });
      return c.body(null, 204);
    });
}
