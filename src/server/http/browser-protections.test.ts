/**
 * Browser-facing protections, on every kind of response: security headers, no caching of
 * the API, HSTS over https, refusal of cross-origin writes, bounded bodies.
 */
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestServer,
  signedUpClient,
  TEST_PASSCODE,
  type TestClient,
  type TestServer,
} from '../test/harness';
import { sameOriginWrites, securityHeaders } from './browser-protections';

let server: TestServer;
let signedIn: TestClient;
beforeAll(async () => {
  server = await createTestServer();
  signedIn = (await signedUpClient(server)).client;
});
afterAll(() => server.close());

function expectSecurityHeaders(headers: Headers) {
  const csp = headers.get('content-security-policy') ?? '';
  const directives = Object.fromEntries(
    csp.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values];
    }),
  );
  expect(directives['default-src']).toEqual(["'self'"]);
  expect(directives['script-src']).toEqual(["'self'"]);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(directives['object-src']).toEqual(["'none'"]);
  expect(directives['frame-ancestors']).toEqual(["'none'"]);
  expect(directives['base-uri']).toEqual(["'self'"]);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(headers.get('x-frame-options')).toBe('DENY');
}

describe('security headers', () => {
  it.each([
    ['the health check', 'GET', '/api/health'],
    ['an API answer', 'GET', '/api/family-members'],
    ['an auth answer', 'GET', '/api/auth/get-session'],
    ['a refusal', 'GET', '/api/visits/not-an-id'],
    ['an unknown API route', 'GET', '/api/nowhere'],
    ['a web page', 'GET', '/visits'],
    ['an unknown page', 'GET', '/no/such/page'],
  ])('are on %s', async (_label, method, path) => {
    const response = await signedIn.request(method, path);
    expectSecurityHeaders(response.headers);
  });

  it('keep every API answer out of caches, refusals included', async () => {
    for (const path of [
      '/api/health',
      '/api/family-members',
      '/api/visits/not-an-id',
      '/api/auth/get-session',
    ]) {
      const response = await signedIn.get(path);
      expect(response.headers.get('cache-control'), path).toMatch(/no-store/);
    }
    expect((await server.client().get('/api/profile')).headers.get('cache-control')).toMatch(
      /no-store/,
    );
  });

  it('add HSTS only when the app is served over https', async () => {
    expect((await signedIn.get('/api/health')).headers.get('strict-transport-security')).toBeNull();
    const overHttps = await createTestServer({ baseUrl: 'https://health.example.org' });
    try {
      const response = await overHttps.client().get('/api/health');
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/);
    } finally {
      await overHttps.close();
    }
  });

  it('take https from a trusted proxy’s X-Forwarded-Proto, and from no one else', async () => {
    const hsts = async (trustProxy: boolean, path: string) => {
      const behindProxy = await createTestServer({ trustProxy });
      try {
        const response = await behindProxy
          .client()
          .request('GET', path, undefined, { 'x-forwarded-proto': 'https' });
        return response.headers.get('strict-transport-security');
      } finally {
        await behindProxy.close();
      }
    };
    expect(await hsts(true, '/api/health')).toMatch(/max-age=\d{7,}/);
    expect(await hsts(true, '/visits')).toMatch(/max-age=\d{7,}/);
    expect(await hsts(false, '/api/health')).toBeNull();
  });

  it('are on an answer whose own headers cannot be changed (a redirect)', async () => {
    const app = new Hono()
      .use(securityHeaders({ baseUrl: null, trustProxy: false }))
      .get('/api/elsewhere', () => Response.redirect('https://example.org/', 302));
    const response = await app.request('/api/elsewhere');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.org/');
    expectSecurityHeaders(response.headers);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('are exactly the product’s, on a page, an API answer, a refusal and a share link’s file', async () => {
    const every = {
      'content-security-policy':
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'permissions-policy': 'camera=(), microphone=(), geolocation=()',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    const cases: [string, Record<string, string | null>][] = [
      ['/visits', { 'cache-control': expect.not.stringMatching(/no-store/) as never }],
      ['/api/family-members', { 'cache-control': 'no-store' }],
      ['/api/visits/not-an-id', { 'cache-control': 'no-store' }],
      ['/api/shl/not-a-manifest', { 'cross-origin-resource-policy': 'cross-origin' }],
    ];
    for (const [path, own] of cases) {
      const response = await signedIn.get(path);
      const expected = { ...every, ...own, 'strict-transport-security': null };
      for (const [name, value] of Object.entries(expected)) {
        if (typeof value === 'string' || value === null) {
          expect(response.headers.get(name), `${path} ${name}`).toBe(value);
        } else {
          expect(response.headers.get(name) ?? '', `${path} ${name}`).toEqual(value);
        }
      }
      expect(response.headers.get('x-powered-by'), path).toBeNull();
    }
  });

  it('keep pages cacheable: only API answers say no-store', async () => {
    expect((await signedIn.get('/visits')).headers.get('cache-control') ?? '').not.toMatch(
      /no-store/,
    );
  });
});

describe('cross-origin writes', () => {
  const writes: Array<[string, string, unknown]> = [
    ['POST', '/api/family-members', { name: 'Eve' }],
    ['POST', '/api/visits', { visit_name: 'X', visit_date: '2030-01-01T00:00:00Z' }],
    ['PUT', '/api/profile', { full_name: 'Hacked' }],
    ['DELETE', '/api/account', undefined],
    ['POST', '/api/auth/sign-out', {}],
  ];

  it.each(writes)('are refused: %s %s from another site', async (method, path, body) => {
    const response = await signedIn.request(method, path, body, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect((await signedIn.get('/api/profile')).status).toBe(200);
    expect((await signedIn.get<unknown[]>('/api/family-members')).body).toEqual([]);
  });

  it('are refused when the browser says the request is cross-site', async () => {
    const response = await signedIn.request(
      'POST',
      '/api/family-members',
      { name: 'Eve' },
      {
        origin: '',
        'sec-fetch-site': 'cross-site',
      },
    );
    expect(response.status).toBe(403);
  });

  it('from the app’s own origin go through', async () => {
    const response = await signedIn.request(
      'POST',
      '/api/family-members',
      { name: 'Own' },
      { 'sec-fetch-site': 'same-origin' },
    );
    expect(response.status).toBe(201);
    await signedIn.delete(`/api/family-members/${(response.body as { id: string }).id}`);
  });

  it('are refused at sign-up from another site too', async () => {
    const response = await server.client().request(
      'POST',
      '/api/auth/sign-up/email',
      {
        name: 'Eve',
        email: 'eve@example.com',
        password: 'secret-password',
        passcode: TEST_PASSCODE,
      },
      { origin: 'https://evil.example' },
    );
    expect(response.status).toBe(403);
  });
});

describe('request bodies', () => {
  it('over 1 MB get 413 and change nothing', async () => {
    const response = await signedIn.post('/api/notes', {
      title: 'Big',
      content: 'x'.repeat(1_100_000),
    });
    expect(response.status).toBe(413);
    expect((await signedIn.get<{ items: unknown[] }>('/api/notes')).body.items).toEqual([]);
  });

  it('that are not JSON get 400', async () => {
    for (const body of ['{', 'null', '[]', '"text"', 'not json at all']) {
      const response = await signedIn.request('POST', '/api/visits', body);
      expect(response.status, body).toBe(400);
      expect(typeof (response.body as { message: string }).message).toBe('string');
    }
  });
});

describe('session cookies', () => {
  const signUpCookies = async (
    options: { trustProxy: boolean },
    headers: Record<string, string>,
  ) => {
    const proxied = await createTestServer(options);
    try {
      const client = proxied.client().withHeaders(headers);
      const response = await client.signUp();
      const cookies = response.headers.getSetCookie();
      // The renewal a session read may send, and the cookies cleared at sign-out, too.
      const signedOut = await client.signOut();
      return [...cookies, ...signedOut.headers.getSetCookie()];
    } finally {
      await proxied.close();
    }
  };

  it('are Secure behind a trusted TLS proxy, without BASE_URL', async () => {
    const cookies = await signUpCookies(
      { trustProxy: true },
      // The browser sees https, and says so in its Origin.
      { 'x-forwarded-proto': 'https', origin: 'https://localhost:3000' },
    );
    expect(cookies.length).toBeGreaterThan(1);
    for (const cookie of cookies) expect(cookie, cookie).toMatch(/;\s*Secure/i);
  });

  it('are not Secure over plain http, nor when an untrusted client claims https', async () => {
    for (const [options, headers] of [
      [{ trustProxy: true }, {}],
      [{ trustProxy: false }, { 'x-forwarded-proto': 'https' }],
    ] as const) {
      const cookies = await signUpCookies(options, headers);
      for (const cookie of cookies) expect(cookie, cookie).not.toMatch(/;\s*Secure/i);
    }
  });
});

describe('the write check, pinned to Hono’s own csrf', () => {
  it('refuses every write Hono’s csrf refuses', async () => {
    const answer = async (app: Hono, request: Request) => (await app.request(request)).status;
    const theirs = new Hono().use(csrf()).post('/api/x', (c) => c.json({}));
    const ours = new Hono()
      .use(sameOriginWrites({ baseUrl: null, trustProxy: false }))
      .post('/api/x', (c) => c.json({}));
    const origins = [undefined, 'http://localhost', 'https://evil.example', 'null'];
    const sites = [undefined, 'same-origin', 'same-site', 'cross-site', 'none'];
    const types = ['application/json', 'application/x-www-form-urlencoded', 'text/plain'];
    for (const origin of origins) {
      for (const site of sites) {
        for (const type of types) {
          const headers: Record<string, string> = { 'content-type': type };
          if (origin) headers.origin = origin;
          if (site) headers['sec-fetch-site'] = site;
          const make = () =>
            new Request('http://localhost/api/x', { method: 'POST', headers, body: 'a=b' });
          const label = JSON.stringify(headers);
          if ((await answer(theirs, make())) === 403) {
            expect(await answer(ours, make()), label).toBe(403);
          }
        }
      }
    }
  });
});
