/**
 * Connections (CONTRACT §6 'Connections', shapes in shared/connections.ts): the portals
 * offered and the account's connections; 'Connect' (and 'Reconnect') sends the browser to
 * the portal's sign-in with PKCE and a `state` kept here; the callback takes that `state`
 * once, for the account that started it, exchanges the code and starts the first sync;
 * 'Sync Now'; 'Disconnect' revokes at the portal and forgets the tokens, keeping the records.
 * The callback checks a code: it is rate-limited per account, and audited like a sign-in.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import * as oauth from 'oauth4webapi';
import { z } from 'zod';
import { ApiError } from '../../shared/api-error';
import {
  CONNECTIONS_PAGE,
  type ConnectionsAnswer,
  type ConnectStarted,
} from '../../shared/connections';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import { ownPersonAmong } from '../access/persons';
import { badRequest, notFound } from '../http/errors';
import type { AppEnv } from '../http/env';
import { validate } from '../http/validation';
import { candidatesOf } from '../imports/match-person';
import type { AttemptLimits } from '../limits/attempt-limits';
import type { Logger } from '../logger';
import type { ConnectionStart, ConnectionStore } from './connection-store';
import type { ConnectionSync } from './connection-sync';
import { PortalError } from './portal-http';
import type { SmartClient } from './smart-client';
import type { SmartProvider } from './smart-providers';
import { key, tr } from '../../shared/i18n/translate';

/** Callbacks per account: a family connects a few portals, a guesser many times more. */
export const CALLBACK_LIMIT = { max: 20, windowSeconds: 60 * 60 };

export const NO_SUCH_PORTAL = key('Health System: choose one of the portals this server offers');
export const START_NOT_FOUND = key(
  'The portal sent back an answer to no connection being made here (or it was too late): connect again',
);

export interface ConnectionRouteDependencies {
  db: Kysely<DB>;
  store: ConnectionStore;
  sync: ConnectionSync;
  client: SmartClient;
  providers: SmartProvider[];
  logger: Logger;
  limits: AttemptLimits;
  /** `{BASE_URL}/api/connections/callback`, or this request's origin's when BASE_URL is not set. */
  redirectUri: (request: Request) => string;
}

const connectSchema = z.object({
  portal: z
    .string({ error: 'Health System: choose a portal' })
    .min(1, 'Health System: choose a portal'),
  person_id: z
    .string({ error: 'Person: choose who the portal is for' })
    .min(1, 'Person: choose who the portal is for'),
});

/** The page the browser comes back to, with the connection made or why it was not. */
const backTo = (query: Record<string, string>) =>
  `${CONNECTIONS_PAGE}?${new URLSearchParams(query).toString()}`;

const providerNamed = (providers: SmartProvider[], name: string) =>
  providers.find((provider) => provider.name === name);

/** Where the browser goes to sign in at the portal, for a new connection or a renewed one. */
async function begin(
  deps: ConnectionRouteDependencies,
  request: Request,
  start: Omit<ConnectionStart, 'codeVerifier'>,
  provider: SmartProvider,
): Promise<ConnectStarted> {
  const { client, store } = deps;
  let portal;
  try {
    portal = await client.discover(provider);
  } catch (error) {
    if (error instanceof PortalError) throw new ApiError(502, error.message, 'portal');
    throw error;
  }
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = await store.start({ ...start, codeVerifier });
  return {
    authorize_url: await client.authorizeUrl(portal, {
      state,
      codeVerifier,
      redirectUri: deps.redirectUri(request),
    }),
  };
}

async function ownConnection(store: ConnectionStore, userId: string, id: string) {
  const row = await store.get(userId, id);
  if (!row) throw notFound(key('Connection not found'));
  return row;
}

/** 'Connect': a new connection's start, for one of the account's own persons. */
async function connect(
  deps: ConnectionRouteDependencies,
  request: Request,
  userId: string,
  body: z.infer<typeof connectSchema>,
): Promise<ConnectStarted> {
  const provider = providerNamed(deps.providers, body.portal);
  if (!provider) throw badRequest(NO_SUCH_PORTAL, 'portal');
  const person = ownPersonAmong(await candidatesOf(deps.db, userId), body.person_id);
  return begin(
    deps,
    request,
    {
      userId,
      familyMemberId: person.family_member_id,
      portal: provider.name,
      connectionId: null,
    },
    provider,
  );
}

/** What the portal's callback came to: the connection made, or why not (and at which portal). */
type CallbackOutcome = { connected: string; portal: string } | { refused: string; portal?: string };

/**
 * The portal's callback: within the account's limit, the start its `state` names taken, the
 * code exchanged, and the connection made or renewed for the same patient.
 */
