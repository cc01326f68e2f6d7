/**
 * Share links in the database. The owner's reads and writes go through the access module
 * by owner; a link's reader, who has no account, reaches the link by its manifest id and a
 * manifest's file by its ticket (capabilities, see access.ts), and everything after that
 * through the owner the row names. A link a grantee made of a person shared with them is
 * also the person's owner's to list, read the access log of and revoke: the owner reaches it
 * through their own grant to that grantee (`makersOf`), then by the grantee as its owner.
 *
 * The server keeps the shared records only as the JWE the owner's browser made; the key is
 * in the link's fragment. Revoking a link deletes its ciphertext at once; an expired link
 * is deleted whole (ciphertext and access log) by `pruneExpired`.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import {
  SHARE_LINK_FILE_SECONDS,
  SHARE_LINK_PASSCODE_ATTEMPTS,
  type ShareAccessOutcome,
  type ShareLinkAccess,
  type ShareLinkSummary,
} from '../../shared/share-links';
import { deleteOwned, ownedRow, ownedRows, rowsByCapability, updateOwned } from '../access/scope';
import type { DB } from '../db/schema';
import { isId, newId, nowTimestamp } from '../ids';

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

const SUMMARY_COLUMNS = [
  'id',
  'person_id',
  'label',
  'created_at',
  'expires_at',
  'revoked_at',
  'opened_count',
  'passcode_hash',
  'attempts_left',
] as const;
type SummaryRow = Pick<Selectable<DB['share_links']>, (typeof SUMMARY_COLUMNS)[number]>;

/** An account that accepted a grant of the user's: it may have made links of those persons. */
export interface LinkMaker {
  id: string;
  name: string;
  email: string;
  /** The user's persons it was given. */
  personIds: string[];
}

/** A link in the user's list, with who made it. */
export interface ListedShareLink {
  summary: ShareLinkSummary;
  makerId: string;
  /** Made by the user, of one of their own persons. */
  ownPerson: boolean;
}

/** One reading of a link, for its access log. */
interface LinkAccess {
  recipient: string;
  outcome: ShareAccessOutcome;
  ipAddress: string | null;
}

/** A link the user may manage, and who made it (null: the user). */
export interface ManagedShareLink {
  id: string;
  label: string;
  revoked_at: string | null;
  maker: LinkMaker | null;
}

async function createLink(db: Kysely<DB>, owner: string, link: NewShareLink) {
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
}

/**
 * The links the user sees in 'Active Share Links', newest first, each with its person's
 * name: their own that have not expired, and those the accounts they shared a person with
 * made of that person (see `makersOf`). Each says who made it, and whether it is of one
 * of the maker's own persons (such a link has no access to outlive).
 */
async function listLinks(
  db: Kysely<DB>,
  user: string,
  now = new Date(),
): Promise<ListedShareLink[]> {
  const at = now.toISOString();
  const live = (maker: string) =>
    ownedRows(db, 'share_links', maker)
      .select(SUMMARY_COLUMNS)
      .where('expires_at', '>', at)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc');
  const listed: { row: SummaryRow; maker: LinkMaker | null }[] = (await live(user).execute()).map(
    (row) => ({ row, maker: null }),
  );
  for (const maker of await makersOf(db, user)) {
    const rows = await live(maker.id).where('person_id', 'in', maker.personIds).execute();
    listed.push(...rows.map((row) => ({ row, maker })));
  }
  listed.sort(
    (a, b) => b.row.created_at.localeCompare(a.row.created_at) || b.row.id.localeCompare(a.row.id),
  );
  const names = await personNames(db, user);
  return listed.map(({ row, maker }) => listedLink(user, names, row, maker));
}

/** The names of the user's own persons (themself and their family members), by id. */
async function personNames(db: Kysely<DB>, user: string): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const self = await ownedRows(db, 'user', user).select(['id', 'name']).executeTakeFirst();
  if (self) names.set(self.id, self.name);
  const members = await ownedRows(db, 'family_members', user).select(['id', 'name']).execute();
  for (const member of members) names.set(member.id, member.name);
  return names;
}

