/**
 * Passkeys over the API (docs/decisions/0034-passkeys.md), with a software authenticator:
 * the relying party is BASE_URL's host or the request's; a passkey signs in alone, with no
 * second factor after it, is listed with when it was last used, renamed, removed only after
 * the password, and then no longer signs in; one that does not verify the person is refused;
 * one made for another origin or relying party is a 400 that says so; each step is in the
 * security activity. Also: PASSKEYS=off mounts nothing. Adding one after a fresh proof, and
 * the passcode-change rule: fresh-proof-for-new-ways-in.test.ts and
 * passkeys-after-passcode-change.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { WRONG_PASSWORD_MESSAGE } from '../../shared/account-security';
import {
  PASSKEY_NOT_VERIFIED_MESSAGE,
  PASSKEY_UNKNOWN_MESSAGE,
  passkeyWrongOriginMessage,
  passkeyWrongRelyingPartyMessage,
  type PasskeyListItem,
} from '../../shared/passkeys';
import { SoftwareAuthenticator } from '../test/software-authenticator';
import {
  createTestServer,
  signedUpClient,
  TEST_ORIGIN,
  TestClient,
  useTestServer,
} from '../test/harness';
import {
  addPasskey as addPasskeyWithProof,
  registrationOptions,
  signInWithPasskey as passkeySignIn,
} from '../test/passkeys';
import { enableTwoFactor } from '../test/two-factor';

const server = useTestServer();
const PASSWORD = 'secret-password';

/** Adds a passkey to the account of a client signed up with the tests' password. */
const addPasskey = (client: TestClient, authenticator: SoftwareAuthenticator, name?: string) =>
  addPasskeyWithProof(client, { password: PASSWORD }, authenticator, name);

async function signInWithPasskey(...args: Parameters<typeof passkeySignIn>) {
  const signedIn = await passkeySignIn(...args);
  // Discoverable: the device offers its passkey for the site; no account is named.
  expect(signedIn.options.body.allowCredentials).toBeUndefined();
  return signedIn;
}

async function activity(client: TestClient) {
  const rows =
    await client.get<Array<{ event: string; detail: string | null }>>('/api/security-activity');
  return rows.body.map(({ event, detail }) => ({ event, detail }));
}

