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
  // In-process requests (tests) have no socket; most have no bindings to look in either,
  // which is known without the exception that looking would throw.
  if (!c.env) return null;
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

/** Sets the client's address header on a request, from its socket or a trusted proxy. */
export function recordClientIp(c: Parameters<MiddlewareHandler>[0], trustProxy: boolean): void {
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
}
