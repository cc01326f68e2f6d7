/**
 * Single sign-on with the household's identity provider (OpenID Connect; decision 0035).
 *
 * better-auth's generic OAuth plugin does the protocol: discovery from OIDC_ISSUER, the
 * authorization code flow with PKCE, `state` bound to this browser (a signed cookie) and
 * kept server-side, a `nonce` in the ID token, and the ID token's signature (the provider's
 * JWKS), issuer and audience verified (`requireIdTokenVerification`: without a usable JWKS
 * the provider is not offered at all). A callback that fails any of these sends the browser
 * back to /auth with an `error` the Sign In tab words (shared/single-sign-on.ts).
 *
 * What this module adds is who may come in:
 * - a first sign-in that would create an account creates nothing: the verified identity is
 *   kept for ten minutes (a hashed token in better-auth's verification table, its key in a
 *   signed cookie of this browser) and the Sign In tab asks for the Friends & Family
 *   Passcode, checked as sign-up checks it (POST /sso/finish-sign-up); unless OIDC_TRUSTED,
 *   where the provider alone decides who may have an account;
 * - an existing account with the same email is linked only when the provider says the email
 *   is verified, and once its owner gives the account's password (POST /sso/link);
 * - an identity the provider has not verified the email of gets no new account either;
 * - later sign-ins (the provider's `sub` already linked) go straight in, unless the Friends &
 *   Family Passcode changed since the account last passed it: then the Sign In tab asks for
 *   the new one first, once (decision 0048), as it would for a new account; unless
 *   OIDC_TRUSTED, where the provider alone decides.
 * Each outcome is written to the security audit log.
 */
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, createAuthMiddleware } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { randomBytes } from 'node:crypto';
import { INVALID_PASSCODE_MESSAGE } from '../../shared/passcode';
import {
  finishSingleSignOnSchema,
  linkSingleSignOnSchema,
} from '../../shared/single-sign-on-steps';
import {
  SSO_EMAIL_UNVERIFIED,
  SSO_PASSCODE_CHANGED,
  SSO_PASSCODE_NEEDED,
  SSO_PASSWORD_NEEDED,
  SSO_LINK_PASSCODE_CHANGED_MESSAGE,
  SSO_PENDING_EXPIRED_MESSAGE,
  SSO_PROVIDER_ID,
} from '../../shared/single-sign-on';
import { updateOwned } from '../access/scope';
import { recordAuditEventOrLog, type AuditEntry } from '../audit/audit-log';
import type { SingleSignOnConfig } from '../config';
import type { DB } from '../db/schema';
import { badRequest, inAuthFlow } from '../http/errors';
import { firstIssue } from '../http/validation';
import { TOO_MANY_ATTEMPTS_MESSAGE, type AttemptLimits } from '../limits/attempt-limits';
import type { Logger } from '../logger';
import { currentAuthRequest, notePasscodeChecked } from './auth-request-context';
import { passcodeVersion, passedCurrentPasscode, storedPasscode } from './family-passcode';
import { key, tr } from '../../shared/i18n/translate';

/** better-auth's path of the provider's return to this server. */
const SSO_CALLBACK_PATH = '/callback/:id';
/** Where the browser lands: the app, or the Sign In tab with an `error`. */
const AFTER_SIGN_IN_URL = '/';
const SIGN_IN_PAGE_URL = '/auth';
/** How long a verified identity waits for its passcode or password. */
const PENDING_MINUTES = 10;
const PENDING_COOKIE = 'sso_pending';
const PENDING_PREFIX = 'sso-pending:';
/** better-auth's verification rows for a waiting single sign-on are kept as their hash. */
export const SSO_PENDING_STORAGE = { [PENDING_PREFIX]: 'hashed' } as const;

