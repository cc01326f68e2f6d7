/**
 * Accounts and sessions (better-auth), with the Friends & Family Passcode enforced by the
 * server: a sign-up with the wrong passcode creates nothing, and a sign-in with the wrong
 * passcode issues no session. Both check the server's one passcode, kept hashed in the
 * database (family-passcode.ts), so that a new one holds for everyone at once.
 *
 * Plugins: two-factor sign-in with an authenticator app (TOTP) and backup codes, signing
 * keys published as a JWKS, the undoing of a sign-in or sign-up whose passcode changed
 * while it was under way, and the security audit log.
 */
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { jwt, twoFactor } from 'better-auth/plugins';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { signInSchema, signUpSchema } from '../../shared/auth';
import { passwordStrength } from '../../shared/password-strength';
import { text } from '../../shared/records/fields';
import { APP_NAME, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../shared/constants';
import { INVALID_PASSCODE_MESSAGE, PASSCODE_FORMAT_MESSAGE } from '../../shared/passcode';
import {
  passwordConfirmationSchema,
  verifyAuthenticationCodeSchema,
  verifyBackupCodeSchema,
} from '../../shared/account-security';
import { deleteOwned, ownedRows, updateOwned } from '../access/scope';
import { securityAudit } from '../audit/audit-plugin';
import type { AppConfig } from '../config';
import type { DB, Engine } from '../db/schema';
import { CLIENT_IP_HEADER } from '../http/client-ip';
import type { Logger } from '../logger';
import { firstIssue } from '../http/validation';
import { checkedPasscodeHash, notePasscodeChecked } from './auth-request-context';
import { badRequest, inAuthFlow, isDatabaseUnavailable } from '../http/errors';
import { createAttemptLimits } from '../limits/attempt-limits';
import { recordAuditEventOrLog } from '../audit/audit-log';
import { userIdByEmail } from '../account/account-repository';
import { backupCodeOptions } from './backup-codes';
import { credentialLimits, emailOf } from './credential-limits';
import { matchFamilyPasscode, passcodeVersion } from './family-passcode';
import { passcodeGuessLimit } from './passcode-guesses';
import { passcodeStillCurrent } from './passcode-still-current';
import { createPasswordHasher, type PasswordHasher } from './password-hashing';
import { sessionLifetime } from './session-lifetime';
import { usedCodes } from './used-codes';
import {
  passwordChangeSchema,
  emailChangeSchema,
  passwordResetRequestSchema,
  passwordResetSchema,
} from '../../shared/account-recovery';
import { passwordChange } from './password-change';
import { createMailOutbox, type MailOutbox } from '../mail/mail-queue';
import {
  emailChange,
  emailChangeOptions,
  EMAIL_VERIFIED_PATH,
  noteEmailChanged,
} from './email-change';
import { passwordReset, passwordResetOptions, RESET_TOKEN_STORAGE } from './password-reset';
import { passkeyPlugins } from './passkeys';
import { isSingleSignOnCallback, singleSignOn, SSO_PENDING_STORAGE } from './single-sign-on';
import { tr } from '../../shared/i18n/translate';

/** A session used at least once a day renews itself, up to its absolute lifetime. */
const SESSION_DAYS = 30;

/**
 * Requests per address to any other auth endpoint (reading the session, signing out) while
 * limits are on: far above what a household sharing one address does, far below a flood.
 */
export const DEFAULT_AUTH_RULE = { window: 60, max: 300 };

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
  // Password reset by email (password-reset.ts).
  '/request-password-reset': passwordResetRequestSchema,
  '/reset-password': passwordResetSchema,
  // Changing the password in Profile Settings (password-change.ts).
  '/change-password': passwordChangeSchema,
  // Changing the email address in Profile Settings (email-change.ts).
  '/change-email': emailChangeSchema,
};

const fullName = text('Full Name', { required: true }).schema;

/** What better-auth may write to a user row, on creation and on a change. */
const WRITABLE_USER_FIELDS = {
  create: new Set([
    'id',
    'name',
    'email',
    'emailVerified',
    'createdAt',
    'updatedAt',
    'image',
    'twoFactorEnabled',
  ]),
  update: new Set(['name', 'twoFactorEnabled', 'updatedAt']),
  /** Only the followed link of an email change writes the address. */
  emailVerified: new Set(['name', 'twoFactorEnabled', 'updatedAt', 'email', 'emailVerified']),
  /** A single sign-on whose provider verified the account's very email marks it verified. */
  singleSignOn: new Set(['name', 'twoFactorEnabled', 'updatedAt', 'emailVerified']),
};

