/**
 * A connection's sync: the portal's records for its patient read (portal-records.ts) with
 * the connection's access token (renewed by its refresh token when it has run out), then
 * brought in as a FHIR file is, on the import's own thread (import-file.ts): to the person
 * the connection is for, each record once (a record already here is left as it is), each
 * one 'Imported from {portal} on {date}' in Import History, and undone from there like any
 * import. A sync that brings nothing new leaves no import behind.
 *
 * A sync runs after a claim (connection-store.ts), so one server syncs a connection once at
 * a time; at most SYNCS_AT_ONCE run on a server, one per account at a time, each within
 * SYNC_MS: a slow portal costs its own sync and no other account's. 'Sync Now' and the
 * daily pass (every connection a day after its last sync) start syncs the same way.
 */
import { rm, writeFile } from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import pLimit, { type LimitFunction } from 'p-limit';
import { ApiError } from '../../shared/api-error';
import { signInAgain } from '../../shared/connections';
import type { DB } from '../db/schema';
import type { DocumentIntake } from '../documents/document-intake';
import { nowTimestamp } from '../ids';
import { importRead } from '../imports/import-file';
import { readFileOnThread } from '../imports/import-file-thread';
import { forgetEmptyImport } from '../imports/import-history';
import type { FilePatient } from '../imports/file-readers';
import { candidatesOf } from '../imports/match-person';
import type { Logger } from '../logger';
import { personOf, type ConnectionRow, type ConnectionStore } from './connection-store';
import { PortalError, PORTAL_UNREACHABLE } from './portal-http';
import { readPortalRecords } from './portal-records';
import type { Portal, SmartClient } from './smart-client';
import { DUE_CHECK_MS, type SmartProvider } from './smart-providers';

/** How many syncs one server runs at once (each mostly waits on its portal). */
export const SYNCS_AT_ONCE = 4;
/** How long one sync may take, reads, files and import together. */
export const SYNC_MS = 5 * 60 * 1000;
/** How long a claim holds: past it, a sync that never finished (a server stopped) is let go. */
const CLAIM_MS = SYNC_MS + 60 * 1000;
/** An access token this close to its end is renewed before it is used. */
const RENEW_BEFORE_MS = 60 * 1000;

export interface ConnectionSyncDependencies {
  db: Kysely<DB>;
  intake: DocumentIntake;
  store: ConnectionStore;
  client: SmartClient;
  providers: SmartProvider[];
  logger: Logger;
}

const importedSummary = (added: number, notShared: string[]) =>
  (added === 0 ? 'Nothing new' : `Imported ${added} ${added === 1 ? 'record' : 'records'}`) +
  (notShared.length ? ` (the portal did not share: ${notShared.join(', ')})` : '');

/** The connection's access token, renewed when it has run out or the portal says so. */
async function tokensFor(
  { store, client }: ConnectionSyncDependencies,
  row: ConnectionRow,
  portal: Portal,
) {
  const opened = await store.opened(row);
  let accessToken = opened.accessToken;
  let refreshToken = opened.refreshToken;
  const renew = async () => {
    if (!refreshToken) return false;
    const tokens = await client.refresh(portal, refreshToken);
    await store.refreshed(row, tokens);
    accessToken = tokens.accessToken;
    refreshToken = tokens.refreshToken ?? refreshToken;
    return true;
  };
  const expiresAt = row.access_expires_at ? Date.parse(row.access_expires_at) : Infinity;
  if (!accessToken || expiresAt - RENEW_BEFORE_MS < Date.now()) {
    if (!(await renew())) throw new PortalError('sign-in', '');
  }
  return { token: () => accessToken ?? '', renew };
}

/**
 * The portal's patient is the connection's person: a birth date that differs (the portal
 * signed in another child, say) stops the sync before anything is written. Names are not
 * compared: a portal has the legal name, a family often a first name.
 */
async function samePatient(db: Kysely<DB>, row: ConnectionRow, patient: FilePatient | null) {
  const person = (await candidatesOf(db, row.user_id)).find((each) => each.id === personOf(row));
  const born = patient?.birth_date;
  if (!person?.date_of_birth || !born || born === person.date_of_birth) return;
  throw new PortalError(
    'refused',
    `${row.portal} signed in ${patient.name ?? 'someone'} (born ${born}), not ${person.name} (born ${person.date_of_birth}): nothing was brought in. Disconnect, and connect the right person`,
  );
}

