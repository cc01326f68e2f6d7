/**
 * The one repository of every record type: list, get, create, update and delete of the
 * rows a request may touch, driven by the type's definition. Which rows those are is the
 * access module's to say; no query here filters on an owner of its own.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { beforeBirthIssue, UNKNOWN_MEMBER_MESSAGE } from '../../shared/records/fields';
import type {
  ListView,
  OrderTerm,
  RecordDefinition,
  RecordPage,
  RecordTable,
  StoredRecord,
} from '../../shared/records/definition';
import {
  deleteInScope,
  rowsInScope,
  scopeOf,
  scopeShape,
  scopeValues,
  shareOfRow,
  viewOnly,
  writeTarget,
  updateInScope,
  type Access,
  type Scope,
} from '../access/scope';
import { ownedRow } from '../access/access';
import { prepareQuery, preparedShapes } from '../db/prepared-query';
import type { DB } from '../db/schema';
import { withPersonNames } from '../persons/person-columns';
import { badRequest } from '../http/errors';
import { isId, newId, nowTimestamp } from '../ids';
import { personRowsOf, personsOfContacts, setContactPersons } from './record-persons';
import { recordRows } from './record-rows';
import type { FamilyMemberRepository } from '../family-members/family-member-repository';

type Row = Record<string, unknown>;

/**
 * A query of one record table as `r` (with its member as `m`): the table's own fields are
 * the definition's, so they are named by string; the zod schemas type the values going in
 * and the StoredRecord type the rows coming out.
 */
type RecordSelect = SelectQueryBuilder<DB & { r: DB[RecordTable] }, 'r', Row>;

/**
 * What a prepared list or count query is run with; placeholders stand in when it is built.
 * Its scope's owners and members are in it by name (see access/scope.ts).
 */
interface QueryValues extends Record<string, unknown> {
  boundary: string;
  limit: number;
  offset: number;
}

export interface ListOptions {
  view?: string;
  /** Keep to one person: a member of the user's, or a person shared with them. */
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
  const memberLinked = Boolean(definition.memberLinked);

  /**
   * The rows of a scope as `r`, with their person's name and colour: their member's, or, on
   * the records of an owner who shared themself, the owner's name.
   */
  function selectRecords(scope: Scope, values: Record<string, unknown>): RecordSelect {
    const base = rowsInScope(db, table, scope, values, 'r').selectAll('r') as RecordSelect;
    if (!memberLinked) return base;
    return withPersonNames(base, scope, values, 'r');
  }

  const rows = recordRows(definition);
  const fromRow = (row: Record<string, unknown>) => rows.fromRow(row) as Stored;
  const toRow = rows.toRow;

  // The persons a record is for are kept beside it: only contacts have them (migration 0020).
  const personsField = rows.personsField;
  if (personsField && table !== 'contacts') {
    throw new Error(`${table}: only contacts keep the persons they are for`);
  }
  const personsSpec = personsField
    ? { name: personsField, label: definition.fields[personsField]?.label ?? personsField }
    : undefined;

  /** The records with the persons each is for (none: the whole family), for types that have them. */
  async function withPersons(records: Stored[]): Promise<Stored[]> {
    if (!personsField) return records;
    const byOwner = new Map<string, Stored[]>();
    for (const record of records) {
      byOwner.set(record.user_id, [...(byOwner.get(record.user_id) ?? []), record]);
    }
    for (const [owner, owned] of byOwner) {
      const persons = await personsOfContacts(
        db,
        owner,
        owned.map((record) => record.id),
      );
      for (const record of owned) {
        (record as Record<string, unknown>)[personsField] = persons.get(record.id) ?? [];
      }
    }
    return records;
  }

  /** The persons a record being written names, checked against its owner's own persons. */
  const personsToWrite = (owner: string, values: Record<string, unknown>) =>
    personsField && personsSpec
      ? personRowsOf(db, owner, (values[personsField] as string[] | undefined) ?? [], personsSpec)
      : Promise.resolve(undefined);

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

  const scopedRows = (scope: Scope, values: QueryValues) =>
    rowsInScope(db, table, scope, values, 'r') as RecordSelect;

  /**
   * A new record's row, as a statement built once per set of columns (see
   * db/prepared-query.ts); `create` gives every column, null when empty, so there is one.
   */
  const inserts = preparedShapes<Record<string, unknown>, unknown>();
  function insertRow(row: Record<string, unknown>) {
    const columns = Object.keys(row);
    const insert = inserts(columns.join(','), () =>
      prepareQuery(db, (values: Record<string, unknown>) =>
        db
          .insertInto(table)
          .values(Object.fromEntries(columns.map((column) => [column, values[column]]))),
      ),
    );
    return insert(row);
  }

  const getByIds = preparedShapes<Record<string, unknown>, Row>();
  const pages = preparedShapes<QueryValues, Row>();
  const totals = preparedShapes<QueryValues, Row>();
  const counts = preparedShapes<QueryValues, Row>();

