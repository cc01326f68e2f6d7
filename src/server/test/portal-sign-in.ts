/**
 * Signing in at the tests' patient portal (smart-server.ts) as a browser would, without one:
 * the authorization request's redirects followed with the portal's cookies kept, the
 * sign-in page's 'Username' sent, and the redirects followed until they reach the app's
 * redirect URI, whose address (with `code`, `state`, `iss`) is answered.
 */

/** Keeps the portal's cookies between the redirects of one sign-in, as a browser does. */
export class CookieBrowser {
  private cookies = new Map<string, string>();

  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader() },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }

  private cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** Follows redirects from `response` until one reaches `redirectUri` (answered) or none is left. */
export async function followToRedirectUri(
  browser: CookieBrowser,
  response: Response,
  from: string,
  redirectUri: string,
): Promise<{ response: Response; location: URL | null }> {
  let current = response;
  let base = from;
  while (current.status >= 300 && current.status < 400) {
    const location = new URL(current.headers.get('location') ?? '', base);
    if (location.href.startsWith(redirectUri)) return { response: current, location };
    base = location.href;
    current = await browser.get(location.href);
  }
  return { response: current, location: null };
}

/**
 * Goes to `authorizeUrl`, signs in as `username` when the portal asks, and answers the
 * address the portal sent the browser back to (the app's redirect URI), or the page the
 * portal showed instead (an unknown username, a refused request).
 */
export async function signInAtPortal(
  authorizeUrl: string,
  username: string,
  redirectUri: string,
): Promise<{ callback: URL } | { page: string; status: number }> {
  const browser = new CookieBrowser();
  const first = await followToRedirectUri(
    browser,
    await browser.get(authorizeUrl),
    authorizeUrl,
    redirectUri,
  );
  if (first.location) return { callback: first.location };
  const signInPage = first.response.url || authorizeUrl;
  if (!/\/interaction\//.test(signInPage)) {
    return { page: await first.response.text(), status: first.response.status };
  }
  await first.response.body?.cancel();
  const posted = await browser.get(signInPage, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username }).toString(),
  });
  const back = await followToRedirectUri(browser, posted, signInPage, redirectUri);
  if (back.location) return { callback: back.location };
  return { page: await back.response.text(), status: back.response.status };
}
