/**
 * /api/household: the persons the user shares and the persons shared with them
 * (CONTRACT.md §4 Household). Only an owner grants or removes access to their own persons;
 * the account a grant is for accepts it with the grant's one-time code (POST /accept).
 */
import { Hono } from 'hono';
import { acceptGrantSchema, grantSchema } from '../../shared/household';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { HouseholdRepository } from './household-repository';
import { key } from '../../shared/i18n/translate';

export const GRANT_NOT_FOUND = key('Access not found');

export function householdRoutes(household: HouseholdRepository) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await household.household(await c.var.access())))
    .post('/grants', validate('json', grantSchema), async (c) => {
      const grant = await household.grant(c.var.user.id, c.req.valid('json'), c.req.raw.headers);
      return c.json(grant, 201);
    })
    .post('/accept', validate('json', acceptGrantSchema), async (c) => {
      await household.accept(c.var.user.id, c.req.valid('json').code, c.req.raw.headers);
      return c.body(null, 204);
    })
    .delete('/grants/:id', async (c) => {
      const removed = await household.remove(c.var.user.id, c.req.param('id'), c.req.raw.headers);
      if (!removed) throw notFound(GRANT_NOT_FOUND);
      return c.body(null, 204);
    });
}