/** The identity the provider vouched for (its ID token, verified). */
interface VerifiedIdentity {
  sub: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

interface PendingSignOn extends VerifiedIdentity {
  /** A new account, a link to an existing one, or a linked account after a passcode change. */
  kind: 'sign-up' | 'link' | 'passcode';
  /** For a link or a passcode: the existing account. */
  userId?: string;
}

/** The step the Sign In tab shows for each kind of waiting sign-on. */
const STEP_OF_KIND = {
  'sign-up': SSO_PASSCODE_NEEDED,
  link: SSO_PASSWORD_NEEDED,
  passcode: SSO_PASSCODE_CHANGED,
} as const;

/** What the callback learned while better-auth handled it, beside the request. */
interface CallbackState {
  identity?: VerifiedIdentity;
  pending?: PendingSignOn;
  /** Whether this callback is creating an account (OIDC_TRUSTED): its link is made at once. */
  creatingUser?: boolean;
}
const callbacks = new WeakMap<object, CallbackState>();

function callbackState(): CallbackState | null {
  const request = currentAuthRequest();
  if (!request) return null;
  let state = callbacks.get(request);
  if (!state) callbacks.set(request, (state = {}));
  return state;
}

const truthy = (value: unknown) => value === true || value === 'true';

function isCallback(ctx: { path?: string } | null | undefined): boolean {
  return ctx?.path === SSO_CALLBACK_PATH;
}

/** Whether a database hook runs for the identity provider's return. */
export const isSingleSignOnCallback = isCallback;

/** Whether the request under way is a single sign-on that made an account (OIDC_TRUSTED). */
export function madeAccountBySingleSignOn(): boolean {
  return callbackState()?.creatingUser === true;
}

type HookContext = { path?: string; headers?: Headers; request?: Request } | null | undefined;

const headersOf = (ctx: HookContext) => ctx?.headers ?? ctx?.request?.headers;

/** A Full Name from what the provider says, within the field's rules. */
function fullNameOf(identity: VerifiedIdentity): string {
  const name = identity.name.trim() || identity.email.split('@')[0] || identity.email;
  return name.slice(0, 100);
}

export interface SingleSignOnDependencies {
  db: Kysely<DB>;
  config: SingleSignOnConfig | null;
  logger: Logger;
  limits: AttemptLimits;
  /** Checks a passcode as sign-up does (the server-wide guess limit included). */
  checkPasscode: (headers: Headers | undefined, passcode: string) => Promise<string | null>;
}

/** What the parts below share: the dependencies, the provider's name, the audit log. */
interface SignOn extends SingleSignOnDependencies {
  /** The provider's name as the Sign In tab words it ('' when not set up). */
  name: string;
  audit: (ctx: HookContext, entry: AuditEntry) => Promise<void>;
}

/** better-auth's context of an endpoint or a hook of the plugin. */
type AuthContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

// ---- The callback's database hooks: what they hold back, and for what ----

/** Keeps the identity for its next step, and tells the browser (cookie, then /auth). */
function refuseUntil(pending: PendingSignOn): never {
  const state = callbackState();
  if (state) state.pending = pending;
  const code = STEP_OF_KIND[pending.kind];
  throw new APIError('FORBIDDEN', { code, message: code });
}

function verifiedIdentity(): VerifiedIdentity {
  const identity = callbackState()?.identity;
  // Only a callback whose ID token was verified reaches here; anything else makes nothing.
  if (!identity) throw new APIError('FORBIDDEN', { code: 'unable_to_get_user_info' });
  return identity;
}

function refuseUnverifiedEmail(identity: VerifiedIdentity): void {
  if (!identity.emailVerified) {
    throw new APIError('FORBIDDEN', {
      code: SSO_EMAIL_UNVERIFIED,
      message: SSO_EMAIL_UNVERIFIED,
    });
  }
}

/** The user row a callback would create: held back for the passcode (or the trust). */
async function holdNewUser(sso: SignOn, user: Record<string, unknown>) {
  const identity = verifiedIdentity();
  refuseUnverifiedEmail(identity);
  if (!sso.config?.trusted) return refuseUntil({ kind: 'sign-up', ...identity });
  const stored = await storedPasscode(sso.db);
  if (!stored) throw new APIError('FORBIDDEN', { code: 'unable_to_create_user' });
  const state = callbackState();
  if (state) state.creatingUser = true;
  return {
    data: { ...user, name: fullNameOf(identity), passcodeVersion: passcodeVersion(stored.hash) },
  };
}

/**
 * The session a callback would create for a linked account: held back for the new
 * passcode when the account has not passed it since it changed (unless OIDC_TRUSTED).
 */
async function holdSessionForPasscode(sso: SignOn, session: { userId: string }, ctx: HookContext) {
  if (sso.config?.trusted || callbackState()?.creatingUser) return;
  if (await passedCurrentPasscode(sso.db, session.userId)) return;
  const identity = verifiedIdentity();
  await sso.audit(ctx, {
    event: 'sign_in_challenged',
    userId: session.userId,
    detail: 'passcode_changed',
  });
  return refuseUntil({ kind: 'passcode', userId: session.userId, ...identity });
}

/** The link a callback would make to an existing account: held back for its password. */
function holdAccountLink(account: { userId: string; providerId: string }) {
  if (account.providerId !== SSO_PROVIDER_ID) return;
  const state = callbackState();
  if (state?.creatingUser) return;
  const identity = verifiedIdentity();
  // better-auth links only an email the provider verified; this holds it to that.
  refuseUnverifiedEmail(identity);
  return refuseUntil({ kind: 'link', userId: account.userId, ...identity });
}

// ---- The identity waiting in this browser ----

const pendingCookie = (ctx: AuthContext) =>
  ctx.context.createAuthCookie(PENDING_COOKIE, { maxAge: PENDING_MINUTES * 60 });

/** Keeps the identity, hashed, for the passcode or the password of this browser. */
async function keepPending(ctx: AuthContext, pending: PendingSignOn) {
  const token = randomBytes(32).toString('base64url');
  await ctx.context.internalAdapter.createVerificationValue({
    identifier: `${PENDING_PREFIX}${token}`,
    value: JSON.stringify(pending),
    expiresAt: new Date(Date.now() + PENDING_MINUTES * 60 * 1000),
  });
  const cookie = pendingCookie(ctx);
  await ctx.setSignedCookie(cookie.name, token, ctx.context.secret, cookie.attributes);
}

/** The identity waiting in this browser for its next step, or a clear refusal. */
async function takePending(
  sso: SignOn,
  ctx: AuthContext,
  kinds: ReadonlyArray<PendingSignOn['kind']>,
) {
  if (!sso.config) {
    throw new APIError('NOT_FOUND', { message: key('Single sign-on is not set up') });
  }
  const cookie = pendingCookie(ctx);
  const token = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  const row = token
    ? await ctx.context.internalAdapter.findVerificationValue(`${PENDING_PREFIX}${token}`)
    : null;
  const pending =
    row && row.expiresAt > new Date() ? (JSON.parse(row.value) as PendingSignOn) : null;
  if (!row || !pending || !kinds.includes(pending.kind)) {
    throw new APIError('BAD_REQUEST', { message: SSO_PENDING_EXPIRED_MESSAGE(sso.name) });
  }
  const action = pending.kind === 'sign-up' ? 'sign-up' : 'sign-in';
  const decision = await sso.limits.consume({ scope: 'email', subject: pending.email, action });
  if (!decision.allowed) {
    await sso.audit(ctx, {
      event: 'too_many_attempts',
      userId: pending.userId ?? null,
      email: pending.email,
      detail: action,
    });
    throw new APIError(
      'TOO_MANY_REQUESTS',
      { message: TOO_MANY_ATTEMPTS_MESSAGE },
      { 'Retry-After': String(decision.retryAfterSeconds) },
    );
  }
  const done = async () => {
    await ctx.context.internalAdapter.deleteVerificationByIdentifier(`${PENDING_PREFIX}${token}`);
    ctx.setCookie(cookie.name, '', { ...cookie.attributes, maxAge: 0 });
  };
  return { pending, done };
}

type TakenPending = Awaited<ReturnType<typeof takePending>>;

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = firstIssue(result.error);
    throw inAuthFlow(badRequest(issue.message, issue.field));
  }
  return result.data;
}

