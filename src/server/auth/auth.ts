/**
 * Accounts and sessions (better-auth), with the Friends & Family Passcode enforced by the
 * server: a sign-up with the wrong passcode creates nothing, and a sign-in with the wrong
 * passcode issues no session. The passcode is kept hashed on the user.
 */
import { timingSafeEqual } from 'node:crypto';
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import { signInSchema, signUpSchema } from '../../shared/auth';
import { APP_NAME, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../shared/constants';
import { INVALID_PASSCODE_MESSAGE, PASSCODE_FORMAT_MESSAGE } from '../../shared/passcode';
import type { AppConfig } from '../config';
import type { DB, Engine } from '../db/schema';
import type { Logger } from '../logger';
import { firstIssue } from '../http/validation';
import { currentPasscode } from './credential-context';
import { hashSecret, verifySecret } from './password-hashing';

/** The header the server sets from the socket (or a trusted proxy) for rate limits. */
export const CLIENT_IP_HEADER = 'x-kin-client-ip';

const SESSION_DAYS = 30;

function samePasscode(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function badRequest(message: string, field?: string): APIError {
  return new APIError('BAD_REQUEST', { message, ...(field ? { field } : {}) });
}

export function createAuth(options: {
  db: Kysely<DB>;
  engine: Engine;
  config: AppConfig;
  logger: Logger;
}) {
  const { db, engine, config, logger } = options;
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
      password: { hash: hashSecret, verify: verifySecret },
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
    },
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
        if (ctx.path === '/sign-up/email') {
          const parsed = signUpSchema.safeParse(ctx.body);
          if (!parsed.success) {
            const issue = firstIssue(parsed.error);
            throw badRequest(issue.message, issue.field);
          }
          if (!samePasscode(parsed.data.passcode, config.familyPasscode)) {
            throw new APIError('FORBIDDEN', {
              message: INVALID_PASSCODE_MESSAGE,
              field: 'passcode',
            });
          }
        }
        if (ctx.path === '/sign-in/email') {
          const parsed = signInSchema.safeParse(ctx.body);
          if (!parsed.success) {
            const issue = firstIssue(parsed.error);
            throw badRequest(issue.message, issue.field);
          }
        }
      }),
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            const passcode = currentPasscode();
            if (passcode === null) throw badRequest(PASSCODE_FORMAT_MESSAGE, 'passcode');
            return { data: { ...user, familyPasscode: await hashSecret(passcode) } };
          },
        },
      },
      session: {
        create: {
          // Runs after the password has been verified and before a session exists.
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
              (await verifySecret({ hash: stored, password: passcode }));
            if (!matches) {
              throw new APIError('UNAUTHORIZED', {
                message: INVALID_PASSCODE_MESSAGE,
                field: 'passcode',
              });
            }
          },
        },
      },
    },
  } satisfies BetterAuthOptions;

  return betterAuth(authOptions);
}

export type Auth = ReturnType<typeof createAuth>;
