/**
 * Patient portals put together (CONTRACT §6 'Connections'): the tokens' seal from
 * AUTH_SECRET, their store, the SMART client, the syncs, and, where SMART_PROVIDERS names
 * any portal, the daily pass that syncs each connection a day after its last sync.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { DocumentIntake } from '../documents/document-intake';
import type { AttemptLimits } from '../limits/attempt-limits';
import type { Logger } from '../logger';
import type { ConnectionRouteDependencies } from './connection-routes';
import { createConnectionStore } from './connection-store';
import { createConnectionSync } from './connection-sync';
import { createSmartClient } from './smart-client';
import type { SmartProvider } from './smart-providers';
import { createTokenSeal } from './token-seal';

export interface PortalConnectionOptions {
  db: Kysely<DB>;
  intake: DocumentIntake;
  providers: SmartProvider[];
  /** How often the daily pass looks for connections due. */
  dueCheckMs: number;
  authSecret: string;
  logger: Logger;
  limits: AttemptLimits;
  redirectUri: (request: Request) => string;
}

export function portalConnections(options: PortalConnectionOptions): ConnectionRouteDependencies {
  const { db, intake, providers, logger } = options;
  const store = createConnectionStore(db, createTokenSeal(options.authSecret));
  const client = createSmartClient();
  const sync = createConnectionSync({ db, intake, store, client, providers, logger });
  if (providers.length > 0) sync.schedule(options.dueCheckMs);
  return { ...options, store, sync, client };
}