  /**
   * The views that split a type's rows at the present (upcoming/past, current/past), if it
   * has such a pair: one counts what lies ahead of the present, the other what lies behind.
   */
  function splitAtPresent(): { ahead: [string, ListView]; behind: [string, ListView] } | null {
    const views = Object.entries(definition.views ?? {});
    const ahead = views.find(([, view]) => view.comparison.startsWith('>'));
    const behind = views.find(([, view]) => view.comparison.startsWith('<'));
    if (views.length !== 2 || !ahead || !behind) return null;
    // Each row on exactly one side: `>=` with `<`, or `>` with `<=`.
    const complementary = (ahead[1].comparison === '>=') === (behind[1].comparison === '<');
    const sameSplit =
      complementary &&
      ahead[1].column === behind[1].column &&
      ahead[1].against === behind[1].against;
    return sameSplit ? { ahead, behind } : null;
  }
  const split = splitAtPresent();

  /** The scope's rows of this type, from the totals the database keeps. */
  function storedTotalQuery(scope: Scope, v: QueryValues) {
    return rowsInScope(db, 'record_counts', scope, v)
      .select((eb) => eb.fn.coalesce(eb.fn.sum('total'), eb.lit(0)).as('total'))
      .where('record_table', '=', table);
  }

  async function storedTotal(scope: Scope, values: QueryValues): Promise<number> {
    const query = totals(scopeShape(scope), () =>
      prepareQuery(db, (v: QueryValues) => storedTotalQuery(scope, v)),
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
    scope: Scope,
    values: QueryValues,
    ahead: ListView,
  ): Promise<{ total: number; ahead: number; undated: number }> {
    const query = counts(`split|${scopeShape(scope)}`, () =>
      prepareQuery(db, (v: QueryValues) => {
        const ref = sql.ref(`r.${ahead.column}`);
        const count = (condition: (query: RecordSelect) => RecordSelect) =>
          condition(scopedRows(scope, v)).select((eb) => eb.fn.countAll<number>().as('count'));
        return db.selectNoFrom([
          storedTotalQuery(scope, v).as('total'),
          count((query) => query.where(ref, ahead.comparison, v.boundary)).as('ahead'),
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

  /** How many of the scope's rows a condition holds, each condition a shape of its own. */
  async function countWhere(
    condition: string,
    scope: Scope,
    values: QueryValues,
    where: (query: RecordSelect, values: QueryValues) => RecordSelect,
  ): Promise<number> {
    const query = counts(`${condition}|${scopeShape(scope)}`, () =>
      prepareQuery(db, (v: QueryValues) =>
        where(scopedRows(scope, v), v).select((eb) => eb.fn.countAll<number>().as('count')),
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
  async function countRecords(scope: Scope, options: ListOptions): Promise<Record<string, number>> {
    const values = (boundary: string): QueryValues => ({
      ...scopeValues(scope),
      boundary,
      limit: 0,
      offset: 0,
    });
    if (!definition.views) return { all: await storedTotal(scope, values('')) };
    if (split) {
      const [aheadName, ahead] = split.ahead;
      const [behindName, behind] = split.behind;
      const {
        total,
        ahead: later,
        undated,
      } = await splitCounts(scope, values(boundaryOf(ahead, options)), ahead);
      const earlier = Math.max(0, total - later - undated);
      return {
        [aheadName]: later + (ahead.includesEmpty ? undated : 0),
        [behindName]: earlier + (behind.includesEmpty ? undated : 0),
      };
    }
    const viewCounts = await Promise.all(
      Object.entries(definition.views).map(async ([name, view]) => {
        const count = await countWhere(
          `view:${name}`,
          scope,
          values(boundaryOf(view, options)),
          (q, v) => applyView(q, view, v.boundary),
        );
        return [name, count] as const;
      }),
    );
    return Object.fromEntries(viewCounts);
  }

  /** A row of the scope by id. */
  async function getInScope(scope: Scope, id: string): Promise<Stored | undefined> {
    const query = getByIds(scopeShape(scope), () =>
      prepareQuery(db, (v: Record<string, unknown>) =>
        selectRecords(scope, v)
          .leftJoin('user as changer', 'changer.id', 'r.changed_by')
          .select('changer.name as changed_by_name')
          .where('r.id', '=', v.id as string),
      ),
    );
    const [row] = await query({ ...scopeValues(scope), id });
    return row ? (await withPersons([fromRow(row)]))[0] : undefined;
  }

  /** A record the user may read, and whether they may change it (403 when they may not). */
  async function writable(access: Access, id: string): Promise<Stored | undefined> {
    const record = await getInScope(scopeOf(access, { memberLinked }), id);
    if (!record) return undefined;
    if (record.user_id !== access.userId && shareOfRow(access, record)?.role !== 'editor') {
      throw viewOnly();
    }
    return record;
  }

  const checksBirth = Object.values(definition.fields).some((field) => field.sinceBirth);

  /**
   * Where a new or changed record goes, by the person it names; refused when one of its
   * dates lies before that person's Date of Birth (the account holder has none).
   */
  async function targetOf(access: Access, values: Record<string, unknown>) {
    if (!memberLinked) return { owner: access.userId, member: null };
    const target = await writeTarget(
      access,
      values.family_member_id as string | null | undefined,
      (memberId) => members.owns(access.userId, memberId),
    );
    if (checksBirth && target.member) {
      const person = await members.get(target.owner, target.member);
      const issue = beforeBirthIssue(definition.fields, values, person);
      if (issue) throw badRequest(issue.message, issue.field);
    }
    return target;
  }

  return {
    definition,

    async list(access: Access, options: ListOptions): Promise<RecordPage<Stored>> {
      const view = options.view ? definition.views?.[options.view] : undefined;
      const scope = scopeOf(access, { memberLinked, personId: options.memberId });
      const page = pages(`${options.view ?? ''}|${scopeShape(scope)}`, () =>
        prepareQuery(db, (v: QueryValues) => {
          let query = selectRecords(scope, v);
          query = view ? applyView(query, view, v.boundary) : query;
          query = applyOrder(query, view ? view.order : definition.order);
          return query.limit(v.limit).offset(v.offset);
        }),
      );
      const [rows, counts] = await Promise.all([
        page({
          ...scopeValues(scope),
          boundary: view ? boundaryOf(view, options) : '',
          limit: options.limit + 1,
          offset: options.offset,
        }),
        countRecords(scope, options),
      ]);
      const hasMore = rows.length > options.limit;
      return {
        items: await withPersons(rows.slice(0, options.limit).map(fromRow)),
        next: hasMore ? options.offset + options.limit : null,
        counts,
      };
    },

    /** A record the user may read (their own, or a shared person's), with who last changed it. */
    async get(access: Access, id: string): Promise<Stored | undefined> {
      if (!isId(id)) return undefined;
      return getInScope(scopeOf(access, { memberLinked }), id);
    },

    async create(access: Access, values: Record<string, unknown>): Promise<Stored> {
      const target = await targetOf(access, values);
      const persons = await personsToWrite(target.owner, values);
      const now = nowTimestamp();
      const id = newId();
      const row: Record<string, unknown> = {
        id,
        ...toRow(values),
        changed_by: access.userId,
        created_at: now,
        updated_at: now,
      };
      if (memberLinked) row.family_member_id = target.member;
      await insertRow(ownedRow(target.owner, row));
      if (persons) await setContactPersons(db, target.owner, id, persons);
      const created = await this.get(access, id);
      if (!created) throw new Error(`${table} row ${id} vanished after insert`);
      return created;
    },

    /**
     * Several new records in one statement, so all are saved or none (a panel of lab
     * results): each is checked as `create` checks one before any is written.
     */
    async createAll(access: Access, valuesList: Record<string, unknown>[]): Promise<Stored[]> {
      if (personsField) throw new Error(`${table}: records with persons are created one by one`);
      const now = nowTimestamp();
      const rows: Record<string, unknown>[] = [];
      for (const values of valuesList) {
        const target = await targetOf(access, values);
        const row: Record<string, unknown> = {
          id: newId(),
          ...toRow(values),
          changed_by: access.userId,
          created_at: now,
          updated_at: now,
        };
        if (memberLinked) row.family_member_id = target.member;
        rows.push(ownedRow(target.owner, row));
      }
      if (rows.length === 0) return [];
      await db.insertInto(table).values(rows).execute();
      const created: Stored[] = [];
      for (const row of rows) {
        const record = await this.get(access, row.id as string);
        if (record) created.push(record);
      }
      return created;
    },

    async update(
      access: Access,
      id: string,
      values: Record<string, unknown>,
    ): Promise<Stored | undefined> {
      if (!isId(id)) return undefined;
      const record = await writable(access, id);
      if (!record) return undefined;
      const target = await targetOf(access, values);
      // A record stays with the account that keeps it: it can move between that account's
      // persons the user may write, never to another account.
      if (target.owner !== record.user_id) {
        throw badRequest(UNKNOWN_MEMBER_MESSAGE, 'family_member_id');
      }
      const persons = await personsToWrite(target.owner, values);
      const changes: Record<string, unknown> = {
        ...toRow(values),
        changed_by: access.userId,
        updated_at: nowTimestamp(),
      };
      if (memberLinked) changes.family_member_id = target.member;
      const result = await updateInScope(db, table, scopeOf(access, { memberLinked, write: true }))
        .set(changes)
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return undefined;
      if (persons) await setContactPersons(db, target.owner, id, persons);
      return this.get(access, id);
    },

    /** Deletes a record the user may change: the record it was, or undefined. */
    async delete(access: Access, id: string): Promise<Stored | undefined> {
      if (!isId(id)) return undefined;
      const record = await writable(access, id);
      if (!record) return undefined;
      const result = await deleteInScope(db, table, scopeOf(access, { memberLinked, write: true }))
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n ? record : undefined;
    },
  };
}

export type RecordRepository<D extends RecordDefinition = RecordDefinition> = ReturnType<
  typeof createRecordRepository<D>
>;
