/**
 * Table types for the typed query builder. Auth tables belong to better-auth and keep its
 * column names; the product's tables keep SPEC.md's names.
 */
import type { Generated } from 'kysely';
import type { RecordTable } from '../../shared/records/definition';

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | number;
  image: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  /**
   * Which Friends & Family Passcode the account last passed (sign-up, a password sign-in): a
   * SHA-256 digest of the server's hash then, never the hash (migration 0041). A passkey or
   * single sign-on works only while it is the current passcode's.
   */
  passcode_version: string | null;
  twoFactorEnabled: boolean | number | null;
  /** 1 when the password chosen at sign-up is among the most common ones (migration 0017). */
  password_common: Generated<number>;
  /** The vaccine schedule the account follows: a schedule id, or 'none'. */
  vaccine_schedule: string;
  /** The units the account reads measures in: 'metric' or 'us' (migration 0026). */
  units: string;
  /** The account's language code; null until one is chosen (migration 0051). */
  language: string | null;
}

export interface SessionTable {
  id: string;
  expiresAt: Date | string;
  token: string;
  createdAt: Date | string;
  updatedAt: Date | string;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

/** better-auth's sign-in methods; the password hash of an email account lives here. */
export interface AccountTable {
  id: string;
  userId: string;
  providerId: string;
  password: string | null;
}

/** better-auth's two-factor secrets (encrypted); only its non-secret columns are read here. */
export interface TwoFactorTable {
  id: string;
  userId: string;
  verified: boolean | number | null;
}

/** better-auth's passkeys (migration 0029); the public key and counter are its own to read. */
export interface PasskeyTable {
  id: string;
  name: string | null;
  userId: string;
  credentialID: string;
  createdAt: Date | string | null;
  /** The product's own: when the passkey last signed in, as an ISO time. */
  last_used_at: string | null;
}

/** better-auth's short-lived values: a waiting second factor names its user in `value`. */
export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
}

/** Security events of each user; deleted with the account, and pruned after a retention period. */
export interface AuditLogTable {
  id: string;
  user_id: string | null;
  email: string | null;
  event: string;
  detail: string | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
}

