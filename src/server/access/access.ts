/**
 * Which rows a request may touch, decided in this one module. Every query of user data
 * starts here: a repository asks for the rows of a table that belong to the requester, or
 * for the condition that keeps a join or a union to them, and never writes an owner filter
 * of its own. Today a user's rows are the ones they own; a test runs the whole API suite,
 * captures every statement, and holds each one on a table of user data to an owner
 * condition (see src/server/test/sql-ownership.ts).
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
import { recordTables } from '../../shared/records/catalogue';
import type { RecordTable } from '../../shared/records/definition';
import type { DB } from '../db/schema';

/**
 * The tables of user data, each with the column that names its owner. better-auth's own
 * tables are here as the product reads them; better-auth reaches them itself by session
 * token or email, which is authentication, not a read of someone's data.
 */
const OTHER_OWNED_TABLES = {
  family_members: 'user_id',
  record_counts: 'user_id',
  audit_log: 'user_id',
  account_locks: 'user_id',
  fhir_import_sources: 'user_id',
  imports: 'user_id',
  import_records: 'user_id',
  connections: 'user_id',
  connection_starts: 'user_id',
  calendar_links: 'user_id',
  dose_log: 'user_id',
  reminder_settings: 'user_id',
  push_subscriptions: 'user_id',
  reminders_sent: 'user_id',
  used_authentication_codes: 'user_id',
  share_links: 'user_id',
  share_link_accesses: 'user_id',
  share_link_files: 'user_id',
  access_grants: 'user_id',
  contact_persons: 'user_id',
  mail_queue: 'user_id',
  notification_channels: 'user_id',
  notification_queue: 'user_id',
  notification_deliveries: 'user_id',
  dose_action_tokens: 'user_id',
  search_entries: 'user_id',
  document_texts: 'user_id',
  documents: 'user_id',
  document_records: 'user_id',
  document_blobs: 'user_id',
  document_storage: 'user_id',
  user: 'id',
  session: 'userId',
  account: 'userId',
  twoFactor: 'userId',
  passkey: 'userId',
} as const satisfies Partial<Record<keyof DB, string>>;

export type OwnedTable = RecordTable | keyof typeof OTHER_OWNED_TABLES;

export const OWNER_COLUMNS: Readonly<Record<OwnedTable, string>> = {
  ...OTHER_OWNED_TABLES,
  ...(Object.fromEntries(recordTables.map((table) => [table, 'user_id'])) as Record<
    RecordTable,
    'user_id'
  >),
};

/**
 * Tables whose rows someone without an account may reach, by an unguessable id they hold
 * (a capability: 256 random bits, handed over in a share link or a manifest): a share
 * link by its manifest id, a manifest's file by its ticket. Such a read or write names
 * that column with a bound value instead of an owner; what follows from the row (its
 * access log, its other rows) goes through the owner the row names.
 */
export const CAPABILITY_COLUMNS = {
  share_links: 'manifest_id',
  share_link_files: 'ticket',
  // A private calendar link, by its token's SHA-256.
  calendar_links: 'token_hash',
  // A dose reminder's button, by its token's SHA-256.
  dose_action_tokens: 'token_hash',
} as const satisfies Partial<Record<OwnedTable, string>>;

export type CapabilityTable = keyof typeof CAPABILITY_COLUMNS;

/** The rows of a table reached by the capability a request holds (see CAPABILITY_COLUMNS). */
export function rowsByCapability<T extends CapabilityTable>(
  db: Kysely<DB>,
  table: T,
  capability: string,
): SelectQueryBuilder<DB, T, object> {
  const column = CAPABILITY_COLUMNS[table] as string;
  return (db as Kysely<any>) // eslint-disable-line @typescript-eslint/no-explicit-any
    .selectFrom(table as string)
    .where(column, '=', capability) as never;
}

/** The same rows, to change them (a token used up). */
export function updateByCapability<T extends CapabilityTable>(
  db: Kysely<DB>,
  table: T,
  capability: string,
): UpdateQueryBuilder<DB, T, T, UpdateResult> {
  const column = CAPABILITY_COLUMNS[table] as string;
  return (db as Kysely<any>) // eslint-disable-line @typescript-eslint/no-explicit-any
    .updateTable(table as string)
    .where(column, '=', capability) as never;
}

/**
 * Tables whose rows an account also reaches as their grantee: a grant is the owner's row,
 * and the account it is for finds a pending one by its own email (always through its own
 * user row, `grantee_email in (select email from user where id = ?)`), never by someone
 * else's; once accepted, by its own id (GRANTEE_ACCOUNT_COLUMNS).
 */
export const GRANTEE_COLUMNS = {
  access_grants: 'grantee_email',
} as const satisfies Partial<Record<OwnedTable, string>>;

/** The column naming the account that accepted a grant: its own id reaches the row. */
export const GRANTEE_ACCOUNT_COLUMNS = {
  access_grants: 'grantee_id',
} as const satisfies Partial<Record<OwnedTable, string>>;

/** better-auth's tables, which its own code reaches by token or email as well. */
export const AUTH_TABLES: ReadonlySet<string> = new Set([
  'user',
  'session',
  'account',
  'twoFactor',
  'passkey',
]);

/** A user id, or a prepared query's placeholder for one. */
export type Owner = string;

const ownerColumn = (table: OwnedTable): string => OWNER_COLUMNS[table];

/**
 * The condition that keeps `alias` (a table or its alias in the query) to the owner's rows:
 * for a join, a union part or a subquery, where a whole query cannot start here.
 */
export function ownedBy(
  table: OwnedTable,
  owner: Owner,
  alias: string = table,
): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${alias}.${ownerColumn(table)}`)} = ${owner}`;
}

/*
 * The builders below are typed for any owned table, which Kysely's types cannot follow
 * through a generic table name: they are built on an untyped view of the database and
 * handed back with the table's own types.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- see above */
type Untyped = Kysely<any>;

/** The owner's rows of a table, as `alias` (default: the table's own name). */
export function ownedRows<T extends OwnedTable, A extends string = T>(
  db: Kysely<DB>,
  table: T,
  owner: Owner,
  alias?: A,
): SelectQueryBuilder<DB & { [K in A]: DB[T] }, A, object> {
  const from = alias ? `${table} as ${alias}` : table;
  return (db as Untyped).selectFrom(from).where(ownedBy(table, owner, alias ?? table)) as never;
}

/** An update of the owner's rows of a table. */
export function updateOwned<T extends OwnedTable>(
  db: Kysely<DB>,
  table: T,
  owner: Owner,
): UpdateQueryBuilder<DB, T, T, UpdateResult> {
  return (db as Untyped).updateTable(table as string).where(ownedBy(table, owner)) as never;
}

/** A delete of the owner's rows of a table. */
export function deleteOwned<T extends OwnedTable>(
  db: Kysely<DB>,
  table: T,
  owner: Owner,
): DeleteQueryBuilder<DB, T, DeleteResult> {
  return (db as Untyped).deleteFrom(table as string).where(ownedBy(table, owner)) as never;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** A new row of the owner's, the owner column set here and nowhere else. */
export function ownedRow<V extends object>(owner: Owner, values: V): V & { user_id: Owner } {
  return { ...values, user_id: owner };
}
