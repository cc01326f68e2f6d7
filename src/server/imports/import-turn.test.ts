/**
 * An import waits for its turn beside the server's other heavy jobs (KIN_MEMORY_MB: one at a
 * time under 1 GB), writes nothing meanwhile, and its page is told it waits
 * (GET /api/imports/turn), on either engine: the wait is kept in the import's lock. One
 * whose page is left while it waits gives up its turn and the lock.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { describe, expect, it, vi } from 'vitest';
import { heavyJobs } from '../runtime/heavy-jobs';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';

const heavy = heavyJobs(1);
const server = useTestServer({ heavyJobs: heavy });

const userIdOf = async (client: TestClient) =>
  (await client.get<{ user: { id: string } }>('/api/auth/get-session')).body.user.id;

const bundle = {
  resourceType: 'Bundle',
  type: 'collection',
  entry: [{ resource: { resourceType: 'AllergyIntolerance', code: { text: 'Peanuts' } } }],
};

const turnOf = async (client: TestClient) => (await client.get('/api/imports/turn')).body;

describe('an import on a server that runs one heavy job at a time', () => {
  it('waits for the other to finish, says so to its page, and then comes in', async () => {
    const { client } = await signedUpClient(server);
    const { client: other } = await signedUpClient(server, 'Other');
    const person = await userIdOf(client);
    expect(await turnOf(client)).toEqual({ running: false, waiting: false });

    let letGo: () => void = () => undefined;
    const scan = heavy.run(() => new Promise<void>((resolve) => (letGo = resolve)));
    const importing = client.post(`/api/import?person=${person}`, bundle);
    await vi.waitFor(
      async () => expect(await turnOf(client)).toEqual({ running: true, waiting: true }),
      {
        timeout: 10_000,
        interval: 50,
      },
    );
    // Another account's page is told nothing of it.
    expect(await turnOf(other)).toEqual({ running: false, waiting: false });
    expect((await client.get<{ items: unknown[] }>('/api/allergies')).body.items).toHaveLength(0);

    letGo();
    await scan;
    const done = await importing;
    expect(done.status).toBe(201);
    expect((await client.get<{ items: unknown[] }>('/api/allergies')).body.items).toHaveLength(1);
    expect(await turnOf(client)).toEqual({ running: false, waiting: false });
  });

  it('gives up its turn, and its account’s lock, when its page is left while it waits', async () => {
    const { client } = await signedUpClient(server);
    const person = await userIdOf(client);
    // Over a socket, as a browser sends it: leaving the page closes the connection.
    const { listening, port } = await new Promise<{ listening: ServerType; port: number }>(
      (resolve) => {
        const started: ServerType = serve(
          {
            fetch: (request, env) => server.app.fetch(request, env),
            port: 0,
            hostname: '127.0.0.1',
          },
          (info: AddressInfo) => resolve({ listening: started, port: info.port }),
        );
      },
    );
    let letGo: () => void = () => undefined;
    try {
      const scan = heavy.run(() => new Promise<void>((resolve) => (letGo = resolve)));
      const preview = request(`http://127.0.0.1:${port}/api/import?person=${person}&preview=true`, {
        method: 'POST',
        headers: {
          host: new URL(client.origin).host,
          origin: client.origin,
          cookie: client.cookieHeader,
          'content-type': 'application/json',
        },
      });
      const answered = new Promise<string>((resolve) => {
        preview.on('response', (response) => resolve(`answered ${response.statusCode}`));
        preview.on('close', () => resolve('left'));
      });
      preview.on('error', () => undefined);
      preview.end(JSON.stringify(bundle));
      await vi.waitFor(
        async () => expect(await turnOf(client)).toEqual({ running: true, waiting: true }),
        { timeout: 10_000, interval: 50 },
      );
      preview.destroy();
      expect(await answered).toBe('left');
      // The turn and the lock are given up while the scan still runs: the page's next
      // preview is not told another import is running.
      await vi.waitFor(
        async () => expect(await turnOf(client)).toEqual({ running: false, waiting: false }),
        { timeout: 10_000, interval: 50 },
      );
      expect(heavy.waiting).toBe(0);
      const again = client.post(`/api/import?person=${person}&preview=true`, bundle);
      await vi.waitFor(() => expect(heavy.waiting).toBe(1), { timeout: 10_000, interval: 50 });
      letGo();
      await scan;
      expect((await again).status).toBe(200);
      expect((await client.get<{ items: unknown[] }>('/api/allergies')).body.items).toHaveLength(0);
    } finally {
      letGo();
      await new Promise<void>((resolve) => listening.close(() => resolve()));
    }
  });

  it('runs at once when nothing else does, never said to wait', async () => {
    const { client } = await signedUpClient(server);
    const person = await userIdOf(client);
    const done = await client.post(`/api/import?person=${person}`, bundle);
    expect(done.status).toBe(201);
    expect(heavy.running).toBe(0);
  });
});
