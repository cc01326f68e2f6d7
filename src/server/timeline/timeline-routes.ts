/**
 * /api/timeline: a page of the user's timeline (their own persons and those shared with
 * them), optionally for one person.
 */
import { Hono } from 'hono';
import { timelineQuerySchema } from '../../shared/records/list-query';
import { sharesInScope } from '../access/scope';
import type { HouseholdRepository } from '../household/household-repository';
import type { AppEnv } from '../http/env';
import { badRequest } from '../http/errors';
import { validate } from '../http/validation';
import { decodeCursor, type TimelineRepository } from './timeline-repository';
import { key } from '../../shared/i18n/translate';

export function timelineRoutes(
  timeline: TimelineRepository,
  household: Pick<HouseholdRepository, 'noteUse'>,
) {
  return new Hono<AppEnv>().get('/', validate('query', timelineQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const cursor = query.cursor ? decodeCursor(query.cursor) : null;
    if (query.cursor && !cursor)
      throw badRequest(key('cursor is not a timeline position'), 'cursor');
    const access = await c.var.access();
    const page = await timeline.list(access, {
      memberId: query.member,
      cursor,
      limit: query.limit,
    });
    const shared = sharesInScope(access, { memberLinked: true, personId: query.member });
    if (shared.length) await household.noteUse(access, shared, 'read');
    return c.json(page);
  });
}
