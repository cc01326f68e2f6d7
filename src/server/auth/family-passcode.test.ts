/**
 * The Friends & Family Passcode is the server's, one hash in the database: after a change
 * the old passcode works for nobody (sign-up, sign-in, sessions made with it), everyone
 * signs in with the new one and finds their records as they were; a start with a new
 * FAMILY_PASSCODE does the same; a database whose users signed up before keeps working.
 */
import argon2 from 'argon2';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INVALID_PASSCODE_MESSAGE } from '../../shared/passcode';
import type { DB } from '../db/schema';
import { readEverything, seedFamily } from '../test/family-records';
import {
  createTestServer,
  signedUpClient,
  TEST_HASH_COST,
  TEST_PASSCODE,
  uniqueEmail,
  type TestClient,
  type TestServer,
} from '../test/harness';
import { capturingLogger } from '../test/sqlite-data-dir';
import { currentCode, twoFactorUser } from '../test/two-factor';
import {
  changeFamilyPasscode,
  passcodeVersion,
  settleFamilyPasscode,
  storedPasscode,
} from './family-passcode';
import { createPasswordHasher } from './password-hashing';

const NEW_PASSCODE = '135790';
const PASSWORD = 'secret-password';
const hasher = createPasswordHasher(TEST_HASH_COST);

let server: TestServer;
beforeEach(async () => {
  server = await createTestServer();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server.close();
});

/** As `npm run kin -- passcode NEW_PASSCODE` changes it. */
async function changeByCommand(db: Kysely<DB> = server.db) {
  await changeFamilyPasscode(db, { hash: await hasher.hash(NEW_PASSCODE), source: 'command' });
}

async function count(table: 'user' | 'session' | 'verification'): Promise<number> {
  const row = await server.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

const passcodeChanges = () =>
  server.db.selectFrom('audit_log').selectAll().where('event', '=', 'passcode_changed').execute();

const signIn = (email: string, passcode: string) =>
  server.client().signIn({ email, password: PASSWORD, passcode });

async function expectRefusedEverywhere(email: string, passcode: string) {
  const signInRefused = await signIn(email, passcode);
  expect(signInRefused.status).toBe(401);
  expect(signInRefused.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE });
  expect(signInRefused.headers.getSetCookie()).toEqual([]);
  const users = await count('user');
  const signUpRefused = await server.client().signUp({ email: uniqueEmail(), passcode });
  expect(signUpRefused.status).toBe(403);
  expect(signUpRefused.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE });
  expect(await count('user')).toBe(users);
}

/** What a start with FAMILY_PASSCODE set to `passcode` does, and what it logs. */
async function startWith(passcode: string) {
  const { logger, lines } = capturingLogger();
  const from = 'FAMILY_PASSCODE';
  const settled = await settleFamilyPasscode(server.db, { passcode, from, hasher, logger });
  return { settled, lines };
}

async function emailOf(client: TestClient): Promise<string> {
  return (await client.get<{ email: string }>('/api/profile')).body.email;
}

describe('a new passcode', () => {
  it('works for everyone at once, the old one for nobody, and leaves every record as it was', async () => {
    const family = server.client();
    const seeded = await seedFamily(family);
    const familyEmail = await emailOf(family);
    const before = await readEverything(family, seeded);
    const other = await signedUpClient(server, 'Sam Lee');

    await changeByCommand();

    // The sessions made with the old passcode are over.
    expect((await family.get('/api/profile')).status).toBe(401);
    expect((await other.client.get('/api/profile')).status).toBe(401);
    expect(await count('session')).toBe(0);
    await expectRefusedEverywhere(familyEmail, TEST_PASSCODE);
    await expectRefusedEverywhere(other.email, TEST_PASSCODE);

    const again = server.client();
    expect(
      (await again.signIn({ email: familyEmail, password: PASSWORD, passcode: NEW_PASSCODE }))
        .status,
    ).toBe(200);
    expect(await readEverything(again, seeded)).toEqual(before);
    expect((await signIn(other.email, NEW_PASSCODE)).status).toBe(200);
    const newcomer = await server.client().signUp({ passcode: NEW_PASSCODE });
    expect(newcomer.status).toBe(200);

    // The server's hash holds no digits; every user who signed in since has passed the new
    // passcode (its version, never the hash: decision 0048).
    const stored = await storedPasscode(server.db);
    expect(stored?.hash).not.toContain(NEW_PASSCODE);
    const versions = await server.db.selectFrom('user').selectAll().execute();
    expect(new Set(versions.map((row) => row.passcode_version))).toEqual(
      new Set([passcodeVersion(stored?.hash ?? '')]),
    );
    expect(JSON.stringify(versions)).not.toContain('$argon2');

    const audited = await passcodeChanges();
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ user_id: null, email: null, detail: 'command' });
    expect(JSON.stringify(audited)).not.toMatch(/135790|246810/);
  });

  it('ends a sign-in waiting for its second factor', async () => {
    const user = await twoFactorUser(server);
    const waiting = server.client();
    const challenged = await waiting.signIn({ email: user.email, password: user.password });
    expect(challenged.body).toMatchObject({ twoFactorRedirect: true });

    await changeByCommand();

    const code = await waiting.post('/api/auth/two-factor/verify-totp', {
      code: await currentCode(user.secret),
    });
    expect(code.status).toBe(401);
    expect((await waiting.get('/api/profile')).status).toBe(401);
    expect(await count('session')).toBe(0);
  });
});

