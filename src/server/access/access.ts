/**
 * The facts access is decided by: which tables hold user data, the column that names each
 * row's owner, and the other columns a row may be reached by (a capability a request
 * holds, a grant's grantee). Facts only, no SQL: the one module that builds the conditions
 * from them is access/scope.ts, where an account's own rows are the scope of one term, and
 * the one that says which person a request may read, write or export is access/persons.ts.
 * Kept apart from scope.ts because the SQL-ownership check (src/server/test/sql-ownership.ts)
 * holds every captured statement to these same facts, and should read them without the
 * builders it checks.
 */
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