// ---- The routes: the passcode, the password ----

/**
 * POST /sso/finish-sign-up, the passcode: the first sign-in's account is made, linked and
 * signed in; a linked account that had not passed the new passcode has now, and is signed in.
 */
async function finishWithPasscode(sso: SignOn, ctx: AuthContext) {
  const { passcode } = parsed(finishSingleSignOnSchema, ctx.body);
  const taken = await takePending(sso, ctx, ['sign-up', 'passcode']);
  const { pending } = taken;
  const signingUp = pending.kind === 'sign-up';
  const passcodeHash = await sso.checkPasscode(headersOf(ctx), passcode);
  if (!passcodeHash) {
    await sso.audit(ctx, {
      event: signingUp ? 'sign_up_failed' : 'sign_in_failed',
      userId: pending.userId ?? null,
      email: pending.email,
      detail: 'wrong_passcode',
    });
    throw new APIError(signingUp ? 'FORBIDDEN' : 'UNAUTHORIZED', {
      message: INVALID_PASSCODE_MESSAGE,
      field: 'passcode',
    });
  }
  notePasscodeChecked(passcodeHash);
  if (signingUp) await signUpWithPasscode(sso, ctx, taken);
  else await signInAfterPasscodeChange(sso, ctx, taken, passcodeHash);
  return ctx.json({ ok: true });
}

