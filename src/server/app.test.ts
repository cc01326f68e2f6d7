/** The server's own surface: health, unknown routes, and the session guard of the API. */
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from './app';
import { sampleRecord } from './test/factories';
import { useTestServer, signedUpClient } from './test/harness';

const server = useTestServer();

describe('GET /api/health', () => {
  it('answers ok while the database answers', async () => {
    const response = await server.client().get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });
});

describe('the API', () => {
  it("routes every request with Hono's RegExpRouter, one regular expression for all its routes", async () => {
    // Hono tries its RegExpRouter first and falls back to a trie, a few percent of a read's
    // time slower, when one path cannot join the rest: a fixed name beside a parameter
    // (`/documents/usage` beside `/documents/:id`) is such a path.
    await server.client().get('/api/health');
    const router = server.app.router as { activeRouter?: { name: string } };
    expect(router.activeRouter?.name).toBe('RegExpRouter');
  });

  it('answers 401 and no data without a session, on every route', async () => {
    const anonymous = server.client();
    for (const path of [
      '/api/profile',
      '/api/timeline',
      '/api/search?q=a',
      '/api/visits',
      '/api/medications',
      '/api/shots',
      '/api/notes',
      '/api/history',
      '/api/insurance',
      '/api/contacts',
      '/api/labs',
      '/api/sessions',
      '/api/factors',
      '/api/security-activity',
      '/api/passkeys',
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

  describe('refuses a body over 1 MB with 413 and stores nothing', () => {
    const oversized = () =>
      JSON.stringify(sampleRecord('note', { content: 'x'.repeat(MAX_BODY_BYTES) }));

    it('when the request declares its length', async () => {
      const { client } = await signedUpClient(server);
      const body = oversized();
      const response = await client.request('POST', '/api/notes', body, {
        'content-length': String(Buffer.byteLength(body)),
      });
      expect(response.status).toBe(413);
      expect((await client.get<{ items: unknown[] }>('/api/notes')).body.items).toEqual([]);
    });

    it('when the body comes as a stream of unknown length', async () => {
      const { client } = await signedUpClient(server);
      const response = await client.request('POST', '/api/notes', oversized());
      expect(response.status).toBe(413);
      expect((await client.get<{ items: unknown[] }>('/api/notes')).body.items).toEqual([]);
    });

    it('and takes a body within the limit', async () => {
      const { client } = await signedUpClient(server);
      const body = JSON.stringify(sampleRecord('note'));
      const response = await client.request('POST', '/api/notes', body, {
        'content-length': String(Buffer.byteLength(body)),
      });
      expect(response.status).toBe(201);
    });
  });
});
