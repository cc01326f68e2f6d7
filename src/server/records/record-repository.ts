/**
 * The one repository of every record type: owner-scoped list, get, create, update and
 * delete, driven by the type's definition. Every query it builds is filtered on the owner;
 * no route builds its own ownership filter.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { UNKNOWN_MEMBER_MESSAGE } from '../../shared/records/fields';
import type {
  ListView,
  OrderTerm,
  RecordDefinition,
  RecordPage,
  StoredRecord,
} from '../../shared/records/definition';
import type { DB } from '../db/schema';
import { badRequest } from '../http/errors';
import { isId, newId, nowTimestamp } from '../ids';
import { recordRows } from './record-rows';
import type { FamilyMemberRepository } from '../family-members/family-member-repository';

/*
 * Record tables are described by definitions at run time rather than by static table
 * types, so this module speaks to Kysely untyped; the definitions' zod schemas type the
 * values going in and the StoredRecord type the rows coming out.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;
type AnySelect = SelectQueryBuilder<any, any, any>;

export interface ListOptions {
  view?: string;
  memberId?: string;
  /** The browser's calendar date, for views split at today. */
  today: string;
  /** The server's clock, for views split at now. */
  now: string;
  limit: number;
  offset: number;
}

export function createRecordRepository<D extends RecordDefinition>(
  database: Kysely<DB>,
  definition: D,
  members: FamilyMemberRepository,
) {
  type Stored = StoredRecord<D>;
  const db = database as unknown as AnyDb;
  const { table } = definition;

  function selectRecords(userId: string): AnySelect {
    const base = db.selectFrom(`${table} as r`).selectAll('r').where('r.user_id', '=', userId);
    if (!definition.memberLinked) return base;
    return base
      .leftJoin('family_members as m', 'm.id', 'r.family_member_id')
      .select(['m.name as family_member_name', 'm.color as family_member_color']);
  }

  const rows = recordRows(definition);
  const fromRow = (row: Record<string, unknown>) => rows.fromRow(row) as Stored;
  const toRow = rows.toRow;

  function applyOrder(query: AnySelect, order: readonly OrderTerm[]): AnySelect {
    let ordered = query;
    for (const term of order) {
      const column = sql.ref(`r.${term.column}`);
      const expression = term.caseInsensitive ? sql`lower(${column})` : column;
      ordered = ordered.orderBy(expression, (item) => {
        const directed = term.direction === 'asc' ? item.asc() : item.desc();
        if (term.nulls === 'last') return directed.nullsLast();
        if (term.nulls === 'first') return directed.nullsFirst();
        return directed;
      });
    }
    // Rows equal on every term keep one order from page to page.
    return ordered.orderBy('r.id', 'asc');
  }

  function applyView(query: AnySelect, view: ListView, options: ListOptions): AnySelect {
    const column = `r.${view.column}`;
    const boundary = view.against === 'now' ? options.now : options.today;
    return query.where((eb) => {
      const compared = eb(column, view.comparison, boundary);
      return view.includesEmpty ? eb.or([eb(column, 'is', null), compared]) : compared;
    });
  }

  function filterMember(query: AnySelect, memberId: string | undefined): AnySelect {
    return memberId && definition.memberLinked
      ? query.where('r.family_member_id', '=', memberId)
      : query;
  }

  async function countRecords(
    userId: string,
    options: ListOptions,
  ): Promise<Record<string, number>> {
    const base = () =>
      filterMember(
        db.selectFrom(`${table} as r`).where('r.user_id', '=', userId),
        options.memberId,
      );
    const views = Object.entries(definition.views ?? { all: null });
    const counts = await Promise.all(
      views.map(async ([name, view]) => {
        const query = view ? applyView(base(), view, options) : base();
        const row = await query
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirst();
        return [name, Number(row?.count ?? 0)] as const;
      }),
    );
    return Object.fromEntries(counts);
  }

  async function assertMemberOwned(userId: string, values: Record<string, unknown>) {
    const memberId = values.family_member_id;
    if (typeof memberId === 'string' && !(await members.owns(userId, memberId))) {
      throw badRequest(UNKNOWN_MEMBER_MESSAGE, 'family_member_id');
    }
  }

  return {
    definition,

    async list(userId: string, options: ListOptions): Promise<RecordPage<Stored>> {
      const view = options.view ? definition.views?.[options.view] : undefined;
      let query = filterMember(selectRecords(userId), options.memberId);
      query = view ? applyView(query, view, options) : query;
      query = applyOrder(query, view ? view.order : definition.order);
      const [rows, counts] = await Promise.all([
        query
          .limit(options.limit + 1)
          .offset(options.offset)
          .execute(),
        countRecords(userId, options),
      ]);
      const hasMore = rows.length > options.limit;
      return {
        items: rows.slice(0, options.limit).map(fromRow),
        next: hasMore ? options.offset + options.limit : null,
        counts,
      };
    },

    async get(userId: string, id: string): Promise<Stored | undefined> {
      if (!isId(id)) return undefined;
      const row = await selectRecords(userId).where('r.id', '=', id).executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },

    async create(userId: string, values: Record<string, unknown>): Promise<Stored> {
      await assertMemberOwned(userId, values);
      const now = nowTimestamp();
      const id = newId();
      await db
        .insertInto(table)
        .values({ id, user_id: userId, ...toRow(values), created_at: now, updated_at: now })
        .execute();
      const created = await this.get(userId, id);
      if (!created) throw new Error(`${table} row ${id} vanished after insert`);
      return created;
    },

    async update(
      userId: string,
      id: string,
      values: Record<string, unknown>,
    ): Promise<Stored | undefined> {
      if (!isId(id)) return undefined;
      await assertMemberOwned(userId, values);
      const result = await db
        .updateTable(table)
        .set({ ...toRow(values), updated_at: nowTimestamp() })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return undefined;
      return this.get(userId, id);
    },

    async delete(userId: string, id: string): Promise<boolean> {
      if (!isId(id)) return false;
      const result = await db
        .deleteFrom(table)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type RecordRepository<D extends RecordDefinition = RecordDefinition> = ReturnType<
  typeof createRecordRepository<D>
>;
