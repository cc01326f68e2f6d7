/**
 * Share links in the database. The owner's reads and writes go through the access module
 * by owner; a link's reader, who has no account, reaches the link by its manifest id and a
 * manifest's file by its ticket (capabilities, see access.ts), and everything after that
 * through the owner the row names.
 *
 * The server keeps the shared records only as the JWE the owner's browser made; the key is
 * in the link's fragment. Revoking a link deletes its ciphertext at once; an expired link
 * is deleted whole (ciphertext and access log) by `pruneExpired`.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  SHARE_LINK_FILE_SECONDS,
  SHARE_LINK_PASSCODE_ATTEMPTS,
  type ShareAccessOutcome,
  type ShareLinkAccess,
  type ShareLinkSummary,
} from '../../shared/share-links';
import { deleteOwned, ownedRow, ownedRows, rowsByCapability, updateOwned } from '../access/access';
import type { DB } from '../db/schema';
import { newId, nowTimestamp } from '../ids';

/** 256 random bits, base64url: 43 characters. */
export const unguessableId = (): string => randomBytes(32).toString('base64url');

export interface NewShareLink {
  personId: string;
  familyMemberId: string | null;
  label: string;
  jwe: string;
  passcodeHash: string | null;
  expiresAt: Date;
}

const PRUNE_EVERY_MS = 60_000;

