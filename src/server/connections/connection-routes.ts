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

export function connectionRoutes(deps: ConnectionRouteDependencies) {
  const { db, store, sync, client, providers, logger, limits } = deps;
  const providerNamed = (name: string) => providers.find((provider) => provider.name === name);

  /** Where the browser goes to sign in at the portal, for a new connection or a renewed one. */
  async function begin(
    request: Request,
    start: Omit<ConnectionStart, 'codeVerifier'>,
    provider: SmartProvider,
  ): Promise<ConnectStarted> {
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

  async function ownConnection(userId: string, id: string) {
    const row = await store.get(userId, id);
    if (!row) throw notFound(key('Connection not found'));
    return row;
  }

  return new Hono<AppEnv>()
    .get('/', async (c) =>
      c.json({
        portals: providers.map((provider) => ({ name: provider.name })),
        connections: await store.list(c.var.user.id),
      } satisfies ConnectionsAnswer),
    )
    .post('/', validate('json', connectSchema), async (c) => {
      const userId = c.var.user.id;
      const body = c.req.valid('json');
      const provider = providerNamed(body.portal);
      if (!provider) throw badRequest(NO_SUCH_PORTAL, 'portal');
      const person = ownPersonAmong(await candidatesOf(db, userId), body.person_id);
      const started = await begin(
        c.req.raw,
        {
          userId,
          familyMemberId: person.family_member_id,
          portal: provider.name,
          connectionId: null,
        },
        provider,
      );
      return c.json(started);
    })
    .get('/callback', async (c) => {
      const userId = c.var.user.id;
      const callback = new URL(c.req.url);
      const refuse = async (sentence: string, portal?: string) => {
        await recordAuditEventOrLog(db, logger, c.req.raw.headers, {
          event: 'portal_connect_failed',
          userId,
          detail: portal ? `${portal}: ${sentence}` : sentence,
        });
        return c.redirect(backTo({ connection_error: sentence }));
      };
      const allowed = await limits.consume({
        scope: 'account',
        subject: userId,
        action: 'portal-callback',
      });
      if (!allowed.allowed) {
        return refuse('Too many connection attempts. Please wait and try again later.');
      }
      const state = callback.searchParams.get('state');
      const start = state ? await store.take(userId, state) : null;
      if (!state || !start) return refuse(START_NOT_FOUND);
      const provider = providerNamed(start.portal);
      if (!provider) return refuse(`${start.portal} is no longer offered by this server`);
      let id: string;
      try {
        const portal = await client.discover(provider);
        const tokens = await client.exchangeCode(portal, callback, {
          state,
          codeVerifier: start.codeVerifier,
          redirectUri: deps.redirectUri(c.req.raw),
        });
        if (!tokens.patient) {
          return refuse(
            `${provider.name} did not say whose records these are (no patient)`,
            provider.name,
          );
        }
        if (start.connectionId) {
          const before = await store.get(userId, start.connectionId);
          if (before && before.patient_id !== tokens.patient) {
            return refuse(
              `${provider.name} signed in someone else than the patient this connection is for`,
              provider.name,
            );
          }
        }
        id = await store.connect(start, provider.fhirBaseUrl, {
          ...tokens,
          patient: tokens.patient,
        });
      } catch (error) {
        if (error instanceof PortalError)
          return refuse(error.message || `${provider.name} refused`, provider.name);
        throw error;
      }
      await recordAuditEventOrLog(db, logger, c.req.raw.headers, {
        event: 'portal_connected',
        userId,
        detail: provider.name,
      });
      await sync.start(userId, id);
      return c.redirect(backTo({ connected: id }));
    })
    .post('/:id/sync', async (c) => {
      const userId = c.var.user.id;
      const row = await ownConnection(userId, c.req.param('id'));
      await sync.start(userId, row.id);
      const connection = (await store.list(userId)).find((each) => each.id === row.id);
      return c.json(connection, 202);
    })
    .post('/:id/reconnect', async (c) => {
      const userId = c.var.user.id;
      const row = await ownConnection(userId, c.req.param('id'));
      const provider = providerNamed(row.portal);
      if (!provider)
        throw badRequest(
          tr('{portal} is no longer offered by this server', { portal: row.portal }),
          'portal',
        );
      const started = await begin(
        c.req.raw,
        { userId, familyMemberId: row.family_member_id, portal: row.portal, connectionId: row.id },
        provider,
      );
      return c.json(started);
    })
    .delete('/:id', async (c) => {
      const userId = c.var.user.id;
      const row = await ownConnection(userId, c.req.param('id'));
      const provider = providerNamed(row.portal);
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
      await recordAuditEventOrLog(db, logger, c.req.raw.headers, {
        event: 'portal_disconnected',
        userId,
        detail: `${row.portal}${revoked ? ', its token revoked' : ''}`,
      });
      return c.body(null, 204);
    });
}
