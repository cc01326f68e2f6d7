/** The server's own surface: health, unknown routes, and the session guard of the API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

describe('GET /api/health', () => {
  it('answers ok while the database answers', async () => {
    const response = await server.client().get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });
});

describe('the API', () => {
  it('answers 401 and no data without a session, on every route', async () => {
    const anonymous = server.client();
    for (const path of [
      '/api/profile',
      '/api/timeline',
      '/api/visits',
      '/api/medications',
      '/api/shots',
      '/api/notes',
      '/api/history',
      '/api/insurance',
      '/api/contacts',
      '/api/sessions',
      '/api/factors',
      '/api/security-activity',
      '/api/no-such-route',
    ]) {
      const response = await anonymous.get(path);
      expect(response.status, path).toBe(401);
      expect(response.body).toEqual({ message: 'Not authenticated' });
    }
    expect((await anonymous.delete('/api/account')).status).toBe(401);
  });

  it('is never cached', async () => {
    const response = await server.client().get('/api/health');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});
