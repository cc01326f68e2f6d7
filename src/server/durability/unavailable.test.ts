/**
 * When the database is unreachable or full, requests get 503 with a clear message, the
 * server keeps running, and it recovers by itself when the database comes back.
 */
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { createAuth } from '../auth/auth';
import { openPostgres } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { UNAVAILABLE_MESSAGE } from '../http/errors';
import { createLogger } from '../logger';
import {
  createTestServer,
  settleConfiguredPasscode,
  signedUpClient,
  TestClient,
  testConfig,
  testEngine,
} from '../test/harness';
import { createThrowawayPostgres } from '../test/throwaway-postgres';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** A TCP proxy in front of PostgreSQL that can be cut and restored, like a network outage. */
async function startProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      });
    },
    async restore() {
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
  };
}

describe.runIf(testEngine() === 'postgres')('PostgreSQL out of reach', () => {
  it('answers 503, keeps running, and recovers when the database returns', async () => {
    const throwaway = await createThrowawayPostgres();
    cleanups.push(throwaway.drop);
    const databaseUrl = new URL(throwaway.url);

    const proxy = await startProxy({
      host: databaseUrl.hostname,
      port: Number(databaseUrl.port || 5432),
    });
    const viaProxy = new URL(databaseUrl);
    viaProxy.port = String(proxy.port);
    const database = openPostgres(viaProxy.toString(), 4);
    cleanups.push(() => database.close());
    await migrateToLatest(database.db);
    const config = testConfig();
    const logger = createLogger('silent');
    await settleConfiguredPasscode(database, config, logger);
    const auth = createAuth({ db: database.db, engine: database.engine, config, logger });
    const app = createApp({ database, auth, config, logger });
    const server = { client: () => new TestClient(app.fetch) } as Parameters<
      typeof signedUpClient
    >[0];
    const { client } = await signedUpClient(server);
    expect((await client.post('/api/notes', { title: 'Before' })).status).toBe(201);

    await proxy.cut();
    for (const [method, path, body] of [
      ['GET', '/api/notes', undefined],
      ['POST', '/api/notes', { title: 'During' }],
      ['GET', '/api/timeline', undefined],
      ['GET', '/api/auth/get-session', undefined],
    ] as const) {
      const response = await client.request(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(503);
      expect(response.body).toMatchObject({ message: UNAVAILABLE_MESSAGE });
    }
    const health = await client.get('/api/health');
    expect(health.status).toBe(503);

    await proxy.restore();
    let recovered = 0;
    for (let attempt = 0; attempt < 50 && recovered !== 200; attempt += 1) {
      recovered = (await client.get('/api/health')).status;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered).toBe(200);
    const list = await client.get<{ items: { title: string }[] }>('/api/notes');
    expect(list.status).toBe(200);
    expect(list.body.items.map((note) => note.title)).toEqual(['Before']);
    expect((await client.post('/api/notes', { title: 'After' })).status).toBe(201);
    await proxy.cut();
  });
});

describe.runIf(testEngine() === 'sqlite')('SQLite full', () => {
  it('answers 503 to writes, keeps serving reads, and recovers when there is room again', async () => {
    const server = await createTestServer();
    cleanups.push(server.close);
    const { client } = await signedUpClient(server);
    expect((await client.post('/api/notes', { title: 'Before' })).status).toBe(201);

    // Cap the file at its current size: the disk is full.
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(server.db);
    const current = Number(pages.rows[0]?.page_count);
    await sql.raw(`pragma max_page_count = ${current}`).execute(server.db);
    const large = 'x'.repeat(9_000);
    let full = 0;
    for (let index = 0; index < 30; index += 1) {
      const response = await client.post('/api/notes', { title: `Big ${index}`, content: large });
      if (response.status === 503) {
        full += 1;
        expect(response.body).toMatchObject({ message: UNAVAILABLE_MESSAGE });
      } else expect(response.status).toBe(201);
    }
    expect(full).toBeGreaterThan(0);
    expect((await client.get('/api/notes')).status).toBe(200);

    await sql.raw('pragma max_page_count = 1073741823').execute(server.db);
    expect((await client.post('/api/notes', { title: 'After' })).status).toBe(201);
  });
});
