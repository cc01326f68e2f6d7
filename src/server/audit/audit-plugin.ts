/**
 * The better-auth plugin that writes the security audit log from inside better-auth's own
 * flow, so that every way in (the browser, a script, a server-side `auth.api` call) leaves
 * the same trace:
 *
 * - its after hooks see each credential endpoint's outcome: sign-up, sign-in (done, waiting
 *   for the second factor, or refused and why), the second factor, a signed-in user's
 *   password or code refused;
 * - its database hooks see the changes that matter wherever they happen: a session ended
 *   by sign-out or revoked, two-factor sign-in turned on or off.
 *
 * It must come after the two-factor plugin: after hooks run in plugin order, and only once
 * that plugin has run does a sign-in that still needs its code stop looking like a done one.
 * Writing a row never fails the request it records; a failure to write is logged.
 */
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import { INVALID_PASSCODE_MESSAGE } from '../../shared/passcode';
import type { SignInDetail, VerificationPurpose } from '../../shared/account-security';
import { describeUserAgent } from '../../shared/user-agent';
import type { DB } from '../db/schema';
import type { Logger } from '../logger';
import { challengedUserId } from '../auth/two-factor-challenge';
import { userIdByEmail } from '../account/account-repository';
import { emailOf } from '../auth/credential-limits';
import { recordAuditEventOrLog, type AuditEntry } from './audit-log';

/** The parts of better-auth's endpoint context these hooks read. */
interface EndpointContext {
  path?: string;
  headers?: Headers;
  request?: Request;
  body?: unknown;
}

const SECOND_FACTOR_PATHS: Record<string, SignInDetail> = {
  '/two-factor/verify-totp': 'authenticator_app',
  '/two-factor/verify-backup-code': 'backup_code',
};

const REVOKING_PATHS = new Set(['/revoke-session', '/revoke-other-sessions', '/revoke-sessions']);

/** Where a signed-in user proves their password or a code, and what for. */
const CONFIRMATION_PATHS: Record<string, VerificationPurpose> = {
  '/two-factor/enable': 'two-factor-enable',
  '/two-factor/disable': 'two-factor-disable',
  '/two-factor/verify-totp': 'two-factor-setup',
};

/** better-auth's codes for a wrong password or code (not malformed input). */
const REFUSED_CONFIRMATION_CODES = new Set(['INVALID_PASSWORD', 'INVALID_CODE']);

/** better-auth's error codes for a refused second factor, in the log's words. */
const SECOND_FACTOR_FAILURES: Record<string, SignInDetail> = {
  INVALID_CODE: 'wrong_code',
  INVALID_BACKUP_CODE: 'wrong_backup_code',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'too_many_attempts',
  ACCOUNT_TEMPORARILY_LOCKED: 'locked',
};

function headersOf(ctx: EndpointContext | null | undefined): Headers | undefined {
  return ctx?.headers ?? ctx?.request?.headers;
}

function errorBody(error: unknown): { code?: string; message?: string; field?: string } {
  return ((error as { body?: unknown }).body ?? {}) as {
    code?: string;
    message?: string;
    field?: string;
  };
}

/** What every part of the plugin writes with. */
interface AuditOptions {
  db: Kysely<DB>;
  logger: Logger;
}

/** Who is answering a second-factor challenge, by request, found before better-auth consumes it. */
type PendingSecondFactor = WeakMap<object, string>;

const record = (
  { db, logger }: AuditOptions,
  ctx: EndpointContext | null | undefined,
  entry: AuditEntry,
) => recordAuditEventOrLog(db, logger, headersOf(ctx), entry);

/** A session ended: by signing out, or revoked from the sessions list. */
function noteSessionEnded(options: AuditOptions) {
  return async (
    session: { userId: string; userAgent?: string | null },
    ctx: EndpointContext | null | undefined,
  ) => {
    const path = ctx?.path ?? '';
    if (path === '/sign-out') {
      await record(options, ctx, { event: 'sign_out', userId: session.userId });
    } else if (REVOKING_PATHS.has(path)) {
      await record(options, ctx, {
        event: 'session_revoked',
        userId: session.userId,
        detail: describeUserAgent(session.userAgent),
      });
    }
  };
}

/** Two-factor sign-in turned on or off. */
function noteTwoFactorChanged(options: AuditOptions) {
  return async (user: { id: string }, ctx: EndpointContext | null | undefined) => {
    // better-auth turns the flag on only when a new authenticator app's first
    // code is right, and off only through /two-factor/disable.
    const path = ctx?.path ?? '';
    if (path === '/two-factor/verify-totp') {
      await record(options, ctx, { event: 'two_factor_enabled', userId: user.id });
    } else if (path === '/two-factor/disable') {
      await record(options, ctx, { event: 'two_factor_disabled', userId: user.id });
    }
  };
}

/** Before a second factor is checked: whose challenge it answers. */
function findChallengedUser(pendingSecondFactor: PendingSecondFactor) {
  return createAuthMiddleware(async (ctx) => {
    const key = ctx.request ?? ctx.headers;
    if (!key) return;
    const userId = await challengedUserId(ctx);
    if (userId) pendingSecondFactor.set(key, userId);
  });
}

