/**
 * One structured log line per request: method, path (never the query string or the body),
 * status and time taken. Health checks log at debug level, so they do not drown the rest.
 */
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger';

export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const entry = {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (c.req.path === '/api/health') logger.debug(entry, 'request');
    else if (c.res.status >= 500) logger.error(entry, 'request');
    else logger.info(entry, 'request');
  };
}
