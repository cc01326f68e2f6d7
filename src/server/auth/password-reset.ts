/**
 * Password reset by email, on better-auth's own flow (/request-password-reset,
 * /reset-password), with three changes (docs/decisions/0027-mail-queue-and-password-reset.md):
 *
 * - A browser's request for a link does the same work whoever the email belongs to: it
 *   writes one audit row and queues one mail row, and answers the one message. The link is
 *   made later, by the mail sender, which calls better-auth's endpoint itself (inside
 *   `resetLinkMaking`); an email with no account makes no mail. Nothing in the request's
 *   time or answer says whether an account exists.
 * - The token is stored as its SHA-256 (better-auth's `verification.storeIdentifier`
 *   'hashed', for reset tokens only); the raw token is only ever in the mail.
 * - After a reset every session of the account ends (better-auth's
 *   revokeSessionsOnPasswordReset), and the security activity says so. Two-factor sign-in
 *   stays as it was, and the Friends & Family Passcode is not asked: it is asked at the
 *   next sign-in, as always.
 * - Passkeys do not end with the sessions: the reset page lists them (POST
 *   /reset-password/passkeys, the link's token is the proof) and the reset removes those
 *   the person chose, or all of them (`removePasskeys`), so that one added by whoever had
 *   the account goes with the reset (decision 0048).
 */
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import {
  EMAIL_NOT_SET_UP_MESSAGE,
  PASSWORD_RESET_LINK_MINUTES,
  RESET_LINK_INVALID_MESSAGE,
  RESET_LINK_SENT_MESSAGE,
  passwordResetSchema,
  resetPasskeysRequestSchema,
  type PasswordResetResult,
} from '../../shared/account-recovery';
import { passkeysOf, removePasskeys, userIdByEmail } from '../account/account-repository';
import { badRequest, inAuthFlow } from '../http/errors';
import { firstIssue } from '../http/validation';
import { currentAuthRequest } from './auth-request-context';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import type { Logger } from '../logger';
import type { MailOutbox } from '../mail/mail-queue';
import { emailOf } from './credential-limits';
import { resetLinkMaking } from './reset-link-context';

/** better-auth keeps reset tokens hashed; its other short-lived values as they are. */
export const RESET_TOKEN_STORAGE = {
  default: 'plain',
  overrides: { 'reset-password:': 'hashed' },
} as const;

/** The reset options of better-auth's emailAndPassword. */
export function passwordResetOptions(db: Kysely<DB>, logger: Logger) {
  return {
    resetPasswordTokenExpiresIn: PASSWORD_RESET_LINK_MINUTES * 60,
    revokeSessionsOnPasswordReset: true,
    // Called only inside the sender's own call (makeResetLink, password-reset-mail.ts): the token goes to the mail.
    sendResetPassword: async (data: {
      user: { id: string; name: string; email: string };
      token: string;
    }) => {
      const making = resetLinkMaking.getStore();
      if (!making) {
        logger.error('a reset token was made outside the mail queue; it is not sent');
        return;
      }
      making.user = data.user;
      making.token = data.token;
    },
    onPasswordReset: async ({ user }: { user: { id: string } }, request?: Request) => {
      await recordAuditEventOrLog(db, logger, request?.headers, {
        event: 'password_reset',
        userId: user.id,
      });
    },
  };
}

type MiddlewareContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** What a reset under way will do to passkeys, beside its request (see the hooks). */
const passkeyRemovals = new WeakMap<object, { userId: string; ids: string[] | 'all' }>();

/** The account a reset link's token is for, while it is valid; null otherwise. */
async function accountOfToken(ctx: MiddlewareContext, token: string): Promise<string | null> {
  const row = await ctx.context.internalAdapter.findVerificationValue(`reset-password:${token}`);
  return row && row.expiresAt > new Date() ? row.value : null;
}

export function passwordReset(options: { db: Kysely<DB>; outbox: MailOutbox; logger: Logger }) {
  const { db, outbox, logger } = options;

  /** A link that is wrong, used or expired: audited, and answered as one message. */
  const refuseLink = async (ctx: MiddlewareContext): Promise<never> => {
    await recordAuditEventOrLog(db, logger, ctx.headers ?? ctx.request?.headers, {
      event: 'verification_failed',
      detail: 'password-reset',
    });
    throw new APIError('BAD_REQUEST', {
      message: RESET_LINK_INVALID_MESSAGE,
      code: 'INVALID_TOKEN',
      field: 'token',
    });
  };

  return {
    id: 'kin-password-reset',
    endpoints: {
      /** The passkeys of the account a reset link is for, for the reset page to offer. */
      resetPasswordPasskeys: createAuthEndpoint(
        '/reset-password/passkeys',
        { method: 'POST' },
        async (ctx) => {
          const parsed = resetPasskeysRequestSchema.safeParse(ctx.body);
          if (!parsed.success) {
            const issue = firstIssue(parsed.error);
            throw inAuthFlow(badRequest(issue.message, issue.field));
          }
          const userId = await accountOfToken(ctx, parsed.data.token);
          if (!userId) return refuseLink(ctx);
          return ctx.json({ passkeys: await passkeysOf(db, userId) });
        },
      ),
    },
    hooks: {
      before: [
        {
          matcher: (context) => context.path === '/request-password-reset',
          handler: createAuthMiddleware(async (ctx) => {
            // The sender making the link of a request already queued: better-auth goes on.
            if (resetLinkMaking.getStore()) return;
            if (!outbox.enabled) {
              throw new APIError('SERVICE_UNAVAILABLE', { message: EMAIL_NOT_SET_UP_MESSAGE });
            }
            const email = emailOf(ctx.body) ?? '';
            const userId = await userIdByEmail(db, email);
            await recordAuditEventOrLog(db, logger, ctx.headers ?? ctx.request?.headers, {
              event: 'password_reset_requested',
              userId,
              email,
            });
            await outbox.enqueue({
              to: email,
              template: 'password-reset',
              // Made when the mail is sent (resetMailPreparer, password-reset-mail.ts).
              params: { name: '', link: '' },
              userId,
            });
            return ctx.json({ status: true, message: RESET_LINK_SENT_MESSAGE });
          }),
        },
        {
          // Which passkeys go with the reset, known before the token is used up.
          matcher: (context) => context.path === '/reset-password',
          handler: createAuthMiddleware(async (ctx) => {
            const parsed = passwordResetSchema.safeParse(ctx.body);
            const request = currentAuthRequest();
            const ids = parsed.success ? parsed.data.removePasskeys : undefined;
            if (!ids || !request || !parsed.success) return;
            const userId = await accountOfToken(ctx, parsed.data.token);
            if (userId) passkeyRemovals.set(request, { userId, ids });
          }),
        },
      ],
      after: [
        {
          matcher: (context) => context.path === '/reset-password',
          handler: createAuthMiddleware(async (ctx) => {
            const returned: unknown = ctx.context.returned;
            if (!isAPIError(returned)) {
              // The reset is done: the passkeys chosen with it go too.
              const request = currentAuthRequest();
              const removal = request ? passkeyRemovals.get(request) : undefined;
              const removed = removal
                ? await removePasskeys(db, removal.userId, {
                    ids: removal.ids,
                    why: 'password reset',
                    headers: ctx.headers ?? ctx.request?.headers,
                  })
                : 0;
              return ctx.json({
                status: true,
                passkeys_removed: removed,
              } satisfies PasswordResetResult);
            }
            const code = (returned.body as { code?: string } | undefined)?.code;
            if (code !== 'INVALID_TOKEN') return;
            await refuseLink(ctx);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
