/**
 * Attempts at a password, passcode or code, counted per account (or per email, before an
 * account is known), whichever addresses they come from. better-auth limits each address;
 * a guesser with many addresses is stopped here. A refused attempt never reaches the check
 * itself, and is written to the audit log.
 *
 * It comes first among the plugins: a refused attempt must not claim an authenticator code
 * (used-codes) or count as a wrong one.
 *
 * A device that has signed in before is not counted against its email: every sign-in
 * leaves a long-lived signed cookie naming (by a keyed hash) the accounts signed in on it,
 * and the sign-ins of the account's known devices are counted on their own. So wrong
 * sign-ins from elsewhere, by someone who only knows the email, cannot lock its owner out
 * of the devices they use; a stolen device guesses no faster than the limit either.
 */
import { createHmac } from 'node:crypto';
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
import { madeAccountBySingleSignOn } from './single-sign-on';
import { describeUserAgent } from '../../shared/user-agent';
import { firstName } from '../../shared/names';
import type { MailOutbox } from '../mail/mail-queue';

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

/** The cookie that marks a device as having signed in before, and how long it lasts. */
const KNOWN_DEVICE_COOKIE = 'known_device';
const KNOWN_DEVICE_SECONDS = 365 * 24 * 60 * 60;
/** The most accounts one device remembers (a family sharing a laptop). */
const KNOWN_DEVICE_ACCOUNTS = 5;
/** The paths whose new session marks the device. */
const SIGN_IN_PATHS = new Set([
  '/sign-in/email',
  '/sign-up/email',
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
  // A passkey is both factors at once (passkeys.ts).
  '/passkey/verify-authentication',
  // Single sign-on (single-sign-on.ts): the provider's return, and the steps of a first one.
  '/callback/:id',
  '/sso/finish-sign-up',
  '/sso/link',
]);

/** The paths whose new session is an account's first: the device is known, not told of. */
const SIGN_UP_PATHS = new Set(['/sign-up/email', '/sso/finish-sign-up']);

interface KnownAccount {
  /** The email, as a keyed hash: the cookie names no one. */
  tag: string;
  /** When the device signed in as it, in seconds. */
  since: number;
}

function accountTag(secret: string, email: string): string {
  return createHmac('sha256', secret)
    .update(`known-device\0${email.trim().toLowerCase()}`)
    .digest('base64url')
    .slice(0, 22);
}

function knownDeviceCookie(ctx: MiddlewareContext) {
  return ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE, { maxAge: KNOWN_DEVICE_SECONDS });
}

/** The accounts the request's device has signed in as, from its signed cookie. */
async function knownAccounts(ctx: MiddlewareContext): Promise<KnownAccount[]> {
  const value = await ctx.getSignedCookie(knownDeviceCookie(ctx).name, ctx.context.secret);
  if (!value) return [];
  const oldest = Math.floor(Date.now() / 1000) - KNOWN_DEVICE_SECONDS;
  return value
    .split('~')
    .map((entry) => {
      const [tag = '', since = ''] = entry.split(':');
      return { tag, since: Number(since) };
    })
    .filter((entry) => entry.tag && Number.isSafeInteger(entry.since) && entry.since > oldest)
    .slice(0, KNOWN_DEVICE_ACCOUNTS);
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
  /** Where the notice of a sign-in from a new device is queued. */
  outbox?: MailOutbox;
}) {
  const { db, limits, logger, outbox } = options;

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
            // A device that signed in as this email before has its own count.
            const tag =
              email && action === 'sign-in' ? accountTag(ctx.context.secret, email) : null;
            const known = tag
              ? (await knownAccounts(ctx)).find((account) => account.tag === tag)
              : undefined;
            const scope = known ? 'known-device' : against;
            const decision = await limits.consume({ scope, subject, action });
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
      after: [
        {
          matcher: (context) => SIGN_IN_PATHS.has(context.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const user = ctx.context.newSession?.user as
              | { id: string; email: string; name: string; twoFactorEnabled?: boolean | null }
              | undefined;
            if (!user?.email) return;
            // A password that only opens the second-factor challenge is no sign-in yet: the
            // code that completes it marks the device (and tells of a new one).
            if (ctx.path === '/sign-in/email' && user.twoFactorEnabled) return;
            const tag = accountTag(ctx.context.secret, user.email);
            const known = await knownAccounts(ctx);
            // A sign-in (not the sign-up) on a device that has not signed in as the account
            // before: the account holder is told, by mail.
            const signedUp = SIGN_UP_PATHS.has(ctx.path) || madeAccountBySingleSignOn();
            if (!signedUp && !known.some((account) => account.tag === tag)) {
              await outbox?.enqueue({
                to: user.email,
                template: 'new-sign-in',
                params: {
                  name: firstName(user.name),
                  device: describeUserAgent(ctx.headers?.get('user-agent')),
                  time: new Date().toISOString(),
                },
                userId: user.id,
              });
            }
            const accounts = [
              { tag, since: Math.floor(Date.now() / 1000) },
              ...known.filter((account) => account.tag !== tag),
            ].slice(0, KNOWN_DEVICE_ACCOUNTS);
            const cookie = knownDeviceCookie(ctx);
            await ctx.setSignedCookie(
              cookie.name,
              accounts.map((account) => `${account.tag}:${account.since}`).join('~'),
              ctx.context.secret,
              cookie.attributes,
            );
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