describe('a start with FAMILY_PASSCODE', () => {
  it('set to a new value changes the passcode as the command does, and logs it without the digits', async () => {
    const { client, email } = await signedUpClient(server);

    const { settled, lines } = await startWith(NEW_PASSCODE);

    expect(settled).toBe('changed');
    expect((await client.get('/api/profile')).status).toBe(401);
    await expectRefusedEverywhere(email, TEST_PASSCODE);
    expect((await signIn(email, NEW_PASSCODE)).status).toBe(200);
    expect(await passcodeChanges()).toMatchObject([{ user_id: null, detail: 'FAMILY_PASSCODE' }]);
    expect(lines).toMatchObject([
      { level: 30, from: 'FAMILY_PASSCODE', msg: expect.stringMatching(/Passcode changed/) },
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/135790|246810/);
  });

  it('set to the passcode already in force changes nothing', async () => {
    const { client } = await signedUpClient(server);
    const { settled, lines } = await startWith(TEST_PASSCODE);
    expect(settled).toBe('unchanged');
    expect((await client.get('/api/profile')).status).toBe(200);
    expect(await passcodeChanges()).toEqual([]);
    expect(lines).toEqual([]);
  });
});

describe('a database whose users signed up before the passcode was kept server-wide', () => {
  it('keeps working: the first start stores the configured passcode, sessions go on', async () => {
    const { client, email } = await signedUpClient(server);
    const earlier = await signedUpClient(server, 'Signed Up Long Ago');
    // As such a database is: no server-wide passcode (each user had their own hash of the
    // passcode they signed up with, which migration 0041 did not carry over).
    await server.db.deleteFrom('server_settings').execute();
    await server.db.updateTable('user').set({ passcode_version: null }).execute();
    // Before the start stores one, nobody gets in.
    expect((await signIn(email, TEST_PASSCODE)).status).toBe(401);

    const { settled } = await startWith(TEST_PASSCODE);

    expect(settled).toBe('stored');
    expect((await client.get('/api/profile')).status).toBe(200);
    expect((await signIn(email, TEST_PASSCODE)).status).toBe(200);
    // Everyone signs in with the server's passcode, whatever they signed up with.
    expect((await signIn(earlier.email, TEST_PASSCODE)).status).toBe(200);
    expect((await signIn(earlier.email, '111111')).status).toBe(401);
    const stored = await storedPasscode(server.db);
    const versions = await server.db.selectFrom('user').select('passcode_version').execute();
    expect(new Set(versions.map((row) => row.passcode_version))).toEqual(
      new Set([passcodeVersion(stored?.hash ?? '')]),
    );
    expect(await passcodeChanges()).toEqual([]);
  });
});

describe('a request that checked the old passcode just as it changed', () => {
  /** The passcode changes right after the next check of TEST_PASSCODE has matched. */
  async function changeDuringNextPasscodeCheck() {
    const hash = await hasher.hash(NEW_PASSCODE);
    const verify = argon2.verify.bind(argon2);
    let armed = true;
    vi.spyOn(argon2, 'verify').mockImplementation(async (digest, plain, ...rest) => {
      const matched = await verify(digest, plain, ...rest);
      if (armed && plain === TEST_PASSCODE && matched) {
        armed = false;
        await changeFamilyPasscode(server.db, { hash, source: 'command' });
      }
      return matched;
    });
  }

  it('signs nobody in', async () => {
    const { email } = await signedUpClient(server);
    await changeDuringNextPasscodeCheck();
    const client = server.client();
    const response = await client.signIn({ email, password: PASSWORD });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE, field: 'passcode' });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await count('session')).toBe(0);
    expect((await client.get('/api/profile')).status).toBe(401);
  });

  it('creates no account', async () => {
    const users = await count('user');
    await changeDuringNextPasscodeCheck();
    const email = uniqueEmail();
    const response = await server.client().signUp({ email });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE, field: 'passcode' });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await count('user')).toBe(users);
    expect(await count('session')).toBe(0);
    const refusal = await server.db
      .selectFrom('audit_log')
      .select(['event', 'detail'])
      .where('email', '=', email)
      .execute();
    expect(refusal).toEqual([{ event: 'sign_up_failed', detail: 'wrong_passcode' }]);
  });

  it('leaves no second-factor challenge to answer', async () => {
    const user = await twoFactorUser(server);
    await changeDuringNextPasscodeCheck();
    const client = server.client();
    const response = await client.signIn({ email: user.email, password: user.password });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE });
    expect(await count('verification')).toBe(0);
    const code = await client.post('/api/auth/two-factor/verify-totp', {
      code: await currentCode(user.secret),
    });
    expect(code.status).toBe(401);
    expect(await count('session')).toBe(0);
  });
});
