/**
 * Starting and stopping the product: open the database, run the migrations, serve, and on
 * SIGTERM/SIGINT let in-flight requests finish before closing the database.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app';
import { createAuth } from './auth/auth';
import type { AppConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import type { Logger } from './logger';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

export async function startServer(config: AppConfig, logger: Logger): Promise<RunningServer> {
  const database = openDatabase(config);
  const applied = await migrateToLatest(database.db);
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');

  const auth = createAuth({ db: database.db, engine: database.engine, config, logger });
  const app = createApp({ database, auth, config, logger });

  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(started),
    );
  });
  const address = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${address.port}`;
  logger.info({ url, engine: database.engine }, 'server listening');

  let stopping: Promise<void> | null = null;
  return {
    url,
    stop() {
      stopping ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive connections with no request in flight would hold close() open.
          if ('closeIdleConnections' in server) server.closeIdleConnections();
        });
        await database.close();
        logger.info('server stopped');
      })();
      return stopping;
    },
  };
}
