/**
 * The session guard of every API route but health and auth: no valid session, 401 and no
 * data. A session renewed on the way through sends its new cookie back.
 *
 * Every request reads its session from the database, so a session ended on the server
 * (sign-out, account deletion) ends at once. better-auth's own session check did that at
 * about a millisecond of CPU per request (its endpoint machinery and a WebCrypto HMAC on
 * the thread pool), more than the rest of a typical request together. The common case (a
 * well-signed cookie for a live session that is not yet due for renewal) is therefore
 * checked here: the same HMAC-SHA256 signature check, one indexed query for the session row
 * (a request needs only its user's id). Every other case (no such session, expired, due for
 * renewal, a leftover cookie to clear) still goes to better-auth, which answers, renews or
 * cleans up as it always has. What this saves, measured, and the test that pins it to
 * better-auth: docs/decisions/0009-library-code-rewritten-for-speed.md.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import type { Auth } from '../auth/auth';
import type { SessionLifetime } from '../auth/session-lifetime';
import { prepareQuery } from '../db/prepared-query';
import type { DB } from '../db/schema';
import { tr } from '../../shared/i18n/translate';
import { NOT_AUTHENTICATED_MESSAGE } from '../../shared/messages';
import type { AppEnv, SessionUser } from './env';

interface SessionCheckSettings {
  tokenCookie: string;
  dataCookie: string;
  secret: string;
  expiresInMs: number;
  updateAgeMs: number;
}

/** better-call's signature: base64 HMAC-SHA256 of the value, 44 characters. */
const SIGNATURE_LENGTH = 44;

/**
 * The value of a cookie, read as better-call reads it (trimmed, unquoted, URL-decoded), or
 * null when it is absent or given twice (then better-auth decides which one counts).
 */
export function singleCookie(header: string, name: string): string | null {
  let found: string | null = null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1 || part.slice(0, separator).trim() !== name) continue;
    if (found !== null) return null;
    let value = part.slice(separator + 1).trim();
    if (value.startsWith('"')) value = value.slice(1, -1);
    try {
      found = value.includes('%') ? decodeURIComponent(value) : value;
    } catch {
      found = value;
    }
  }
  return found;
}

/** The session token of a correctly signed cookie value, or null. */
export function verifiedToken(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf('.');
  if (dot < 1) return null;
  const token = signed.slice(0, dot);
  const signature = Buffer.from(signed.slice(dot + 1));
  const expected = Buffer.from(createHmac('sha256', secret).update(token).digest('base64'));
  if (signature.length !== SIGNATURE_LENGTH || expected.length !== SIGNATURE_LENGTH) return null;
  return timingSafeEqual(signature, expected) ? token : null;
}

const timeOf = (value: Date | string) => new Date(value).getTime();

/**
 * The session row of a token: a request needs only its user's id (deleting a user deletes
 * their sessions, so a session always has its user), and whether anyone shared a person
 * with that user, so that a user with no grants never looks them up (see access/scope.ts).
 * The benchmark's checked ideal endpoint runs the same SQL (bench/floor-server.ts).
 */
export function sessionRow(db: Kysely<DB>, token: string) {
  return db
    .selectFrom('session')
    .select(['id', 'userId', 'createdAt', 'expiresAt'])
    .select((eb) =>
      eb
        .selectFrom('access_grants as g')
        .select(eb.fn.countAll<number>().as('grants'))
        .whereRef('g.grantee_id', '=', 'session.userId')
        .as('grants'),
    )
    .where('token', '=', token);
}

export function requireSession(
  auth: Auth,
  db: Kysely<DB>,
  lifetime: SessionLifetime,
): MiddlewareHandler<AppEnv> {
  let settings: SessionCheckSettings | null = null;
  const loadSettings = async (): Promise<SessionCheckSettings> => {
    const context = await auth.$context;
    return (settings = {
      tokenCookie: context.authCookies.sessionToken.name,
      dataCookie: context.authCookies.sessionData.name,
      secret: context.secret,
      expiresInMs: context.sessionConfig.expiresIn * 1000,
      updateAgeMs: context.sessionConfig.updateAge * 1000,
    });
  };

  const findSession = prepareQuery(db, (values: { token: string }) => sessionRow(db, values.token));

  /**
   * The user of a live session that needs nothing from better-auth; 'ended' for a session
   * past its absolute lifetime (now deleted); or null: better-auth decides.
   */
  async function liveSession(
    headers: Headers,
  ): Promise<{ user: SessionUser; sessionId: string } | 'ended' | null> {
    const config = settings ?? (await loadSettings());
    const cookies = headers.get('cookie');
    if (!cookies || cookies.includes(config.dataCookie)) return null;
    const signed = singleCookie(cookies, config.tokenCookie);
    const token = signed === null ? null : verifiedToken(signed, config.secret);
    if (token === null) return null;
    const [row] = await findSession({ token });
    if (!row) return null;
    if (lifetime.isOver(row)) {
      await db.deleteFrom('session').where('token', '=', token).execute();
      return 'ended';
    }
    const expiresAt = timeOf(row.expiresAt);
    const now = Date.now();
    // better-auth renews a session once a day of use: that answer carries a new cookie.
    const dueForRenewal = expiresAt - config.expiresInMs + config.updateAgeMs <= now;
    if (!(expiresAt > now) || dueForRenewal) return null;
    return { user: { id: row.userId, hasGrants: Number(row.grants) > 0 }, sessionId: row.id };
  }

  return async (c, next) => {
    const live = await liveSession(c.req.raw.headers);
    if (live === 'ended') return c.json({ message: tr(NOT_AUTHENTICATED_MESSAGE) }, 401);
    if (live) {
      c.set('user', live.user);
      c.set('sessionId', live.sessionId);
      return next();
    }
    const { headers, response } = await auth.api.getSession({
      headers: c.req.raw.headers,
      returnHeaders: true,
    });
    if (!response) return c.json({ message: tr(NOT_AUTHENTICATED_MESSAGE) }, 401);
    c.set('user', { id: response.user.id });
    c.set('sessionId', response.session.id);
    await next();
    for (const cookie of headers.getSetCookie()) c.res.headers.append('set-cookie', cookie);
  };
}
