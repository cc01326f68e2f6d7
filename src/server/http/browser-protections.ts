/**
 * Browser-facing protections on every response: a strict Content-Security-Policy and the
 * usual headers, no caching of API answers, and refusal of cross-origin writes.
 * Compared with Hono's secureHeaders and csrf, and measured:
 * docs/decisions/0009-library-code-rewritten-for-speed.md.
 */
import type { MiddlewareHandler } from 'hono';

type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Toasts and dialogs position themselves with inline styles; scripts stay strict.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  // The service worker (/sw.js) and the web manifest, from this origin only.
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** On every answer: pages, files, API answers and refusals alike. */
const EVERY_ANSWER: HeaderList = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=()'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'DENY'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];
/** Health records stay out of every cache, the browser's included. */
const API_ANSWER: HeaderList = [['Cache-Control', 'no-store']];
/** HSTS is only meaningful over https. */
const OVER_HTTPS: HeaderList = [
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
];

/**
 * The headers of every answer, set in one pass over a list made once per kind of answer (a
 * page or an API answer, over http or https). The same headers as hono's secureHeaders
 * would set, without its per-request work, and with the no-store and HSTS headers in the
 * same pass: each middleware layer costs every request a few promises, and Node pays a
 * hook on each of those while an AsyncLocalStorage is in use.
 */
export function securityHeaders(options: {
  baseUrl: string | null;
  trustProxy: boolean;
}): MiddlewareHandler {
  const lists = {
    page: EVERY_ANSWER,
    pageOverHttps: [...EVERY_ANSWER, ...OVER_HTTPS],
    api: [...EVERY_ANSWER, ...API_ANSWER],
    apiOverHttps: [...EVERY_ANSWER, ...API_ANSWER, ...OVER_HTTPS],
  };
  const fixedProtocol = options.baseUrl ? new URL(options.baseUrl).protocol.slice(0, -1) : null;
  return async (c, next) => {
    await next();
    const https = (fixedProtocol ?? requestProtocol(c.req.raw, options.trustProxy)) === 'https';
    const api = c.req.path.startsWith('/api/');
    const list = api
      ? https
        ? lists.apiOverHttps
        : lists.api
      : https
        ? lists.pageOverHttps
        : lists.page;
    // A share link's manifest and file are fetched from any origin (SMART Health Links).
    const shared = api && c.req.path.startsWith('/api/shl/');
    const apply = (headers: Headers) => {
      for (const [name, value] of list) headers.set(name, value);
      if (shared) headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
      if (https) makeCookiesSecure(headers);
    };
    try {
      apply(c.res.headers);
    } catch {
      // An answer with immutable headers (a redirect made by Response.redirect) is copied.
      c.res = new Response(c.res.body, c.res);
      apply(c.res.headers);
    }
  };
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
      return c.json({ message: 'Cross-origin requests are not allowed' }, 403);
    }
    return next();
  };
  return (c, next) => (SAFE_METHODS.has(c.req.method) ? next() : checked(c, next));
}
