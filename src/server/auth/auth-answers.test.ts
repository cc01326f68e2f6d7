/**
 * What the auth routes answer holds no Friends & Family Passcode, hashed or not (decision
 * 0048): every mounted /api/auth route (auth-routes.ts) is called as the web app calls it,
 * to success, and its whole answer (status, headers, body) is read for an Argon2 hash and
 * for the field's names. A route mounted later without a call here fails the test. The
 * passkey ceremonies answer no user row and no session token either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_HTTP_ROUTES } from './auth-routes';
import { SoftwareAuthenticator } from '../test/software-authenticator';
import {
  createTestServer,
  TEST_ORIGIN,
  TEST_PASSCODE,
  uniqueEmail,
  type TestClient,
  type TestResponse,
  type TestServer,
} from '../test/harness';
import { startTestOpenIdProvider, type TestOpenIdProvider } from '../test/openid-provider';
import { registrationOptions } from '../test/passkeys';
import {
  identityAt,
  SSO_CALLBACK_URL,
  singleSignOnWith,
  startSignOn,
} from '../test/single-sign-on';
import { linkIn, startTestSmtpServer, type TestSmtpServer } from '../test/smtp-server';
import { currentCode, secretOf } from '../test/two-factor';

let provider: TestOpenIdProvider;
let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  provider = await startTestOpenIdProvider({ redirectUris: [SSO_CALLBACK_URL] });
  smtp = await startTestSmtpServer();
  server = await createTestServer({
    mail: smtp.mailConfig(),
    singleSignOn: singleSignOnWith(provider),
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
  await provider?.close();
});

const PASSWORD = 'secret-password';

/** Every answer read, by the route it came from. */
const answers: Array<{ route: string; text: string; response: TestResponse }> = [];

/** The mounted route a request's path is (the provider's return has the provider's id). */
function routeOf(method: string, path: string): string {
  const bare = path.replace(/^\/api\/auth/, '').split('?')[0] ?? '';
  return `${method} ${bare.startsWith('/callback/') ? '/callback/:id' : bare}`;
}

/** Sends a request and keeps its whole answer for the checks below; expects `status`. */
async function call<T = unknown>(
  client: TestClient,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  status = 200,
): Promise<TestResponse<T>> {
  const response = await client.request<T>(method, path, method === 'POST' ? (body ?? {}) : body);
  const text = [
    String(response.status),
    ...[...response.headers.entries()].map(([name, value]) => `${name}: ${value}`),
    JSON.stringify(response.body),
  ].join('\n');
  answers.push({ route: routeOf(method, path), text, response });
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(status);
  return response;
}

const signInBody = (email: string) => ({ email, password: PASSWORD, passcode: TEST_PASSCODE });

async function mailLink(to: string, subject: string): Promise<string> {
  await server.mailSender?.runOnce();
  const mail = await smtp.waitFor(
    (received) => received.envelopeTo.includes(to) && received.parsed.subject === subject,
  );
  return linkIn(mail).slice(TEST_ORIGIN.length);
}

