/**
 * Connections' rows (migration 0045), each read and written through its owner: the account
 * that made it. A connection being made (`connection_starts`) is taken once, by its `state`
 * and the account that started it, and only before it expires; the portal's tokens are
 * sealed here on their way in and opened on their way out (token-seal.ts).
 */
import type { Kysely } from 'kysely';
import type { Connection, ConnectionStatus } from '../../shared/connections';
import { deleteOwned, ownedRow, ownedRows, updateOwned } from '../access/scope';
import type { ConnectionsTable, DB } from '../db/schema';
import { newId, nowTimestamp } from '../ids';
import { candidatesOf } from '../imports/match-person';
import type { PortalTokens } from './smart-client';
import type { TokenSeal } from './token-seal';

/** How long the browser may take at the portal's sign-in before the start is forgotten. */
export const START_MINUTES = 10;
/** How often a connection is synced without being asked. */
export const SYNC_EVERY_MS = 24 * 60 * 60 * 1000;

export type ConnectionRow = ConnectionsTable;

export interface ConnectionStart {
  userId: string;
  familyMemberId: string | null;
  portal: string;
  codeVerifier: string;
  connectionId: string | null;
}

const later = (ms: number) => new Date(Date.now() + ms).toISOString();

/** The sealed columns of a connection's tokens. */
async function sealedTokens(
  seal: TokenSeal,
  id: string,
  tokens: PortalTokens,
  keepRefresh: string | null,
) {
  return {
    access_token: await seal.seal(tokens.accessToken, `${id}:access`),
    access_expires_at: tokens.accessExpiresAt,
    // A portal that does not rotate its refresh token keeps the one it gave.
    refresh_token: tokens.refreshToken
      ? await seal.seal(tokens.refreshToken, `${id}:refresh`)
      : keepRefresh,
    scope: tokens.scope.slice(0, 2000),
  };
}

/** A connection being made: its start kept, sealed, under a new `state`, which it answers. */
async function startConnection(
  db: Kysely<DB>,
  seal: TokenSeal,
  start: ConnectionStart,
): Promise<string> {
  const state = newId() + newId();
  await db
    .insertInto('connection_starts')
    .values(
      ownedRow(start.userId, {
        state,
        family_member_id: start.familyMemberId,
        portal: start.portal,
        code_verifier: await seal.seal(start.codeVerifier, `start:${state}`),
        connection_id: start.connectionId,
        expires_at: later(START_MINUTES * 60 * 1000),
      }),
    )
    .execute();
  // Starts left behind (the browser never came back) go with the next one.
  await deleteOwned(db, 'connection_starts', start.userId)
    .where('expires_at', '<', nowTimestamp())
    .execute();
  return state;
}

/** The start this `state` names, for this account and not expired: taken, so once only. */
async function takeStart(
  db: Kysely<DB>,
  seal: TokenSeal,
  userId: string,
  state: string,
): Promise<ConnectionStart | null> {
  const row = await deleteOwned(db, 'connection_starts', userId)
    .where('state', '=', state)
    .returningAll()
    .executeTakeFirst();
  if (!row || row.expires_at < nowTimestamp()) return null;
  const codeVerifier = await seal.open(row.code_verifier, `start:${state}`);
  if (!codeVerifier) return null;
  return {
    userId,
    familyMemberId: row.family_member_id,
    portal: row.portal,
    codeVerifier,
    connectionId: row.connection_id,
  };
}

/** A new connection, or the one a 'Reconnect' renews, holding the portal's new tokens. */
async function connect(
  db: Kysely<DB>,
  seal: TokenSeal,
  start: ConnectionStart,
  fhirBaseUrl: string,
  tokens: PortalTokens & { patient: string },
): Promise<string> {
  const now = nowTimestamp();
  const renewed = start.connectionId
    ? await ownedRows(db, 'connections', start.userId)
        .select('id')
        .where('id', '=', start.connectionId)
        .executeTakeFirst()
    : undefined;
  const id = renewed?.id ?? newId();
  const sealed = await sealedTokens(seal, id, tokens, null);
  const values = {
    ...sealed,
    fhir_base_url: fhirBaseUrl,
    patient_id: tokens.patient.slice(0, 200),
    status: 'connected' satisfies ConnectionStatus,
    problem: null,
    next_sync_at: now,
    sync_claimed_until: null,
    updated_at: now,
  };
  if (renewed) {
    await updateOwned(db, 'connections', start.userId).set(values).where('id', '=', id).execute();
  } else {
    await db
      .insertInto('connections')
      .values(
        ownedRow(start.userId, {
          id,
          family_member_id: start.familyMemberId,
          portal: start.portal,
          last_synced_at: null,
          last_sync_summary: null,
          created_at: now,
          ...values,
        }),
      )
      .execute();
  }
  return id;
}

async function getConnection(
  db: Kysely<DB>,
  userId: string,
  id: string,
): Promise<ConnectionRow | undefined> {
  return ownedRows(db, 'connections', userId).selectAll().where('id', '=', id).executeTakeFirst();
}

