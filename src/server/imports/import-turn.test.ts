/**
 * An import waits for its turn beside the server's other heavy jobs (KIN_MEMORY_MB: one at a
 * time under 1 GB), writes nothing meanwhile, and its page is told it waits
 * (GET /api/imports/turn), on either engine: the wait is kept in the import's lock.
 */
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

  it('runs at once when nothing else does, never said to wait', async () => {
    const { client } = await signedUpClient(server);
    const person = await userIdOf(client);
    const done = await client.post(`/api/import?person=${person}`, bundle);
    expect(done.status).toBe(201);
    expect(heavy.running).toBe(0);
  });
});
