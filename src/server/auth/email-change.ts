/**
 * Changing the email address in Profile Settings, on better-auth's /change-email (decision
 * 0029): the new address gets a link (better-auth's signed, one-hour token, by the mail
 * queue) and the change takes effect only when it is followed (/verify-email); the old
 * address is told at once. An address another account has is answered the same, and no
 * link is sent. Without mail, the change is refused with a message that says so.
 */
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import { EMAIL_CHANGE_NOT_SET_UP_MESSAGE } from '../../shared/account-recovery';
import { firstName } from '../../shared/names';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import type { Logger } from '../logger';
import type { MailOutbox } from '../mail/mail-queue';

const PATH = '/change-email';
/** The path that writes the new address; the only one allowed to change a user's email. */
export const EMAIL_VERIFIED_PATH = '/verify-email';

/** better-auth's options for the flow: the confirmation link goes out through the queue. */
export function emailChangeOptions(outbox: MailOutbox) {
  return {
    user: { changeEmail: { enabled: true } },
    emailVerification: {
      sendOnSignUp: false,
      ...(outbox.enabled
        ? {
            sendVerificationEmail: async (data: {
              user: { id: string; email: string; name: string };
              token: string;
            }) => {
              await outbox.enqueue({
                to: data.user.email,
                template: 'email-change',
                params: { name: firstName(data.user.name), token: data.token },
                userId: data.user.id,
              });
            },
          }
        : {}),
    },
  };
}

export function emailChange(options: { db: Kysely<DB>; outbox: MailOutbox; logger: Logger }) {
  const { db, outbox, logger } = options;
  return {
    id: 'kin-email-change',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === PATH,
          handler: createAuthMiddleware(async () => {
            if (!outbox.enabled) {
              throw new APIError('SERVICE_UNAVAILABLE', {
                message: EMAIL_CHANGE_NOT_SET_UP_MESSAGE,
              });
            }
          }),
        },
      ],
      after: [
        {
          matcher: (context) => context.path === PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const user = ctx.context.session?.user;
            if (!user || isAPIError(ctx.context.returned)) return;
            const newEmail = String((ctx.body as { newEmail?: unknown }).newEmail ?? '')
              .trim()
              .toLowerCase();
            await recordAuditEventOrLog(db, logger, ctx.headers ?? ctx.request?.headers, {
              event: 'email_change_requested',
              userId: user.id,
              detail: newEmail,
            });
            await outbox.enqueue({
              to: user.email,
              template: 'email-change-notice',
              params: { name: firstName(user.name), newEmail },
              userId: user.id,
            });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
