/**
 * The account-security side of the settings screen, behind the session guard and scoped to
 * the signed-in user: their sessions (listed and revoked through better-auth's own
 * endpoints, but by session id, so no session token ever reaches the page), their second
 * factor, and their recent security activity from the audit log.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { AccountRepository } from './account-repository';
import {
  SECURITY_ACTIVITY_LIMIT,
  TOTP_FRIENDLY_NAME,
  type ActiveSession,
  type TwoFactorFactor,
} from '../../shared/account-security';
import { listSecurityActivity } from '../audit/audit-log';
import type { Auth } from '../auth/auth';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/env';
import { badRequest, notFound } from '../http/errors';
import { key } from '../../shared/i18n/translate';

const iso = (value: Date | string) => new Date(value).toISOString();

export const CURRENT_SESSION_MESSAGE = key(
  'This is the session you are using now; use Sign Out to end it',
);

export function accountSecurityRoutes(db: Kysely<DB>, auth: Auth, accounts: AccountRepository) {
  async function listSessions(headers: Headers) {
    return auth.api.listSessions({ headers });
  }

  return new Hono<AppEnv>()
    .get('/sessions', async (c) => {
      const sessions = await listSessions(c.req.raw.headers);
      const current = c.var.sessionId;
      const body: ActiveSession[] = sessions
        .map((session) => ({
          id: session.id,
          user_agent: session.userAgent ?? null,
          ip_address: session.ipAddress ?? null,
          created_at: iso(session.createdAt),
          last_active_at: iso(session.updatedAt),
          expires_at: iso(session.expiresAt),
          current: session.id === current,
        }))
        // This device first, then the most recently active.
        .sort(
          (a, b) =>
            Number(b.current) - Number(a.current) ||
            b.last_active_at.localeCompare(a.last_active_at),
        );
      return c.json(body);
    })
    .post('/sessions/revoke-others', async (c) => {
      await auth.api.revokeOtherSessions({ headers: c.req.raw.headers });
      return c.body(null, 204);
    })
    .delete('/sessions/:id', async (c) => {
      const id = c.req.param('id');
      if (id === c.var.sessionId) throw badRequest(CURRENT_SESSION_MESSAGE, 'id');
      const target = (await listSessions(c.req.raw.headers)).find((session) => session.id === id);
      // Another user's session is answered like one that does not exist.
      if (!target) throw notFound(key('Session not found'));
      await auth.api.revokeSession({ headers: c.req.raw.headers, body: { token: target.token } });
      return c.body(null, 204);
    })
    .get('/factors', async (c) => {
      const rows = await accounts.secondFactors(c.var.user.id);
      const factors: TwoFactorFactor[] = rows.map((row) => ({
        id: row.id,
        friendly_name: TOTP_FRIENDLY_NAME,
        factor_type: 'totp',
        // better-auth counts a row without the flag as verified; so does this.
        status: row.verified === false || row.verified === 0 ? 'unverified' : 'verified',
      }));
      return c.json(factors);
    })
    .get('/security-activity', async (c) => {
      return c.json(await listSecurityActivity(db, c.var.user.id, SECURITY_ACTIVITY_LIMIT));
    });
}
