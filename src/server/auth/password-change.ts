/**
 * Changing the password in Profile Settings, on better-auth's /change-password: the current
 * password is asked, and every other session of the account ends, always (the server sets
 * `revokeOtherSessions`, whatever the request says). better-auth answers with the new
 * session's token; the token stays in its httpOnly cookie, and the page gets `{ status:
 * true }`. The change, and a wrong current password, are written to the security activity;
 * attempts are limited per address and per account (credential-limits.ts).
 */
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import type { Logger } from '../logger';

const PATH = '/change-password';

export function passwordChange(options: { db: Kysely<DB>; logger: Logger }) {
  const { db, logger } = options;
  return {
    id: 'kin-password-change',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === PATH,
          handler: createAuthMiddleware(async (ctx) => ({
            context: { body: { ...(ctx.body as object), revokeOtherSessions: true } },
          })),
        },
      ],
      after: [
        {
          matcher: (context) => context.path === PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const userId = ctx.context.session?.user.id;
            if (!userId) return;
            const headers = ctx.headers ?? ctx.request?.headers;
            const returned: unknown = ctx.context.returned;
            if (isAPIError(returned)) {
              const code = (returned.body as { code?: string } | undefined)?.code;
              if (code === 'INVALID_PASSWORD') {
                await recordAuditEventOrLog(db, logger, headers, {
                  event: 'verification_failed',
                  userId,
                  detail: 'password-change',
                });
              }
              return;
            }
            await recordAuditEventOrLog(db, logger, headers, { event: 'password_changed', userId });
            return ctx.json({ status: true });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
