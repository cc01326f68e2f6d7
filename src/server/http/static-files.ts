/**
 * The built web app: hashed assets cached for a year; index.html and the files whose names
 * stay the same from one build to the next (the service worker /sw.js, the web manifest
 * /manifest.webmanifest, the icons) checked with the server on every use; every screen path
 * answered with index.html (a path no screen has gets it with a 404 status, and the app
 * shows its 404 page). Scripts and styles go out as the build compressed them (Brotli, or
 * gzip), to a browser that accepts it: a third of the bytes on a phone's first visit.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono, MiddlewareHandler } from 'hono';
import { isScreenPath } from '../../shared/screen-paths';
import type { AppEnv } from './env';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const CHECKED = 'no-cache';

/**
 * A file the static handler found, with its caching. (Its own `onFound` hook runs after the
 * answer is made, and a header set there never reaches it.)
 */
function cachedFor(cacheControl: string, serve: MiddlewareHandler): MiddlewareHandler {
  return async (c, next) => {
    const found = await serve(c, next);
    if (found instanceof Response) found.headers.set('Cache-Control', cacheControl);
    return found;
  };
}

export function mountWebApp(app: Hono<AppEnv>, webDir: string) {
  const indexFile = path.join(webDir, 'index.html');
  if (!existsSync(indexFile)) return false;
  const indexHtml = readFileSync(indexFile, 'utf8');
  const relativeRoot = path.relative(process.cwd(), webDir) || '.';

  app.use(
    '/assets/*',
    cachedFor(IMMUTABLE, serveStatic({ root: relativeRoot, precompressed: true })),
  );
  // A share link's viewer (/shl#shlink:/…): its own page, the link in the fragment.
  const viewerFile = path.join(webDir, 'shl.html');
  if (existsSync(viewerFile)) {
    const viewerHtml = readFileSync(viewerFile, 'utf8');
    app.get('/shl', (c) => {
      c.header('Cache-Control', CHECKED);
      c.header('Referrer-Policy', 'no-referrer');
      return c.html(viewerHtml);
    });
  }
  app.use(
    '*',
    cachedFor(
      CHECKED,
      serveStatic({ root: relativeRoot, index: '__no_index__', precompressed: true }),
    ),
  );
  app.get('*', (c) => {
    c.header('Cache-Control', CHECKED);
    return c.html(indexHtml, isScreenPath(c.req.path) ? 200 : 404);
  });
  return true;
}