/** A link as 'Active Share Links' shows it, with who made it (null: the user). */
function listedLink(
  user: string,
  names: Map<string, string>,
  row: SummaryRow,
  maker: LinkMaker | null,
): ListedShareLink {
  return {
    makerId: maker?.id ?? user,
    ownPerson: maker === null && names.has(row.person_id),
    summary: {
      id: row.id,
      person_id: row.person_id,
      person_name: names.get(row.person_id) ?? row.label,
      label: row.label,
      made_by: maker?.name ?? null,
      created_at: row.created_at,
      expires_at: row.expires_at,
      revoked_at: row.revoked_at,
      opened_count: Number(row.opened_count),
      has_passcode: row.passcode_hash !== null,
      locked: row.attempts_left !== null && Number(row.attempts_left) <= 0,
    },
  };
}

async function makersOf(db: Kysely<DB>, user: string): Promise<LinkMaker[]> {
  const grants = await ownedRows(db, 'access_grants', user, 'g')
    .innerJoin('user as maker', 'maker.id', 'g.grantee_id')
    .select(['maker.id as id', 'maker.name as name', 'maker.email as email', 'g.person_id'])
    .where('maker.id', '<>', user)
    .orderBy('g.created_at')
    .orderBy('g.id')
    .execute();
  const makers = new Map<string, LinkMaker>();
  for (const { person_id: personId, ...account } of grants) {
    const maker = makers.get(account.id) ?? { ...account, personIds: [] };
    maker.personIds.push(personId);
    makers.set(account.id, maker);
  }
  return [...makers.values()];
}

/**
 * A link the user may read the access log of and revoke: one of their own, or one a
 * grantee of theirs made of a person they shared (see `makersOf`); with its maker, or
 * null when the user made it.
 */
async function findManagedLink(
  db: Kysely<DB>,
  user: string,
  id: string,
): Promise<ManagedShareLink | undefined> {
  const link = (maker: string) =>
    ownedRows(db, 'share_links', maker).select(['id', 'label', 'revoked_at']).where('id', '=', id);
  if (!isId(id)) return undefined;
  const own = await link(user).executeTakeFirst();
  if (own) return { ...own, maker: null };
  for (const maker of await makersOf(db, user)) {
    const made = await link(maker.id).where('person_id', 'in', maker.personIds).executeTakeFirst();
    if (made) return { ...made, maker };
  }
  return undefined;
}

/**
 * Revokes: the ciphertext goes now, the row (and its access log) stays until expiry. Says
 * whether this call revoked it (false: no such link of the owner's, or revoked already).
 */
