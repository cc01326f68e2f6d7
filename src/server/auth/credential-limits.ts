/**
 * Attempts at a password, passcode or code, counted per account (or per email, before an
 * account is known), whichever addresses they come from. better-auth limits each address;
 * a guesser with many addresses is stopped here. A refused attempt never reaches the check
 * itself, and is written to the audit log.
 *
 * It comes first among the plugins: a refused attempt must not claim an authenticator code
 * (used-codes) or count as a wrong one.
 */
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import type { Kysely } from 'kysely';
import type { VerificationPurpose } from '../../shared/account-security';
import { userIdByEmail } from '../account/account-repository';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import { TOO_MANY_ATTEMPTS_MESSAGE, type AttemptLimits } from '../limits/attempt-limits';
import type { Logger } from '../logger';
import { challengedUserId } from './two-factor-challenge';
import { isMakingResetLink } from './reset-link-context';

type MiddlewareContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Who the attempts of each credential endpoint are against, and what they try. */
const LIMITED_PATHS: Record<string, { against: 'email' | 'account'; action: VerificationPurpose }> =
  {
    '/sign-in/email': { against: 'email', action: 'sign-in' },
    '/sign-up/email': { against: 'email', action: 'sign-up' },
    '/two-factor/verify-totp': { against: 'account', action: 'two-factor' },
    '/two-factor/verify-backup-code': { against: 'account', action: 'two-factor' },
    '/two-factor/enable': { against: 'account', action: 'password-confirmation' },
    '/two-factor/disable': { against: 'account', action: 'password-confirmation' },
    '/request-password-reset': { against: 'email', action: 'password-reset' },
    '/change-password': { against: 'account', action: 'password-confirmation' },
  };

export function emailOf(body: unknown): string | null {
  const email = (body as { email?: unknown } | null | undefined)?.email;
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : null;
}

/** The signed-in user, or the one answering a second-factor challenge. */
async function accountOf(ctx: MiddlewareContext): Promise<string | null> {
  const session = await getSessionFromCtx(ctx);
  return session?.user.id ?? (await challengedUserId(ctx));
}

export function credentialLimits(options: {
  db: Kysely<DB>;
  limits: AttemptLimits;
  logger: Logger;
}) {
  const { db, limits, logger } = options;

  return {
    id: 'kin-credential-limits',
    hooks: {
      before: [
        {
          // The mail sender's own call of the reset flow was counted as its request.
          matcher: (context) =>
            Object.hasOwn(LIMITED_PATHS, context.path ?? '') && !isMakingResetLink(),
          handler: createAuthMiddleware(async (ctx) => {
            const limited = LIMITED_PATHS[ctx.path];
            if (!limited || !limits.rule) return;
            const { against, action } = limited;
            const email = against === 'email' ? emailOf(ctx.body) : null;
            const userId = against === 'account' ? await accountOf(ctx) : null;
            const subject = email ?? userId;
            // Without an email or an account, better-auth refuses the request itself.
            if (!subject) return;
            const decision = await limits.consume({ scope: against, subject, action });
            if (decision.allowed) return;
            await recordAuditEventOrLog(db, logger, ctx.headers ?? ctx.request?.headers, {
              event: 'too_many_attempts',
              userId: userId ?? (await userIdByEmail(db, email)),
              email,
              detail: action,
            });
            throw new APIError(
              'TOO_MANY_REQUESTS',
              { message: TOO_MANY_ATTEMPTS_MESSAGE },
              { 'Retry-After': String(decision.retryAfterSeconds) },
            );
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
