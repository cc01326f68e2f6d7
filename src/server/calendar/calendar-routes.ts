/**
 * The private calendar feed's routes.
 *
 *   GET    /api/calendar-link           the account's link: for whom, made and last read when
 *   POST   /api/calendar-link           a new link (everyone, or `person_id`); the old one ends
 *   DELETE /api/calendar-link           'Revoke Calendar Link'
 *   GET    /api/calendar/{token}.ics    the feed, with no session: limited per address,
 *                                       a wrong or revoked token a plain 404
 *
 * A refused token is written to the audit log, and so is a reading from an address the
 * link has not been read from before (a calendar app polls every hour from the same one).
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { calendarLinkInputSchema } from '../../shared/calendar';
import { localToday } from '../../shared/dates';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import { ownPerson } from '../access/persons';
import { CLIENT_IP_HEADER } from '../http/client-ip';
import type { AppEnv } from '../http/env';
import { validate } from '../http/validation';
import type { AttemptLimits } from '../limits/attempt-limits';
import type { Logger } from '../logger';
import { CALENDAR_CONTENT_TYPE, calendarFeed } from './calendar-feed';
import { createCalendarLinks } from './calendar-links';
import { createAccountRepository } from '../account/account-repository';
import { inLanguage } from '../i18n/server-language';
import { tr } from '../../shared/i18n/translate';

export const CALENDAR_FEED_PATH = '/api/calendar';

const feedUrl = (origin: string, token: string) => `${origin}${CALENDAR_FEED_PATH}/${token}.ics`;

/** The owner's routes, behind the session guard. */
export function calendarLinkRoutes(db: Kysely<DB>, logger: Logger, publicUrl: string | null) {
  const links = createCalendarLinks(db);
  const audit = (
    headers: Headers,
    userId: string,
    event: 'calendar_link_created' | 'calendar_link_revoked',
  ) => recordAuditEventOrLog(db, logger, headers, { event, userId });
  return new Hono<AppEnv>()
    .get('/calendar-link', async (c) => c.json({ link: await links.get(c.var.user.id) }))
    .post('/calendar-link', validate('json', calendarLinkInputSchema), async (c) => {
      const userId = c.var.user.id;
      const { person_id } = c.req.valid('json');
      const person = person_id === null ? null : await ownPerson(db, userId, person_id);
      const { token, state } = await links.create(userId, person);
      await audit(c.req.raw.headers, userId, 'calendar_link_created');
      const origin = publicUrl ?? new URL(c.req.url).origin;
      return c.json({ link: { ...state, url: feedUrl(origin, token) } }, 201);
    })
    .delete('/calendar-link', async (c) => {
      if (await links.revoke(c.var.user.id)) {
        await audit(c.req.raw.headers, c.var.user.id, 'calendar_link_revoked');
      }
      return c.body(null, 204);
    });
}

/** The feed itself, mounted before the session guard: calendar apps have no session. */
export function calendarFeedRoutes(db: Kysely<DB>, limits: AttemptLimits, logger: Logger) {
  const links = createCalendarLinks(db);
  const accounts = createAccountRepository(db);
  const plainNotFound = () => new Response('Not found', { status: 404 });
  return new Hono<AppEnv>().get('/:file', async (c) => {
    const headers = c.req.raw.headers;
    const address = headers.get(CLIENT_IP_HEADER) ?? 'unknown';
    const allowed = await limits.consume({
      scope: 'address',
      subject: address,
      action: 'calendar-feed',
    });
    if (!allowed.allowed) {
      await recordAuditEventOrLog(db, logger, headers, {
        event: 'too_many_attempts',
        detail: 'calendar-feed',
      });
      c.header('Retry-After', String(allowed.retryAfterSeconds));
      return c.text(tr('Too many requests'), 429);
    }
    const file = c.req.param('file');
    const link = file.endsWith('.ics') ? await links.byToken(file.slice(0, -4)) : undefined;
    if (!link) {
      await recordAuditEventOrLog(db, logger, headers, {
        event: 'verification_failed',
        detail: 'calendar-feed',
      });
      return plainNotFound();
    }
    // In the account's language: the feed is read by calendar apps, which say nothing of it.
    const language = await accounts.languageOf(link.user_id);
    const body = await inLanguage(language, () =>
      calendarFeed(db, link, {
        now: new Date().toISOString(),
        today: localToday(),
      }),
    );
    if (link.last_read_ip !== address) {
      await recordAuditEventOrLog(db, logger, headers, {
        event: 'calendar_feed_read',
        userId: link.user_id,
      });
    }
    await links.markRead(link, address);
    return c.body(body, 200, {
      'Content-Type': CALENDAR_CONTENT_TYPE,
      'Content-Disposition': 'inline; filename="kin-health.ics"',
    });
  });
}
