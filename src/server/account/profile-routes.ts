/**
 * /api/profile (the user's full name and email) and /api/account: deleting the account and
 * everything about it, changing its email, and 'Sign out everywhere and remove passkeys',
 * each after a fresh proof that the person is its owner (GET /api/fresh-proof says what
 * that takes for this account).
 */
import { isAPIError } from 'better-auth/api';
import { Hono } from 'hono';
import { emailChangeRequestSchema, SAME_EMAIL_MESSAGE } from '../../shared/account-recovery';
import { ApiError } from '../../shared/api-error';
import { profileUpdateSchema } from '../../shared/auth';
import { freshProofSchema } from '../../shared/account-security';
import { accountSettingsSchema } from '../../shared/account-settings';
import { EMAIL_CHANGE_NOT_SET_UP_MESSAGE } from '../../shared/account-recovery';
import type { Auth } from '../auth/auth';
import type { AppEnv } from '../http/env';
import { badRequest, notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { Logger } from '../logger';
import type { AccountRepository } from './account-repository';
import type { RequireFreshProof } from './fresh-proof';
import type { DocumentRepository } from '../documents/document-repository';
import { key } from '../../shared/i18n/translate';

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
    if (!profile) throw notFound(key('Profile not found'));
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
      .get('/fresh-proof', async (c) =>
        c.json(
          await requireFreshProof.needs({ userId: c.var.user.id, sessionId: c.var.sessionId }),
        ),
      )
      // A new email address: after the proof, better-auth's change (a link to the new
      // address, a notice to the old one; auth/email-change.ts).
      .post('/account/email', validate('json', emailChangeRequestSchema), async (c) => {
        const userId = c.var.user.id;
        const { newEmail, ...proof } = c.req.valid('json');
        const context = await auth.$context;
        if (!context.options.emailVerification?.sendVerificationEmail) {
          throw new ApiError(503, EMAIL_CHANGE_NOT_SET_UP_MESSAGE);
        }
        if (newEmail.toLowerCase() === (await profileOf(userId)).email.toLowerCase()) {
          throw badRequest(SAME_EMAIL_MESSAGE, 'newEmail');
        }
        const session = { userId, sessionId: c.var.sessionId };
        await requireFreshProof(c.req.raw.headers, session, proof, 'email-change');
        try {
          await auth.api.changeEmail({ headers: c.req.raw.headers, body: { newEmail } });
        } catch (error) {
          // better-auth's 503 (mail is not set up) is an answer, not a fault.
          if (isAPIError(error) && error.statusCode === 503) {
            throw new ApiError(503, EMAIL_CHANGE_NOT_SET_UP_MESSAGE);
          }
          throw error;
        }
        return c.json({ status: true });
      })
      // Every session (this one too) and every passkey of the account end at once.
      .post('/account/sign-out-everywhere', validate('json', freshProofSchema), async (c) => {
        const userId = c.var.user.id;
        const session = { userId, sessionId: c.var.sessionId };
        const headers = c.req.raw.headers;
        await requireFreshProof(headers, session, c.req.valid('json'), 'sign-out-everywhere');
        await accounts.signOutEverywhere(userId, headers);
        for (const cookie of await expiredAuthCookies(auth))
          c.header('set-cookie', cookie, { append: true });
        return c.body(null, 204);
      })
      .delete('/account', validate('json', freshProofSchema), async (c) => {
        const userId = c.var.user.id;
        await requireFreshProof(
          c.req.raw.headers,
          { userId, sessionId: c.var.sessionId },
          c.req.valid('json'),
          'account-deletion',
        );
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
