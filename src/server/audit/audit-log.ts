/**
 * The security audit log: who did what, when and from where, for sign-ups, sign-ins
 * (and their failures), sign-outs, two-factor changes, refused passwords and codes, too
 * many attempts, revoked sessions, and changes of the Friends & Family Passcode. Rows carry
 * ids, an attempted email, an address and a user agent, and a short detail code; never a
 * password, passcode, code or token. A user reads their own rows only. Rows go with their
 * account, and everyone's are deleted once older than AUDIT_RETENTION_DAYS.
 */
import type { Kysely } from 'kysely';
import type { AuditEvent, SecurityActivityEntry } from '../../shared/account-security';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import type { Logger } from '../logger';
import { CLIENT_IP_HEADER } from '../http/client-ip';
import { newId, nowTimestamp } from '../ids';

/**
 * Events of the whole server rather than of one user (a new Friends & Family Passcode, too
 * many wrong ones): written with no user id, so in nobody's security activity but the
 * operator's.
 */
export type ServerAuditEvent = 'passcode_changed' | 'passcode_guesses_limited';

export interface AuditEntry {
  event: AuditEvent | ServerAuditEvent;
  userId?: string | null;
  /** Only for a failed sign-in: the email that was tried. */
  email?: string | null;
  detail?: string | null;
  ipAddress?: string | null;
  userAgent?: string | null;
}

const clip = (value: string | null | undefined, max: number) =>
  value ? value.slice(0, max) : null;

/** Where a request came from: the address the server saw (never one the client claims). */
export function requestSource(headers: Headers | null | undefined) {
  return {
    ipAddress: headers?.get(CLIENT_IP_HEADER) ?? null,
    userAgent: headers?.get('user-agent') ?? null,
  };
}

/** Writes one row; `db` may be a transaction, so the row goes or stays with the change. */
export async function recordAuditEvent(db: Kysely<DB>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      user_id: entry.userId ?? null,
      email: clip(entry.email?.trim().toLowerCase(), 320),
      event: entry.event,
      detail: clip(entry.detail, 200),
      ip_address: clip(entry.ipAddress, 64),
      user_agent: clip(entry.userAgent, 512),
      created_at: nowTimestamp(),
    })
    .execute();
}

/**
 * Writes the row of an event that happened with no change to go or stay with (a sign-in,
 * a refusal): a failure to write is logged, and never fails the request it records.
 */
export async function recordAuditEventOrLog(
  db: Kysely<DB>,
  logger: Logger,
  headers: Headers | null | undefined,
  entry: AuditEntry,
): Promise<void> {
  try {
    await recordAuditEvent(db, { ...requestSource(headers), ...entry });
  } catch (error) {
    logger.error({ err: error, event: entry.event }, 'could not write the audit log');
  }
}

/** The user's own recent security events, newest first. */
export async function listSecurityActivity(
  db: Kysely<DB>,
  userId: string,
  limit: number,
): Promise<SecurityActivityEntry[]> {
  const rows = await ownedRows(db, 'audit_log', userId)
    .select(['id', 'event', 'detail', 'ip_address', 'user_agent', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, event: row.event as AuditEvent }));
}

/** Deletes every row older than the retention period; says how many went. */
export async function pruneAuditLog(
  db: Kysely<DB>,
  retentionDays: number,
  now = Date.now(),
): Promise<number> {
  const cutoff = new Date(now - retentionDays * 24 * 60 * 60 * 1000).toISOString();
  const result = await db
    .deleteFrom('audit_log')
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * Prunes soon after start and once a day after that; a failure is logged and tried again
 * the next day. Several instances may each prune: deleting rows already gone is harmless.
 * Returns the function that stops it.
 */
export function scheduleAuditPruning(prune: () => Promise<number>, logger: Logger): () => void {
  const run = () => {
    prune().then(
      (deleted) => {
        if (deleted > 0) logger.info({ deleted }, 'old audit log rows deleted');
      },
      (error: unknown) => logger.error({ err: error }, 'could not prune the audit log'),
    );
  };
  const first = setTimeout(run, 0);
  const daily = setInterval(run, PRUNE_EVERY_MS);
  first.unref();
  daily.unref();
  return () => {
    clearTimeout(first);
    clearInterval(daily);
  };
}