/** A linked account passes the new passcode, and is signed in. */
async function signInAfterPasscodeChange(
  sso: SignOn,
  ctx: AuthContext,
  { pending, done }: TakenPending,
  passcodeHash: string,
) {
  const adapter = ctx.context.internalAdapter;
  const user = pending.userId ? await adapter.findUserById(pending.userId) : null;
  if (!user) {
    throw new APIError('BAD_REQUEST', { message: SSO_PENDING_EXPIRED_MESSAGE(sso.name) });
  }
  await updateOwned(sso.db, 'user', user.id)
    .set({ passcode_version: passcodeVersion(passcodeHash) })
    .execute();
  const session = await adapter.createSession(user.id);
  await setSessionCookie(ctx, { session, user });
  await done();
  await sso.audit(ctx, { event: 'sign_in', userId: user.id, detail: 'single_sign_on' });
}

/** The first sign-in, its passcode given: the account is made, linked and signed in. */
async function signUpWithPasscode(sso: SignOn, ctx: AuthContext, { pending, done }: TakenPending) {
  const adapter = ctx.context.internalAdapter;
  if (await adapter.findUserByEmail(pending.email)) {
    await done();
    throw new APIError('CONFLICT', {
      message: tr(
        'An account with this email already exists. Sign in with {name} again to link it.',
        { name: sso.name },
      ),
    });
  }
  const user = await adapter.createUser(
    { email: pending.email, name: fullNameOf(pending), emailVerified: true },
    { method: 'oauth', oauth: { providerId: SSO_PROVIDER_ID, profile: {} } },
  );
  await adapter.createAccount({
    userId: user.id,
    providerId: SSO_PROVIDER_ID,
    accountId: pending.sub,
  });
  const session = await adapter.createSession(user.id);
  await setSessionCookie(ctx, { session, user });
  await done();
  await sso.audit(ctx, { event: 'sign_up', userId: user.id, detail: 'single_sign_on' });
}

/** POST /sso/link, the existing account's password, once: linked and signed in. */
async function linkByPassword(sso: SignOn, ctx: AuthContext) {
  const { password } = parsed(linkSingleSignOnSchema, ctx.body);
  const { pending, done } = await takePending(sso, ctx, ['link']);
  const adapter = ctx.context.internalAdapter;
  const userId = pending.userId ?? '';
  const accounts = await adapter.findAccounts(userId);
  const credential = accounts.find((account) => account.providerId === 'credential');
  const right =
    !!credential?.password &&
    (await ctx.context.password.verify({ hash: credential.password, password }));
  if (!right) {
    await sso.audit(ctx, {
      event: 'sign_in_failed',
      userId,
      email: pending.email,
      detail: 'wrong_password',
    });
    throw new APIError('UNAUTHORIZED', { message: key('Wrong password'), field: 'password' });
  }
  const user = await adapter.findUserById(userId);
  if (!user) throw new APIError('BAD_REQUEST', { message: SSO_PENDING_EXPIRED_MESSAGE(sso.name) });
  // The password alone does not pass a passcode that changed since the account did.
  if (!sso.config?.trusted && !(await passedCurrentPasscode(sso.db, userId))) {
    await sso.audit(ctx, {
      event: 'sign_in_failed',
      userId,
      email: pending.email,
      detail: 'passcode_changed',
    });
    throw new APIError('FORBIDDEN', { message: SSO_LINK_PASSCODE_CHANGED_MESSAGE(sso.name) });
  }
  if (!accounts.some((account) => account.providerId === SSO_PROVIDER_ID)) {
    await adapter.createAccount({ userId, providerId: SSO_PROVIDER_ID, accountId: pending.sub });
  }
  const session = await adapter.createSession(userId);
  await setSessionCookie(ctx, { session, user });
  await done();
  await sso.audit(ctx, { event: 'sso_linked', userId, detail: sso.name });
  await sso.audit(ctx, { event: 'sign_in', userId, detail: 'single_sign_on' });
  return ctx.json({ ok: true });
}

// ---- The hooks around better-auth's own routes ----

/**
 * Before /sign-in/social: the browser asks only for the provider; where it lands is the
 * server's choice, and no ID token of the browser's own is taken.
 */
