/**
 * /api/profile (the user's full name and email) and /api/account (deleting the account and
 * everything about it, after a fresh proof that the person is its owner).
 */
import { Hono } from 'hono';
import { profileUpdateSchema } from '../../shared/auth';
import { freshProofSchema } from '../../shared/account-security';
import { accountSettingsSchema } from '../../shared/account-settings';
import type { Auth } from '../auth/auth';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { Logger } from '../logger';
import type { AccountRepository } from './account-repository';
import type { RequireFreshProof } from './fresh-proof';
import type { DocumentRepository } from '../documents/document-repository';

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

export function profileRoutes(dependencies: {
  accounts: AccountRepository;
  auth: Auth;
  requireFreshProof: RequireFreshProof;
  logger: Logger;
  /** The account's document files go with it (their rows go by the foreign keys). */
  documents: Pick<DocumentRepository, 'removeOwnerFiles'>;
}) {
  const { accounts, auth, requireFreshProof, logger, documents } = dependencies;
  const profileOf = async (userId: string) => {
    const profile = await accounts.profile(userId);
    if (!profile) throw notFound('Profile not found');
    return profile;
  };
  return (
    new Hono<AppEnv>()
      .get('/profile', async (c) => c.json(await profileOf(c.var.user.id)))
      .put('/profile', validate('json', profileUpdateSchema), async (c) => {
        await auth.api.updateUser({
          headers: c.req.raw.headers,
          body: { name: c.req.valid('json').full_name },
        });
        return c.json(await profileOf(c.var.user.id));
      })
      // Settings of the account beside its name: the vaccine schedule it follows, its units.
      .patch('/profile', validate('json', accountSettingsSchema), async (c) => {
        await accounts.setSettings(c.var.user.id, c.req.valid('json'));
        return c.json(await profileOf(c.var.user.id));
      })
      .delete('/account', validate('json', freshProofSchema), async (c) => {
        const userId = c.var.user.id;
        await requireFreshProof(c.req.raw.headers, userId, c.req.valid('json'), 'account-deletion');
        await accounts.delete(userId);
        await documents.removeOwnerFiles(userId);
        // Nothing that names the person stays behind, in the database or in the log.
        logger.info('an account was deleted');
        for (const cookie of await expiredAuthCookies(auth))
          c.header('set-cookie', cookie, { append: true });
        return c.body(null, 204);
      })
  );
}
