/**
 * Errors the API answers with a status and a message the user can read. Anything else is
 * logged and answered with a plain 500 (or 503 while the database is away): never a stack.
 */
import { APIError, isAPIError } from 'better-auth/api';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from '../logger';
import { ApiError } from '../../shared/api-error';
import { key, tr } from '../../shared/i18n/translate';
import { translateMessage } from '../i18n/server-language';

export const notFound = (message: string = key('Not found')) => new ApiError(404, message);
export const badRequest = (message: string, field?: string) => new ApiError(400, message, field);

/**
 * The same refusal for better-auth to answer: its hooks and plugins must throw its own
 * error type, which it turns into a response of the same status and body.
 */
export function inAuthFlow(error: ApiError): APIError {
  return new APIError(error.status as ConstructorParameters<typeof APIError>[0], {
    ...error.toBody(),
    message: translateMessage(error.message),
  });
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'SQLITE_BUSY',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  '57P01', // admin_shutdown
  '57P03', // cannot_connect_now
  '53100', // disk_full
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** Whether an error means the database cannot be reached or cannot write just now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    const message = (current as { message?: unknown }).message;
    if (
      typeof message === 'string' &&
      /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(
        message,
      )
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export const UNAVAILABLE_MESSAGE = key(
  'The database is not available right now. Nothing was changed; please try again shortly.',
);

export function handleError(logger: Logger) {
  return (error: Error, c: Context) => {
    if (error instanceof ApiError) {
      return c.json(
        { ...error.toBody(), message: translateMessage(error.message) },
        error.status as ContentfulStatusCode,
      );
    }
    // A refusal from a better-auth call made inside a route (auth.api.*) is an answer too.
    if (isAPIError(error) && error.statusCode >= 400 && error.statusCode < 500) {
      const body = error.body as { message?: string } | undefined;
      return c.json(
        { message: translateMessage(body?.message || error.message || key('Request refused')) },
        error.statusCode as ContentfulStatusCode,
      );
    }
    if (error instanceof HTTPException) {
      const status = error.status;
      const message =
        status === 400 && /JSON/i.test(error.message)
          ? key('The request body must be valid JSON')
          : error.message || key('Request refused');
      return c.json({ message: translateMessage(message) }, status);
    }
    if (isDatabaseUnavailable(error)) {
      logger.warn({ err: { code: (error as { code?: string }).code } }, 'database unavailable');
      return c.json({ message: translateMessage(UNAVAILABLE_MESSAGE) }, 503);
    }
    if (c.req.raw.signal.aborted) {
      // The client went away (the page was left) and what it waited for gave up: nobody
      // reads this answer, and the server did nothing wrong.
      logger.info({ path: c.req.path, method: c.req.method }, 'request left by its client');
      return c.json({ message: translateMessage(key('Request refused')) }, 400);
    }
    logger.error({ err: error, path: c.req.path, method: c.req.method }, 'unhandled error');
    return c.json({ message: tr('Something went wrong on our side. Nothing was changed.') }, 500);
  };
}
