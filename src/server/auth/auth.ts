/**
 * Accounts and sessions (better-auth), with the Friends & Family Passcode enforced by the
 * server: a sign-up with the wrong passcode creates nothing, and a sign-in with the wrong
 * passcode issues no session. The passcode is kept hashed on the user, with the same
 * hasher as passwords.
 *
 * Plugins: two-factor sign-in with an authenticator app (TOTP) and backup codes, signing
 * keys published as a JWKS, and the security audit log.
 */
import { timingSafeEqual } from 'node:crypto';
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { jwt, twoFactor } from 'better-auth/plugins';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { signInSchema, signUpSchema } from '../../shared/auth';
import { APP_NAME, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../shared/constants';
import { INVALID_PASSCODE_MESSAGE, PASSCODE_FORMAT_MESSAGE } from '../../shared/passcode';
import {
  passwordConfirmationSchema,
  verifyAuthenticationCodeSchema,
  verifyBackupCodeSchema,
} from '../../shared/security';
import { securityAudit } from '../audit/audit-plugin';
import type { AppConfig } from '../config';
import type { DB, Engine } from '../db/schema';
import { CLIENT_IP_HEADER } from '../http/client-ip';
import type { Logger } from '../logger';
import { firstIssue } from '../http/validation';
import { currentPasscode } from './auth-request-context';
import { isDatabaseUnavailable } from '../http/errors';
import { createPasswordHasher, type PasswordHasher } from './password-hashing';
import { usedCodes } from './used-codes';

const SESSION_DAYS = 30;

/**
 * What each credential request must carry, checked before better-auth sees it, so that a
 * bad one is a 400 naming the field rather than better-auth's generic refusal.
 */
const requestSchemas: Record<string, z.ZodType> = {
  '/sign-up/email': signUpSchema,
  '/sign-in/email': signInSchema,
  '/two-factor/enable': passwordConfirmationSchema,
  '/two-factor/disable': passwordConfirmationSchema,
  '/two-factor/verify-totp': verifyAuthenticationCodeSchema,
  '/two-factor/verify-backup-code': verifyBackupCodeSchema,
};

function samePasscode(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function badRequest(message: string, field?: string): APIError {
  return new APIError('BAD_REQUEST', { message, ...(field ? { field } : {}) });
}

/** Replaces a weak stored hash once its secret has just been proven right. */
async function upgradeWeakHashes(
  db: Kysely<DB>,
  hasher: PasswordHasher,
  userId: string,
  proven: { passcode: string; storedPasscode: string; password: unknown },
) {
  if (hasher.needsRehash(proven.storedPasscode)) {
    await db
      .updateTable('user')
      .set({ family_passcode: await hasher.hash(proven.passcode) })
      .where('id', '=', userId)
      .execute();
  }
  if (typeof proven.password !== 'string') return;
  const account = await db
    .selectFrom('account')
    .select(['id', 'password'])
    .where('userId', '=', userId)
    .where('providerId', '=', 'credential')
    .executeTakeFirst();
  if (account?.password && hasher.needsRehash(account.password)) {
    await db
      .updateTable('account')
      .set({ password: await hasher.hash(proven.password) })
      .where('id', '=', account.id)
      .execute();
  }
}

export function createAuth(options: {
  db: Kysely<DB>;
  engine: Engine;
  config: AppConfig;
  logger: Logger;
}) {
  const { db, engine, config, logger } = options;
  const hasher = createPasswordHasher(config.passwordHashing);
  const limit = config.rateLimit;
  const credentialRule = limit ? { window: limit.windowSeconds, max: limit.max } : undefined;

  const authOptions = {
    appName: APP_NAME,
    basePath: '/api/auth',
    baseURL: config.baseUrl ?? {
      allowedHosts: ['*'],
      ...(config.trustProxy ? {} : { protocol: 'http' as const }),
    },
    secret: config.authSecret,
    database: { db, type: engine },
    telemetry: { enabled: false },
    logger: {
      level: 'error',
      log: (level, message) => {
        if (level === 'error') logger.error({ source: 'auth' }, message);
      },
    },
    onAPIError: {
      // Refused credentials are answers, not faults; only real failures are logged.
      onError: (error) => {
        if (isDatabaseUnavailable(error)) return;
        if (!isAPIError(error) || error.status === 'INTERNAL_SERVER_ERROR') {
          logger.error({ source: 'auth', err: error }, 'auth request failed');
        }
      },
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      password: { hash: hasher.hash, verify: hasher.verify },
    },
    user: {
      additionalFields: {
        familyPasscode: {
          type: 'string',
          required: false,
          input: false,
          returned: false,
          fieldName: 'family_passcode',
        },
      },
    },
    session: {
      expiresIn: SESSION_DAYS * 24 * 60 * 60,
      // Sliding sessions: used at least once a day, a session renews itself.
      updateAge: 24 * 60 * 60,
      // better-auth would refuse to list the sessions of anyone who signed in more than a
      // day ago. Listing one's own devices is not a sensitive change; every change here
      // that is (two-factor on or off, the password) asks for the password instead.
      freshAge: 0,
    },
    // The settings screen lists and revokes sessions through /api/sessions, by id; these
    // routes would hand every device's session token to the page's scripts, or take one.
    disabledPaths: ['/list-sessions', '/revoke-session', '/revoke-sessions'],
    plugins: [
      twoFactor({ issuer: APP_NAME }),
      // Before the audit plugin: a code used twice never reaches better-auth's check.
      usedCodes({ db, secret: config.authSecret, logger }),
      // Signing keys, published at /.well-known/jwks.json. No JWT rides along on every
      // session read: the session stays in its httpOnly cookie, out of scripts' reach.
      jwt({ disableSettingJwtHeader: true }),
      // After the two-factor plugin: see the module's header.
      securityAudit({ db, logger }),
    ],
    rateLimit: credentialRule
      ? {
          enabled: true,
          storage: 'database',
          window: credentialRule.window,
          max: credentialRule.max,
          // Only the endpoints that check credentials are limited per address: a
          // household shares one address, and reading a session must never be refused.
          customRules: {
            '/sign-in/*': credentialRule,
            '/sign-up/*': credentialRule,
            '/two-factor/*': credentialRule,
            '/change-password': credentialRule,
            '/**': false,
          },
        }
      : { enabled: false },
    advanced: {
      cookiePrefix: 'kin',
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      trustedProxyHeaders: config.trustProxy,
      ...(config.baseUrl ? { useSecureCookies: config.baseUrl.startsWith('https://') } : {}),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const schema = requestSchemas[ctx.path];
        if (!schema) return;
        const parsed = schema.safeParse(ctx.body);
        if (!parsed.success) {
          const issue = firstIssue(parsed.error);
          throw badRequest(issue.message, issue.field);
        }
        if (
          ctx.path === '/sign-up/email' &&
          !samePasscode((parsed.data as { passcode: string }).passcode, config.familyPasscode)
        ) {
          throw new APIError('FORBIDDEN', {
            message: INVALID_PASSCODE_MESSAGE,
            field: 'passcode',
          });
        }
      }),
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            const passcode = currentPasscode();
            if (passcode === null) throw badRequest(PASSCODE_FORMAT_MESSAGE, 'passcode');
            return { data: { ...user, familyPasscode: await hasher.hash(passcode) } };
          },
        },
      },
      session: {
        create: {
          // Runs after the password has been verified and before a session exists. Only
          // the password step checks the passcode: the session that the second factor
          // creates later (/two-factor/verify-*) comes from a challenge that only a
          // passcode-checked sign-in can start.
          before: async (session, ctx) => {
            if (ctx?.path !== '/sign-in/email') return;
            const passcode = currentPasscode();
            const row = await db
              .selectFrom('user')
              .select('family_passcode')
              .where('id', '=', session.userId)
              .executeTakeFirst();
            const stored = row?.family_passcode ?? null;
            const matches =
              passcode !== null &&
              stored !== null &&
              (await hasher.verify({ hash: stored, password: passcode }));
            if (!matches) {
              throw new APIError('UNAUTHORIZED', {
                message: INVALID_PASSCODE_MESSAGE,
                field: 'passcode',
              });
            }
            await upgradeWeakHashes(db, hasher, session.userId, {
              passcode,
              storedPasscode: stored,
              password: (ctx.body as { password?: unknown } | undefined)?.password,
            });
          },
        },
      },
    },
  } satisfies BetterAuthOptions;

  return betterAuth(authOptions);
}

export type Auth = ReturnType<typeof createAuth>;