/** Reads the portal and imports what it holds; answers the summary. */
async function syncRecords(
  deps: ConnectionSyncDependencies,
  row: ConnectionRow,
  provider: SmartProvider,
): Promise<string> {
  const { db, intake } = deps;
  const portal = await deps.client.discover(provider);
  const signal = AbortSignal.timeout(SYNC_MS);
  const { token, renew } = await tokensFor(deps, row, portal);
  const reading = await readPortalRecords({
    fhirBaseUrl: row.fhir_base_url,
    patientId: row.patient_id,
    token,
    renew,
    signal,
  });
  const path = await intake.store.incomingFile();
  try {
    const text = JSON.stringify(reading.bundle);
    await writeFile(path, text, { mode: 0o600 });
    const file = { path, name: row.portal, size: Buffer.byteLength(text) };
    // Read and written in its turn beside the other heavy jobs (KIN_MEMORY_MB); the portal's
    // own slowness above held no one's turn.
    const done = await intake.heavy.run(async () => {
      const read = await readFileOnThread('fhir', file, {});
      if (!('records' in read))
        throw new PortalError('refused', `The portal's records could not be read: ${read.message}`);
      try {
        await samePatient(db, row, read.patient);
      } catch (error) {
        await read.records.close();
        throw error;
      }
      return importRead(
        { db, intake },
        {
          userId: row.user_id,
          personParam: personOf(row),
          preview: false,
          changed: 'keep',
          confirm: true,
          fileName: row.portal,
          options: {},
          path,
          size: file.size,
        },
        read,
      );
    });
    if (!('import_id' in done)) throw new Error('a sync was answered as a preview');
    if (done.added === 0) await forgetEmptyImport(db, { id: done.import_id, userId: row.user_id });
    return importedSummary(done.added, reading.notShared);
  } finally {
    await rm(path, { force: true });
  }
}

/** One claimed connection's sync, its end written down whatever happens. */
async function syncConnection(deps: ConnectionSyncDependencies, row: ConnectionRow) {
  const { store, logger } = deps;
  const provider = deps.providers.find((each) => each.name === row.portal);
  try {
    if (!provider) {
      throw new PortalError('refused', `${row.portal} is no longer offered by this server`);
    }
    await store.finish(row, { summary: await syncRecords(deps, row, provider) });
  } catch (error) {
    const problem = problemOf(error, row.portal);
    if (
      problem.status === 'failed' &&
      !(error instanceof PortalError) &&
      !(error instanceof ApiError)
    ) {
      logger.error({ err: error, connection: row.id }, 'a portal sync failed');
    }
    await store
      .finish(row, problem)
      .catch((finishing: unknown) =>
        logger.error(
          { err: finishing, connection: row.id },
          'a portal sync could not be written down',
        ),
      );
  }
}

/** A server's syncs: what they run with, the bound on them, and each account's in turn. */
interface Syncs {
  deps: ConnectionSyncDependencies;
  limit: LimitFunction;
  /** Each account's syncs, one after another. */
  accounts: Map<string, Promise<void>>;
}

/** Queues a claimed connection's sync: after the account's others, within the server's bound. */
function queue({ deps, limit, accounts }: Syncs, row: ConnectionRow): Promise<void> {
  const before = accounts.get(row.user_id) ?? Promise.resolve();
  const mine = before.then(() => limit(() => syncConnection(deps, row)));
  accounts.set(row.user_id, mine);
  void mine.finally(() => {
    if (accounts.get(row.user_id) === mine) accounts.delete(row.user_id);
  });
  return mine;
}

/**
 * Claims the connection and starts its sync ('Sync Now', and the first after connecting):
 * answers the sync's end, or undefined when it is being synced already.
 */
async function startSync(
  syncs: Syncs,
  userId: string,
  id: string,
): Promise<{ done: Promise<void> } | undefined> {
  const row = await syncs.deps.store.claim(userId, id, CLAIM_MS);
  return row ? { done: queue(syncs, row) } : undefined;
}

/** The daily pass: every connection due, claimed and queued; answers when all are done. */
async function syncDue(syncs: Syncs): Promise<number> {
  const due = await sql<Pick<ConnectionRow, 'id' | 'user_id'>>`
    select "id", "user_id" from "connections"
    where "next_sync_at" <= ${nowTimestamp()} and "status" <> ${'needs-sign-in'}
    order by "next_sync_at" limit 500`.execute(syncs.deps.db);
  const started = await Promise.all(due.rows.map((row) => startSync(syncs, row.user_id, row.id)));
  const running = started.filter((each) => each !== undefined);
  await Promise.all(running.map((each) => each.done));
  return running.length;
}

/** Runs the daily pass every `everyMs`; answers what stops it. */
function scheduleSyncs(syncs: Syncs, everyMs: number): () => void {
  const pass = () =>
    void syncDue(syncs).catch((error: unknown) =>
      syncs.deps.logger.error({ err: error }, 'the portals’ daily sync could not run'),
    );
  const timer = setInterval(pass, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export function createConnectionSync(deps: ConnectionSyncDependencies) {
  const syncs: Syncs = { deps, limit: pLimit(SYNCS_AT_ONCE), accounts: new Map() };
  return {
    start: (userId: string, id: string) => startSync(syncs, userId, id),
    syncDue: () => syncDue(syncs),
    /** Runs the daily pass every DUE_CHECK_MS; answers what stops it. */
    schedule: (everyMs = DUE_CHECK_MS) => scheduleSyncs(syncs, everyMs),
  };
}

export type ConnectionSync = ReturnType<typeof createConnectionSync>;

/** Why a sync stopped, in the family's words, and the status it leaves. */
export function problemOf(
  error: unknown,
  portal: string,
): { status: 'needs-sign-in' | 'failed'; problem: string } {
  if (error instanceof PortalError) {
    if (error.kind === 'sign-in') return { status: 'needs-sign-in', problem: signInAgain(portal) };
    return {
      status: 'failed',
      problem: error.kind === 'unreachable' ? PORTAL_UNREACHABLE : error.message,
    };
  }
  if (error instanceof ApiError) return { status: 'failed', problem: error.message };
  return { status: 'failed', problem: 'The sync failed; it will be tried again tomorrow' };
}
