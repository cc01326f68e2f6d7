/**
 * The API of one record type, mounted at /api/{path}: list (with tabs, member filter and
 * pages), read, create, replace and delete. Built from the type's definition; a type with
 * special rules puts them in its schema, not here. What a request may read and write is
 * its access (its own rows, and the persons shared with it); a read or write of a shared
 * person's records is noted in the owner's security activity, once a day.
 */
import { Hono } from 'hono';
import { localToday } from '../../shared/dates';
import type { RecordDefinition } from '../../shared/records/definition';
import { listQuerySchema } from '../../shared/records/list-query';
import { shareOfRow, sharesInScope } from '../access/scope';
import type { HouseholdRepository } from '../household/household-repository';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { RecordRepository } from './record-repository';

export function recordRoutes<D extends RecordDefinition>(
  repository: RecordRepository<D>,
  household: Pick<HouseholdRepository, 'noteUse'>,
  hooks: {
    /** After a record is deleted (its documents are detached). */
    onDeleted?: (record: { user_id: string; id: string }) => Promise<void>;
    /** After a record is changed (documents of a person it no longer is are detached). */
    onUpdated?: (record: {
      user_id: string;
      id: string;
      family_member_id?: string | null;
    }) => Promise<void>;
    /** What a record's own page says besides its fields: where it came from (Import History). */
    detailOf?: (record: { user_id: string; id: string }) => Promise<object>;
  } = {},
) {
  const definition = repository.definition;
  const memberLinked = Boolean(definition.memberLinked);
  const missing = () => notFound(definition.messages.notFound);
  /** Notes the shared person a record is about, if it is someone else's. */
  const noteRecord = async (
    access: Awaited<ReturnType<AppEnv['Variables']['access']>>,
    record: { user_id: string; family_member_id?: string | null },
    kind: 'read' | 'write',
  ) => {
    const share = record.user_id === access.userId ? undefined : shareOfRow(access, record);
    if (share) await household.noteUse(access, [share], kind);
  };

  return new Hono<AppEnv>()
    .get('/', validate('query', listQuerySchema(definition)), async (c) => {
      const query = c.req.valid('query');
      const access = await c.var.access();
      const page = await repository.list(access, {
        view: query.view,
        memberId: query.member,
        today: query.today ?? localToday(),
        now: new Date().toISOString(),
        limit: query.limit,
        offset: query.offset,
      });
      const shared = sharesInScope(access, { memberLinked, personId: query.member });
      if (shared.length) await household.noteUse(access, shared, 'read');
      return c.json(page);
    })
    .get('/:id', async (c) => {
      const access = await c.var.access();
      const record = await repository.get(access, c.req.param('id'));
      if (!record) throw missing();
      await noteRecord(access, record, 'read');
      const detail = await hooks.detailOf?.(record as { user_id: string; id: string });
      return c.json({ ...record, ...detail });
    })
    .post('/', validate('json', definition.schema), async (c) => {
      const values = c.req.valid('json') as Record<string, unknown>;
      const access = await c.var.access();
      const record = await repository.create(access, values);
      await noteRecord(access, record, 'write');
      return c.json(record, 201);
    })
    .put('/:id', validate('json', definition.schema), async (c) => {
      const values = c.req.valid('json') as Record<string, unknown>;
      const access = await c.var.access();
      const record = await repository.update(access, c.req.param('id'), values);
      if (!record) throw missing();
      await hooks.onUpdated?.(record as { user_id: string; id: string });
      await noteRecord(access, record, 'write');
      return c.json(record);
    })
    .delete('/:id', async (c) => {
      const access = await c.var.access();
      const deleted = await repository.delete(access, c.req.param('id'));
      if (!deleted) throw missing();
      await hooks.onDeleted?.(deleted as { user_id: string; id: string });
      await noteRecord(access, deleted, 'write');
      return c.body(null, 204);
    });
}
