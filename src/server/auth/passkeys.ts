/**
 * Passkeys (docs/decisions/0034-passkeys.md), on better-auth's passkey plugin:
 *
 * - The relying party is BASE_URL's host and its origin BASE_URL's; without BASE_URL, the
 *   request's host (better-auth resolves its base URL per request) and the request's origin.
 *   config.ts refuses to start where no browser would allow a passkey.
 * - A passkey is discoverable (the sign-in asks for no email) and must verify the person
 *   (a fingerprint, face or PIN): it is something held and something known or been, so a
 *   sign-in with one is not asked for a second factor. A passkey that did not verify the
 *   person is refused, at registration and at sign-in.
 * - Registration names the passkey by the device (its User-Agent), unless named.
 * - Every sign-in with a passkey is in the audit log (or its refusal), sets the passkey's
 *   `last_used_at`, and marks the device as known like a password sign-in
 *   (credential-limits.ts); an addition is in the audit log and mailed to the account.
 *   Removal and renaming are the product's own routes (account/passkey-routes.ts), removal
 *   after a fresh proof.
 * - A passkey signs in only an account that has passed the current Friends & Family
 *   Passcode: after a change, each account signs in once with its password and the new
 *   passcode before its passkeys work again (decision 0048).
 * - The ceremonies answer only what the browser needs: a sign-in `{ status: true }` (the
 *   session is in its httpOnly cookie), an addition the passkey's id and name. The plugin
 *   would answer the user row and the session, token included.
 * - Adding one needs a fresh proof (decision 0048): its options are asked for through the
 *   product's POST /api/passkeys/registration-options, which checks the proof and then
 *   calls the plugin; the plugin's own GET is not mounted, and refuses a call without it.
 * - A registration made for another origin or relying party is a 400 that says so, before
 *   the plugin (which would answer a 500) sees it.
 *
 * Mounted (auth-routes.ts): the registration's answer and both routes of the sign-in;
 * better-auth's list, rename and delete routes are not.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { passkey } from '@better-auth/passkey';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import { APP_NAME } from '../../shared/constants';
import { firstName } from '../../shared/names';
import {
  PASSKEY_NOT_VERIFIED_MESSAGE,
  PASSKEY_PASSCODE_CHANGED_MESSAGE,
  PASSKEY_REGISTRATION_FAILED_MESSAGE,
  PASSKEY_REGISTRATION_MALFORMED_MESSAGE,
  PASSKEY_REGISTRATION_STALE_MESSAGE,
  PASSKEY_UNKNOWN_MESSAGE,
  passkeyNameSchema,
  passkeyWrongOriginMessage,
  passkeyWrongRelyingPartyMessage,
} from '../../shared/passkeys';
import { describeUserAgent } from '../../shared/user-agent';
import { deleteOwned, updateOwned } from '../access/scope';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { AppConfig } from '../config';
import type { DB, Engine } from '../db/schema';
import { badRequest, inAuthFlow } from '../http/errors';
import { firstIssue } from '../http/validation';
import type { Logger } from '../logger';
import type { MailOutbox } from '../mail/mail-queue';
import { passedCurrentPasscode } from './family-passcode';
import { isForRelyingParty, registrationClaims } from './passkey-registration-check';
import { key } from '../../shared/i18n/translate';

export const PASSKEY_REGISTER_OPTIONS_PATH = '/passkey/generate-register-options';
export const PASSKEY_REGISTER_PATH = '/passkey/verify-registration';
export const PASSKEY_SIGN_IN_PATH = '/passkey/verify-authentication';

/**
 * The ceremonies' routes a browser reaches: the answer of an addition (its options come
 * from the product's route, after a fresh proof), and both routes of a sign-in.
 */
export const PASSKEY_HTTP_ROUTES = [
  { method: 'POST', path: PASSKEY_REGISTER_PATH },
  { method: 'GET', path: '/passkey/generate-authenticate-options' },
  { method: 'POST', path: PASSKEY_SIGN_IN_PATH },
] as const;

