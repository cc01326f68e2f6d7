/**
 * Browser-facing protections on every response: Hono's secureHeaders with the product's
 * values (a strict Content-Security-Policy among them), no caching of API answers, HSTS and
 * Secure cookies over https, and refusal of cross-origin writes (stricter than Hono's csrf:
 * docs/decisions/0009-library-code-rewritten-for-speed.md).
 */
import type { MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { secureHeaders } from 'hono/secure-headers';
import { tr } from '../../shared/i18n/translate';

/** The product's values for Hono's secureHeaders; the rest are its defaults. */
const PRODUCT_HEADERS = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // Toasts and dialogs position themselves with inline styles; scripts stay strict.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    // The service worker (/sw.js) and the web manifest, from this origin only.
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  referrerPolicy: 'strict-origin-when-cross-origin',
  xFrameOptions: 'DENY',
  permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  // Over https only, below: over http a browser ignores it, and a proxy may add https later.
  strictTransportSecurity: false,
  // A header an answer sets itself stays (the share link viewer's stricter Referrer-Policy,
  // a share link file's Cross-Origin-Resource-Policy).
  overwrite: false,
});

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * What secureHeaders cannot say: API answers (health records) stay out of every cache, the
 * browser's included; HSTS and Secure cookies over https, which the request tells behind a
 * proxy; a share link's manifest and file may be fetched from any origin (SMART Health
 * Links). An answer with immutable headers (a redirect made by Response.redirect) is copied
 * first, so every layer can set its headers.
 */
function productLayer(options: { baseUrl: string | null; trustProxy: boolean }): MiddlewareHandler {
  const fixedProtocol = options.baseUrl ? new URL(options.baseUrl).protocol.slice(0, -1) : null;
  return async (c, next) => {
    await next();
    const https = (fixedProtocol ?? requestProtocol(c.req.raw, options.trustProxy)) === 'https';
    const path = c.req.path;
    try {
      setProductHeaders(c.res.headers, path, https);
    } catch {
      c.res = new Response(c.res.body, c.res);
      setProductHeaders(c.res.headers, path, https);
    }
  };
}

/** The product layer's headers of an answer to `path` (a function made once, not per answer). */
function setProductHeaders(headers: Headers, path: string, https: boolean) {
  const api = path.startsWith('/api/');
  // Set here as Hono would: it also tells an immutable answer from one that is not.
  headers.set('X-Content-Type-Options', 'nosniff');
  // A content-addressed file (a document's thumbnail) says itself that it never changes.
  if (api && !headers.get('Cache-Control')?.includes('immutable')) {
    headers.set('Cache-Control', 'no-store');
  }
  if (api && path.startsWith('/api/shl/')) {
    headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
  }
  if (https) {
    headers.set('Strict-Transport-Security', HSTS);
    makeCookiesSecure(headers);
  }
}

/** The headers of every answer: pages, files, API answers and refusals alike. */
export function securityHeaders(options: {
  baseUrl: string | null;
  trustProxy: boolean;
}): MiddlewareHandler {
  // The product's layer runs first on the way out (the inner one), so that Hono's sees a
  // response whose headers it can set, and keeps what the product's layer set.
  return every(PRODUCT_HEADERS, productLayer(options));
}

const SECURE_ATTRIBUTE = /;\s*secure\s*(;|$)/i;

/**
 * Over https every cookie is Secure. better-auth decides that once, from BASE_URL; behind a
 * TLS-terminating proxy without BASE_URL it cannot know, so the answer is fixed here, where
 * the protocol the browser used is known for each request.
 */
function makeCookiesSecure(headers: Headers) {
  const cookies = headers.getSetCookie();
  if (cookies.every((cookie) => SECURE_ATTRIBUTE.test(cookie))) return;
  headers.delete('set-cookie');
  for (const cookie of cookies) {
    headers.append('set-cookie', SECURE_ATTRIBUTE.test(cookie) ? cookie : `${cookie}; Secure`);
  }
}

/** The protocol (http or https) this request was made with, as the browser saw it. */
function requestProtocol(request: Request, trustProxy: boolean): string {
  const forwarded = trustProxy
    ? request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim()
    : undefined;
  return forwarded || (request.url.startsWith('https:') ? 'https' : 'http');
}

/** The origin this request was made to, as the browser saw it. */
export function requestOrigin(
  request: Request,
  options: { baseUrl: string | null; trustProxy: boolean },
) {
  if (options.baseUrl) return new URL(options.baseUrl).origin;
  const headers = request.headers;
  const host =
    (options.trustProxy && headers.get('x-forwarded-host')?.split(',')[0]?.trim()) ||
    headers.get('host') ||
    new URL(request.url).host;
  return `${requestProtocol(request, options.trustProxy)}://${host}`;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The bodies a plain HTML form submits: a cross-site page can send them with no preflight. */
const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i;

/**
 * Refuses a state-changing request that a browser sent from another origin. Browsers send
 * Origin (and Sec-Fetch-Site) on such requests; a JSON request without them is not a
 * browser's cross-site request (a page cannot send one without a CORS preflight) and
 * carries no ambient authority worth forging. A form's body without them is refused.
 */
export function sameOriginWrites(options: {
  baseUrl: string | null;
  trustProxy: boolean;
}): MiddlewareHandler {
  const checked: MiddlewareHandler = async (c, next) => {
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site');
    const expected = requestOrigin(c.req.raw, options);
    // A body an HTML form can send cross-site without asking goes through only when the
    // browser says it is this site's own (as Hono's csrf decides; the API never takes such
    // a body anyway).
    const unverifiableForm =
      FORM_TYPES.test(c.req.header('content-type') ?? '') &&
      !(origin !== undefined ? origin === expected : fetchSite === 'same-origin');
    const crossOrigin =
      unverifiableForm ||
      (origin !== undefined && origin !== expected) ||
      (origin === undefined && (fetchSite === 'cross-site' || fetchSite === 'same-site'));
    if (crossOrigin) {
      return c.json({ message: tr('Cross-origin requests are not allowed') }, 403);
    }
    return next();
  };
  return (c, next) => (SAFE_METHODS.has(c.req.method) ? next() : checked(c, next));
}