function noteSignUp(options: AuditOptions) {
  return createAuthMiddleware(async (ctx) => {
    const userId = ctx.context.newSession?.user.id;
    if (userId) await record(options, ctx, { event: 'sign_up', userId });
  });
}

/** A password sign-in: done, waiting for the second factor, or refused and why. */
function noteSignIn(options: AuditOptions) {
  const { db } = options;
  return createAuthMiddleware(async (ctx) => {
    const returned: unknown = ctx.context.returned;
    const email = emailOf(ctx.body);
    if (isAPIError(returned)) {
      const body = errorBody(returned);
      const detail: SignInDetail =
        body.field === 'passcode' || body.message === INVALID_PASSCODE_MESSAGE
          ? 'wrong_passcode'
          : returned.statusCode === 401
            ? 'wrong_password'
            : 'refused';
      // Malformed input never reached the credentials; it is not an attempt.
      if (returned.statusCode === 400 && detail !== 'wrong_passcode') return;
      await record(options, ctx, {
        event: 'sign_in_failed',
        userId: await userIdByEmail(db, email),
        email,
        detail,
      });
      return;
    }
    const session = ctx.context.newSession;
    if (session) {
      await record(options, ctx, { event: 'sign_in', userId: session.user.id, detail: 'password' });
    } else if ((returned as { twoFactorRedirect?: unknown } | null)?.twoFactorRedirect) {
      await record(options, ctx, {
        event: 'sign_in_challenged',
        userId: await userIdByEmail(db, email),
      });
    }
  });
}

/** A second factor answered: the sign-in finished, or refused and why. */
function noteSecondFactor(options: AuditOptions, pendingSecondFactor: PendingSecondFactor) {
  return createAuthMiddleware(async (ctx) => {
    // A signed-in user confirming a new authenticator app is not signing in; the
    // database hook records that two-factor sign-in was turned on.
    if (ctx.context.session?.session) return;
    const key = ctx.request ?? ctx.headers;
    const pendingUserId = key ? (pendingSecondFactor.get(key) ?? null) : null;
    const returned: unknown = ctx.context.returned;
    if (isAPIError(returned)) {
      // Without a challenge there is no account to speak of: nothing was tried.
      if (!pendingUserId) return;
      const code = errorBody(returned).code ?? '';
      await record(options, ctx, {
        event: 'sign_in_failed',
        userId: pendingUserId,
        detail: Object.hasOwn(SECOND_FACTOR_FAILURES, code)
          ? SECOND_FACTOR_FAILURES[code]
          : 'refused',
      });
      return;
    }
    const userId = ctx.context.newSession?.user.id ?? pendingUserId;
    if (userId) {
      await record(options, ctx, {
        event: 'sign_in',
        userId,
        detail: SECOND_FACTOR_PATHS[ctx.path] ?? null,
      });
    }
  });
}

/**
 * A signed-in user's password or code refused: turning two-factor on or off, or
 * confirming a new authenticator app.
 */
function noteRefusedConfirmation(options: AuditOptions) {
  return createAuthMiddleware(async (ctx) => {
    const returned: unknown = ctx.context.returned;
    const user = ctx.context.session?.user as
      { id: string; twoFactorEnabled?: unknown } | undefined;
    if (!user || !isAPIError(returned)) return;
    // A code checked for someone whose two-factor is already on is a proof asked by
    // the product itself (deleting the account), which writes its own row.
    if (ctx.path === '/two-factor/verify-totp' && user.twoFactorEnabled) return;
    const userId = user.id;
    const code = errorBody(returned).code ?? '';
    if (!REFUSED_CONFIRMATION_CODES.has(code)) return;
    await record(options, ctx, {
      event: 'verification_failed',
      userId,
      detail: CONFIRMATION_PATHS[ctx.path] ?? null,
    });
  });
}

const isSecondFactor = (context: { path?: string }) =>
  Object.hasOwn(SECOND_FACTOR_PATHS, context.path ?? '');

export function securityAudit(options: AuditOptions) {
  const pendingSecondFactor: PendingSecondFactor = new WeakMap();
  return {
    id: 'kin-security-audit',
    init() {
      return {
        options: {
          databaseHooks: {
            session: { delete: { after: noteSessionEnded(options) } },
            user: { update: { after: noteTwoFactorChanged(options) } },
          },
        },
      };
    },
    hooks: {
      before: [{ matcher: isSecondFactor, handler: findChallengedUser(pendingSecondFactor) }],
      after: [
        { matcher: (context) => context.path === '/sign-up/email', handler: noteSignUp(options) },
        { matcher: (context) => context.path === '/sign-in/email', handler: noteSignIn(options) },
        { matcher: isSecondFactor, handler: noteSecondFactor(options, pendingSecondFactor) },
        {
          matcher: (context) => Object.hasOwn(CONFIRMATION_PATHS, context.path ?? ''),
          handler: noteRefusedConfirmation(options),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
