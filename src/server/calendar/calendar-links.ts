/**
 * An account's private calendar link: made with a 32-byte random token shown once, kept
 * only as the token's SHA-256 (a token of that much randomness needs no slow hash), one per
 * account, so that making a new one ends the old. The feed itself is read by the token
 * alone, with no session (calendar apps have none).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CalendarLinkState } from '../../shared/calendar';
import { deleteOwned, ownedRow, ownedRows, rowsByCapability, updateOwned } from '../access/scope';
import type { DB } from '../db/schema';
import { nowTimestamp } from '../ids';
import type { Person } from '../persons/person-records';

/** 32 bytes, base64url: 43 characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('base64url');

export interface CalendarLinkRow {
  user_id: string;
  person_id: string | null;
  family_member_id: string | null;
  last_read_at: string | null;
  last_read_ip: string | null;
}

/** A reading is written down at most this often per address: calendar apps poll. */
const READ_MARK_INTERVAL_MS = 10 * 60 * 1000;

export function createCalendarLinks(db: Kysely<DB>) {
  return {
    async get(userId: string): Promise<CalendarLinkState | null> {
      const row = await ownedRows(db, 'calendar_links', userId)
        .select(['person_id', 'created_at', 'last_read_at'])
        .executeTakeFirst();
      return row ?? null;
    },

    /** A new link for everyone (no person) or one person; the account's old one ends. */
    async create(
      userId: string,
      person: Person | null,
    ): Promise<{ token: string; state: CalendarLinkState }> {
      const token = randomBytes(32).toString('base64url');
      const created_at = nowTimestamp();
      const row = ownedRow(userId, {
        token_hash: hashToken(token),
        person_id: person?.id ?? null,
        family_member_id: person?.family_member_id ?? null,
        created_at,
        last_read_at: null,
        last_read_ip: null,
      });
      await db.transaction().execute(async (trx) => {
        await deleteOwned(trx, 'calendar_links', userId).execute();
        await trx.insertInto('calendar_links').values(row).execute();
      });
      return { token, state: { person_id: row.person_id, created_at, last_read_at: null } };
    },

    async revoke(userId: string): Promise<boolean> {
      const result = await deleteOwned(db, 'calendar_links', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The link a token names, or undefined for a wrong or revoked one. */
    async byToken(token: string): Promise<CalendarLinkRow | undefined> {
      if (!TOKEN_PATTERN.test(token)) return undefined;
      return rowsByCapability(db, 'calendar_links', hashToken(token))
        .select(['user_id', 'person_id', 'family_member_id', 'last_read_at', 'last_read_ip'])
        .executeTakeFirst() as Promise<CalendarLinkRow | undefined>;
    },

    /** Notes a reading: when it comes from a new address, or the last was a while ago. */
    async markRead(link: CalendarLinkRow, ip: string | null, now = Date.now()): Promise<void> {
      const recent =
        link.last_read_at !== null &&
        now - Date.parse(link.last_read_at) < READ_MARK_INTERVAL_MS &&
        link.last_read_ip === ip;
      if (recent) return;
      await updateOwned(db, 'calendar_links', link.user_id)
        .set({ last_read_at: nowTimestamp(), last_read_ip: ip })
        .execute();
    },
  };
}

export type CalendarLinks = ReturnType<typeof createCalendarLinks>;