export function createShareLinkStore(db: Kysely<DB>) {
  let lastPruned = 0;

  return {
    async create(owner: string, link: NewShareLink) {
      const row = ownedRow(owner, {
        id: newId(),
        person_id: link.personId,
        family_member_id: link.familyMemberId,
        manifest_id: unguessableId(),
        label: link.label,
        jwe: link.jwe,
        passcode_hash: link.passcodeHash,
        attempts_left: link.passcodeHash ? SHARE_LINK_PASSCODE_ATTEMPTS : null,
        created_at: nowTimestamp(),
        expires_at: link.expiresAt.toISOString(),
        revoked_at: null,
      });
      await db.insertInto('share_links').values(row).execute();
      return row;
    },

    /** The owner's links that have not expired, newest first, with their person's name. */
    async list(owner: string, now = new Date()): Promise<ShareLinkSummary[]> {
      const rows = await ownedRows(db, 'share_links', owner)
        .select([
          'id',
          'person_id',
          'label',
          'created_at',
          'expires_at',
          'revoked_at',
          'opened_count',
          'passcode_hash',
          'attempts_left',
        ])
        .where('expires_at', '>', now.toISOString())
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const names = new Map<string, string>();
      const user = await ownedRows(db, 'user', owner).select(['id', 'name']).executeTakeFirst();
      if (user) names.set(user.id, user.name);
      const members = await ownedRows(db, 'family_members', owner).select(['id', 'name']).execute();
      for (const member of members) names.set(member.id, member.name);
      return rows.map((row) => ({
        id: row.id,
        person_id: row.person_id,
        person_name: names.get(row.person_id) ?? row.label,
        label: row.label,
        created_at: row.created_at,
        expires_at: row.expires_at,
        revoked_at: row.revoked_at,
        opened_count: Number(row.opened_count),
        has_passcode: row.passcode_hash !== null,
        locked: row.attempts_left !== null && Number(row.attempts_left) <= 0,
      }));
    },

    /** The owner's link with this id, if it is theirs. */
    async find(owner: string, id: string) {
      return ownedRows(db, 'share_links', owner)
        .select(['id', 'label', 'revoked_at'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Revokes: the ciphertext goes now, the row (and its access log) stays until expiry. */
    async revoke(owner: string, id: string): Promise<boolean> {
      const result = await updateOwned(db, 'share_links', owner)
        .set({ jwe: null, revoked_at: nowTimestamp() })
        .where('id', '=', id)
        .executeTakeFirst();
      await deleteOwned(db, 'share_link_files', owner).where('share_link_id', '=', id).execute();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Revokes every live link of the owner's to one person (a shared person no longer theirs to share). */
    async revokePerson(owner: string, personId: string): Promise<void> {
      const live = await ownedRows(db, 'share_links', owner)
        .select('id')
        .where('person_id', '=', personId)
        .where('revoked_at', 'is', null)
        .execute();
      for (const { id } of live) await this.revoke(owner, id);
    },

    /**
     * At the deletion of an account: every link whose person was the account, whoever made
     * it (its own go with it by their owner; a grantee's of the owner themself would not),
     * deleted whole with its ciphertext, file addresses and access log.
     */
    async deleteLinksOfAccountPerson(userId: string): Promise<void> {
      await db.deleteFrom('share_links').where('person_id', '=', userId).execute();
    },

    async accesses(owner: string, linkId: string): Promise<ShareLinkAccess[]> {
      const rows = await ownedRows(db, 'share_link_accesses', owner)
        .select(['id', 'created_at', 'recipient', 'outcome'])
        .where('share_link_id', '=', linkId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(200)
        .execute();
      return rows.map((row) => ({ ...row, outcome: row.outcome as ShareAccessOutcome }));
    },

    /** The link a manifest id names, live or not (the caller refuses a dead one), or undefined. */
    async byManifestId(manifestId: string) {
      return rowsByCapability(db, 'share_links', manifestId)
        .select(['id', 'user_id', 'passcode_hash', 'attempts_left', 'expires_at', 'revoked_at'])
        .executeTakeFirst();
    },

    /**
     * Takes one passcode attempt from the link's lifetime allowance, atomically on either
     * engine, before the passcode is checked: of any number of racing guesses, no more than
     * the allowance are ever checked. Says whether an attempt was left.
     */
    async takeAttempt(owner: string, linkId: string): Promise<boolean> {
      const result = await updateOwned(db, 'share_links', owner)
        .set({ attempts_left: sql<number>`"attempts_left" - 1` })
        .where('id', '=', linkId)
        .where('attempts_left', '>', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Gives back the attempt a right passcode took. */
    async returnAttempt(owner: string, linkId: string) {
      await updateOwned(db, 'share_links', owner)
        .set({ attempts_left: sql<number>`"attempts_left" + 1` })
        .where('id', '=', linkId)
        .execute();
    },

    async attemptsLeft(owner: string, linkId: string): Promise<number> {
      const row = await ownedRows(db, 'share_links', owner)
        .select('attempts_left')
        .where('id', '=', linkId)
        .executeTakeFirst();
      return Number(row?.attempts_left ?? 0);
    },

    async recordAccess(
      owner: string,
      linkId: string,
      access: { recipient: string; outcome: ShareAccessOutcome; ipAddress: string | null },
    ) {
      await db
        .insertInto('share_link_accesses')
        .values(
          ownedRow(owner, {
            id: newId(),
            share_link_id: linkId,
            recipient: access.recipient.slice(0, 200),
            outcome: access.outcome,
            ip_address: access.ipAddress?.slice(0, 64) ?? null,
            created_at: nowTimestamp(),
          }),
        )
        .execute();
      if (access.outcome === 'opened') {
        await updateOwned(db, 'share_links', owner)
          .set({ opened_count: sql<number>`"opened_count" + 1` })
          .where('id', '=', linkId)
          .execute();
      }
    },

    /** A file address for the link, good for an hour. */
    async issueFile(owner: string, linkId: string, now = Date.now()): Promise<string> {
      const ticket = unguessableId();
      await db
        .insertInto('share_link_files')
        .values(
          ownedRow(owner, {
            ticket,
            share_link_id: linkId,
            expires_at: new Date(now + SHARE_LINK_FILE_SECONDS * 1000).toISOString(),
          }),
        )
        .execute();
      return ticket;
    },

    /** The ciphertext a live file address reaches, or undefined. */
    async fileContent(ticket: string, now = new Date()): Promise<string | undefined> {
      const file = await rowsByCapability(db, 'share_link_files', ticket)
        .select(['user_id', 'share_link_id', 'expires_at'])
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirst();
      if (!file) return undefined;
      const link = await ownedRows(db, 'share_links', file.user_id)
        .select('jwe')
        .where('id', '=', file.share_link_id)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirst();
      return link?.jwe ?? undefined;
    },

    /**
     * Deletes every expired link (its ciphertext and access log) and file address; at most
     * once a minute per instance unless forced. Says how many links went.
     */
    async pruneExpired(now = new Date(), force = false): Promise<number> {
      if (!force && now.getTime() - lastPruned < PRUNE_EVERY_MS) return 0;
      lastPruned = now.getTime();
      const at = now.toISOString();
      await db.deleteFrom('share_link_files').where('expires_at', '<', at).execute();
      const result = await db
        .deleteFrom('share_links')
        .where('expires_at', '<', at)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type ShareLinkStore = ReturnType<typeof createShareLinkStore>;
