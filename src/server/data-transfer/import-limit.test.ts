/** Imports are limited per account: one user cannot keep the server busy with file after file. */
import { describe, expect, it } from 'vitest';
import { IMPORT_LIMIT } from './data-transfer-routes';
import { useTestServer, signedUpClient, type TestClient } from '../test/harness';

const server = useTestServer({ rateLimit: { max: 10, windowSeconds: 60 } });

const userIdOf = async (client: TestClient) =>
  (await client.get<{ user: { id: string } }>('/api/auth/get-session')).body.user.id;

const bundle = { resourceType: 'Bundle', type: 'collection', entry: [] };

describe('imports per account', () => {
  it(`are let through ${IMPORT_LIMIT.max} an hour, previews included; then 429, for that account alone`, async () => {
    expect(IMPORT_LIMIT.windowSeconds).toBe(3600);
    const { client } = await signedUpClient(server);
    const person = await userIdOf(client);
    for (let index = 0; index < IMPORT_LIMIT.max; index += 1) {
      const preview = index % 2 === 0 ? '&preview=true' : '';
      const response = await client.post(`/api/import?person=${person}${preview}`, bundle);
      expect(response.status, `import ${index + 1}`).toBeLessThan(300);
    }
    const refused = await client.post<{ message: string }>(`/api/import?person=${person}`, bundle);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/Too many imports/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    const { client: other } = await signedUpClient(server);
    const theirs = await other.post(`/api/import?person=${await userIdOf(other)}`, bundle);
    expect(theirs.status).toBe(201);
  });
});