/**
 * Every path that writes a user (sign-up, a profile change, a server-side call) keeps the
 * Full Name field's rules, and no field the product does not use is written.
 */
function checkUserFields(fields: Record<string, unknown>, when: keyof typeof WRITABLE_USER_FIELDS) {
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined || (when === 'create' && field === 'image' && value === null)) continue;
    if (!WRITABLE_USER_FIELDS[when].has(field) || field === 'image') {
      throw inAuthFlow(badRequest(tr('{field} cannot be set', { field }), field));
    }
  }
  if (fields.name !== undefined) {
    const parsed = fullName.safeParse(fields.name);
    if (!parsed.success) throw inAuthFlow(badRequest(firstIssue(parsed.error).message, 'name'));
  }
}

/**
 * Once the passcode and password of a sign-in are proven right: the account has passed this
 * passcode (its passkeys and single sign-on work again after a change, decision 0048), and
 * a weak password hash is replaced.
 */
async function refreshStoredHashes(
  db: Kysely<DB>,
  hasher: PasswordHasher,
  userId: string,
  proven: { passcodeHash: string; storedVersion: string | null; password: unknown },
) {
  const version = passcodeVersion(proven.passcodeHash);
  if (proven.storedVersion !== version) {
    await updateOwned(db, 'user', userId).set({ passcode_version: version }).execute();
  }
  if (typeof proven.password !== 'string') return;
  const account = await ownedRows(db, 'account', userId)
    .select(['id', 'password'])
    .where('providerId', '=', 'credential')
    .executeTakeFirst();
  if (account?.password && hasher.needsRehash(account.password)) {
    await updateOwned(db, 'account', userId)
      .set({ password: await hasher.hash(proven.password) })
      .where('id', '=', account.id)
      .execute();
  }
}

/** What the hooks below share: the database, the log, and the parts createAuth makes once. */
interface AuthParts {
  db: Kysely<DB>;
  logger: Logger;
  outbox: MailOutbox;
  hasher: PasswordHasher;
  passcodeGuesses: ReturnType<typeof passcodeGuessLimit>;
  lifetime: ReturnType<typeof sessionLifetime>;
  sso: ReturnType<typeof singleSignOn>;
}

type MiddlewareContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
type DatabaseHooks = NonNullable<BetterAuthOptions['databaseHooks']>;

/** better-auth's own log and its API errors, into the server's log. */
function authLogging(logger: Logger): Pick<BetterAuthOptions, 'logger' | 'onAPIError'> {
  return {
    logger: {
      level: 'error',
      log: (level, message) => {
        if (level === 'error') logger.error({ source: 'auth' }, message);
      },
    },
    onAPIError: {
      // Where a single sign-on that failed before its own error page was known (a wrong
      // state) sends the browser: the Sign In tab, which words the `error`.
      errorURL: '/auth',
      // Refused credentials are answers, not faults; only real failures are logged.
      onError: (error) => {
        if (isDatabaseUnavailable(error)) return;
        if (!isAPIError(error) || error.status === 'INTERNAL_SERVER_ERROR') {
          logger.error({ source: 'auth', err: error }, 'auth request failed');
        }
      },
    },
  };
}

/** Per-address limits on the auth endpoints, when limits are on (RATE_LIMIT_*). */
function authRateLimit(limit: AppConfig['rateLimit']): BetterAuthOptions['rateLimit'] {
  const credentialRule = limit ? { window: limit.windowSeconds, max: limit.max } : undefined;
  if (!credentialRule) return { enabled: false };
  return {
    enabled: true,
    storage: 'database',
    // Per address. Every auth endpoint has a limit; those that check a password,
    // passcode or code have the strict one (and a per-account one, in credential-limits.ts).
    window: DEFAULT_AUTH_RULE.window,
    max: DEFAULT_AUTH_RULE.max,
    customRules: {
      '/sign-in/*': credentialRule,
      '/sign-up/*': credentialRule,
      '/two-factor/*': credentialRule,
      // Password reset by email (password-reset.ts).
      '/request-password-reset': credentialRule,
      '/reset-password': credentialRule,
      '/reset-password/passkeys': credentialRule,
      '/change-password': credentialRule,
      // Both passkey ceremonies (passkeys.ts).
      '/passkey/*': credentialRule,
      // Single sign-on's passcode and password steps (single-sign-on.ts).
      '/sso/*': credentialRule,
    },
  };
}

