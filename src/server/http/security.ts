/**
 * Browser-facing protections on every response: a strict Content-Security-Policy and the
 * usual headers, no caching of API answers, and refusal of cross-origin writes.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

export function securityHeaders(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Toasts and dialogs position themselves with inline styles; scripts stay strict.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    // HSTS is only meaningful over https; it is added below when the request came that way.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
    permissionsPolicy: {
      camera: [],
      microphone: [],
      geolocation: [],
    },
  });
}

/** The origin this request was made to, as the browser saw it. */
export function requestOrigin(
  request: Request,
  options: { baseUrl: string | null; trustProxy: boolean },
) {
  if (options.baseUrl) return new URL(options.baseUrl).origin;
  const url = new URL(request.url);
  const headers = request.headers;
  const protocol =
    (options.trustProxy && headers.get('x-forwarded-proto')?.split(',')[0]?.trim()) ||
    url.protocol.replace(':', '');
  const host =
    (options.trustProxy && headers.get('x-forwarded-host')?.split(',')[0]?.trim()) ||
    headers.get('host') ||
    url.host;
  return `${protocol}://${host}`;
}

export function strictTransportSecurity(options: {
  baseUrl: string | null;
  trustProxy: boolean;
}): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (requestOrigin(c.req.raw, options).startsWith('https://')) {
      c.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    }
  };
}

export function noStore(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    // Set on the answer itself, as secureHeaders does: c.header() on a finished answer copies
    // it first, and the copy turns its body into a stream that is slower to send.
    try {
      c.res.headers.set('Cache-Control', 'no-store');
    } catch {
      // An answer with immutable headers (a redirect made by Response.redirect) is copied.
      c.header('Cache-Control', 'no-store');
    }
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request that a browser sent from another origin. Browsers send
 * Origin (and Sec-Fetch-Site) on such requests; a request without them is not a browser's
 * cross-site request and carries no ambient authority worth forging.
 */
export function sameOriginWrites(options: {
  baseUrl: string | null;
  trustProxy: boolean;
}): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site');
    const expected = requestOrigin(c.req.raw, options);
    const crossOrigin =
      (origin !== undefined && origin !== expected) ||
      (origin === undefined && (fetchSite === 'cross-site' || fetchSite === 'same-site'));
    if (crossOrigin) {
      return c.json({ message: 'Cross-origin requests are not allowed' }, 403);
    }
    return next();
  };
}
