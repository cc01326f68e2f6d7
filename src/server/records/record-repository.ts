/**
 * The one repository of every record type: list, get, create, update and delete of the
 * rows a request may touch, driven by the type's definition. Which rows those are is the
 * access module's to say; no query here filters on an owner of its own.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { UNKNOWN_MEMBER_MESSAGE } from '../../shared/records/fields';
import type {
  ListView,
  OrderTerm,
  RecordDefinition,
  RecordPage,
  RecordTable,
  StoredRecord,
} from '../../shared/records/definition';
import { deleteOwned, ownedBy, ownedRow, ownedRows, updateOwned } from '../access/access';
import { prepareQuery, preparedShapes } from '../db/prepared-query';
import type { DB } from '../db/schema';
import { badRequest } from '../http/errors';
import { isId, newId, nowTimestamp } from '../ids';
import { recordRows } from './record-rows';
import type { FamilyMemberRepository } from '../family-members/family-member-repository';

type Row = Record<string, unknown>;

/**
 * A query of one record table as `r` (with its member as `m`): the table's own fields are
 * the definition's, so they are named by string; the zod schemas type the values going in
 * and the StoredRecord type the rows coming out.
 */
type RecordSelect = SelectQueryBuilder<DB & { r: DB[RecordTable] }, 'r', Row>;