/** Cookies, the client's address and proxies. */
function cookieAndAddressOptions(config: AppConfig): BetterAuthOptions['advanced'] {
  return {
    cookiePrefix: 'kin',
    ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    trustedProxyHeaders: config.trustProxy,
    ...(config.baseUrl ? { useSecureCookies: config.baseUrl.startsWith('https://') } : {}),
    defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
  };
}

/**
 * Two-factor sign-in just turned on (a signed-in user's first right code, which
 * better-auth answers with a fresh session): every other session of the account
 * ends, so a device signed in by someone else does not keep its way in.
 */
function endOtherSessionsAfterTwoFactor(db: Kysely<DB>) {
  return createAuthMiddleware(async (ctx) => {
    const newSession = ctx.context.newSession?.session;
    if (ctx.path !== '/two-factor/verify-totp' || !ctx.context.session || !newSession) return;
    await deleteOwned(db, 'session', newSession.userId)
      .where('token', '!=', newSession.token)
      .execute();
  });
}

/**
 * Before better-auth sees a credential request: its fields against the request's schema,
 * then, for a sign-up or a sign-in, the Friends & Family Passcode.
 */
function checkCredentialRequest(parts: AuthParts) {
  return createAuthMiddleware(async (ctx) => {
    const schema = requestSchemas[ctx.path];
    if (!schema) return;
    const parsed = schema.safeParse(ctx.body);
    if (!parsed.success) {
      const issue = firstIssue(parsed.error);
      throw inAuthFlow(badRequest(issue.message, issue.field));
    }
    // A backup code goes on as the schema reads it (trimmed, in capitals), an email trimmed.
    if (ctx.path === '/two-factor/verify-backup-code' || ctx.path === '/change-email') {
      return { context: { body: { ...(ctx.body as object), ...(parsed.data as object) } } };
    }
    const signingUp = ctx.path === '/sign-up/email';
    if (!signingUp && ctx.path !== '/sign-in/email') return;
    await requireFamilyPasscode(parts, ctx, signingUp, parsed.data as { passcode: string });
  });
}

/**
 * The passcode before the password: a wrong passcode answers alike, and as fast,
 * whether the password is right or wrong, so it tells nothing about the password.
 */
async function requireFamilyPasscode(
  { db, logger, hasher, passcodeGuesses }: AuthParts,
  ctx: MiddlewareContext,
  signingUp: boolean,
  { passcode }: { passcode: string },
) {
  const passcodeHash = await passcodeGuesses.guarded(ctx.headers ?? ctx.request?.headers, () =>
    matchFamilyPasscode(db, hasher, passcode),
  );
  if (!passcodeHash) {
    const email = emailOf(ctx.body);
    await recordAuditEventOrLog(db, logger, ctx.headers ?? ctx.request?.headers, {
      event: signingUp ? 'sign_up_failed' : 'sign_in_failed',
      userId: signingUp ? null : await userIdByEmail(db, email),
      email,
      detail: 'wrong_passcode',
    });
    throw new APIError(signingUp ? 'FORBIDDEN' : 'UNAUTHORIZED', {
      message: INVALID_PASSCODE_MESSAGE,
      field: 'passcode',
    });
  }
  notePasscodeChecked(passcodeHash);
}

