/**
 * Single sign-on as a browser does it, for the API tests: 'Sign in with …' (the start), the
 * visit to the test OpenID Provider (test/openid-provider.ts) with its own cookies and
 * redirects followed by hand, and the callback sent from the product's browser.
 */
import { expect } from 'vitest';
import type { SingleSignOnConfig } from '../config';
import { TEST_ORIGIN, uniqueEmail, type TestClient } from './harness';
import type { TestIdentity, TestOpenIdProvider } from './openid-provider';

/** The product's callback address the test provider must allow. */
export const SSO_CALLBACK_URL = `${TEST_ORIGIN}/api/auth/callback/oidc`;

/** The configuration (OIDC_*) of a server that signs in with the test provider. */
export function singleSignOnWith(
  provider: TestOpenIdProvider,
  trusted = false,
): SingleSignOnConfig {
  return {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    name: 'Family Login',
    trusted,
  };
}

/** A browser's visit to the provider: its own cookies, redirects followed by hand. */
async function signInAtProvider(authorizeUrl: string, email: string): Promise<string> {
  const cookies = new Map<string, string>();
  let url = authorizeUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      body,
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      // Back to the product: the callback, for the test to send from the product's browser.
      if (next.origin === TEST_ORIGIN) return `${next.pathname}${next.search}`;
      url = next.href;
      method = 'GET';
      body = undefined;
      continue;
    }
    // The provider's sign-in form.
    expect(response.status).toBe(200);
    await response.text();
    method = 'POST';
    body = new URLSearchParams({ email }).toString();
  }
  throw new Error('the provider did not send the browser back');
}

/** 'Sign in with …': the start, the provider, and the callback's URL (not yet followed). */
export async function startSignOn(client: TestClient, email: string) {
  const start = await client.post<{ url: string }>('/api/auth/sign-in/social', {
    provider: 'oidc',
  });
  expect(start.status).toBe(200);
  return signInAtProvider(start.body.url, email);
}

/** Where the callback sends the browser, and whether it is signed in then. */
export async function finishAtCallback(client: TestClient, callback: string) {
  const response = await client.get(callback);
  expect(response.status, JSON.stringify(response.body)).toBe(302);
  const location = response.headers.get('location') ?? '';
  const session = await client.get<{ user: { email: string } } | null>('/api/auth/get-session');
  return { location, signedInAs: session.body?.user.email ?? null };
}

/** A whole single sign-on: start, provider, callback. */
export async function fullSignOn(client: TestClient, email: string) {
  return finishAtCallback(client, await startSignOn(client, email));
}

let subjects = 0;
/** A new identity at the provider (a verified email, unless told otherwise). */
export function identityAt(
  provider: TestOpenIdProvider,
  overrides: Partial<TestIdentity> = {},
): TestIdentity {
  subjects += 1;
  const made: TestIdentity = {
    sub: `subject-${subjects}-${Date.now().toString(36)}`,
    email: uniqueEmail('sso'),
    emailVerified: true,
    name: 'Robin Example',
    ...overrides,
  };
  provider.addIdentity(made);
  return made;
}