async function revokeLink(
  db: Kysely<DB>,
  owner: string,
  id: string,
  at = nowTimestamp(),
): Promise<boolean> {
  const result = await updateOwned(db, 'share_links', owner)
    .set({ jwe: null, revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  await deleteOwned(db, 'share_link_files', owner).where('share_link_id', '=', id).execute();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes every live link of the owner's to one person (a shared person no longer theirs to share). */
async function revokeLinksOfPerson(db: Kysely<DB>, owner: string, personId: string): Promise<void> {
  const live = await ownedRows(db, 'share_links', owner)
    .select('id')
    .where('person_id', '=', personId)
    .where('revoked_at', 'is', null)
    .execute();
  for (const { id } of live) await revokeLink(db, owner, id);
}

/**
 * At the deletion of an account: every link whose person was the account, whoever made
 * it (its own go with it by their owner; a grantee's of the owner themself would not),
 * deleted whole with its ciphertext, file addresses and access log.
 */
async function deleteLinksOfAccountPerson(db: Kysely<DB>, userId: string): Promise<void> {
  await db.deleteFrom('share_links').where('person_id', '=', userId).execute();
}

async function accesses(db: Kysely<DB>, owner: string, linkId: string): Promise<ShareLinkAccess[]> {
  const rows = await ownedRows(db, 'share_link_accesses', owner)
    .select(['id', 'created_at', 'recipient', 'outcome'])
    .where('share_link_id', '=', linkId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((row) => ({ ...row, outcome: row.outcome as ShareAccessOutcome }));
}

/** The link a manifest id names, live or not (the caller refuses a dead one), or undefined. */
async function byManifestId(db: Kysely<DB>, manifestId: string) {
  return rowsByCapability(db, 'share_links', manifestId)
    .select([
      'id',
      'user_id',
      'person_id',
      'label',
      'passcode_hash',
      'attempts_left',
      'expires_at',
      'revoked_at',
    ])
    .executeTakeFirst();
}

/**
 * Takes one passcode attempt from the link's lifetime allowance, atomically on either
 * engine, before the passcode is checked: of any number of racing guesses, no more than
 * the allowance are ever checked. Says whether an attempt was left.
 */
async function takeAttempt(db: Kysely<DB>, owner: string, linkId: string): Promise<boolean> {
  const result = await updateOwned(db, 'share_links', owner)
    .set({ attempts_left: sql<number>`"attempts_left" - 1` })
    .where('id', '=', linkId)
    .where('attempts_left', '>', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives back the attempt a right passcode took. */
async function returnAttempt(db: Kysely<DB>, owner: string, linkId: string) {
  await updateOwned(db, 'share_links', owner)
    .set({ attempts_left: sql<number>`"attempts_left" + 1` })
    .where('id', '=', linkId)
    .execute();
}

async function attemptsLeft(db: Kysely<DB>, owner: string, linkId: string): Promise<number> {
  const row = await ownedRows(db, 'share_links', owner)
    .select('attempts_left')
    .where('id', '=', linkId)
    .executeTakeFirst();
  return Number(row?.attempts_left ?? 0);
}

async function recordAccess(db: Kysely<DB>, owner: string, linkId: string, access: LinkAccess) {
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
}

/** A file address for the link, good for an hour. */
async function issueFile(
  db: Kysely<DB>,
  owner: string,
  linkId: string,
  now = Date.now(),
): Promise<string> {
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
}

/** The ciphertext a live file address reaches, with its link's maker and person, or undefined. */
async function fileContent(db: Kysely<DB>, ticket: string, now = new Date()) {
  const file = await rowsByCapability(db, 'share_link_files', ticket)
    .select(['user_id', 'share_link_id', 'expires_at'])
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (!file) return undefined;
  const link = await ownedRows(db, 'share_links', file.user_id)
    .select(['id', 'user_id', 'person_id', 'label', 'jwe'])
    .where('id', '=', file.share_link_id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  const jwe = link?.jwe;
  return link && jwe ? { ...link, jwe } : undefined;
}

/**
 * Deletes every expired link (its ciphertext and access log) and file address; at most
 * once a minute per instance unless forced. Says how many links went.
 */
async function pruneExpired(
  db: Kysely<DB>,
  pruning: { lastPruned: number },
  now = new Date(),
  force = false,
): Promise<number> {
  if (!force && now.getTime() - pruning.lastPruned < PRUNE_EVERY_MS) return 0;
  pruning.lastPruned = now.getTime();
  const at = now.toISOString();
  await db.deleteFrom('share_link_files').where('expires_at', '<', at).execute();
  const result = await db.deleteFrom('share_links').where('expires_at', '<', at).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function createShareLinkStore(db: Kysely<DB>) {
  const pruning = { lastPruned: 0 };
  return {
    create: (owner: string, link: NewShareLink) => createLink(db, owner, link),
    list: (user: string, now?: Date) => listLinks(db, user, now),
    makersOf: (user: string) => makersOf(db, user),
    find: (user: string, id: string) => findManagedLink(db, user, id),
    revoke: (owner: string, id: string, at?: string) => revokeLink(db, owner, id, at),
    revokePerson: (owner: string, personId: string) => revokeLinksOfPerson(db, owner, personId),
    deleteLinksOfAccountPerson: (userId: string) => deleteLinksOfAccountPerson(db, userId),
    accesses: (owner: string, linkId: string) => accesses(db, owner, linkId),
    byManifestId: (manifestId: string) => byManifestId(db, manifestId),
    takeAttempt: (owner: string, linkId: string) => takeAttempt(db, owner, linkId),
    returnAttempt: (owner: string, linkId: string) => returnAttempt(db, owner, linkId),
    attemptsLeft: (owner: string, linkId: string) => attemptsLeft(db, owner, linkId),
    recordAccess: (owner: string, linkId: string, access: LinkAccess) =>
      recordAccess(db, owner, linkId, access),
    issueFile: (owner: string, linkId: string, now?: number) => issueFile(db, owner, linkId, now),
    fileContent: (ticket: string, now?: Date) => fileContent(db, ticket, now),
    pruneExpired: (now?: Date, force?: boolean) => pruneExpired(db, pruning, now, force),
  };
}

export type ShareLinkStore = ReturnType<typeof createShareLinkStore>;
