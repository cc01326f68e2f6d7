/**
 * Changing the email address in Profile Settings, on better-auth's /change-email (decision
 * 0029): the new address gets a link (better-auth's signed, one-hour token, by the mail
 * queue) and the change takes effect only when it is followed (/verify-email); the old
 * address is told at once, and both are told when it is done. An address another account
 * has is answered the same, and no link is sent. Without mail, the change is refused with a
 * message that says so.
 *
 * A browser does not reach /change-email: the product's POST /api/account/email asks a
 * fresh proof first and then calls it (decision 0048), so a copied session alone cannot
 * send the account's reset links elsewhere.
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

/** The addresses a followed change link moved the account between (its token, verified). */
function changeOfToken(token: unknown): { oldEmail: string; newEmail: string } | null {
  if (typeof token !== 'string') return null;
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      email?: unknown;
      updateTo?: unknown;
    };
    return typeof payload.email === 'string' && typeof payload.updateTo === 'string'
      ? { oldEmail: payload.email, newEmail: payload.updateTo }
      : null;
  } catch {
    return null;
  }
}

/**
 * Once a followed link has changed the address (better-auth verified its token first): the
 * old address and the new one are both told, with the change in the audit log.
 */
export async function noteEmailChanged(options: {
  db: Kysely<DB>;
  outbox: MailOutbox;
  logger: Logger;
  headers: Headers | undefined;
  user: { id: string; name: string; email: string };
  token: unknown;
}) {
  const { db, outbox, logger, headers, user } = options;
  await recordAuditEventOrLog(db, logger, headers, {
    event: 'email_changed',
    userId: user.id,
    detail: user.email,
  });
  const change = changeOfToken(options.token);
  if (!change || change.newEmail !== user.email) return;
  const params = { name: firstName(user.name), ...change };
  for (const to of [change.oldEmail, change.newEmail]) {
    await outbox.enqueue({ to, template: 'email-changed', params, userId: user.id });
  }
}
