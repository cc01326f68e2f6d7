/**
 * After the Friends & Family Passcode changes (decision 0048), a passkey signs nobody in
 * until the account has signed in once with its password and the new passcode: whoever got
 * in with a leaked passcode and added a passkey is out. The refusal says what to do, and is
 * in the security activity. Single sign-on of such an account asks for the new passcode
 * first (unless OIDC_TRUSTED), and its link to an existing account is not made with the
 * password alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_PASSCODE_MESSAGE } from '../../shared/passcode';
import { PASSKEY_PASSCODE_CHANGED_MESSAGE } from '../../shared/passkeys';
import {
  SSO_LINK_PASSCODE_CHANGED_MESSAGE,
  SSO_PASSCODE_CHANGED,
} from '../../shared/single-sign-on';
import {
  createTestServer,
  signedUpClient,
  TEST_HASH_COST,
  TEST_ORIGIN,
  TEST_PASSCODE,
  uniqueEmail,
  type TestServer,
} from '../test/harness';
import { startTestOpenIdProvider, type TestOpenIdProvider } from '../test/openid-provider';
import { addPasskey, signInWithPasskey } from '../test/passkeys';
import { fullSignOn, identityAt, singleSignOnWith, SSO_CALLBACK_URL } from '../test/single-sign-on';
import { SoftwareAuthenticator } from '../test/software-authenticator';
import { changeFamilyPasscode } from './family-passcode';
import { createPasswordHasher } from './password-hashing';

const NEW_PASSCODE = '864209';
const PASSWORD = 'secret-password';
const hasher = createPasswordHasher(TEST_HASH_COST);

let provider: TestOpenIdProvider;
let server: TestServer;
let trusted: TestServer;

beforeAll(async () => {
  provider = await startTestOpenIdProvider({ redirectUris: [SSO_CALLBACK_URL] });
  server = await createTestServer({ singleSignOn: singleSignOnWith(provider) });
  trusted = await createTestServer({ singleSignOn: singleSignOnWith(provider, true) });
});
afterAll(async () => {
  await server?.close();
  await trusted?.close();
  await provider?.close();
});

async function changePasscode(srv: TestServer, passcode: string) {
  await changeFamilyPasscode(srv.db, { hash: await hasher.hash(passcode), source: 'command' });
}

async function activity(srv: TestServer, email: string) {
  const rows = await srv.db
    .selectFrom('audit_log')
    .innerJoin('user', 'user.id', 'audit_log.user_id')
    .select(['audit_log.event', 'audit_log.detail'])
    .where('user.email', '=', email)
    .execute();
  return rows.map(({ event, detail }) => `${event}:${detail ?? ''}`);
}

describe('a passkey after the passcode changed', () => {
  it('is refused, saying why, until a sign-in with the password and the new passcode', async () => {
    const { client, email } = await signedUpClient(server, 'Outsider');
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    expect((await addPasskey(client, { password: PASSWORD }, authenticator)).status).toBe(200);
    expect((await signInWithPasskey(server, authenticator)).response.status).toBe(200);

    await changePasscode(server, NEW_PASSCODE);

    const refused = await signInWithPasskey(server, authenticator);
    expect(refused.response.status).toBe(401);
    expect(refused.response.body).toMatchObject({ message: PASSKEY_PASSCODE_CHANGED_MESSAGE });
    expect(refused.response.headers.getSetCookie().join()).not.toContain('session_token=');
    expect((await refused.client.get('/api/profile')).status).toBe(401);
    expect(await activity(server, email)).toContain('sign_in_failed:passkey_passcode_changed');

    // The old passcode with the password changes nothing; the new one does.
    const withOld = server.client();
    expect((await withOld.signIn({ email, password: PASSWORD })).status).toBe(401);
    expect((await signInWithPasskey(server, authenticator)).response.status).toBe(401);
    const withNew = server.client();
    expect(
      (await withNew.signIn({ email, password: PASSWORD, passcode: NEW_PASSCODE })).status,
    ).toBe(200);
    const back = await signInWithPasskey(server, authenticator);
    expect(back.response.status).toBe(200);
    expect((await back.client.get('/api/profile')).status).toBe(200);
    await changePasscode(server, TEST_PASSCODE);
  });
});

describe('single sign-on after the passcode changed', () => {
  it('asks for the new passcode once, then goes straight in again', async () => {
    const person = identityAt(provider, { name: 'Pat Provider' });
    const browser = server.client();
    expect((await fullSignOn(browser, person.email)).signedInAs).toBeNull();
    expect(
      (await browser.post('/api/auth/sso/finish-sign-up', { passcode: TEST_PASSCODE })).status,
    ).toBe(200);
    expect((await fullSignOn(server.client(), person.email)).signedInAs).toBe(person.email);

    await changePasscode(server, NEW_PASSCODE);

    const asked = server.client();
    const waiting = await fullSignOn(asked, person.email);
    expect(waiting.location).toMatch(new RegExp(`^/auth\\?error=${SSO_PASSCODE_CHANGED}`));
    expect(waiting.signedInAs).toBeNull();
    const old = await asked.post('/api/auth/sso/finish-sign-up', { passcode: TEST_PASSCODE });
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE, field: 'passcode' });
    const given = await asked.post('/api/auth/sso/finish-sign-up', { passcode: NEW_PASSCODE });
    expect(given.status).toBe(200);
    expect((await asked.get('/api/profile')).status).toBe(200);
    // One account still, and later sign-ins go straight in.
    const users = await server.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', person.email)
      .execute();
    expect(users).toHaveLength(1);
    expect((await fullSignOn(server.client(), person.email)).signedInAs).toBe(person.email);
    const events = await activity(server, person.email);
    expect(events).toContain('sign_in_challenged:passcode_changed');
    expect(events).toContain('sign_in_failed:wrong_passcode');
    await changePasscode(server, TEST_PASSCODE);
  });

  it('does not link an account that has not passed the new passcode with its password alone', async () => {
    const { email } = await signedUpClient(server, 'Link Later');
    await changePasscode(server, NEW_PASSCODE);
    identityAt(provider, { email });
    const browser = server.client();
    expect((await fullSignOn(browser, email)).location).toMatch(/error=sso_password_needed/);
    const link = await browser.post('/api/auth/sso/link', { password: PASSWORD });
    expect(link.status).toBe(403);
    expect(link.body).toMatchObject({ message: SSO_LINK_PASSCODE_CHANGED_MESSAGE('Family Login') });
    expect((await browser.get('/api/profile')).status).toBe(401);
    const accounts = await server.db
      .selectFrom('account')
      .innerJoin('user', 'user.id', 'account.userId')
      .select('account.providerId')
      .where('user.email', '=', email)
      .execute();
    expect(accounts.map((row) => row.providerId)).toEqual(['credential']);
    await changePasscode(server, TEST_PASSCODE);
  });

  it('with OIDC_TRUSTED goes straight in: the provider alone decides', async () => {
    const person = identityAt(provider, { email: uniqueEmail('trusted') });
    expect((await fullSignOn(trusted.client(), person.email)).signedInAs).toBe(person.email);
    await changePasscode(trusted, NEW_PASSCODE);
    expect((await fullSignOn(trusted.client(), person.email)).signedInAs).toBe(person.email);
  });
});