/** A user row's creation and changes: its fields, its passcode, its password, its email. */
function userHooks({ db, outbox, logger, sso }: AuthParts): DatabaseHooks['user'] {
  return {
    create: {
      before: async (user, ctx) => {
        checkUserFields(user, 'create');
        // A single sign-on's new account waits for its passcode (single-sign-on.ts).
        const signedOn = await sso.beforeUserCreate(user, ctx);
        if (signedOn) return signedOn;
        // The passcode the sign-up passed, by its version: never its hash.
        const passcodeHash = checkedPasscodeHash();
        if (passcodeHash === null)
          throw inAuthFlow(badRequest(PASSCODE_FORMAT_MESSAGE, 'passcode'));
        return { data: { ...user, passcodeVersion: passcodeVersion(passcodeHash) } };
      },
      // SPEC's rule alone refuses a password; one of the most common is taken, and
      // remembered, so that Profile Settings can say so.
      after: async (user, ctx) => {
        const password = (ctx?.body as { password?: unknown } | undefined)?.password;
        if (typeof password !== 'string' || !passwordStrength(password).common) return;
        await updateOwned(db, 'user', user.id).set({ password_common: 1 }).execute();
      },
    },
    update: {
      before: async (changes, ctx) => {
        checkUserFields(
          changes,
          ctx?.path === EMAIL_VERIFIED_PATH
            ? 'emailVerified'
            : isSingleSignOnCallback(ctx)
              ? 'singleSignOn'
              : 'update',
        );
      },
      after: async (user, ctx) => {
        if (ctx?.path !== EMAIL_VERIFIED_PATH) return;
        await noteEmailChanged({
          db,
          outbox,
          logger,
          headers: ctx.headers ?? ctx.request?.headers,
          user,
          token: (ctx.query as { token?: unknown } | undefined)?.token,
        });
      },
    },
  };
}

/** A session's start and renewal: the passcode of a sign-in, and the absolute lifetime. */
function sessionHooks(parts: AuthParts): DatabaseHooks['session'] {
  const { lifetime } = parts;
  return {
    create: {
      // Runs after the password has been verified and before a session exists: only a
      // sign-in whose passcode was checked first (the before hook) gets one. The
      // session that the second factor creates later (/two-factor/verify-*) comes from
      // a challenge that only a passcode-checked sign-in can start.
      before: async (session, ctx) => {
        const capped = { data: { ...session, expiresAt: lifetime.cap(session) } };
        // A single sign-on of an account that has not passed the passcode since it
        // changed waits for it (single-sign-on.ts).
        await parts.sso.beforeSessionCreate(session, ctx);
        if (ctx?.path !== '/sign-in/email') return capped;
        await passSignInPasscode(parts, session.userId, ctx.body);
        return capped;
      },
    },
    update: {
      // A renewal slides the expiry forward, never past the absolute lifetime; a session
      // already past it is not renewed, and better-auth signs it out.
      before: async (changes, ctx) => {
        const current = ctx?.context.session?.session;
        if (!changes.expiresAt || !current) return;
        if (lifetime.isOver(current)) return false;
        return { data: { ...changes, expiresAt: lifetime.cap({ ...current, ...changes }) } };
      },
    },
  };
}

/** A password sign-in's session: only with the passcode checked, then the hashes refreshed. */
async function passSignInPasscode({ db, hasher }: AuthParts, userId: string, body: unknown) {
  const passcodeHash = checkedPasscodeHash();
  if (!passcodeHash) {
    throw new APIError('UNAUTHORIZED', {
      message: INVALID_PASSCODE_MESSAGE,
      field: 'passcode',
    });
  }
  const row = await ownedRows(db, 'user', userId).select('passcode_version').executeTakeFirst();
  await refreshStoredHashes(db, hasher, userId, {
    passcodeHash,
    storedVersion: row?.passcode_version ?? null,
    password: (body as { password?: unknown } | undefined)?.password,
  });
}