/** What a prepared list or count query is run with; placeholders stand in when it is built. */
interface QueryValues extends Record<string, unknown> {
  userId: string;
  memberId: string | undefined;
  boundary: string;
  limit: number;
  offset: number;
}

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
  const db = database;
  const table: RecordTable = definition.table;

  function selectRecords(userId: string): RecordSelect {
    const base = ownedRows(db, table, userId, 'r').selectAll('r') as RecordSelect;
    if (!definition.memberLinked) return base;
    return base
      .leftJoin('family_members as m', (join) =>
        join.onRef('m.id', '=', 'r.family_member_id').on(ownedBy('family_members', userId, 'm')),
      )
      .select(['m.name as family_member_name', 'm.color as family_member_color']) as RecordSelect;
  }

  const rows = recordRows(definition);
  const fromRow = (row: Record<string, unknown>) => rows.fromRow(row) as Stored;
  const toRow = rows.toRow;

  function applyOrder(query: RecordSelect, order: readonly OrderTerm[]): RecordSelect {
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
    // Rows equal on every term keep one order from page to page: by id, in the direction of
    // the last term, so that a (owner, date, id) index is read in one direction and the
    // page needs no sort of its own.
    return ordered.orderBy('r.id', order.at(-1)?.direction ?? 'asc');
  }

  function applyView(query: RecordSelect, view: ListView, boundary: string): RecordSelect {
    const column = sql.ref(`r.${view.column}`);
    return query.where((eb) => {
      const compared = eb(column, view.comparison, boundary);
      return view.includesEmpty ? eb.or([eb(column, 'is', null), compared]) : compared;
    });
  }

  const boundaryOf = (view: ListView, options: ListOptions) =>
    view.against === 'now' ? options.now : options.today;

  /** Whether a query keeps to one member's records: a shape of its own. */
  const byMember = (memberId: string | undefined) => Boolean(memberId && definition.memberLinked);

  function filterMember(query: RecordSelect, filtered: boolean, memberId: string | undefined) {
    return filtered ? query.where('r.family_member_id', '=', memberId ?? null) : query;
  }

  const ownRows = (values: QueryValues, filtered: boolean) =>
    filterMember(
      ownedRows(db, table, values.userId, 'r') as RecordSelect,
      filtered,
      values.memberId,
    );

  const getById = prepareQuery(db, (values: { userId: string; id: string }) =>
    selectRecords(values.userId).where('r.id', '=', values.id),
  );
  const pages = preparedShapes<QueryValues, Row>();
  const totals = preparedShapes<QueryValues, Row>();
  const counts = preparedShapes<QueryValues, Row>();

  /**
   * The views that split a type's rows at the present (upcoming/past, current/past), if it
   * has such a pair: one counts what lies ahead of the present, the other what lies behind.
   */
  function splitAtPresent(): { ahead: [string, ListView]; behind: [string, ListView] } | null {
    const views = Object.entries(definition.views ?? {});
    const ahead = views.find(([, view]) => view.comparison === '>=');
    const behind = views.find(([, view]) => view.comparison === '<');
    if (views.length !== 2 || !ahead || !behind) return null;
    const sameSplit =
      ahead[1].column === behind[1].column && ahead[1].against === behind[1].against;
    return sameSplit ? { ahead, behind } : null;
  }
  const split = splitAtPresent();

  /** The user's (or one member's) rows of this type, from the totals the database keeps. */
  function storedTotalQuery(v: QueryValues, filtered: boolean) {
    const total = ownedRows(db, 'record_counts', v.userId)
      .select((eb) => eb.fn.coalesce(eb.fn.sum('total'), eb.lit(0)).as('total'))
      .where('record_table', '=', table);
    return filtered ? total.where('family_member_id', '=', v.memberId as string) : total;
  }

  async function storedTotal(values: QueryValues): Promise<number> {
    const filtered = byMember(values.memberId);
    const query = totals(String(filtered), () =>
      prepareQuery(db, (v: QueryValues) => storedTotalQuery(v, filtered)),
    );
    const [row] = await query(values);
    return Number(row?.total ?? 0);
  }

  /**
   * For a list split at the present: the stored total, the rows ahead of the present and
   * the undated ones, in one statement (three would cost three statements' overhead on
   * every page).
   */
  async function splitCounts(
    values: QueryValues,
    column: string,
  ): Promise<{ total: number; ahead: number; undated: number }> {
    const filtered = byMember(values.memberId);
    const query = counts(`split|${filtered}`, () =>
      prepareQuery(db, (v: QueryValues) => {
        const ref = sql.ref(`r.${column}`);
        const count = (condition: (query: RecordSelect) => RecordSelect) =>
          condition(ownRows(v, filtered)).select((eb) => eb.fn.countAll<number>().as('count'));
        return db.selectNoFrom([
          storedTotalQuery(v, filtered).as('total'),
          count((query) => query.where(ref, '>=', v.boundary)).as('ahead'),
          count((query) => query.where(ref, 'is', null)).as('undated'),
        ]);
      }),
    );
    const [row] = await query(values);
    return {
      total: Number(row?.total ?? 0),
      ahead: Number(row?.ahead ?? 0),
      undated: Number(row?.undated ?? 0),
    };
  }

  /** How many of the user's rows a condition holds, each condition a shape of its own. */
  async function countWhere(
    condition: string,
    values: QueryValues,
    where: (query: RecordSelect, values: QueryValues) => RecordSelect,
  ): Promise<number> {
    const filtered = byMember(values.memberId);
    const query = counts(`${condition}|${filtered}`, () =>
      prepareQuery(db, (v: QueryValues) =>
        where(ownRows(v, filtered), v).select((eb) => eb.fn.countAll<number>().as('count')),
      ),
    );
    const [row] = await query(values);
    return Number(row?.count ?? 0);
  }

  /**
   * How many records each view holds. Counting a view's rows costs as many as it holds, so
   * only what lies ahead of the present is counted (appointments to come, medicines still
   * taken, rows with no date: a handful, however long a family's history grows) and what
   * lies behind is the rest of the stored total. A type without views has the total alone.
   */
  async function countRecords(
    userId: string,
    options: ListOptions,
  ): Promise<Record<string, number>> {
    const values = (boundary: string): QueryValues => ({
      userId,
      memberId: options.memberId,
      boundary,
      limit: 0,
      offset: 0,
    });
    if (!definition.views) return { all: await storedTotal(values('')) };
    if (split) {
      const [aheadName, ahead] = split.ahead;
      const [behindName, behind] = split.behind;
      const {
        total,
        ahead: later,
        undated,
      } = await splitCounts(values(boundaryOf(ahead, options)), ahead.column);
      const earlier = Math.max(0, total - later - undated);
      return {
        [aheadName]: later + (ahead.includesEmpty ? undated : 0),
        [behindName]: earlier + (behind.includesEmpty ? undated : 0),
      };
    }
    const viewCounts = await Promise.all(
      Object.entries(definition.views).map(async ([name, view]) => {
        const count = await countWhere(`view:${name}`, values(boundaryOf(view, options)), (q, v) =>
          applyView(q, view, v.boundary),
        );
        return [name, count] as const;
      }),
    );
    return Object.fromEntries(viewCounts);
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
      const filtered = byMember(options.memberId);
      const page = pages(`${options.view ?? ''}|${filtered}`, () =>
        prepareQuery(db, (v: QueryValues) => {
          let query = filterMember(selectRecords(v.userId), filtered, v.memberId);
          query = view ? applyView(query, view, v.boundary) : query;
          query = applyOrder(query, view ? view.order : definition.order);
          return query.limit(v.limit).offset(v.offset);
        }),
      );
      const [rows, counts] = await Promise.all([
        page({
          userId,
          memberId: options.memberId,
          boundary: view ? boundaryOf(view, options) : '',
          limit: options.limit + 1,
          offset: options.offset,
        }),
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
      const [row] = await getById({ userId, id });
      return row ? fromRow(row) : undefined;
    },

    async create(userId: string, values: Record<string, unknown>): Promise<Stored> {
      await assertMemberOwned(userId, values);
      const now = nowTimestamp();
      const id = newId();
      await db
        .insertInto(table)
        .values(ownedRow(userId, { id, ...toRow(values), created_at: now, updated_at: now }))
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
      const result = await updateOwned(db, table, userId)
        .set({ ...toRow(values), updated_at: nowTimestamp() })
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return undefined;
      return this.get(userId, id);
    },

    async delete(userId: string, id: string): Promise<boolean> {
      if (!isId(id)) return false;
      const result = await deleteOwned(db, table, userId).where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type RecordRepository<D extends RecordDefinition = RecordDefinition> = ReturnType<
  typeof createRecordRepository<D>
>;
