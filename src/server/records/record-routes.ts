/**
 * The API of one record type, mounted at /api/{path}: list (with tabs, member filter and
 * pages), read, create, replace and delete. Built from the type's definition; a type with
 * special rules puts them in its schema, not here.
 */
import { Hono } from 'hono';
import { localToday } from '../../shared/dates';
import type { RecordDefinition } from '../../shared/records/definition';
import { listQuerySchema } from '../../shared/records/list-query';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { RecordRepository } from './record-repository';

export function recordRoutes<D extends RecordDefinition>(repository: RecordRepository<D>) {
  const definition = repository.definition;
  const missing = () => notFound(definition.messages.notFound);

  return new Hono<AppEnv>()
    .get('/', validate('query', listQuerySchema(definition)), async (c) => {
      const query = c.req.valid('query');
      const page = await repository.list(c.var.user.id, {
        view: query.view,
        memberId: query.member,
        today: query.today ?? localToday(),
        now: new Date().toISOString(),
        limit: query.limit,
        offset: query.offset,
      });
      return c.json(page);
    })
    .get('/:id', async (c) => {
      const record = await repository.get(c.var.user.id, c.req.param('id'));
      if (!record) throw missing();
      return c.json(record);
    })
    .post('/', validate('json', definition.schema), async (c) => {
      const values = c.req.valid('json') as Record<string, unknown>;
      return c.json(await repository.create(c.var.user.id, values), 201);
    })
    .put('/:id', validate('json', definition.schema), async (c) => {
      const values = c.req.valid('json') as Record<string, unknown>;
      const record = await repository.update(c.var.user.id, c.req.param('id'), values);
      if (!record) throw missing();
      return c.json(record);
    })
    .delete('/:id', async (c) => {
      const deleted = await repository.delete(c.var.user.id, c.req.param('id'));
      if (!deleted) throw missing();
      return c.body(null, 204);
    });
}
