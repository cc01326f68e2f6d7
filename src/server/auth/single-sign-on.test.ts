/**
 * Single sign-on (CONTRACT.md §5 'Passkeys and single sign-on', decision 0035) against a
 * real OpenID Provider (oidc-provider, test/openid-provider.ts): a first sign-in makes an
 * account only with the passcode (unless the provider is trusted), later ones go straight in;
 * an existing account is linked only with a verified email and its password; a wrong state,
 * an expired code, an unverified email and an ID token for another audience (or with a wrong
 * signature) are refused, each with its own `error`, and nothing is made or signed in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_PASSCODE_MESSAGE } from '../../shared/passcode';
import type { SignInOptions } from '../../shared/sign-in-options';
import {
  createTestServer,
  TEST_ORIGIN,
  TEST_PASSCODE,
  uniqueEmail,
  type TestServer,
} from '../test/harness';
import {
  startTestOpenIdProvider,
  type TestIdentity,
  type TestOpenIdProvider,
} from '../test/openid-provider';
import {
  finishAtCallback,
  fullSignOn,
  identityAt,
  SSO_CALLBACK_URL,
  singleSignOnWith,
  startSignOn,
} from '../test/single-sign-on';
import { linkIn, startTestSmtpServer, type TestSmtpServer } from '../test/smtp-server';

let provider: TestOpenIdProvider;
let server: TestServer;
let smtp: TestSmtpServer;

beforeAll(async () => {
  provider = await startTestOpenIdProvider({
    redirectUris: [SSO_CALLBACK_URL],
  });
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

const identity = (overrides: Partial<TestIdentity> = {}) => identityAt(provider, overrides);

async function userRow(email: string) {
  return server.db
    .selectFrom('user')
    .select(['id', 'name', 'passcode_version'])
    .where('email', '=', email)
    .executeTakeFirst();
}

async function auditOf(userId: string) {
  const rows = await server.db
    .selectFrom('audit_log')
    .select(['event', 'detail'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => `${row.event}:${row.detail ?? ''}`);
}

describe('single sign-on', () => {
  it('tells the Sign In tab its name', async () => {
    const options = await server.client().get<SignInOptions>('/api/sign-in-options');
    expect(options.body).toMatchObject({ singleSignOn: { name: 'Family Login' } });
    const without = await createTestServer();
    try {
      const none = await without.client().get<SignInOptions>('/api/sign-in-options');
      expect(none.body).toMatchObject({ singleSignOn: null });
      const start = await without.client().post('/api/auth/sign-in/social', { provider: 'oidc' });
      expect(start.status).toBe(404);
    } finally {
      await without.close();
    }
  });

  it('makes a new account only once the passcode is given; later sign-ins need none', async () => {
    const person = identity({ name: 'Robin Newcomer' });
    const browser = server.client();
    const first = await fullSignOn(browser, person.email);
    expect(first.location).toMatch(/^\/auth\?error=sso_passcode_needed/);
    expect(first.signedInAs).toBeNull();
    expect(await userRow(person.email)).toBeUndefined();

    // The identity waits as a hash, not as the token in the browser's cookie.
    const waiting = await server.db.selectFrom('verification').select('identifier').execute();
    expect(waiting.some((row) => row.identifier.startsWith('sso-pending:'))).toBe(false);

    const wrong = await browser.post<{ message: string; field: string }>(
      '/api/auth/sso/finish-sign-up',
      { passcode: TEST_PASSCODE.split('').reverse().join('') },
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE, field: 'passcode' });
    expect(await userRow(person.email)).toBeUndefined();

    const malformed = await browser.post<{ field: string }>('/api/auth/sso/finish-sign-up', {
      passcode: '12',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe('passcode');

    // Another browser has no identity waiting.
    const stranger = await server
      .client()
      .post('/api/auth/sso/finish-sign-up', { passcode: TEST_PASSCODE });
    expect(stranger.status).toBe(400);

    const finished = await browser.post('/api/auth/sso/finish-sign-up', {
      passcode: TEST_PASSCODE,
    });
    expect(finished.status).toBe(200);
    const session = await browser.get<{ user: { email: string; name: string } }>(
      '/api/auth/get-session',
    );
    expect(session.body.user).toMatchObject({ email: person.email, name: 'Robin Newcomer' });
    const user = await userRow(person.email);
    expect(user?.passcode_version).toBeTruthy();
    // Used once: it does not make a second account.
    const again = await browser.post('/api/auth/sso/finish-sign-up', { passcode: TEST_PASSCODE });
    expect(again.status).toBe(400);

    await browser.signOut();
    const later = await fullSignOn(browser, person.email);
    expect(later.location).toBe('/');
    expect(later.signedInAs).toBe(person.email);
    // From another device, the account holder is told of the sign-in; not from this one.
    const elsewhere = await fullSignOn(server.client(), person.email);
    expect(elsewhere.signedInAs).toBe(person.email);
    const notices = await server.db
      .selectFrom('mail_queue')
      .select('template')
      .where('recipient', '=', person.email)
      .execute();
    expect(notices.map((notice) => notice.template)).toEqual(['new-sign-in']);
    expect(await auditOf(user?.id ?? '')).toEqual([
      'sign_up:single_sign_on',
      'sign_out:',
      'sign_in:single_sign_on',
      'sign_in:single_sign_on',
    ]);
  });

  it('links an existing account only with a verified email and its password, once', async () => {
    const owner = server.client();
    const email = uniqueEmail('linked');
    expect((await owner.signUp({ email, password: 'owner-password-1' })).status).toBe(200);
    await owner.signOut();

    const unverified = identity({ email, emailVerified: false });
    const refused = await fullSignOn(server.client(), unverified.email);
    expect(refused.location).toMatch(/^\/auth\?error=account_not_linked/);
    expect(refused.signedInAs).toBeNull();

    provider.addIdentity({ ...unverified, emailVerified: true });
    const browser = server.client();
    const asked = await fullSignOn(browser, email);
    expect(asked.location).toMatch(/^\/auth\?error=sso_password_needed/);
    expect(asked.signedInAs).toBeNull();

    const wrong = await browser.post<{ field: string }>('/api/auth/sso/link', {
      password: 'not-the-password',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.field).toBe('password');
    const linked = await browser.post('/api/auth/sso/link', { password: 'owner-password-1' });
    expect(linked.status).toBe(200);
    expect(
      (await browser.get<{ user: { email: string } }>('/api/auth/get-session')).body.user.email,
    ).toBe(email);

    await browser.signOut();
    const later = await fullSignOn(browser, email);
    expect(later).toEqual({ location: '/', signedInAs: email });
    const user = await userRow(email);
    const events = await auditOf(user?.id ?? '');
    expect(events).toContain('sign_in_failed:wrong_password');
    expect(events).toContain('sso_linked:Family Login');
    expect(events.filter((event) => event === 'sign_in:single_sign_on')).toHaveLength(2);
  });

  it('refuses a new account for an email the provider has not verified', async () => {
    const person = identity({ emailVerified: false });
    const result = await fullSignOn(server.client(), person.email);
    expect(result.location).toMatch(/^\/auth\?error=sso_email_unverified/);
    expect(result.signedInAs).toBeNull();
    expect(await userRow(person.email)).toBeUndefined();
  });

  it('refuses a callback whose state is not this browser’s', async () => {
    const person = identity();
    const browser = server.client();
    const callback = new URL(await startSignOn(browser, person.email), TEST_ORIGIN);
    callback.searchParams.set('state', 'forged-state-value');
    const result = await finishAtCallback(browser, `${callback.pathname}${callback.search}`);
    expect(result.location).toMatch(/^\/auth\?error=state_/);
    expect(result.signedInAs).toBeNull();

    // The right state, from another browser (its cookie missing): refused as well.
    const other = await startSignOn(browser, person.email);
    const elsewhere = await finishAtCallback(server.client(), other);
    expect(elsewhere.location).toMatch(/^\/auth\?error=state_/);
    expect(elsewhere.signedInAs).toBeNull();
    expect(await userRow(person.email)).toBeUndefined();
  });

  it('refuses an expired code', async () => {
    const person = identity();
    const browser = server.client();
    provider.expireCodesAfter(1);
    try {
      const callback = await startSignOn(browser, person.email);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const result = await finishAtCallback(browser, callback);
      expect(result.location).toMatch(/^\/auth\?error=invalid_code/);
      expect(result.signedInAs).toBeNull();
    } finally {
      provider.expireCodesAfter(60);
    }
  });

  it('refuses an ID token for another audience, and one with a wrong signature', async () => {
    for (const tampering of ['other-audience', 'wrong-signature'] as const) {
      const person = identity();
      const browser = server.client();
      provider.tamper(tampering);
      try {
        const result = await fullSignOn(browser, person.email);
        expect(result.location, tampering).toMatch(/^\/auth\?error=unable_to_get_user_info/);
        expect(result.signedInAs).toBeNull();
        expect(await userRow(person.email)).toBeUndefined();
      } finally {
        provider.tamper('none');
      }
    }
  });

  it('lets an account made by single sign-on set a password by the reset flow', async () => {
    const person = identity();
    const browser = server.client();
    await fullSignOn(browser, person.email);
    expect(
      (await browser.post('/api/auth/sso/finish-sign-up', { passcode: TEST_PASSCODE })).status,
    ).toBe(200);

    await server.client().post('/api/auth/request-password-reset', { email: person.email });
    await server.mailSender?.runOnce();
    const mail = await smtp.waitFor(
      (message) =>
        message.envelopeTo.includes(person.email) && /Reset/.test(message.parsed.subject ?? ''),
    );
    const token = new URL(linkIn(mail)).searchParams.get('token') ?? '';
    const reset = await server.client().post('/api/auth/reset-password', {
      token,
      newPassword: 'a-password-of-my-own',
    });
    expect(reset.status).toBe(200);
    const signIn = await server
      .client()
      .signIn({ email: person.email, password: 'a-password-of-my-own' });
    expect(signIn.status).toBe(200);
  });
});

describe('single sign-on with a trusted identity provider (OIDC_TRUSTED=true)', () => {
  let trusted: TestServer;
  beforeAll(async () => {
    trusted = await createTestServer({
      mail: smtp.mailConfig(),
      singleSignOn: singleSignOnWith(provider, true),
    });
  });
  afterAll(() => trusted?.close());

  it('makes the account at the first sign-in, with no passcode', async () => {
    const person = identity({ name: 'Sam Trusted' });
    const browser = trusted.client();
    const callback = await startSignOn(browser, person.email);
    const response = await browser.get(callback);
    expect(response.headers.get('location')).toBe('/');
    const session = await browser.get<{ user: { email: string; name: string } }>(
      '/api/auth/get-session',
    );
    expect(session.body.user).toMatchObject({ email: person.email, name: 'Sam Trusted' });
    const user = await trusted.db
      .selectFrom('user')
      .select(['id', 'passcode_version'])
      .where('email', '=', person.email)
      .executeTakeFirstOrThrow();
    expect(user.passcode_version).toBeTruthy();
    const audit = await trusted.db
      .selectFrom('audit_log')
      .select(['event', 'detail'])
      .where('user_id', '=', user.id)
      .execute();
    expect(audit).toEqual([{ event: 'sign_up', detail: 'single_sign_on' }]);
    // Its first sign-in is its sign-up: no notice of a sign-in from a new device.
    const queued = await trusted.db
      .selectFrom('mail_queue')
      .select('template')
      .where('recipient', '=', person.email)
      .execute();
    expect(queued).toEqual([]);
    // From another browser, later: told.
    const other = trusted.client();
    const again = await other.get(await startSignOn(other, person.email));
    expect(again.headers.get('location')).toBe('/');
    const told = await trusted.db
      .selectFrom('mail_queue')
      .select('template')
      .where('recipient', '=', person.email)
      .execute();
    expect(told).toEqual([{ template: 'new-sign-in' }]);
  });
});
