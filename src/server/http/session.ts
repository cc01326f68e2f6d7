/**
 * The session guard of every API route but health and auth: no valid session, 401 and no
 * data. A session renewed on the way through sends its new cookie back.
 */
import type { MiddlewareHandler } from 'hono';
import type { Auth } from '../auth/auth';
import { NOT_AUTHENTICATED_MESSAGE } from '../../shared/messages';
import type { AppEnv } from './env';

export function requireSession(auth: Auth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { headers, response } = await auth.api.getSession({
      headers: c.req.raw.headers,
      returnHeaders: true,
    });
    if (!response) return c.json({ message: NOT_AUTHENTICATED_MESSAGE }, 401);
    c.set('user', {
      id: response.user.id,
      email: response.user.email,
      name: response.user.name,
    });
    c.set('sessionId', response.session.id);
    await next();
    for (const cookie of headers.getSetCookie()) c.res.headers.append('set-cookie', cookie);
  };
}
