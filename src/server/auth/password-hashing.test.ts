/**
 * Password and passcode hashing: the product's default is Argon2id at m = 19 MiB, t = 2,
 * p = 1; hashes in better-auth's older default format still verify, and a sign-in replaces
 * them.
 */
import { hashPassword as betterAuthHash } from 'better-auth/crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config';
import {
  createTestServer,
  signedUpClient,
  TEST_PASSCODE,
  TEST_HASH_COST,
  type TestServer,
} from '../test/harness';
import {
  createPasswordHasher,
  DEFAULT_HASH_COST,
  HASHING_CONCURRENCY,
  hashCost,
} from './password-hashing';

const STRONG = { memoryKiB: 19_456, iterations: 2, parallelism: 1 };

/** The account's password hash, and the server's passcode hash (no user row keeps one). */
async function storedHashes(server: TestServer, email: string) {
  const user = await server.db
    .selectFrom('user')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const passcode = await server.db
    .selectFrom('server_settings')
    .select('family_passcode')
    .executeTakeFirstOrThrow();
  const account = await server.db
    .selectFrom('account')
    .select('password')
    .where('userId', '=', user.id)
    .executeTakeFirstOrThrow();
  return {
    userId: user.id,
    passcode: passcode.family_passcode,
    password: account.password ?? '',
  };
}

