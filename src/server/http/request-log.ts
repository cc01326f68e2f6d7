/**
 * One structured log line per request: method, path (never the query string or the body),
 * status and time taken. Health checks log at debug level, so they do not drown the rest.
 */
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger';

export function requestLog(logger: Logger): MiddlewareHandler {
  // The entry is made of the four fields below and nothing else, so it has nothing to
  // redact: redaction's search of each entry cost more than writing the line.
  const requests = logger.child({}, { redact: [] });
  return async (c, next) => {
    const started = performance.now();
    await next();
    const entry = {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (c.req.path === '/api/health') requests.debug(entry, 'request');
    else if (c.res.status >= 500) requests.error(entry, 'request');
    else requests.info(entry, 'request');
  };
}
