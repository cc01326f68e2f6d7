/**
 * One structured log line per request: method, path (never the query string or the body),
 * status and time taken. Health checks log at debug level, so they do not drown the rest.
 *
 * Some paths carry a key: a calendar feed's token, a share link's manifest id, a file
 * ticket. A request a route with parameters answered is written as that route's pattern
 * ('/api/shl/:manifestId'), never as the path it came by; so is any request under the
 * public routes whose segments are keys, whatever answered it.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from '../logger';

/**
 * The path as the log writes it: the answering route's pattern when it has parameters, and
 * `{prefix}*` for any other request under a keyed prefix.
 */
function loggedPath(c: Context, keyedPrefixes: readonly string[]): string {
  const pattern = routePath(c);
  if (pattern.includes(':')) return pattern;
  const path = c.req.path;
  const keyed = keyedPrefixes.find((prefix) => path.startsWith(prefix));
  return keyed === undefined ? path : `${keyed}*`;
}

/** `keyedPrefixes`: the prefixes of the routes without a session, whose segments are keys. */
export function requestLog(logger: Logger, keyedPrefixes: readonly string[]): MiddlewareHandler {
  // The entry is made of the four fields below and nothing else, so it has nothing to
  // redact: redaction's search of each entry cost more than writing the line.
  const requests = logger.child({}, { redact: [] });
  return async (c, next) => {
    const started = performance.now();
    await next();
    const entry = {
      method: c.req.method,
      path: loggedPath(c, keyedPrefixes),
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (c.req.path === '/api/health') requests.debug(entry, 'request');
    else if (c.res.status >= 500) requests.error(entry, 'request');
    else requests.info(entry, 'request');
  };
}