function steerSocialSignIn(sso: SignOn, ctx: AuthContext) {
  const provider = (ctx.body as { provider?: unknown } | undefined)?.provider;
  if (!sso.config || provider !== SSO_PROVIDER_ID) {
    throw new APIError('NOT_FOUND', { message: key('Single sign-on is not set up') });
  }
  return {
    context: {
      body: {
        provider: SSO_PROVIDER_ID,
        callbackURL: AFTER_SIGN_IN_URL,
        errorCallbackURL: SIGN_IN_PAGE_URL,
        disableRedirect: true,
      },
    },
  };
}

/** After the provider's return: a session is audited, a held identity kept, a refusal noted. */
async function afterCallback(sso: SignOn, ctx: AuthContext) {
  const state = callbackState();
  const newSession = ctx.context.newSession;
  if (newSession) {
    await sso.audit(ctx, {
      event: state?.creatingUser ? 'sign_up' : 'sign_in',
      userId: newSession.user.id,
      detail: 'single_sign_on',
    });
    return;
  }
  const pending = state?.pending;
  if (pending) {
    await keepPending(ctx, pending);
    return;
  }
  const identity = state?.identity;
  await sso.audit(ctx, {
    event: 'sign_in_failed',
    email: identity?.email ?? null,
    detail: 'single_sign_on_refused',
  });
}

/** This module's plugin: the two routes and the hooks around sign-in and the callback. */
function signOnRoutes(sso: SignOn) {
  return {
    id: 'kin-single-sign-on',
    endpoints: {
      finishSingleSignOn: createAuthEndpoint(
        '/sso/finish-sign-up',
        { method: 'POST' },
        async (ctx) => finishWithPasscode(sso, ctx),
      ),
      linkSingleSignOn: createAuthEndpoint('/sso/link', { method: 'POST' }, async (ctx) =>
        linkByPassword(sso, ctx),
      ),
    },
    hooks: {
      before: [
        {
          matcher: (context) => context.path === '/sign-in/social',
          handler: createAuthMiddleware(async (ctx) => steerSocialSignIn(sso, ctx)),
        },
      ],
      after: [
        {
          matcher: (context) => isCallback(context),
          handler: createAuthMiddleware(async (ctx) => afterCallback(sso, ctx)),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

// ---- The protocol ----

/**
 * Called with the verified ID token's claims (or the userinfo answer that matched its
 * subject): kept beside the request for the database hooks above.
 */
function noteVerifiedIdentity(claims: Record<string, unknown>) {
  const state = callbackState();
  if (state) {
    state.identity = {
      sub: String(claims.sub ?? claims.id),
      email: String(claims.email ?? '').toLowerCase(),
      name: typeof claims.name === 'string' ? claims.name : '',
      emailVerified: truthy(claims.email_verified ?? claims.emailVerified),
    };
  }
  return {};
}

/** better-auth's generic OAuth, set to the household's OpenID provider. */
function providerProtocol(config: SingleSignOnConfig) {
  return genericOAuth({
    config: [
      {
        providerId: SSO_PROVIDER_ID,
        name: config.name,
        discoveryUrl: `${config.issuer}/.well-known/openid-configuration`,
        clientId: config.clientId,
        clientSecret: config.clientSecret,
        scopes: ['openid', 'email', 'profile'],
        pkce: true,
        requireIdTokenVerification: true,
        mapProfileToUser: (profile) => noteVerifiedIdentity(profile as Record<string, unknown>),
      },
    ],
  });
}

export function singleSignOn(deps: SingleSignOnDependencies) {
  const sso: SignOn = {
    ...deps,
    name: deps.config?.name ?? '',
    audit: (ctx, entry) => recordAuditEventOrLog(deps.db, deps.logger, headersOf(ctx), entry),
  };
  const plugin = signOnRoutes(sso);
  const protocol = deps.config ? providerProtocol(deps.config) : null;

  return {
    /** The plugins to add: the protocol (when set up) and the endpoints and hooks above. */
    plugins: protocol ? [protocol, plugin] : [plugin],
    /** For the user database hook: a callback's new account, or null for another path. */
    beforeUserCreate: (user: Record<string, unknown>, ctx: HookContext) =>
      isCallback(ctx) ? holdNewUser(sso, user) : null,
    /** For the session database hook: a callback's session may wait for the passcode. */
    beforeSessionCreate: async (session: { userId: string }, ctx: HookContext) => {
      if (isCallback(ctx)) await holdSessionForPasscode(sso, session, ctx);
    },
    /** For the account database hook, on a callback. */
    beforeAccountCreate: (account: { userId: string; providerId: string }, ctx: HookContext) => {
      if (isCallback(ctx)) holdAccountLink(account);
    },
  };
}
