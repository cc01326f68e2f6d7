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
 *   (credential-limits.ts); an addition is in the audit log too. Removal and renaming are
 *   the product's own routes (account/passkey-routes.ts), removal after a fresh proof.
 *
 * Only the four routes of the two ceremonies are mounted (auth-routes.ts); better-auth's
 * list, rename and delete routes are not.
 */
import { passkey } from '@better-auth/passkey';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import { APP_NAME } from '../../shared/constants';
import {
  PASSKEY_NOT_VERIFIED_MESSAGE,
  PASSKEY_UNKNOWN_MESSAGE,
  passkeyNameSchema,
} from '../../shared/passkeys';
import { describeUserAgent } from '../../shared/user-agent';
import { updateOwned } from '../access/access';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { AppConfig } from '../config';
import type { DB } from '../db/schema';
import { badRequest, inAuthFlow } from '../http/errors';
import { firstIssue } from '../http/validation';
import type { Logger } from '../logger';

export const PASSKEY_REGISTER_PATH = '/passkey/verify-registration';
export const PASSKEY_SIGN_IN_PATH = '/passkey/verify-authentication';

/** The routes of the two ceremonies, each an options request and its answer. */
export const PASSKEY_HTTP_ROUTES = [
  { method: 'GET', path: '/passkey/generate-register-options' },
  { method: 'POST', path: PASSKEY_REGISTER_PATH },
  { method: 'GET', path: '/passkey/generate-authenticate-options' },
  { method: 'POST', path: PASSKEY_SIGN_IN_PATH },
] as const;

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

/** The product's part: names, the audit log, when each passkey was last used. */
function passkeyTrail(options: { db: Kysely<DB>; logger: Logger }) {
  const { db, logger } = options;
  return {
    id: 'kin-passkeys',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === PASSKEY_REGISTER_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as { name?: unknown };
            const given = typeof body.name === 'string' && body.name.trim() ? body.name : null;
            const parsed = passkeyNameSchema.safeParse(
              given ?? describeUserAgent(ctx.headers?.get('user-agent')),
            );
            if (!parsed.success) {
              throw inAuthFlow(badRequest(firstIssue(parsed.error).message, 'name'));
            }
            return { context: { body: { ...(ctx.body as object), name: parsed.data } } };
          }),
        },
        {
          matcher: (context) => context.path === PASSKEY_SIGN_IN_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const credentialId = credentialIdOf(ctx.body);
            if (!credentialId) throw inAuthFlow(badRequest('response is required', 'response'));
            if (await passkeyByCredential(db, credentialId)) return;
            // A passkey removed here, or made for another server of the same name.
            await recordAuditEventOrLog(db, logger, ctx.headers ?? ctx.request?.headers, {
              event: 'sign_in_failed',
              userId: null,
              detail: 'passkey_refused',
            });
            throw new APIError('UNAUTHORIZED', { message: PASSKEY_UNKNOWN_MESSAGE });
          }),
        },
      ],
      after: [
        {
          matcher: (context) => context.path === PASSKEY_REGISTER_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const returned: unknown = ctx.context.returned;
            const userId = ctx.context.session?.user.id;
            if (isAPIError(returned) || !userId) return;
            await recordAuditEventOrLog(db, logger, ctx.headers ?? ctx.request?.headers, {
              event: 'passkey_added',
              userId,
              detail: (ctx.body as { name?: string }).name ?? null,
            });
          }),
        },
        {
          matcher: (context) => context.path === PASSKEY_SIGN_IN_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const credentialId = credentialIdOf(ctx.body);
            const row = credentialId ? await passkeyByCredential(db, credentialId) : undefined;
            if (!row) return;
            const headers = ctx.headers ?? ctx.request?.headers;
            const session = ctx.context.newSession;
            if (isAPIError(ctx.context.returned) || !session) {
              await recordAuditEventOrLog(db, logger, headers, {
                event: 'sign_in_failed',
                userId: row.userId,
                detail: 'passkey_refused',
              });
              return;
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
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/** The plugins of passkeys, or none with PASSKEYS=off. */
export function passkeyPlugins(options: {
  db: Kysely<DB>;
  config: AppConfig;
  logger: Logger;
}): BetterAuthPlugin[] {
  if (!options.config.passkeys) return [];
  return [passkeyPlugin(options.config), passkeyTrail(options)];
}
