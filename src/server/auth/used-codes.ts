/**
 * An authenticator-app code works once (OWASP ASVS 2.8.4). better-auth accepts the code of
 * the current 30-second step and of the steps either side of it, so without this a code
 * seen over someone's shoulder, or captured on its way, could sign in again for up to a
 * minute and a half.
 *
 * Before better-auth checks a code, the code is claimed for its user: an insert keyed by
 * the user and an HMAC of the code, so two requests racing with one code cannot both win.
 * A code already claimed is refused. A claim whose code better-auth then refuses is given
 * back, so a mistyped code typed again is still only 'Invalid code'. Claims older than any
 * code's life are cleared as new ones are made.
 *
 * A refusal stops the request before better-auth's own hooks run, so this plugin writes
 * the failed sign-in to the audit log itself.
 */
import { createHmac } from 'node:crypto';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import { REUSED_CODE_MESSAGE } from '../../shared/account-security';
import { recordAuditEventOrLog } from '../audit/audit-log';
import { deleteOwned, ownedRow } from '../access/scope';
import type { DB } from '../db/schema';
import type { Logger } from '../logger';
import { challengedUserId } from './two-factor-challenge';

const VERIFY_PATH = '/two-factor/verify-totp';

/** Longer than any code is accepted (three 30-second steps), with room for clock skew. */
const CLAIM_LIFETIME_MS = 3 * 60 * 1000;

interface Claim {
  userId: string;
  codeHash: string;
}

export function usedCodes(options: { db: Kysely<DB>; secret: string; logger: Logger }) {
  const { db, secret, logger } = options;
  // The claim each request made, so that only its own claim is given back.
  const claims = new WeakMap<object, Claim>();

  const hashOf = (userId: string, code: string) =>
    createHmac('sha256', secret).update(`${userId}:${code}`).digest('base64url');

  /** True when the code was free and is now this request's. */
  async function claim({ userId, codeHash }: Claim): Promise<boolean> {
    const now = Date.now();
    await deleteOwned(db, 'used_authentication_codes', userId)
      .where('used_at', '<', new Date(now - CLAIM_LIFETIME_MS).toISOString())
      .execute();
    const result = await db
      .insertInto('used_authentication_codes')
      .values(ownedRow(userId, { code_hash: codeHash, used_at: new Date(now).toISOString() }))
      .onConflict((conflict) => conflict.columns(['user_id', 'code_hash']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  return {
    id: 'kin-used-authentication-codes',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === VERIFY_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const code = (ctx.body as { code?: unknown } | undefined)?.code;
            const key = ctx.request ?? ctx.headers;
            if (typeof code !== 'string' || !key) return;
            const session = await getSessionFromCtx(ctx);
            const signingIn = !session;
            const userId = session?.user.id ?? (await challengedUserId(ctx));
            // Without a session or a challenge, better-auth refuses the request itself.
            if (!userId) return;
            const request = { userId, codeHash: hashOf(userId, code) };
            if (await claim(request)) {
              claims.set(key, request);
              return;
            }
            if (signingIn) {
              await recordAuditEventOrLog(db, logger, ctx.headers ?? ctx.request?.headers, {
                event: 'sign_in_failed',
                userId,
                detail: 'reused_code',
              });
            }
            throw new APIError('UNAUTHORIZED', {
              message: REUSED_CODE_MESSAGE,
              code: 'REUSED_CODE',
            });
          }),
        },
      ],
      after: [
        {
          matcher: (context) => context.path === VERIFY_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const key = ctx.request ?? ctx.headers;
            const made = key ? claims.get(key) : undefined;
            if (!made || !isAPIError(ctx.context.returned)) return;
            await deleteOwned(db, 'used_authentication_codes', made.userId)
              .where('code_hash', '=', made.codeHash)
              .execute();
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
