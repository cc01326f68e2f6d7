/** /api/family-members: list, read, add, update and delete the user's family members. */
import { Hono } from 'hono';
import { familyMemberSchema } from '../../shared/family-members';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { FamilyMemberRepository } from './family-member-repository';

const MEMBER_NOT_FOUND = 'Family member not found';

export function familyMemberRoutes(members: FamilyMemberRepository) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await members.list(c.var.user.id)))
    .get('/:id', async (c) => {
      const member = await members.get(c.var.user.id, c.req.param('id'));
      if (!member) throw notFound(MEMBER_NOT_FOUND);
      return c.json(member);
    })
    .post('/', validate('json', familyMemberSchema), async (c) => {
      const member = await members.create(c.var.user.id, c.req.valid('json'));
      return c.json(member, 201);
    })
    .put('/:id', validate('json', familyMemberSchema), async (c) => {
      const member = await members.update(c.var.user.id, c.req.param('id'), c.req.valid('json'));
      if (!member) throw notFound(MEMBER_NOT_FOUND);
      return c.json(member);
    })
    .delete('/:id', async (c) => {
      const deleted = await members.delete(c.var.user.id, c.req.param('id'));
      if (!deleted) throw notFound(MEMBER_NOT_FOUND);
      return c.body(null, 204);
    });
}