describe('a passkey', () => {
  it('is made for the request’s host, discoverable and verifying the person', async () => {
    const { client } = await signedUpClient(server);
    const options = await registrationOptions(client, { password: PASSWORD });
    expect(options.body.rp).toEqual({ id: 'localhost', name: 'Kin Health' });
    expect(options.body.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    // Another name for the same server: its own relying party.
    const elsewhere = new TestClient(server.fetch, 'http://kin.home.arpa');
    expect((await elsewhere.signUp()).status).toBe(200);
    const there = await registrationOptions(elsewhere, { password: PASSWORD });
    expect(there.body.rp.id).toBe('kin.home.arpa');
    // Only for a signed-in account.
    const anonymous = await registrationOptions(server.client(), { password: PASSWORD });
    expect(anonymous.status).toBe(401);
  });

  it('signs in alone, with no code after it for a two-factor account; listed, last used, audited', async () => {
    const { client, password } = await signedUpClient(server);
    const twoFactor = await enableTwoFactor(client, password);
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    client.withHeaders({
      'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Version/17.0 Mobile Safari/604.1',
    });
    const added = await addPasskeyWithProof(
      client,
      { password, code: twoFactor.backupCodes[0] },
      authenticator,
    );
    expect(added.status).toBe(200);
    const listed = await client.get<PasskeyListItem[]>('/api/passkeys');
    expect(listed.body).toEqual([
      {
        id: expect.any(String),
        name: 'Safari on iOS',
        created_at: expect.any(String),
        last_used_at: null,
      },
    ]);

    const { client: device, response } = await signInWithPasskey(server, authenticator);
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('twoFactorRedirect');
    expect((await device.get('/api/profile')).status).toBe(200);

    const after = await client.get<PasskeyListItem[]>('/api/passkeys');
    expect(after.body[0]?.last_used_at).toEqual(expect.any(String));
    const events = await activity(client);
    expect(events).toContainEqual({ event: 'passkey_added', detail: 'Safari on iOS' });
    expect(events).toContainEqual({ event: 'sign_in', detail: 'passkey' });
  });

  it('is renamed (a blank name refused, naming the field) and only by its owner', async () => {
    const { client } = await signedUpClient(server);
    expect(
      (await addPasskey(client, new SoftwareAuthenticator(TEST_ORIGIN), 'Laptop')).status,
    ).toBe(200);
    const [passkey] = (await client.get<PasskeyListItem[]>('/api/passkeys')).body;
    const id = passkey?.id ?? '';
    const blank = await client.request('PATCH', `/api/passkeys/${id}`, { name: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ field: 'name', message: 'Passkey Name is required' });
    const { client: other, password: otherPassword } = await signedUpClient(server);
    expect((await other.request('PATCH', `/api/passkeys/${id}`, { name: 'Mine' })).status).toBe(
      404,
    );
    expect(
      (await other.request('DELETE', `/api/passkeys/${id}`, { password: otherPassword })).status,
    ).toBe(404);
    expect(
      (await client.request('PATCH', `/api/passkeys/${id}`, { name: 'Work laptop' })).status,
    ).toBe(200);
    expect((await client.get<PasskeyListItem[]>('/api/passkeys')).body[0]?.name).toBe(
      'Work laptop',
    );
  });

  it('is removed only after the password, and then no longer signs in', async () => {
    const { client, password } = await signedUpClient(server);
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    await addPasskey(client, authenticator, 'Phone');
    const id = (await client.get<PasskeyListItem[]>('/api/passkeys')).body[0]?.id ?? '';

    const wrong = await client.request('DELETE', `/api/passkeys/${id}`, {
      password: 'not-it-at-all',
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ field: 'password', message: WRONG_PASSWORD_MESSAGE });
    expect(await client.get<PasskeyListItem[]>('/api/passkeys')).toMatchObject({ body: [{ id }] });
    expect((await signInWithPasskey(server, authenticator)).response.status).toBe(200);

    expect((await client.request('DELETE', `/api/passkeys/${id}`, { password })).status).toBe(204);
    expect((await client.get<PasskeyListItem[]>('/api/passkeys')).body).toEqual([]);
    const { response } = await signInWithPasskey(server, authenticator);
    expect(response.status).toBe(401);
    expect(response.body.message).toBe(PASSKEY_UNKNOWN_MESSAGE);
    const events = await activity(client);
    expect(events).toContainEqual({ event: 'verification_failed', detail: 'passkey-removal' });
    expect(events).toContainEqual({ event: 'passkey_removed', detail: 'Phone' });
  });

  it('is refused when the authenticator does not verify the person', async () => {
    const { client } = await signedUpClient(server);
    const added = await addPasskey(client, new SoftwareAuthenticator(TEST_ORIGIN, false));
    expect(added.status).toBe(400);
    expect(added.body).toMatchObject({ message: PASSKEY_NOT_VERIFIED_MESSAGE });
    expect((await client.get<PasskeyListItem[]>('/api/passkeys')).body).toEqual([]);
  });

  it('answered from another origin is a 400 that names both, and adds nothing', async () => {
    const { client } = await signedUpClient(server);
    const authenticator = new SoftwareAuthenticator('http://evil.example');
    const added = await addPasskey(client, authenticator);
    expect(added.status).toBe(400);
    expect(added.body).toEqual({
      message: passkeyWrongOriginMessage('http://evil.example', TEST_ORIGIN),
      field: 'response',
    });
    expect((await client.get<PasskeyListItem[]>('/api/passkeys')).body).toEqual([]);
  });

  it('made for another relying party is a 400 that names this one, and adds nothing', async () => {
    const { client } = await signedUpClient(server);
    const options = await registrationOptions(client, { password: PASSWORD });
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    const added = await client.post('/api/auth/passkey/verify-registration', {
      response: authenticator.register({ ...options.body, rp: { id: 'evil.example' } }),
    });
    expect(added.status).toBe(400);
    expect(added.body).toEqual({
      message: passkeyWrongRelyingPartyMessage('localhost'),
      field: 'response',
    });
    expect((await client.get<PasskeyListItem[]>('/api/passkeys')).body).toEqual([]);
    // The same device, for this server: added.
    expect((await addPasskey(client, authenticator)).status).toBe(200);
  });
});

describe('passkeys with BASE_URL', () => {
  it('have BASE_URL’s host as the relying party and its origin as the only one', async () => {
    const srv = await createTestServer({ baseUrl: 'https://health.example.org' });
    try {
      const client = new TestClient(srv.fetch, 'https://health.example.org');
      expect((await client.signUp()).status).toBe(200);
      const options = await registrationOptions(client, { password: PASSWORD });
      expect(options.body.rp.id).toBe('health.example.org');
      const authenticator = new SoftwareAuthenticator('https://health.example.org');
      expect((await addPasskey(client, authenticator)).status).toBe(200);
      const device = new TestClient(srv.fetch, 'https://health.example.org');
      expect((await signInWithPasskey(srv, authenticator, device)).response.status).toBe(200);
      // An answer made for another origin is refused.
      const copy = new SoftwareAuthenticator('https://other.example.org');
      expect((await addPasskey(client, copy)).status).toBe(400);
    } finally {
      await srv.close();
    }
  });
});

describe('PASSKEYS=off', () => {
  it('mounts no passkey route and says so to the sign-in screen', async () => {
    const srv = await createTestServer({ passkeys: false });
    try {
      const { client } = await signedUpClient(srv);
      expect((await srv.client().get('/api/sign-in-options')).body).toMatchObject({
        passkeys: false,
      });
      expect((await registrationOptions(client, { password: PASSWORD })).status).toBe(404);
      expect((await server.client().get('/api/sign-in-options')).body).toMatchObject({
        passkeys: true,
      });
    } finally {
      await srv.close();
    }
  });
});
