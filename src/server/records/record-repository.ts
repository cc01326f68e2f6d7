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
  updateInScope,
  ownedRow,
  type Access,
  type Scope,
} from '../access/scope';
import { viewOnly, writeTarget } from '../access/persons';
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

/** The prepared statements of one shape each (see db/prepared-query.ts). */
type Statements<Values extends Record<string, unknown>, Result> = ReturnType<
  typeof preparedShapes<Values, Result>
>;

/** The pair of views that splits a type's rows at the present, each with its name. */
interface PresentSplit {
  ahead: [string, ListView];
  behind: [string, ListView];
}

/**
 * One record type's table as its repository works with it, made once per type: how its rows
 * map to records, the persons kept beside them, the views that split it at the present, and
 * the statements prepared for it so far.
 */
interface RecordStore<D extends RecordDefinition> {
  db: Kysely<DB>;
  definition: D;
  table: RecordTable;
  memberLinked: boolean;
  members: FamilyMemberRepository;
  fromRow: (row: Row) => StoredRecord<D>;
  toRow: (values: Row) => Row;
  /** The field naming the persons a record is for, with its label; only contacts have one. */
  persons: { name: string; label: string } | undefined;
  split: PresentSplit | null;
  /** Whether a date of the type may not lie before its person's Date of Birth. */
  checksBirth: boolean;
  statements: {
    inserts: Statements<Row, unknown>;
    getByIds: Statements<Row, Row>;
    pages: Statements<QueryValues, Row>;
    totals: Statements<QueryValues, Row>;
    counts: Statements<QueryValues, Row>;
  };
}

function openRecordStore<D extends RecordDefinition>(
  db: Kysely<DB>,
  definition: D,
  members: FamilyMemberRepository,
): RecordStore<D> {
  const table: RecordTable = definition.table;
  const rows = recordRows(definition);
  // The persons a record is for are kept beside it: only contacts have them (migration 0020).
  const personsField = rows.personsField;
  if (personsField && table !== 'contacts') {
    throw new Error(`${table}: only contacts keep the persons they are for`);
  }
  return {
    db,
    definition,
    table,
    memberLinked: Boolean(definition.memberLinked),
    members,
    fromRow: (row) => rows.fromRow(row) as StoredRecord<D>,
    toRow: rows.toRow,
    persons: personsField
      ? { name: personsField, label: definition.fields[personsField]?.label ?? personsField }
      : undefined,
    split: splitAtPresent(definition),
    checksBirth: Object.values(definition.fields).some((field) => field.sinceBirth),
    statements: {
      inserts: preparedShapes<Row, unknown>(),
      getByIds: preparedShapes<Row, Row>(),
      pages: preparedShapes<QueryValues, Row>(),
      totals: preparedShapes<QueryValues, Row>(),
      counts: preparedShapes<QueryValues, Row>(),
    },
  };
}

/**
 * The views that split a type's rows at the present (upcoming/past, current/past), if it
 * has such a pair: one counts what lies ahead of the present, the other what lies behind.
 */
function splitAtPresent(definition: RecordDefinition): PresentSplit | null {
  const views = Object.entries(definition.views ?? {});
  const ahead = views.find(([, view]) => view.comparison.startsWith('>'));
  const behind = views.find(([, view]) => view.comparison.startsWith('<'));
  if (views.length !== 2 || !ahead || !behind) return null;
  // Each row on exactly one side: `>=` with `<`, or `>` with `<=`.
  const complementary = (ahead[1].comparison === '>=') === (behind[1].comparison === '<');
  const sameSplit =
    complementary && ahead[1].column === behind[1].column && ahead[1].against === behind[1].against;
  return sameSplit ? { ahead, behind } : null;
}

// Reading: the rows of a scope, in a view's order, with their persons.

const scopedRows = (store: RecordStore<RecordDefinition>, scope: Scope, values: QueryValues) =>
  rowsInScope(store.db, store.table, scope, values, 'r') as RecordSelect;

/**
 * The rows of a scope as `r`, with their person's name and colour: their member's, or, on
 * the records of an owner who shared themself, the owner's name.
 */
function selectRecords(
  store: RecordStore<RecordDefinition>,
  scope: Scope,
  values: Record<string, unknown>,
): RecordSelect {
  const base = rowsInScope(store.db, store.table, scope, values, 'r').selectAll(
    'r',
  ) as RecordSelect;
  if (!store.memberLinked) return base;
  return withPersonNames(base, scope, values, 'r');
}

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