export function createAuth(options: {
  db: Kysely<DB>;
  engine: Engine;
  config: AppConfig;
  logger: Logger;
  /** Where reset mails are queued (mail/mail-queue.ts); none: mail is not set up. */
  outbox?: MailOutbox;
}) {
  const { db, engine, config, logger } = options;
  const outbox = options.outbox ?? createMailOutbox(db, false);
  const hasher = createPasswordHasher(config.passwordHashing);
  const attemptLimits = createAttemptLimits(db, config.rateLimit);
  const passcodeGuesses = passcodeGuessLimit({ db, limit: config.passcodeGuessLimit, logger });

  const changeEmail = emailChangeOptions(outbox);
  // Single sign-on with the household's identity provider (single-sign-on.ts).
  const sso = singleSignOn({
    db,
    config: config.singleSignOn,
    logger,
    limits: attemptLimits,
    checkPasscode: (headers, passcode) =>
      passcodeGuesses.guarded(headers, () => matchFamilyPasscode(db, hasher, passcode)),
  });
  const parts: AuthParts = {
    db,
    logger,
    outbox,
    hasher,
    passcodeGuesses,
    lifetime: sessionLifetime(config.sessionMaxAgeDays),
    sso,
  };

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
    ...authLogging(logger),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      password: { hash: hasher.hash, verify: hasher.verify },
      // Password reset by email (password-reset.ts).
      ...passwordResetOptions(db, logger),
    },
    // Reset tokens are kept as their hash (password-reset.ts).
    // A single sign-on waiting for its passcode or password, likewise (single-sign-on.ts).
    verification: {
      storeIdentifier: {
        ...RESET_TOKEN_STORAGE,
        overrides: { ...RESET_TOKEN_STORAGE.overrides, ...SSO_PENDING_STORAGE },
      },
    },
    // An existing account is linked to the identity provider only when the provider says the
    // email is verified; single-sign-on.ts then asks for the account's password once.
    account: { accountLinking: { enabled: true, requireLocalEmailVerified: false } },
    // Changing the email address, confirmed by a link to the new one (email-change.ts).
    emailVerification: changeEmail.emailVerification,
    user: {
      ...changeEmail.user,
      additionalFields: {
        // Which passcode the account last passed, never the passcode's hash (decision 0048).
        passcodeVersion: {
          type: 'string',
          required: false,
          input: false,
          returned: false,
          fieldName: 'passcode_version',
        },
      },
    },
    session: {
      expiresIn: SESSION_DAYS * 24 * 60 * 60,
      // Sliding sessions: used at least once a day, a session renews itself.
      updateAge: 24 * 60 * 60,
      // better-auth would refuse to list the sessions of anyone who signed in more than a
      // day ago. Listing one's own devices is not a sensitive change; every change here
      // that is asks for the password instead (two-factor on or off, the password), or the
      // product's fresh proof (a passkey added, the email changed, account/fresh-proof.ts).
      freshAge: 0,
    },
    // The settings screen lists and revokes sessions through /api/sessions, by id; these
    // routes would hand every device's session token to the page's scripts, or take one.
    disabledPaths: ['/list-sessions', '/revoke-session', '/revoke-sessions'],
    plugins: [
      // First: an attempt over its account's limit goes no further.
      credentialLimits({ db, limits: attemptLimits, logger, outbox }),
      twoFactor({ issuer: APP_NAME, backupCodeOptions: backupCodeOptions(config.authSecret) }),
      // Before the audit plugin: a code used twice never reaches better-auth's check.
      usedCodes({ db, secret: config.authSecret, logger }),
      // Signing keys, published at /.well-known/jwks.json. No JWT rides along on every
      // session read: the session stays in its httpOnly cookie, out of scripts' reach.
      jwt({ disableSettingJwtHeader: true }),
      // After the two-factor plugin, before the audit: see the module's header.
      passcodeStillCurrent({ db, engine, logger }),
      // After the two-factor plugin: see the module's header.
      securityAudit({ db, logger }),
      // Password reset by email: after the credential limits, which count its requests.
      passwordReset({ db, outbox, logger }),
      // Changing the password in Profile Settings.
      passwordChange({ db, logger }),
      // Changing the email address in Profile Settings.
      emailChange({ db, outbox, logger }),
      // Signing in with a passkey (passkeys.ts); none with PASSKEYS=off.
      ...passkeyPlugins({ db, engine, config, logger, outbox }),
      // Single sign-on (OIDC_*): the protocol, and the passcode or password it may ask for.
      ...sso.plugins,
    ],
    rateLimit: authRateLimit(config.rateLimit),
    advanced: cookieAndAddressOptions(config),
    hooks: {
      after: endOtherSessionsAfterTwoFactor(db),
      before: checkCredentialRequest(parts),
    },
    databaseHooks: {
      user: userHooks(parts),
      account: {
        create: {
          // A single sign-on's link to an existing account waits for its password.
          before: async (account, ctx) => {
            sso.beforeAccountCreate(account, ctx);
          },
        },
      },
      session: sessionHooks(parts),
    },
  } satisfies BetterAuthOptions;

  return betterAuth(authOptions);
}

export type Auth = ReturnType<typeof createAuth>;