async function takeCallback(
  deps: ConnectionRouteDependencies,
  request: Request,
  userId: string,
  callback: URL,
): Promise<CallbackOutcome> {
  const { store, client } = deps;
  const allowed = await deps.limits.consume({
    scope: 'account',
    subject: userId,
    action: 'portal-callback',
  });
  if (!allowed.allowed) {
    return { refused: 'Too many connection attempts. Please wait and try again later.' };
  }
  const state = callback.searchParams.get('state');
  const start = state ? await store.take(userId, state) : null;
  if (!state || !start) return { refused: START_NOT_FOUND };
  const provider = providerNamed(deps.providers, start.portal);
  if (!provider) return { refused: `${start.portal} is no longer offered by this server` };
  try {
    const portal = await client.discover(provider);
    const tokens = await client.exchangeCode(portal, callback, {
      state,
      codeVerifier: start.codeVerifier,
      redirectUri: deps.redirectUri(request),
    });
    if (!tokens.patient) {
      return {
        refused: `${provider.name} did not say whose records these are (no patient)`,
        portal: provider.name,
      };
    }
    if (start.connectionId) {
      const before = await store.get(userId, start.connectionId);
      if (before && before.patient_id !== tokens.patient) {
        return {
          refused: `${provider.name} signed in someone else than the patient this connection is for`,
          portal: provider.name,
        };
      }
    }
    const id = await store.connect(start, provider.fhirBaseUrl, {
      ...tokens,
      patient: tokens.patient,
    });
    return { connected: id, portal: provider.name };
  } catch (error) {
    if (error instanceof PortalError)
      return { refused: error.message || `${provider.name} refused`, portal: provider.name };
    throw error;
  }
}

/**
 * Where the callback sends the browser back to, its outcome audited; a connection made is
 * synced at once.
 */
async function finishCallback(
  deps: ConnectionRouteDependencies,
  headers: Headers,
  userId: string,
  outcome: CallbackOutcome,
): Promise<string> {
  if ('refused' in outcome) {
    await recordAuditEventOrLog(deps.db, deps.logger, headers, {
      event: 'portal_connect_failed',
      userId,
      detail: outcome.portal ? `${outcome.portal}: ${outcome.refused}` : outcome.refused,
    });
    return backTo({ connection_error: outcome.refused });
  }
  await recordAuditEventOrLog(deps.db, deps.logger, headers, {
    event: 'portal_connected',
    userId,
    detail: outcome.portal,
  });
  await deps.sync.start(userId, outcome.connected);
  return backTo({ connected: outcome.connected });
}

/** 'Sync Now': the connection as the list shows it once its sync has started. */
async function syncNow(deps: ConnectionRouteDependencies, userId: string, id: string) {
  const row = await ownConnection(deps.store, userId, id);
  await deps.sync.start(userId, row.id);
  return (await deps.store.list(userId)).find((each) => each.id === row.id);
}

/** 'Reconnect': a start that renews the connection, at the portal it was made with. */
async function reconnect(
  deps: ConnectionRouteDependencies,
  request: Request,
  userId: string,
  id: string,
): Promise<ConnectStarted> {
  const row = await ownConnection(deps.store, userId, id);
  const provider = providerNamed(deps.providers, row.portal);
  if (!provider)
    throw badRequest(
      tr('{portal} is no longer offered by this server', { portal: row.portal }),
      'portal',
    );
  return begin(
    deps,
    request,
    { userId, familyMemberId: row.family_member_id, portal: row.portal, connectionId: row.id },
    provider,
  );
}

/** 'Disconnect': the portal asked to revoke the tokens, then the connection forgotten. */
async function disconnect(
  deps: ConnectionRouteDependencies,
  headers: Headers,
  userId: string,
  id: string,
) {
  const { db, store, client, logger } = deps;
  const row = await ownConnection(store, userId, id);
  const provider = providerNamed(deps.providers, row.portal);
  let revoked = false;
  if (provider) {
    // Asked of the portal first; what it says does not keep the tokens here.
    try {
      const portal = await client.discover(provider);
      const { accessToken, refreshToken } = await store.opened(row);
      for (const token of [refreshToken, accessToken]) {
        if (token) revoked = (await client.revoke(portal, token)) || revoked;
      }
    } catch (error) {
      logger.warn({ err: error, connection: row.id }, 'a portal did not revoke its token');
    }
  }
  await store.remove(userId, row.id);
  await recordAuditEventOrLog(db, logger, headers, {
    event: 'portal_disconnected',
    userId,
    detail: `${row.portal}${revoked ? ', its token revoked' : ''}`,
  });
}

export function connectionRoutes(deps: ConnectionRouteDependencies) {
  return new Hono<AppEnv>()
    .get('/', async (c) =>
      c.json({
        portals: deps.providers.map((provider) => ({ name: provider.name })),
        connections: await deps.store.list(c.var.user.id),
      } satisfies ConnectionsAnswer),
    )
    .post('/', validate('json', connectSchema), async (c) => {
      const started = await connect(deps, c.req.raw, c.var.user.id, c.req.valid('json'));
      return c.json(started);
    })
    .get('/callback', async (c) => {
      const userId = c.var.user.id;
      const outcome = await takeCallback(deps, c.req.raw, userId, new URL(c.req.url));
      return c.redirect(await finishCallback(deps, c.req.raw.headers, userId, outcome));
    })
    .post('/:id/sync', async (c) => {
      const connection = await syncNow(deps, c.var.user.id, c.req.param('id'));
      return c.json(connection, 202);
    })
    .post('/:id/reconnect', async (c) => {
      const started = await reconnect(deps, c.req.raw, c.var.user.id, c.req.param('id'));
      return c.json(started);
    })
    .delete('/:id', async (c) => {
      await disconnect(deps, c.req.raw.headers, c.var.user.id, c.req.param('id'));
      return c.body(null, 204);
    });
}
