/**
 * Which rows a request may read or write, decided in this one module: every query of user
 * data starts here, and no repository writes an owner filter of its own. A test runs the
 * whole API suite, captures every statement, and holds each one on a table of user data to
 * an owner condition (see src/server/test/sql-ownership.ts); the tables and their owner
 * columns are the facts of access.ts.
 *
 * An owner can share one person with another account (the household, migration 0016). A
 * request's access is its user and the persons shared with that user's email today: each
 * as its owner, the member it is (or none: the owner themself), the role (a viewer reads;
 * an editor also writes) and whether the owner allowed sharing and export.
 *
 * A query keeps to a scope: a list of terms, each "every row of this owner" (the user's
 * own), "this owner's rows of this member", or "this owner's rows of no member" (a shared
 * owner themself). The terms' kinds are the query's shape; their owners and members are
 * its values, so a prepared query is prepared once per shape and a user with no grants
 * runs exactly the statement they ran before grants existed. An account's own rows are the
 * scope of that one 'all' term (ownScope): `ownedRows`, `updateOwned`, `deleteOwned` and
 * `ownedBy` are its names, kept because most of the server reads only its user's rows.
 *
 * The owner is a user id, or, inside a prepared query's build function, the placeholder
 * that stands for one (see db/prepared-query.ts): these functions never look at its value.
 */
