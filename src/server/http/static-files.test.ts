/**
 * The built web app as the server hands it out: the page for every screen, the hashed
 * assets, and what a browser needs to install the app (the web manifest, the service
 * worker, the icons), each with the type and caching it needs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { SCREEN_PATHS } from '../../shared/screen-paths';
import { useTestServer } from '../test/harness';

const webDir = mkdtempSync(path.join(tmpdir(), 'kin-web-'));
mkdirSync(path.join(webDir, 'assets'));
mkdirSync(path.join(webDir, 'icons'));
writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Kin Health</title>');
writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1);');
// A larger script, with the compressed copies the build writes beside it.
const script = `export const words = ${JSON.stringify('a visit, a dose, a shot; '.repeat(400))};`;
writeFileSync(path.join(webDir, 'assets', 'main-def456.js'), script);
writeFileSync(path.join(webDir, 'assets', 'main-def456.js.br'), brotliCompressSync(script));
writeFileSync(path.join(webDir, 'assets', 'main-def456.js.gz'), gzipSync(script));
writeFileSync(path.join(webDir, 'shl.html'), '<!doctype html><title>Shared records</title>');
writeFileSync(path.join(webDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
writeFileSync(path.join(webDir, 'manifest.webmanifest'), JSON.stringify({ name: 'Kin Health' }));
writeFileSync(path.join(webDir, 'icons', 'icon-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

const server = useTestServer({ webDir });

function directives(response: { headers: Headers }) {
  return Object.fromEntries(
    (response.headers.get('content-security-policy') ?? '').split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('the web app', () => {
  it('answers a screen with index.html, checked on every use', async () => {
    const response = await server.client().get('/visits');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers every screen of the router with 200, and a path no screen has with the page and 404', async () => {
    const id = '0197c3a2-5b1e-7c4d-8e9f-a0b1c2d3e4f5';
    // The list the router is held to (web/routes.test.tsx), and screens CONTRACT.md §5 names.
    const screens = [
      ...SCREEN_PATHS.map((path) => path.replace(/:[a-z]+/gi, id)),
      '/documents',
      `/documents/${id}`,
      '/search',
      '/reset-password',
      `/visits/${id}/edit`,
    ];
    for (const pathname of screens) {
      const response = await server.client().get(pathname);
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get('content-type'), pathname).toMatch(/^text\/html/);
    }
    for (const pathname of ['/no/such/page', '/documents/1/2', '/searches', '/visits/1/2/3']) {
      const response = await server.client().get(pathname);
      expect(response.status, pathname).toBe(404);
      // The app's own page, which shows 'Oops! Page not found'.
      expect(response.body, pathname).toContain('<title>Kin Health</title>');
    }
  });

  it('answers the share link viewer with its own stricter Referrer-Policy, and the CSP', async () => {
    const response = await server.client().get('/shl');
    expect(response.status).toBe(200);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(directives(response)['script-src']).toEqual(["'self'"]);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('keeps hashed assets for a year', async () => {
    const response = await server.client().get('/assets/index-abc123.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  describe('sends a script compressed to a browser that accepts it', () => {
    const get = async (acceptEncoding?: string) => {
      const response = await server.fetch(
        new Request('http://localhost/assets/main-def456.js', {
          headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
        }),
      );
      return { response, bytes: Buffer.from(await response.arrayBuffer()) };
    };

    it('Brotli first', async () => {
      const { response, bytes } = await get('gzip, deflate, br, zstd');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe('br');
      expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(bytes.length).toBeLessThan(script.length / 4);
      expect(brotliDecompressSync(bytes).toString()).toBe(script);
    });

    it('gzip when that is all it takes', async () => {
      const { response, bytes } = await get('gzip');
      expect(response.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(bytes).toString()).toBe(script);
    });

    it('as it is otherwise, and a file with no compressed copy as it is', async () => {
      const plain = await get();
      expect(plain.response.headers.get('content-encoding')).toBeNull();
      expect(plain.bytes.toString()).toBe(script);
      const small = await server.fetch(
        new Request('http://localhost/assets/index-abc123.js', {
          headers: { 'accept-encoding': 'br, gzip' },
        }),
      );
      expect(small.headers.get('content-encoding')).toBeNull();
      expect(await small.text()).toBe('console.log(1);');
    });
  });

  it('serves the web manifest as application/manifest+json, checked on every use', async () => {
    const response = await server.client().get('/manifest.webmanifest');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.body).toEqual({ name: 'Kin Health' });
  });

  it('serves the service worker from the root, never from a stale cache', async () => {
    const response = await server.client().get('/sw.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    // At the root, its scope is the whole app with no Service-Worker-Allowed header.
    expect(response.headers.get('service-worker-allowed')).toBeNull();
  });

  it('serves the icons as PNG', async () => {
    const response = await server.client().get('/icons/icon-192.png');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
  });

  it('lets the page register its worker and read its manifest, from its own origin only', async () => {
    for (const pathname of ['/', '/sw.js', '/manifest.webmanifest']) {
      const csp = directives(await server.client().get(pathname));
      expect(csp['worker-src'], pathname).toEqual(["'self'"]);
      expect(csp['manifest-src'], pathname).toEqual(["'self'"]);
      expect(csp['script-src'], pathname).toEqual(["'self'"]);
    }
  });
});
