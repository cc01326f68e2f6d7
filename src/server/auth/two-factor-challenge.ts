/**
 * Who is answering a second-factor challenge: the user whose password and passcode were
 * accepted, named by the signed cookie better-auth keeps between the password step and the
 * code step. Read before better-auth consumes the challenge.
 */
import type { createAuthMiddleware } from 'better-auth/api';

type MiddlewareContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The cookie better-auth keeps between the password step and the code step. */
const TWO_FACTOR_COOKIE = 'two_factor';

export async function challengedUserId(ctx: MiddlewareContext): Promise<string | null> {
  const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return null;
  const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return pending?.value ?? null;
}