describe('the product’s default', () => {
  it('is Argon2id with 19 MiB, 2 passes and 1 lane, and no setting lowers it', () => {
    expect(DEFAULT_HASH_COST).toEqual(STRONG);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-config-'));
    try {
      const config = loadConfig({
        DATA_DIR: dataDir,
        FAMILY_PASSCODE: '123456',
        AUTH_SECRET: 'x'.repeat(40),
        PASSWORD_HASH_COST: '1',
        SCRYPT_N: '2',
      });
      expect(config.passwordHashing).toEqual(STRONG);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('makes self-describing hashes that verify the right password only', async () => {
    const hasher = createPasswordHasher();
    const hash = await hasher.hash('correct horse');
    expect(hash).toMatch(
      /^\$argon2id\$v=19\$m=19456,p=1,t=2\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    );
    expect(hashCost(hash)).toEqual(STRONG);
    expect(await hasher.verify({ hash, password: 'correct horse' })).toBe(true);
    expect(await hasher.verify({ hash, password: 'correct horsE' })).toBe(false);
    expect(hasher.needsRehash(hash)).toBe(false);
  });

  it('is what a server with the product’s configuration stores for passwords and passcodes', async () => {
    const server = await createTestServer({ passwordHashing: DEFAULT_HASH_COST });
    try {
      const { client, email, password } = await signedUpClient(server);
      const stored = await storedHashes(server, email);
      expect(hashCost(stored.password)).toEqual(STRONG);
      expect(hashCost(stored.passcode)).toEqual(STRONG);
      expect(stored.password).not.toContain(password);
      expect(stored.passcode).not.toContain(TEST_PASSCODE);
      await client.signOut();
      expect((await client.signIn({ email, password })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('hashing in a burst', () => {
  const stored = '$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5';

  /** argon2 made slow, counting the most hashes that ran at once. */
  async function counted(burst: () => Promise<unknown[]>) {
    let running = 0;
    let most = 0;
    const slowHash = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return stored;
    };
    const hash = vi.spyOn(argon2, 'hash').mockImplementation(slowHash);
    const verify = vi.spyOn(argon2, 'verify').mockImplementation(async () => {
      await slowHash();
      return true;
    });
    try {
      const results = await burst();
      return { results, most, hashed: hash.mock.calls.length, verified: verify.mock.calls.length };
    } finally {
      hash.mockRestore();
      verify.mockRestore();
    }
  }

  it('runs no more hashes at once than its limit, and finishes every one', async () => {
    const hasher = createPasswordHasher(TEST_HASH_COST, 2);
    const { results, most, hashed, verified } = await counted(() =>
      Promise.all([
        ...Array.from({ length: 5 }, (_, i) => hasher.hash(`password ${i}`)),
        ...Array.from({ length: 5 }, () => hasher.verify({ hash: stored, password: 'x' })),
      ]),
    );
    expect(results).toHaveLength(10);
    expect([hashed, verified]).toEqual([5, 5]);
    expect(most).toBe(2);
  });

  it('shares one limit between every hasher of the process: half the cores, one to four', async () => {
    const cores = availableParallelism();
    expect(HASHING_CONCURRENCY).toBe(Math.min(Math.max(Math.floor(cores / 2), 1), 4));
    // As the server has them: sign-in's, the share links', the passcode's at start.
    const hashers = [createPasswordHasher(TEST_HASH_COST), createPasswordHasher(TEST_HASH_COST)];
    const { results, most } = await counted(() =>
      Promise.all(
        hashers.flatMap((hasher) => [
          ...Array.from({ length: 6 }, (_, i) => hasher.hash(`password ${i}`)),
          ...Array.from({ length: 6 }, () => hasher.verify({ hash: stored, password: 'x' })),
        ]),
      ),
    );
    expect(results).toHaveLength(24);
    expect(most).toBe(HASHING_CONCURRENCY);
  });
});

describe('hashes made before', () => {
  it('in better-auth’s default format still verify, and are marked for replacing', async () => {
    const hasher = createPasswordHasher(TEST_HASH_COST);
    const legacy = await betterAuthHash('old password');
    expect(legacy).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await hasher.verify({ hash: legacy, password: 'old password' })).toBe(true);
    expect(await hasher.verify({ hash: legacy, password: 'old passwore' })).toBe(false);
    expect(hasher.needsRehash(legacy)).toBe(true);
  });

  it('get a fresh salt each time', async () => {
    const hasher = createPasswordHasher(TEST_HASH_COST);
    expect(await hasher.hash('same')).not.toBe(await hasher.hash('same'));
  });

  it('with a lower cost still verify, and are marked for replacing', async () => {
    const cheap = await createPasswordHasher(TEST_HASH_COST).hash('secret');
    const strong = createPasswordHasher();
    expect(await strong.verify({ hash: cheap, password: 'secret' })).toBe(true);
    expect(strong.needsRehash(cheap)).toBe(true);
  });

  it.each([
    '',
    'not a hash',
    '$argon2id$v=19$m=19456,t=2,p=1$only-salt',
    '$argon2id$v=19$m=99999999,t=2,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5',
    '$argon2id$v=19$m=19456,t=200,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5',
    '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5',
    '$scrypt$ln=17,r=8,p=1$c2FsdA$a2V5',
    'abc:xyz',
  ])('that are damaged (%j) verify nothing, without throwing', async (hash) => {
    const hasher = createPasswordHasher(TEST_HASH_COST);
    expect(await hasher.verify({ hash, password: 'secret' })).toBe(false);
  });
});

describe('signing in with an old hash', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it('works, and replaces the password hash with a new one', async () => {
    const { email, password } = await signedUpClient(server);
    const { userId } = await storedHashes(server, email);
    await server.db
      .updateTable('account')
      .set({ password: await betterAuthHash(password) })
      .where('userId', '=', userId)
      .execute();

    const client = server.client();
    expect((await client.signIn({ email, password, passcode: '000000' })).status).toBe(401);
    expect((await client.signIn({ email, password: 'wrong-password' })).status).toBe(401);
    const legacyStill = await storedHashes(server, email);
    expect(hashCost(legacyStill.password)).toBe('legacy');

    expect((await client.signIn({ email, password })).status).toBe(200);
    const upgraded = await storedHashes(server, email);
    expect(hashCost(upgraded.password)).toEqual(TEST_HASH_COST);
    expect(hashCost(upgraded.passcode)).toEqual(TEST_HASH_COST);

    const again = server.client();
    expect((await again.signIn({ email, password })).status).toBe(200);
    expect((await again.get('/api/profile')).status).toBe(200);
  });
});