/** The code of a passkey sign-in refused because the passcode changed. */
const PASSCODE_CHANGED_CODE = 'PASSCODE_CHANGED';

export const PASSKEY_ADDITION_UNPROVEN_MESSAGE =
  'Adding a passkey needs your password first (Profile Settings, Passkeys, Add Passkey).';

/** Set while the product's route, having checked a fresh proof, asks for a registration's options. */
const additionProven = new AsyncLocalStorage<true>();

/** Runs `ask` (the plugin's registration options) as a request whose fresh proof held. */
export function withPasskeyAdditionProven<T>(ask: () => T): T {
  return additionProven.run(true, ask);
}

/** The credential id a sign-in's answer names, when it has the shape of one. */
function credentialIdOf(body: unknown): string | null {
  const response = (body as { response?: unknown } | null | undefined)?.response;
  const id = (response as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 1024 ? id : null;
}

async function passkeyByCredential(db: Kysely<DB>, credentialId: string) {
  return db
    .selectFrom('passkey')
    .select(['id', 'userId'])
    .where('credentialID', '=', credentialId)
    .executeTakeFirst();
}

/** Refuses a passkey registration as the product words it (a 400 naming the field). */
function refuseRegistration(message: string): never {
  throw inAuthFlow(badRequest(message, 'response'));
}

type MiddlewareContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * The origin and relying party a registration was made for, and its challenge, checked
 * before the plugin sees it: a wrong one is a 400 that says which, not the plugin's 500.
 */
async function checkRegistrationClaims(ctx: MiddlewareContext, config: AppConfig) {
  const claims = registrationClaims(ctx.body);
  if (!claims || claims.type !== 'webauthn.create') {
    refuseRegistration(PASSKEY_REGISTRATION_MALFORMED_MESSAGE);
  }
  const base = config.baseUrl && URL.canParse(config.baseUrl) ? new URL(config.baseUrl) : null;
  const resolved = ctx.context.options.baseURL;
  const rpId =
    base?.hostname ??
    new URL(typeof resolved === 'string' ? resolved : ctx.context.baseURL).hostname;
  const origin = base?.origin ?? ctx.headers?.get('origin') ?? '';
  if (claims.origin !== origin)
    refuseRegistration(passkeyWrongOriginMessage(claims.origin, origin));
  if (!isForRelyingParty(claims, rpId)) refuseRegistration(passkeyWrongRelyingPartyMessage(rpId));
  // The challenge this browser was given (its signed cookie names it); read, not used up.
  const cookie = ctx.context.createAuthCookie('passkey_challenge');
  const token = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  const row = token ? await ctx.context.internalAdapter.findVerificationValue(token) : null;
  const expected = row ? (JSON.parse(row.value) as { expectedChallenge?: string }) : null;
  if (expected?.expectedChallenge !== claims.challenge) {
    refuseRegistration(PASSKEY_REGISTRATION_STALE_MESSAGE);
  }
}

/** better-auth's passkey plugin, as the product configures it. */
function passkeyPlugin(config: AppConfig) {
  const base = config.baseUrl && URL.canParse(config.baseUrl) ? new URL(config.baseUrl) : null;
  return passkey({
    rpName: APP_NAME,
    // Without BASE_URL the plugin reads the host better-auth resolved for the request, and
    // the origin the browser sent (which must then be of that host: the browser checks it).
    ...(base ? { rpID: base.hostname, origin: base.origin } : {}),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    registration: {
      afterVerification: async ({ verification }) => {
        if (!verification.registrationInfo?.userVerified) {
          throw new APIError('BAD_REQUEST', { message: PASSKEY_NOT_VERIFIED_MESSAGE });
        }
      },
    },
    authentication: {
      afterVerification: async ({ verification }) => {
        if (!verification.authenticationInfo.userVerified) {
          throw new APIError('UNAUTHORIZED', { message: PASSKEY_NOT_VERIFIED_MESSAGE });
        }
      },
    },
    advanced: { webAuthnChallengeCookie: 'passkey_challenge' },
  });
}

/** What the product's passkey hooks read and write through. */
interface PasskeyTrailOptions {
  db: Kysely<DB>;
  engine: Engine;
  config: AppConfig;
  logger: Logger;
  outbox: MailOutbox;
}

/** A passkey's sign-in by an account that has not passed the current passcode. */
const passcodeChanged = () =>
  new APIError('UNAUTHORIZED', {
    message: PASSKEY_PASSCODE_CHANGED_MESSAGE,
    code: PASSCODE_CHANGED_CODE,
  });

/** Only the product's route, once the fresh proof held, asks for the registration options. */
function refuseUnprovenAddition() {
  return createAuthMiddleware(async () => {
    if (!additionProven.getStore()) {
      throw new APIError('FORBIDDEN', { message: PASSKEY_ADDITION_UNPROVEN_MESSAGE });
    }
  });
}

/** A new passkey's claims checked, and its name: the one given, or the device's. */
function nameNewPasskey(config: AppConfig) {
  return createAuthMiddleware(async (ctx) => {
    await checkRegistrationClaims(ctx, config);
    const body = (ctx.body ?? {}) as { name?: unknown };
    const given = typeof body.name === 'string' && body.name.trim() ? body.name : null;
    const parsed = passkeyNameSchema.safeParse(
      given ?? describeUserAgent(ctx.headers?.get('user-agent')),
    );
    if (!parsed.success) {
      throw inAuthFlow(badRequest(firstIssue(parsed.error).message, 'name'));
    }
    return { context: { body: { ...(ctx.body as object), name: parsed.data } } };
  });
}

/** A passkey this server does not know is refused, and the refusal audited. */
function refuseUnknownPasskey({ db, logger }: PasskeyTrailOptions) {
  return createAuthMiddleware(async (ctx) => {
    const credentialId = credentialIdOf(ctx.body);
    if (!credentialId) throw inAuthFlow(badRequest(key('response is required'), 'response'));
    if (await passkeyByCredential(db, credentialId)) return;
    // A passkey removed here, or made for another server of the same name.
    await recordAuditEventOrLog(db, logger, ctx.headers ?? ctx.request?.headers, {
      event: 'sign_in_failed',
      userId: null,
      detail: 'passkey_refused',
    });
    throw new APIError('UNAUTHORIZED', { message: PASSKEY_UNKNOWN_MESSAGE });
  });
}

/** A passkey added: audited, and the account's mail told; or the device's answer refused. */
function noteNewPasskey({ db, logger, outbox }: PasskeyTrailOptions) {
  return createAuthMiddleware(async (ctx) => {
    const returned: unknown = ctx.context.returned;
    if (isAPIError(returned)) {
      // What the claims' check let through and the plugin still could not verify
      // (an attestation that does not hold): the answer's fault, not the server's.
      const code = (returned.body as { code?: string } | undefined)?.code;
      if (returned.statusCode === 500 && code === 'FAILED_TO_VERIFY_REGISTRATION') {
        refuseRegistration(PASSKEY_REGISTRATION_FAILED_MESSAGE);
      }
      return;
    }
    const user = ctx.context.session?.user;
    if (!user) return;
    const name = (ctx.body as { name?: string }).name ?? 'Passkey';
    const headers = ctx.headers ?? ctx.request?.headers;
    await recordAuditEventOrLog(db, logger, headers, {
      event: 'passkey_added',
      userId: user.id,
      detail: name,
    });
    // Whoever holds the account's mail hears of every new way in.
    await outbox.enqueue({
      to: user.email,
      template: 'passkey-added',
      params: {
        name: firstName(user.name),
        passkey: name,
        device: describeUserAgent(headers?.get('user-agent')),
        time: new Date().toISOString(),
      },
      userId: user.id,
    });
    const id = (returned as { id?: unknown } | null)?.id;
    return ctx.json({ id: typeof id === 'string' ? id : null, name });
  });
}

/** A passkey's sign-in: audited, its passcode checked once more, its last use noted. */
function finishPasskeySignIn({ db, engine, logger }: PasskeyTrailOptions) {
  return createAuthMiddleware(async (ctx) => {
    const credentialId = credentialIdOf(ctx.body);
    const row = credentialId ? await passkeyByCredential(db, credentialId) : undefined;
    if (!row) return;
    const headers = ctx.headers ?? ctx.request?.headers;
    const session = ctx.context.newSession;
    const returned: unknown = ctx.context.returned;
    if (isAPIError(returned) || !session) {
      const code = isAPIError(returned)
        ? (returned.body as { code?: string } | undefined)?.code
        : undefined;
      await recordAuditEventOrLog(db, logger, headers, {
        event: 'sign_in_failed',
        userId: row.userId,
        detail: code === PASSCODE_CHANGED_CODE ? 'passkey_passcode_changed' : 'passkey_refused',
      });
      return;
    }
    // A change that committed while this sign-in was under way: its session goes
    // too (on PostgreSQL the read waits for a change being written).
    if (!(await passedCurrentPasscode(db, row.userId, engine))) {
      await deleteOwned(db, 'session', row.userId)
        .where('token', '=', session.session.token)
        .execute();
      ctx.context.setNewSession(null);
      ctx.context.responseHeaders?.delete('set-cookie');
      throw passcodeChanged();
    }
    await updateOwned(db, 'passkey', row.userId)
      .set({ last_used_at: new Date().toISOString() })
      .where('id', '=', row.id)
      .execute();
    await recordAuditEventOrLog(db, logger, headers, {
      event: 'sign_in',
      userId: row.userId,
      detail: 'passkey',
    });
    // The session is in its cookie; the body says no more than that it worked.
    return ctx.json({ status: true });
  });
}

/** The product's part: names, the audit log, when each passkey was last used. */
function passkeyTrail(options: PasskeyTrailOptions) {
  const { db } = options;
  return {
    id: 'kin-passkeys',
    init() {
      return {
        options: {
          databaseHooks: {
            session: {
              create: {
                // After the signature is verified, before a session exists: an account
                // that has not passed the current passcode gets none from a passkey.
                before: async (session: { userId: string }, ctx: { path?: string } | null) => {
                  if (ctx?.path !== PASSKEY_SIGN_IN_PATH) return;
                  if (!(await passedCurrentPasscode(db, session.userId))) throw passcodeChanged();
                },
              },
            },
          },
        },
      };
    },
    hooks: {
      before: [
        {
          matcher: (context) => context.path === PASSKEY_REGISTER_OPTIONS_PATH,
          handler: refuseUnprovenAddition(),
        },
        {
          matcher: (context) => context.path === PASSKEY_REGISTER_PATH,
          handler: nameNewPasskey(options.config),
        },
        {
          matcher: (context) => context.path === PASSKEY_SIGN_IN_PATH,
          handler: refuseUnknownPasskey(options),
        },
      ],
      after: [
        {
          matcher: (context) => context.path === PASSKEY_REGISTER_PATH,
          handler: noteNewPasskey(options),
        },
        {
          matcher: (context) => context.path === PASSKEY_SIGN_IN_PATH,
          handler: finishPasskeySignIn(options),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/** The plugins of passkeys, or none with PASSKEYS=off. */
export function passkeyPlugins(options: {
  db: Kysely<DB>;
  engine: Engine;
  config: AppConfig;
  logger: Logger;
  outbox: MailOutbox;
}): BetterAuthPlugin[] {
  if (!options.config.passkeys) return [];
  return [passkeyPlugin(options.config), passkeyTrail(options)];
}