/** The records with the persons each is for (none: the whole family), for types that have them. */
async function withPersons<D extends RecordDefinition>(
  store: RecordStore<D>,
  records: StoredRecord<D>[],
): Promise<StoredRecord<D>[]> {
  const personsField = store.persons?.name;
  if (!personsField) return records;
  const byOwner = new Map<string, StoredRecord<D>[]>();
  for (const record of records) {
    byOwner.set(record.user_id, [...(byOwner.get(record.user_id) ?? []), record]);
  }
  for (const [owner, owned] of byOwner) {
    const persons = await personsOfContacts(
      store.db,
      owner,
      owned.map((record) => record.id),
    );
    for (const record of owned) {
      (record as Record<string, unknown>)[personsField] = persons.get(record.id) ?? [];
    }
  }
  return records;
}

/** A page of the records a request may read, in a view or all of them, with each view's count. */
async function listRecords<D extends RecordDefinition>(
  store: RecordStore<D>,
  access: Access,
  options: ListOptions,
): Promise<RecordPage<StoredRecord<D>>> {
  const { definition, memberLinked } = store;
  const view = options.view ? definition.views?.[options.view] : undefined;
  const scope = scopeOf(access, { memberLinked, personId: options.memberId });
  const page = store.statements.pages(`${options.view ?? ''}|${scopeShape(scope)}`, () =>
    prepareQuery(store.db, (v: QueryValues) => {
      let query = selectRecords(store, scope, v);
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
    countRecords(store, scope, options),
  ]);
  const hasMore = rows.length > options.limit;
  return {
    items: await withPersons(store, rows.slice(0, options.limit).map(store.fromRow)),
    next: hasMore ? options.offset + options.limit : null,
    counts,
  };
}

/** A row of the scope by id, with who last changed it. */
async function getInScope<D extends RecordDefinition>(
  store: RecordStore<D>,
  scope: Scope,
  id: string,
): Promise<StoredRecord<D> | undefined> {
  const query = store.statements.getByIds(scopeShape(scope), () =>
    prepareQuery(store.db, (v: Record<string, unknown>) =>
      selectRecords(store, scope, v)
        .leftJoin('user as changer', 'changer.id', 'r.changed_by')
        .select('changer.name as changed_by_name')
        .where('r.id', '=', v.id as string),
    ),
  );
  const [row] = await query({ ...scopeValues(scope), id });
  return row ? (await withPersons(store, [store.fromRow(row)]))[0] : undefined;
}

/** A record the user may read (their own, or a shared person's), with who last changed it. */
async function getRecord<D extends RecordDefinition>(
  store: RecordStore<D>,
  access: Access,
  id: string,
): Promise<StoredRecord<D> | undefined> {
  if (!isId(id)) return undefined;
  return getInScope(store, scopeOf(access, { memberLinked: store.memberLinked }), id);
}

// Counting: how many records each view of a list holds.

/**
 * How many records each view holds. Counting a view's rows costs as many as it holds, so
 * only what lies ahead of the present is counted (appointments to come, medicines still
 * taken, rows with no date: a handful, however long a family's history grows) and what
 * lies behind is the rest of the stored total. A type without views has the total alone.
 */
async function countRecords(
  store: RecordStore<RecordDefinition>,
  scope: Scope,
  options: ListOptions,
): Promise<Record<string, number>> {
  const { definition, split } = store;
  const values = (boundary: string): QueryValues => ({
    ...scopeValues(scope),
    boundary,
    limit: 0,
    offset: 0,
  });
  if (!definition.views) return { all: await storedTotal(store, scope, values('')) };
  if (split) {
    const [aheadName, ahead] = split.ahead;
    const [behindName, behind] = split.behind;
    const {
      total,
      ahead: later,
      undated,
    } = await splitCounts(store, scope, values(boundaryOf(ahead, options)), ahead);
    const earlier = Math.max(0, total - later - undated);
    return {
      [aheadName]: later + (ahead.includesEmpty ? undated : 0),
      [behindName]: earlier + (behind.includesEmpty ? undated : 0),
    };
  }
  const viewCounts = await Promise.all(
    Object.entries(definition.views).map(async ([name, view]) => {
      const count = await countWhere(
        store,
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

/** The scope's rows of this type, from the totals the database keeps. */
function storedTotalQuery(store: RecordStore<RecordDefinition>, scope: Scope, v: QueryValues) {
  return rowsInScope(store.db, 'record_counts', scope, v)
    .select((eb) => eb.fn.coalesce(eb.fn.sum('total'), eb.lit(0)).as('total'))
    .where('record_table', '=', store.table);
}

async function storedTotal(
  store: RecordStore<RecordDefinition>,
  scope: Scope,
  values: QueryValues,
): Promise<number> {
  const query = store.statements.totals(scopeShape(scope), () =>
    prepareQuery(store.db, (v: QueryValues) => storedTotalQuery(store, scope, v)),
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
  store: RecordStore<RecordDefinition>,
  scope: Scope,
  values: QueryValues,
  ahead: ListView,
): Promise<{ total: number; ahead: number; undated: number }> {
  const query = store.statements.counts(`split|${scopeShape(scope)}`, () =>
    prepareQuery(store.db, (v: QueryValues) => {
      const ref = sql.ref(`r.${ahead.column}`);
      const count = (condition: (query: RecordSelect) => RecordSelect) =>
        condition(scopedRows(store, scope, v)).select((eb) => eb.fn.countAll<number>().as('count'));
      return store.db.selectNoFrom([
        storedTotalQuery(store, scope, v).as('total'),
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
  store: RecordStore<RecordDefinition>,
  condition: string,
  scope: Scope,
  values: QueryValues,
  where: (query: RecordSelect, values: QueryValues) => RecordSelect,
): Promise<number> {
  const query = store.statements.counts(`${condition}|${scopeShape(scope)}`, () =>
    prepareQuery(store.db, (v: QueryValues) =>
      where(scopedRows(store, scope, v), v).select((eb) => eb.fn.countAll<number>().as('count')),
    ),
  );
  const [row] = await query(values);
  return Number(row?.count ?? 0);
}

// Who may write what: the record, the person it goes to, the persons it names.

/** Refuses (403) a record the user may read but not change: a shared person's, as a viewer. */
function checkMayChange(access: Access, record: StoredRecord<RecordDefinition>): void {
  if (record.user_id !== access.userId && shareOfRow(access, record)?.role !== 'editor') {
    throw viewOnly();
  }
}

/**
 * Where a new or changed record goes, by the person it names; refused when one of its
 * dates lies before that person's Date of Birth (the account holder has none).
 */
async function targetOf(
  store: RecordStore<RecordDefinition>,
  access: Access,
  values: Record<string, unknown>,
) {
  if (!store.memberLinked) return { owner: access.userId, member: null };
  const target = await writeTarget(
    access,
    values.family_member_id as string | null | undefined,
    (memberId) => store.members.owns(access.userId, memberId),
  );
  if (store.checksBirth && target.member) {
    const person = await store.members.get(target.owner, target.member);
    const issue = beforeBirthIssue(store.definition.fields, values, person);
    if (issue) throw badRequest(issue.message, issue.field);
  }
  return target;
}

type Target = Awaited<ReturnType<typeof targetOf>>;

/** The persons a record being written names, checked against its owner's own persons. */
const personsToWrite = (
  store: RecordStore<RecordDefinition>,
  owner: string,
  values: Record<string, unknown>,
) =>
  store.persons
    ? personRowsOf(
        store.db,
        owner,
        (values[store.persons.name] as string[] | undefined) ?? [],
        store.persons,
      )
    : Promise.resolve(undefined);

// Writing: create, update and delete, within what the checks above allow.

/** A new record's row, its owner the target's. */
function newRow(
  store: RecordStore<RecordDefinition>,
  access: Access,
  values: Record<string, unknown>,
  target: Target,
  now: string,
): Row {
  const row: Row = {
    id: newId(),
    ...store.toRow(values),
    changed_by: access.userId,
    created_at: now,
    updated_at: now,
  };
  if (store.memberLinked) row.family_member_id = target.member;
  return ownedRow(target.owner, row);
}

/**
 * A new record's row, as a statement built once per set of columns (see
 * db/prepared-query.ts); `create` gives every column, null when empty, so there is one.
 */
function insertRow(store: RecordStore<RecordDefinition>, row: Row) {
  const columns = Object.keys(row);
  const insert = store.statements.inserts(columns.join(','), () =>
    prepareQuery(store.db, (values: Row) =>
      store.db
        .insertInto(store.table)
        .values(Object.fromEntries(columns.map((column) => [column, values[column]]))),
    ),
  );
  return insert(row);
}

async function createRecord<D extends RecordDefinition>(
  store: RecordStore<D>,
  access: Access,
  values: Record<string, unknown>,
): Promise<StoredRecord<D>> {
  const target = await targetOf(store, access, values);
  const persons = await personsToWrite(store, target.owner, values);
  const row = newRow(store, access, values, target, nowTimestamp());
  const id = row.id as string;
  await insertRow(store, row);
  if (persons) await setContactPersons(store.db, target.owner, id, persons);
  const created = await getRecord(store, access, id);
  if (!created) throw new Error(`${store.table} row ${id} vanished after insert`);
  return created;
}

async function createRecords<D extends RecordDefinition>(
  store: RecordStore<D>,
  access: Access,
  valuesList: Record<string, unknown>[],
): Promise<StoredRecord<D>[]> {
  if (store.persons) {
    throw new Error(`${store.table}: records with persons are created one by one`);
  }
  const now = nowTimestamp();
  const rows: Row[] = [];
  for (const values of valuesList) {
    rows.push(newRow(store, access, values, await targetOf(store, access, values), now));
  }
  if (rows.length === 0) return [];
  await store.db.insertInto(store.table).values(rows).execute();
  const created: StoredRecord<D>[] = [];
  for (const row of rows) {
    const record = await getRecord(store, access, row.id as string);
    if (record) created.push(record);
  }
  return created;
}

async function updateRecord<D extends RecordDefinition>(
  store: RecordStore<D>,
  access: Access,
  id: string,
  values: Record<string, unknown>,
): Promise<StoredRecord<D> | undefined> {
  const record = await getRecord(store, access, id);
  if (!record) return undefined;
  checkMayChange(access, record);
  const target = await targetOf(store, access, values);
  // A record stays with the account that keeps it: it can move between that account's
  // persons the user may write, never to another account.
  if (target.owner !== record.user_id) {
    throw badRequest(UNKNOWN_MEMBER_MESSAGE, 'family_member_id');
  }
  const persons = await personsToWrite(store, target.owner, values);
  const changes: Row = {
    ...store.toRow(values),
    changed_by: access.userId,
    updated_at: nowTimestamp(),
  };
  if (store.memberLinked) changes.family_member_id = target.member;
  const scope = scopeOf(access, { memberLinked: store.memberLinked, write: true });
  const result = await updateInScope(store.db, store.table, scope)
    .set(changes)
    .where('id', '=', id)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return undefined;
  if (persons) await setContactPersons(store.db, target.owner, id, persons);
  return getRecord(store, access, id);
}

async function deleteRecord<D extends RecordDefinition>(
  store: RecordStore<D>,
  access: Access,
  id: string,
): Promise<StoredRecord<D> | undefined> {
  const record = await getRecord(store, access, id);
  if (!record) return undefined;
  checkMayChange(access, record);
  const scope = scopeOf(access, { memberLinked: store.memberLinked, write: true });
  const result = await deleteInScope(store.db, store.table, scope)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n ? record : undefined;
}

export function createRecordRepository<D extends RecordDefinition>(
  database: Kysely<DB>,
  definition: D,
  members: FamilyMemberRepository,
) {
  type Stored = StoredRecord<D>;
  const store = openRecordStore(database, definition, members);
  return {
    definition,

    list(access: Access, options: ListOptions): Promise<RecordPage<Stored>> {
      return listRecords(store, access, options);
    },

    /** A record the user may read (their own, or a shared person's), with who last changed it. */
    get(access: Access, id: string): Promise<Stored | undefined> {
      return getRecord(store, access, id);
    },

    create(access: Access, values: Record<string, unknown>): Promise<Stored> {
      return createRecord(store, access, values);
    },

    /**
     * Several new records in one statement, so all are saved or none (a panel of lab
     * results): each is checked as `create` checks one before any is written.
     */
    createAll(access: Access, valuesList: Record<string, unknown>[]): Promise<Stored[]> {
      return createRecords(store, access, valuesList);
    },

    update(
      access: Access,
      id: string,
      values: Record<string, unknown>,
    ): Promise<Stored | undefined> {
      return updateRecord(store, access, id, values);
    },

    /** Deletes a record the user may change: the record it was, or undefined. */
    delete(access: Access, id: string): Promise<Stored | undefined> {
      return deleteRecord(store, access, id);
    },
  };
}

export type RecordRepository<D extends RecordDefinition = RecordDefinition> = ReturnType<
  typeof createRecordRepository<D>
>;
