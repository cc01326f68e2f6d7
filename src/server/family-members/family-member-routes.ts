/** /api/family-members: list, read, add, update and delete the user's family members. */
import { Hono } from 'hono';
import { familyMemberSchema } from '../../shared/family-members';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { FamilyMemberRepository } from './family-member-repository';
import type { DocumentRepository } from '../documents/document-repository';
import { key } from '../../shared/i18n/translate';

const MEMBER_NOT_FOUND = key('Family member not found');

export function familyMemberRoutes(
  members: FamilyMemberRepository,
  documents: Pick<DocumentRepository, 'filesOfMember' | 'releaseFiles'>,
) {
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
      const userId = c.var.user.id;
      const id = c.req.param('id');
      // The member's documents go with them (their rows by the foreign keys), files and all.
      const files = await documents.filesOfMember(userId, id);
      const deleted = await members.delete(userId, id);
      if (!deleted) throw notFound(MEMBER_NOT_FOUND);
      await documents.releaseFiles(userId, files);
      return c.body(null, 204);
    });
}
