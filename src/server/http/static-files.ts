/**
 * The built web app: hashed assets cached for a year, index.html never cached, and every
 * screen path answered with index.html (a path no screen has gets it with a 404 status, and
 * the app shows its 404 page).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import { isScreenPath } from '../../shared/routes';
import type { AppEnv } from './env';

export function mountWebApp(app: Hono<AppEnv>, webDir: string) {
  const indexFile = path.join(webDir, 'index.html');
  if (!existsSync(indexFile)) return false;
  const indexHtml = readFileSync(indexFile, 'utf8');
  const relativeRoot = path.relative(process.cwd(), webDir) || '.';

  app.use(
    '/assets/*',
    serveStatic({
      root: relativeRoot,
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  // A share link's viewer (/shl#shlink:/…): its own page, the link in the fragment.
  const viewerFile = path.join(webDir, 'shl.html');
  if (existsSync(viewerFile)) {
    const viewerHtml = readFileSync(viewerFile, 'utf8');
    app.get('/shl', (c) => {
      c.header('Cache-Control', 'no-cache');
      c.header('Referrer-Policy', 'no-referrer');
      return c.html(viewerHtml);
    });
  }
  app.use('*', serveStatic({ root: relativeRoot, index: '__no_index__' }));
  app.get('*', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(indexHtml, isScreenPath(c.req.path) ? 200 : 404);
  });
  return true;
}