describe('every auth answer', () => {
  it('holds no passcode hash and names no passcode field', async () => {
    // Sign-up, the session, sign-out, sign-in.
    const email = uniqueEmail('answers');
    const browser = server.client();
    await call(browser, 'POST', '/api/auth/sign-up/email', {
      name: 'Ada Answers',
      ...signInBody(email),
    });
    await call(browser, 'GET', '/api/auth/get-session');
    await call(browser, 'POST', '/api/auth/sign-out');
    await call(browser, 'POST', '/api/auth/sign-in/email', signInBody(email));

    // A passkey: added after the fresh proof, then a sign-in with it alone.
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    const options = await registrationOptions(browser, { password: PASSWORD });
    expect(options.status).toBe(200);
    const added = await call<Record<string, unknown>>(
      browser,
      'POST',
      '/api/auth/passkey/verify-registration',
      { response: authenticator.register(options.body) },
    );
    expect(Object.keys(added.body).sort()).toEqual(['id', 'name']);
    const device = server.client();
    const signInOptions = await call<{ challenge: string; rpId: string }>(
      device,
      'GET',
      '/api/auth/passkey/generate-authenticate-options',
    );
    const signedIn = await call<Record<string, unknown>>(
      device,
      'POST',
      '/api/auth/passkey/verify-authentication',
      { response: authenticator.authenticate(signInOptions.body) },
    );
    expect(signedIn.body).toEqual({ status: true });
    const token = /kin\.session_token=([^.;]+)/.exec(device.cookieHeader)?.[1] ?? 'no token';
    for (const answer of answers.filter(({ route }) => route.includes('/passkey/'))) {
      expect(JSON.stringify(answer.response.body), answer.route).not.toContain(token);
    }

    // Two-factor sign-in on, a sign-in with each kind of code, and off again.
    const enabled = await call<{ totpURI: string; backupCodes: string[] }>(
      browser,
      'POST',
      '/api/auth/two-factor/enable',
      { password: PASSWORD },
    );
    const secret = secretOf(enabled.body.totpURI);
    await call(browser, 'POST', '/api/auth/two-factor/verify-totp', {
      code: await currentCode(secret),
    });
    const withCode = server.client();
    await call(withCode, 'POST', '/api/auth/sign-in/email', signInBody(email));
    await call(withCode, 'POST', '/api/auth/two-factor/verify-totp', {
      code: await currentCode(secret),
    });
    const withBackup = server.client();
    await call(withBackup, 'POST', '/api/auth/sign-in/email', signInBody(email));
    await call(withBackup, 'POST', '/api/auth/two-factor/verify-backup-code', {
      code: enabled.body.backupCodes[0],
    });
    await call(withBackup, 'POST', '/api/auth/two-factor/disable', { password: PASSWORD });

    // The password: changed, then reset by mail (the reset page lists the passkeys).
    const newPassword = 'another-secret-password';
    await call(withBackup, 'POST', '/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword,
    });
    await call(server.client(), 'POST', '/api/auth/request-password-reset', { email });
    const reset = new URL(
      await mailLink(email, 'Reset your Kin Health password'),
      TEST_ORIGIN,
    ).searchParams.get('token');
    const stranger = server.client();
    const listed = await call<{ passkeys: unknown[] }>(
      stranger,
      'POST',
      '/api/auth/reset-password/passkeys',
      { token: reset },
    );
    expect(listed.body.passkeys).toHaveLength(1);
    await call(stranger, 'POST', '/api/auth/reset-password', {
      token: reset,
      newPassword: PASSWORD,
    });

    // The email: changed with the proof, then the link followed (its JSON answer).
    const signedInAgain = server.client();
    await call(signedInAgain, 'POST', '/api/auth/sign-in/email', signInBody(email));
    const newEmail = uniqueEmail('moved');
    const asked = await signedInAgain.post('/api/account/email', {
      newEmail,
      password: PASSWORD,
    });
    expect(asked.status).toBe(200);
    const confirm = (await mailLink(newEmail, 'Confirm your new Kin Health email address'))
      .replace(/&callbackURL=[^&]*/, '')
      .replace(/\?callbackURL=[^&]*&/, '?');
    await call(server.client(), 'GET', confirm);

    // Single sign-on: a new account (the passcode asked), and a link to an existing one.
    const newcomer = identityAt(provider, { name: 'Sol Newcomer' });
    const ssoBrowser = server.client();
    const start = await call<{ url: string }>(ssoBrowser, 'POST', '/api/auth/sign-in/social', {
      provider: 'oidc',
    });
    expect(start.body.url).toContain(provider.issuer);
    await call(ssoBrowser, 'GET', await startSignOn(ssoBrowser, newcomer.email), undefined, 302);
    await call(ssoBrowser, 'POST', '/api/auth/sso/finish-sign-up', { passcode: TEST_PASSCODE });
    const linked = identityAt(provider, { email: newEmail });
    const linkBrowser = server.client();
    await call(linkBrowser, 'GET', await startSignOn(linkBrowser, linked.email), undefined, 302);
    await call(linkBrowser, 'POST', '/api/auth/sso/link', { password: PASSWORD });
    // Later sign-ins go straight in: the callback makes the session.
    const again = server.client();
    await call(again, 'GET', await startSignOn(again, linked.email), undefined, 302);
    await call(again, 'GET', '/api/auth/get-session');

    const mounted = AUTH_HTTP_ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(new Set(answers.map(({ route }) => route))).toEqual(new Set(mounted));
    for (const { route, text } of answers) {
      expect(text, route).not.toContain('$argon2');
      expect(text.toLowerCase(), route).not.toMatch(/family_?passcode|passcode_?version/);
    }
  });
});
