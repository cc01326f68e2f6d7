/** /api/timeline: a page of the user's timeline, optionally for one family member. */
import { Hono } from 'hono';
import { timelineQuerySchema } from '../../shared/records/list-query';
import type { AppEnv } from '../http/env';
import { badRequest } from '../http/errors';
import { validate } from '../http/validation';
import { decodeCursor, type TimelineRepository } from './timeline-repository';

export function timelineRoutes(timeline: TimelineRepository) {
  return new Hono<AppEnv>().get('/', validate('query', timelineQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const cursor = query.cursor ? decodeCursor(query.cursor) : null;
    if (query.cursor && !cursor) throw badRequest('cursor is not a timeline position', 'cursor');
    return c.json(
      await timeline.list(c.var.user.id, { memberId: query.member, cursor, limit: query.limit }),
    );
  });
}