/** The account's connections, as the list shows them, oldest first. */
async function listConnections(db: Kysely<DB>, userId: string): Promise<Connection[]> {
  const rows = await ownedRows(db, 'connections', userId)
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  if (rows.length === 0) return [];
  const persons = await candidatesOf(db, userId);
  return rows.map((row) => connectionOf(row, persons));
}

/** A connection's tokens, opened. */
async function openedTokens(seal: TokenSeal, row: ConnectionRow) {
  return {
    accessToken: row.access_token ? await seal.open(row.access_token, `${row.id}:access`) : null,
    refreshToken: row.refresh_token
      ? await seal.open(row.refresh_token, `${row.id}:refresh`)
      : null,
  };
}

/** Keeps the tokens a refresh gave. */
async function keepRefreshed(
  db: Kysely<DB>,
  seal: TokenSeal,
  row: ConnectionRow,
  tokens: PortalTokens,
) {
  await updateOwned(db, 'connections', row.user_id)
    .set({
      ...(await sealedTokens(seal, row.id, tokens, row.refresh_token)),
      updated_at: nowTimestamp(),
    })
    .where('id', '=', row.id)
    .execute();
}

/**
 * Claims a connection for one sync until `until`: on one server, and once, however many
 * ask at the same time. Answers the row as claimed, or undefined when it is already.
 */
async function claimSync(
  db: Kysely<DB>,
  userId: string,
  id: string,
  untilMs: number,
): Promise<ConnectionRow | undefined> {
  const now = nowTimestamp();
  const claimed = await updateOwned(db, 'connections', userId)
    .set({ sync_claimed_until: later(untilMs), status: 'syncing', updated_at: now })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('sync_claimed_until', 'is', null), eb('sync_claimed_until', '<', now)]),
    )
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n ? getConnection(db, userId, id) : undefined;
}

/** How a sync ended: what it did, or why it stopped. */
type SyncOutcome =
  | { summary: string }
  | { status: Exclude<ConnectionStatus, 'connected' | 'syncing'>; problem: string };

/** A sync's end: what it did, or why it stopped; the claim let go. */
async function finishSync(
  db: Kysely<DB>,
  row: Pick<ConnectionRow, 'id' | 'user_id'>,
  outcome: SyncOutcome,
) {
  const now = nowTimestamp();
  await updateOwned(db, 'connections', row.user_id)
    .set({
      ...('summary' in outcome
        ? {
            status: 'connected',
            problem: null,
            last_synced_at: now,
            last_sync_summary: outcome.summary,
          }
        : { status: outcome.status, problem: outcome.problem }),
      next_sync_at: later(SYNC_EVERY_MS),
      sync_claimed_until: null,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .execute();
}

async function removeConnection(db: Kysely<DB>, userId: string, id: string): Promise<boolean> {
  const removed = await deleteOwned(db, 'connections', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return removed.numDeletedRows > 0n;
}

export function createConnectionStore(db: Kysely<DB>, seal: TokenSeal) {
  return {
    start: (start: ConnectionStart) => startConnection(db, seal, start),
    take: (userId: string, state: string) => takeStart(db, seal, userId, state),
    connect: (
      start: ConnectionStart,
      fhirBaseUrl: string,
      tokens: PortalTokens & { patient: string },
    ) => connect(db, seal, start, fhirBaseUrl, tokens),
    get: (userId: string, id: string) => getConnection(db, userId, id),
    list: (userId: string) => listConnections(db, userId),
    opened: (row: ConnectionRow) => openedTokens(seal, row),
    refreshed: (row: ConnectionRow, tokens: PortalTokens) => keepRefreshed(db, seal, row, tokens),
    claim: (userId: string, id: string, untilMs: number) => claimSync(db, userId, id, untilMs),
    finish: (row: Pick<ConnectionRow, 'id' | 'user_id'>, outcome: SyncOutcome) =>
      finishSync(db, row, outcome),
    remove: (userId: string, id: string) => removeConnection(db, userId, id),
  };
}

export type ConnectionStore = ReturnType<typeof createConnectionStore>;

type Person = Awaited<ReturnType<typeof candidatesOf>>[number];

/** The person a connection's row is for: the account holder (no member), or a member. */
export const personOf = (row: Pick<ConnectionRow, 'user_id' | 'family_member_id'>) =>
  row.family_member_id ?? row.user_id;

function connectionOf(row: ConnectionRow, persons: Person[]): Connection {
  const personId = personOf(row);
  const person = persons.find((candidate) => candidate.id === personId);
  return {
    id: row.id,
    portal: row.portal,
    person: { id: personId, name: person?.name ?? '' },
    // A sync whose claim ran out never finished (its server stopped): said, not 'Syncing…'.
    ...(row.status === 'syncing' && (row.sync_claimed_until ?? '') < nowTimestamp()
      ? { status: 'failed', problem: 'The last sync did not finish; sync again' }
      : { status: row.status as ConnectionStatus, problem: row.problem }),
    last_synced_at: row.last_synced_at,
    last_sync_summary: row.last_sync_summary,
    created_at: row.created_at,
  };
}
