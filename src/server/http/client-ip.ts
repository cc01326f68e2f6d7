/**
 * The client's address, as the server saw it, in one header that only the server sets.
 * better-auth's rate limits key on it. Behind a proxy (TRUST_PROXY), the address the proxy
 * appended last to X-Forwarded-For is the client's.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { MiddlewareHandler } from 'hono';

/**
 * The header the server sets from the socket (or a trusted proxy): rate limits, sessions
 * and the audit log read the address from it.
 */
export const CLIENT_IP_HEADER = 'x-kin-client-ip';

function socketAddress(c: Parameters<MiddlewareHandler>[0]): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    // In-process requests (tests) have no socket.
    return null;
  }
}

export function clientIp(trustProxy: boolean): MiddlewareHandler {
  return (c, next) => {
    const headers = c.req.raw.headers;
    let address = socketAddress(c);
    if (trustProxy) {
      const forwarded = headers
        .get('x-forwarded-for')
        ?.split(',')
        .map((part) => part.trim());
      address = forwarded?.at(-1) || address;
    }
    headers.set(CLIENT_IP_HEADER, address ?? '127.0.0.1');
    return next();
  };
}