import {
  sql,
  type DeleteQueryBuilder,
  type DeleteResult,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import type { DB } from '../db/schema';
import { prepareQuery } from '../db/prepared-query';
import {
  CAPABILITY_COLUMNS,
  OWNER_COLUMNS,
  type CapabilityTable,
  type OwnedTable,
  type Owner,
} from './access';

export type Role = 'viewer' | 'editor';
export const ROLES: readonly Role[] = ['viewer', 'editor'];

/** A person shared with the request's user. */
export interface Share {
  grantId: string;
  ownerId: string;
  /** The person's id: the member's, or the owner's own when the owner shared themself. */
  personId: string;
  memberId: string | null;
  role: Role;
  allowExport: boolean;
  /** The last day of access as the owner entered it, or null. */
  accessEnds: string | null;
  lastReadOn: string | null;
  lastWriteOn: string | null;
}

export interface Access {
  userId: string;
  shares: readonly Share[];
}

/** Access with nothing shared: the user's own rows only. */
export const ownAccess = (userId: string): Access => ({ userId, shares: [] });

/** One part of a scope: every row of an owner ('all'), a member's ('member'), no member's ('self'). */
export type Term =
  | { kind: 'all'; owner: string }
  | { kind: 'member'; owner: string; member: string }
  | { kind: 'self'; owner: string };

export type Scope = readonly Term[];

/** An account's own rows: every row of one owner. */
export const ownScope = (owner: Owner): Scope => [{ kind: 'all', owner }];

const shareTerm = (share: Share): Term =>
  share.memberId === null
    ? { kind: 'self', owner: share.ownerId }
    : { kind: 'member', owner: share.ownerId, member: share.memberId };

/** The person a row of a member-linked table is about: its owner and member (or none). */
export interface RowPerson {
  user_id: string;
  family_member_id?: string | null;
}

/** The share a row of someone else's comes by, if any. */
export function shareOfRow(access: Access, row: RowPerson): Share | undefined {
  const member = row.family_member_id ?? null;
  return access.shares.find((share) => share.ownerId === row.user_id && share.memberId === member);
}

/** The share that is this person, if the person is shared with the user. */
export const shareOfPerson = (access: Access, personId: string): Share | undefined =>
  access.shares.find((share) => share.personId === personId);

export interface ScopeOptions {
  /** Keep to one person: a member of the user's, or a person shared with them. */
  personId?: string | undefined;
  /** Only what the user may write (their own, and persons shared as editor). */
  write?: boolean;
  /** Whether the table's rows are about a person; account-wide rows are never shared. */
  memberLinked: boolean;
}

/** The shared persons a read or a write reaches. */
export function sharesInScope(access: Access, options: ScopeOptions): Share[] {
  if (!options.memberLinked) return [];
  const shares = options.write
    ? access.shares.filter((share) => share.role === 'editor')
    : access.shares;
  if (options.personId === undefined) return [...shares];
  return shares.filter((share) => share.personId === options.personId);
}

/** The scope of a read or a write. */
export function scopeOf(access: Access, options: ScopeOptions): Scope {
  const mine: Term = { kind: 'all', owner: access.userId };
  const shares = sharesInScope(access, options).map(shareTerm);
  if (options.personId === undefined || !options.memberLinked) return [mine, ...shares];
  // The account holder's own records: the user's rows of no member.
  if (options.personId === access.userId) return [{ kind: 'self', owner: access.userId }];
  return shares.length
    ? shares
    : [{ kind: 'member', owner: access.userId, member: options.personId }];
}

/** A scope's shape: what a prepared query is prepared once for. */
export const scopeShape = (scope: Scope): string => scope.map((term) => term.kind[0]).join('');

/** A scope's values, by the names `scopeCondition` reads them by. */
export function scopeValues(scope: Scope): Record<string, string> {
  const values: Record<string, string> = {};
  scope.forEach((term, index) => {
    values[`owner${index}`] = term.owner;
    if (term.kind === 'member') values[`member${index}`] = term.member;
  });
  return values;
}

/** How a table names the person of a row, and how it stores "no member". */
const PERSON_COLUMNS: Partial<Record<OwnedTable, { column: string; none: string | null }>> = {
  record_counts: { column: 'family_member_id', none: '' },
  family_members: { column: 'id', none: null },
};
const personColumn = (table: OwnedTable) =>
  PERSON_COLUMNS[table] ?? { column: 'family_member_id', none: null };

/**
 * The condition that keeps `alias` to one term of a scope. `values` holds the term's owner
 * and member by name (`owner0`, `member0`, …): a prepared query's placeholders or real values.
 */
function termCondition(
  table: OwnedTable,
  term: Term,
  index: number,
  values: Record<string, unknown>,
  alias: string,
): RawBuilder<SqlBool> {
  const owner = sql<SqlBool>`${sql.ref(`${alias}.${OWNER_COLUMNS[table]}`)} = ${values[`owner${index}`]}`;
  if (term.kind === 'all') return owner;
  const { column, none } = personColumn(table);
  const person = sql.ref(`${alias}.${column}`);
  if (term.kind === 'member')
    return sql<SqlBool>`(${owner} and ${person} = ${values[`member${index}`]})`;
  return none === null
    ? sql<SqlBool>`(${owner} and ${person} is null)`
    : sql<SqlBool>`(${owner} and ${person} = ${none})`;
}

/**
 * The condition that keeps `alias` (a table, or its alias in the query) to a scope's rows.
 * The terms' kinds come from `scope` (the shape); their values from `values`.
 */
export function inScope(
  table: OwnedTable,
  scope: Scope,
  values: Record<string, unknown>,
  alias: string = table,
): RawBuilder<SqlBool> {
  const parts = scope.map((term, index) => termCondition(table, term, index, values, alias));
  if (parts.length === 1) return parts[0] as RawBuilder<SqlBool>;
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/**
 * The condition that keeps a joined family member (`alias`) to the owners of a scope: the
 * row it is joined to is already in scope, and its member is always its owner's.
 */
export function membersOfScope(
  scope: Scope,
  values: Record<string, unknown>,
  alias: string,
): RawBuilder<SqlBool> {
  const parts = scope.map(
    (_term, index) => sql<SqlBool>`${sql.ref(`${alias}.user_id`)} = ${values[`owner${index}`]}`,
  );
  if (parts.length === 1) return parts[0] as RawBuilder<SqlBool>;
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/*
 * The builders below are typed for any owned table, which Kysely's types cannot follow
 * through a generic table name: they are built on an untyped view of the database and
 * handed back with the table's own types.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- see above */
type Untyped = Kysely<any>;

/** A scope's rows of a table, as `alias` (default: the table's own name). */
export function rowsInScope<T extends OwnedTable, A extends string = T>(
  db: Kysely<DB>,
  table: T,
  scope: Scope,
  values: Record<string, unknown>,
  alias?: A,
): SelectQueryBuilder<DB & { [K in A]: DB[T] }, A, object> {
  const from = alias ? `${table} as ${alias}` : table;
  return (db as Untyped)
    .selectFrom(from)
    .where(inScope(table, scope, values, alias ?? table)) as never;
}

/** An update of the rows of a scope (a write scope: the user's own and the editor's). */
export function updateInScope<T extends OwnedTable>(
  db: Kysely<DB>,
  table: T,
  scope: Scope,
): UpdateQueryBuilder<DB, T, T, UpdateResult> {
  return (db as Untyped)
    .updateTable(table as string)
    .where(inScope(table, scope, scopeValues(scope))) as never;
}

/** A delete of the rows of a scope. */
export function deleteInScope<T extends OwnedTable>(
  db: Kysely<DB>,
  table: T,
  scope: Scope,
): DeleteQueryBuilder<DB, T, DeleteResult> {
  return (db as Untyped)
    .deleteFrom(table as string)
    .where(inScope(table, scope, scopeValues(scope))) as never;
}

/** The rows of a table reached by the capability a request holds (see CAPABILITY_COLUMNS). */
export function rowsByCapability<T extends CapabilityTable>(
  db: Kysely<DB>,
  table: T,
  capability: string,
): SelectQueryBuilder<DB, T, object> {
  const column = CAPABILITY_COLUMNS[table] as string;
  return (db as Untyped).selectFrom(table as string).where(column, '=', capability) as never;
}

/** The same rows, to change them (a token used up). */
export function updateByCapability<T extends CapabilityTable>(
  db: Kysely<DB>,
  table: T,
  capability: string,
): UpdateQueryBuilder<DB, T, T, UpdateResult> {
  const column = CAPABILITY_COLUMNS[table] as string;
  return (db as Untyped).updateTable(table as string).where(column, '=', capability) as never;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/*
 * An account's own rows, by name: each is the scope of its one 'all' term, so the SQL is
 * the scope's (`"alias"."user_id" = ?`) and there is no second way to write it.
 */
const ownValues = (owner: Owner) => ({ owner0: owner });

/**
 * The condition that keeps `alias` (a table or its alias in the query) to the owner's rows:
 * for a join, a union part or a subquery, where a whole query cannot start here.
 */
export const ownedBy = (
  table: OwnedTable,
  owner: Owner,
  alias: string = table,
): RawBuilder<SqlBool> => inScope(table, ownScope(owner), ownValues(owner), alias);

/** The owner's rows of a table, as `alias` (default: the table's own name). */
export const ownedRows = <T extends OwnedTable, A extends string = T>(
  db: Kysely<DB>,
  table: T,
  owner: Owner,
  alias?: A,
) => rowsInScope<T, A>(db, table, ownScope(owner), ownValues(owner), alias);

/** An update of the owner's rows of a table. */
export const updateOwned = <T extends OwnedTable>(db: Kysely<DB>, table: T, owner: Owner) =>
  updateInScope(db, table, ownScope(owner));

/** A delete of the owner's rows of a table. */
export const deleteOwned = <T extends OwnedTable>(db: Kysely<DB>, table: T, owner: Owner) =>
  deleteInScope(db, table, ownScope(owner));

/** A new row of the owner's, the owner column set here and nowhere else. */
export function ownedRow<V extends object>(owner: Owner, values: V): V & { user_id: Owner } {
  return { ...values, user_id: owner };
}

/**
 * For a scope with shared owners themselves in it: the condition that keeps a joined user
 * row (`alias`) to those owners, whose name stands for the person on their records (a
 * member's record has its member's). Null when the scope has none.
 */
export function sharedSelvesOfScope(
  scope: Scope,
  values: Record<string, unknown>,
  alias: string,
): RawBuilder<SqlBool> | null {
  const parts = scope.flatMap((term, index) =>
    term.kind === 'self'
      ? [sql<SqlBool>`${sql.ref(`${alias}.id`)} = ${values[`owner${index}`]}`]
      : [],
  );
  if (parts.length === 0) return null;
  return parts.length === 1
    ? (parts[0] as RawBuilder<SqlBool>)
    : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/**
 * The persons shared with a user today: grants the account accepted (with the code that
 * proved its email; a grant merely naming its email gives nothing) that have not ended.
 * Run on each request that reads records, so a removal or an end holds from the very next
 * one, on every instance.
 */
export function createAccessReader(db: Kysely<DB>) {
  const grants = prepareQuery(db, (values: { userId: string; now: string }) =>
    db
      .selectFrom('access_grants as g')
      .select([
        'g.id',
        'g.user_id',
        'g.person_id',
        'g.family_member_id',
        'g.role',
        'g.allow_export',
        'g.access_ends',
        'g.last_read_on',
        'g.last_write_on',
      ])
      .where('g.grantee_id', '=', values.userId)
      .where((eb) => eb.or([eb('g.ends_at', 'is', null), eb('g.ends_at', '>', values.now)]))
      .orderBy('g.created_at')
      .orderBy('g.id'),
  );

  return async function accessOf(userId: string): Promise<Access> {
    const rows = await grants({ userId, now: new Date().toISOString() });
    return {
      userId,
      shares: rows
        .filter((row) => row.user_id !== userId)
        .map((row) => ({
          grantId: row.id,
          ownerId: row.user_id,
          personId: row.person_id,
          memberId: row.family_member_id,
          role: row.role === 'editor' ? 'editor' : 'viewer',
          allowExport: Boolean(row.allow_export),
          accessEnds: row.access_ends,
          lastReadOn: row.last_read_on,
          lastWriteOn: row.last_write_on,
        })),
    };
  };
}

export type AccessReader = ReturnType<typeof createAccessReader>;