export interface FamilyMembersTable {
  id: string;
  user_id: string;
  name: string;
  date_of_birth: string | null;
  /** 'female', 'male', or null when not recorded. */
  sex: string | null;
  color: string;
  /** 1 while the vaccine schedule follows this member (migration 0039), 0 when turned off. */
  vaccines_tracked: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** Records per user, type and family member ('' for the user's own), kept by triggers. */
export interface RecordCountsTable {
  user_id: string;
  record_table: string;
  family_member_id: string;
  total: number;
}

/** Authenticator-app codes used in the last few minutes, as HMACs (see migration 0006). */
export interface UsedAuthenticationCodesTable {
  user_id: string;
  code_hash: string;
  used_at: string;
}

/** Attempts at a secret per account, email or link (see migration 0007). */
export interface AttemptLimitsTable {
  scope: string;
  subject: string;
  action: string;
  window_started_at: number;
  attempts: number;
  /** With a growing delay: no attempt over the limit before this moment (migration 0017). */
  blocked_until: Generated<number>;
  /** With a growing delay: the pause the last attempt over the limit set. */
  delay_ms: Generated<number>;
}

/** A long operation running for an account, on some instance (see migration 0007). */
export interface AccountLocksTable {
  user_id: string;
  operation: string;
  acquired_at: number;
  /** 1 while the operation waits for its turn beside the server's heavy jobs (migration 0053). */
  waiting: Generated<number>;
}

/** A record a FHIR import brought into a person, and the resource it came from (migration 0011). */
export interface FhirImportSourcesTable {
  user_id: string;
  person_id: string;
  family_member_id: string | null;
  source_id: string;
  record_type: string;
  record_id: string;
  created_at: string;
}

/** A file imported (migration 0044): Import History, and what undoing it removes. */
export interface ImportsTable {
  id: string;
  user_id: string;
  /** The person the records went to; null for the product's own export (the whole account). */
  person_id: string | null;
  family_member_id: string | null;
  /** The person's name when the file was imported. */
  person_name: string | null;
  kind: string;
  file_name: string;
  /** Added, per record type, as JSON. */
  counts: string;
  /** The family member the import made from the file's patient. */
  created_member_id: string | null;
  created_at: string;
  /** When its last row was written: a record updated after it was edited since. */
  finished_at: string | null;
  undone_at: string | null;
}

/** A person's link to a patient portal (migration 0045): its tokens sealed (token-seal.ts). */
export interface ConnectionsTable {
  id: string;
  user_id: string;
  family_member_id: string | null;
  /** The provider's name in SMART_PROVIDERS. */
  portal: string;
  fhir_base_url: string;
  /** The portal's id of its patient. */
  patient_id: string;
  /** The scopes the portal granted. */
  scope: string;
  refresh_token: string | null;
  access_token: string | null;
  access_expires_at: string | null;
  status: string;
  problem: string | null;
  last_synced_at: string | null;
  last_sync_summary: string | null;
  next_sync_at: string;
  sync_claimed_until: string | null;
  created_at: string;
  updated_at: string;
}

/** A connection being made (migration 0045): from the portal's sign-in until it comes back. */
export interface ConnectionStartsTable {
  state: string;
  user_id: string;
  family_member_id: string | null;
  portal: string;
  /** The PKCE verifier, sealed. */
  code_verifier: string;
  /** The connection a 'Reconnect' renews. */
  connection_id: string | null;
  expires_at: string;
}

/** A record, document or family member an import added (migration 0044). */
export interface ImportRecordsTable {
  import_id: string;
  user_id: string;
  record_type: string;
  record_id: string;
}

/** An account's private calendar link, known by its token's hash (migration 0013). */
export interface CalendarLinksTable {
  user_id: string;
  token_hash: string;
  /** The person the feed is for (the user's id or a member's), or null for everyone. */
  person_id: string | null;
  family_member_id: string | null;
  created_at: string;
  last_read_at: string | null;
  last_read_ip: string | null;
}

/** A dose marked taken or skipped (migration 0014). */
export interface DoseLogTable {
  id: string;
  user_id: string;
  medication_id: string;
  day: string;
  slot: string;
  status: string;
  marked_at: string;
  marked_by: string;
  /** What a taken dose took from the medication's supply (0046); an undo gives it back. */
  supply_used: number | null;
}

/** An account's reminder settings (migration 0015). */
export interface ReminderSettingsTable {
  user_id: string;
  time_zone: string;
  time_morning: string;
  time_noon: string;
  time_evening: string;
  time_night: string;
  hide_names: number;
  /** Reminders by email too (migration 0024). */
  email_reminders: Generated<number>;
  /** 'Refill reminders' (0046): on, and how many days before a medication runs out. */
  refill_reminders: Generated<number>;
  refill_days: Generated<number>;
  updated_at: string;
}

/** A device's Web Push subscription and the reminders it asked for (migration 0015). */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  medication_reminders: number;
  visit_reminders: number;
  /** Migration 0025. */
  vaccine_reminders: Generated<number>;
  created_at: string;
}

/** A reminder claimed and sent, once (migration 0015). */
export interface RemindersSentTable {
  user_id: string;
  reminder_key: string;
  due_at: string;
  sent_at: string;
}

/** Where the server's configuration takes the Friends & Family Passcode from. */
export type PasscodeSource = 'FAMILY_PASSCODE' | 'file';

/** The server's own settings, one row, no one user's data (see migration 0010). */
export interface ServerSettingsTable {
  id: number;
  /** The Friends & Family Passcode of the whole server, hashed (Argon2id). */
  family_passcode: string;
  family_passcode_from: PasscodeSource;
  family_passcode_changed_at: string;
}

/** A share link: its records only as a JWE whose key the server never sees (migration 0012). */
export interface ShareLinksTable {
  id: string;
  user_id: string;
  person_id: string;
  family_member_id: string | null;
  manifest_id: string;
  label: string;
  /** Null once revoked: the ciphertext goes at once. */
  jwe: string | null;
  passcode_hash: string | null;
  /** Wrong passcodes the link still takes before it locks; null without a passcode. */
  attempts_left: number | null;
  opened_count: Generated<number>;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** One opening of a share link, or a refused attempt (migration 0012). */
export interface ShareLinkAccessesTable {
  id: string;
  user_id: string;
  share_link_id: string;
  recipient: string;
  outcome: string;
  ip_address: string | null;
  created_at: string;
}

/** A file address a share link's manifest handed out, good for an hour (migration 0012). */
export interface ShareLinkFilesTable {
  ticket: string;
  user_id: string;
  share_link_id: string;
  expires_at: string;
}

/** One person of an owner's, shared with another account by email (migration 0016). */
export interface AccessGrantsTable {
  id: string;
  user_id: string;
  person_id: string;
  family_member_id: string | null;
  grantee_email: string;
  role: string;
  allow_export: number;
  access_ends: string | null;
  ends_at: string | null;
  last_read_on: string | null;
  last_write_on: string | null;
  created_at: string;
  updated_at: string;
  /** The account that accepted the grant with its code; null while it is pending. */
  grantee_id: string | null;
  /** SHA-256 of the one-time acceptance code of a pending grant; null once accepted. */
  acceptance_code_hash: string | null;
  accepted_at: string | null;
  /**
   * Minutes after a dose's reminder time that the grantee is alerted of it while still
   * unmarked (migration 0050); null: no alerts.
   */
  missed_dose_alert_minutes: number | null;
}

/** A person a contact cares for (migration 0020); a contact with none is the whole family's. */
export interface ContactPersonsTable {
  contact_id: string;
  user_id: string;
  /** The account holder's id, or the family member's. */
  person_id: string;
  family_member_id: string | null;
}

/**
 * A record table's row. Its own fields are declared once, by the type's definition in
 * src/shared/records (and a test holds every table's columns to it); here only the columns
 * every record table has.
 */
export interface RecordRow {
  id: string;
  user_id: string;
  family_member_id?: string | null;
  /** The account that last created or changed it (migration 0016); null before then. */
  changed_by?: string | null;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

export type RecordTables = { [T in RecordTable]: RecordRow };

/** A mail waiting to go out, or to be tried again (migration 0022). */
export interface MailQueueTable {
  id: string;
  user_id: string | null;
  recipient: string;
  template: string;
  /** The template's values, as JSON. */
  params: string;
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  last_error: string | null;
  created_at: string;
  /** The language in force when it was queued; null: English (migration 0052). */
  language: string | null;
}

/** An account's ntfy topic or webhook (migration 0048). */
export interface NotificationChannelsTable {
  user_id: string;
  channel: string;
  url: string;
  /** A webhook's: its signing secret is derived from AUTH_SECRET and this. */
  secret_salt: string | null;
  app_url: string;
  created_at: string;
  updated_at: string;
}

/** A notification waiting to be sent to a channel, or to be tried again (migration 0048). */
export interface NotificationQueueTable {
  id: string;
  user_id: string;
  channel: string;
  payload: string;
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  last_error: string | null;
  created_at: string;
}

/** One try of sending to a channel, for the account's delivery log (migration 0048). */
export interface NotificationDeliveriesTable {
  id: string;
  user_id: string;
  channel: string;
  outcome: string;
  what: string;
  detail: string;
  created_at: string;
}

/** A dose reminder's 'Taken' or 'Skip' button (migration 0048). */
export interface DoseActionTokensTable {
  token_hash: string;
  user_id: string;
  group_key: string;
  medication_ids: string;
  day: string;
  slot: string;
  status: string;
  expires_at: string;
  used_at: string | null;
}

/** A searchable record's or document's entry in the search index (migration 0031). */
export interface SearchEntriesTable {
  id: Generated<number>;
  record_table: string;
  record_id: string;
  user_id: string;
  /** The record's member; null for the account holder's own, '' for an account's contact. */
  family_member_id: string | null;
  title: string;
  body: string;
  record_date: string | null;
}

/** SQLite's FTS5 index of the entries (migration 0031); `search_text` is its match column. */
export interface SearchTextTable {
  rowid: number;
  search_text: string;
  title: string;
  body: string;
}

export interface SearchSourcesTable {
  record_table: string;
  signature: string;
}

import type { DocumentTextStatus } from '../../shared/documents';

export type { DocumentTextStatus };

/** A document's text, and the job that reads it (migration 0032). */
export interface DocumentTextsTable {
  document_id: string;
  user_id: string;
  status: DocumentTextStatus;
  text: string | null;
  pages: number | null;
  /** The pages the text came from, when fewer than `pages` (migration 0042); null: all. */
  pages_read: number | null;
  attempts: Generated<number>;
  claimed_until: string | null;
  /** When the job was last taken up (migration 0042). */
  claimed_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** An uploaded document (migration 0028); its files are in the document store. */
export interface DocumentsTable {
  id: string;
  user_id: string;
  family_member_id: string | null;
  title: string;
  document_type: string;
  document_date: string | null;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  display_sha256: string | null;
  display_bytes: number | null;
  thumbnail_sha256: string | null;
  thumbnail_bytes: number | null;
  created_at: string;
  updated_at: string;
}

/** A document's attachment to a record (migration 0040): one row per document and record. */
export interface DocumentRecordsTable {
  document_id: string;
  /** The document's owner. */
  user_id: string;
  /** The record type's path (visits, insurance…). */
  record_type: string;
  record_id: string;
  created_at: string;
}

/** The storage an account's uploads have reserved, their rows not yet written (0043). */
export interface DocumentStorageTable {
  user_id: string;
  reserved_bytes: number;
  /** When the last reservation was made, in milliseconds. */
  reserved_at: number;
}

/** A chunk of a document's file, on PostgreSQL (decision 0033). */
export interface DocumentBlobsTable {
  user_id: string;
  sha256: string;
  part: number;
  data: Uint8Array;
}

export interface DB extends RecordTables {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  twoFactor: TwoFactorTable;
  passkey: PasskeyTable;
  verification: VerificationTable;
  audit_log: AuditLogTable;
  family_members: FamilyMembersTable;
  record_counts: RecordCountsTable;
  used_authentication_codes: UsedAuthenticationCodesTable;
  attempt_limits: AttemptLimitsTable;
  account_locks: AccountLocksTable;
  fhir_import_sources: FhirImportSourcesTable;
  imports: ImportsTable;
  import_records: ImportRecordsTable;
  connections: ConnectionsTable;
  connection_starts: ConnectionStartsTable;
  calendar_links: CalendarLinksTable;
  dose_log: DoseLogTable;
  reminder_settings: ReminderSettingsTable;
  push_subscriptions: PushSubscriptionsTable;
  reminders_sent: RemindersSentTable;
  access_grants: AccessGrantsTable;
  contact_persons: ContactPersonsTable;
  server_settings: ServerSettingsTable;
  share_links: ShareLinksTable;
  share_link_accesses: ShareLinkAccessesTable;
  share_link_files: ShareLinkFilesTable;
  mail_queue: MailQueueTable;
  notification_channels: NotificationChannelsTable;
  notification_queue: NotificationQueueTable;
  notification_deliveries: NotificationDeliveriesTable;
  dose_action_tokens: DoseActionTokensTable;
  search_entries: SearchEntriesTable;
  search_text: SearchTextTable;
  search_sources: SearchSourcesTable;
  document_texts: DocumentTextsTable;
  documents: DocumentsTable;
  document_records: DocumentRecordsTable;
  document_blobs: DocumentBlobsTable;
  document_storage: DocumentStorageTable;
}

export type Engine = 'sqlite' | 'postgres';
