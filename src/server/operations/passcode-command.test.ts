/**
 * `npm run kin -- passcode [DIGITS]` as an operator types it, beside running servers: the
 * new passcode is printed once and works at once, the old one stops working at once (on
 * every instance sharing a PostgreSQL database), records are untouched, and a restart
 * keeps it; wrong DIGITS, or a server that takes its passcode from FAMILY_PASSCODE, change
 * nothing.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INVALID_PASSCODE_MESSAGE } from '../../shared/passcode';
import { settleFamilyPasscode, storedPasscode } from '../auth/family-passcode';
import { createPasswordHasher } from '../auth/password-hashing';
import { openPostgres, openSqlite, type Database } from '../db/database';
import type { PasscodeSource } from '../db/schema';
import { createLogger } from '../logger';
import { readEverything, seedFamily } from '../test/family-records';
import {
  TEST_HASH_COST,
  TEST_PASSCODE,
  TestClient,
  testEngine,
  uniqueEmail,
} from '../test/harness';
import { runKin } from '../test/kin-command';
import {
  createServerStorage,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../test/server-process';
import { createSqliteDataDir } from '../test/sqlite-data-dir';

const PASSWORD = 'secret-password';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** The server's variables with the passcode kept in DATA_DIR, as the file says. */
async function fileManagedStorage(): Promise<Record<string, string>> {
  const storage = await createServerStorage();
  cleanups.push(storage.drop);
  writeFileSync(path.join(storage.env.DATA_DIR!, 'family-passcode'), `${TEST_PASSCODE}\n`);
  return { ...storage.env, FAMILY_PASSCODE: '' };
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  cleanups.push(() => stopServerProcess(server));
  return server;
}

function openStorage(env: Record<string, string>): Database {
  return env.DATABASE_URL
    ? openPostgres(env.DATABASE_URL, 1)
    : openSqlite(path.join(env.DATA_DIR!, 'kin-health.db'));
}

const newPasscodeIn = (stdout: string) => /^ {2}(\d{6})$/m.exec(stdout)?.[1] ?? '';

async function signIn(server: ServerProcess, email: string, passcode: string) {
  const client = TestClient.over(server.url);
  const response = await client.signIn({ email, password: PASSWORD, passcode });
  return { client, response };
}

async function expectOldPasscodeRefused(server: ServerProcess, email: string) {
  const { response } = await signIn(server, email, TEST_PASSCODE);
  expect(response.status).toBe(401);
  expect(response.body).toMatchObject({ message: INVALID_PASSCODE_MESSAGE });
  const signUp = await TestClient.over(server.url).signUp({ email: uniqueEmail() });
  expect(signUp.status).toBe(403);
}

describe('npm run kin -- passcode', () => {
  it('while the server runs: prints a new passcode once, which works at once, the old one for nobody; records untouched; a restart keeps it', async () => {
    const env = await fileManagedStorage();
    const server = await start(env);
    const family = TestClient.over(server.url);
    const seeded = await seedFamily(family);
    const { email } = (await family.request<{ email: string }>('GET', '/api/profile')).body;
    const before = await readEverything(family, seeded);

    const result = await runKin(['passcode'], env);
    expect(result.code, result.stderr).toBe(0);
    const passcode = newPasscodeIn(result.stdout);
    expect(passcode).toMatch(/^\d{6}$/);
    expect(passcode).not.toBe(TEST_PASSCODE);
    expect(result.stdout.split(passcode)).toHaveLength(2);
    const file = path.join(env.DATA_DIR!, 'family-passcode');
    expect(result.stdout).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe(`${passcode}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    expect((await family.request('GET', '/api/profile')).status).toBe(401);
    await expectOldPasscodeRefused(server, email);
    const again = await signIn(server, email, passcode);
    expect(again.response.status).toBe(200);
    expect(await readEverything(again.client, seeded)).toEqual(before);

    const database = openStorage(env);
    try {
      const audited = await database.db
        .selectFrom('audit_log')
        .select(['user_id', 'detail'])
        .where('event', '=', 'passcode_changed')
        .execute();
      expect(audited).toEqual([{ user_id: null, detail: 'command' }]);
    } finally {
      await database.close();
    }

    await stopServerProcess(server);
    const restarted = await start(env);
    expect((await signIn(restarted, email, passcode)).response.status).toBe(200);
    await expectOldPasscodeRefused(restarted, email);
  }, 120_000);

  it.runIf(testEngine() === 'postgres')(
    'with two instances on one PostgreSQL database: the other refuses the old passcode at once, and a start with a new FAMILY_PASSCODE does the same',
    async () => {
      const env = await fileManagedStorage();
      const one = await start(env);
      const two = await start(env);
      const email = uniqueEmail('shared');
      const onOne = TestClient.over(one.url);
      expect((await onOne.signUp({ email, password: PASSWORD })).status).toBe(200);
      const onTwo = (await signIn(two, email, TEST_PASSCODE)).client;
      expect((await onTwo.get('/api/profile')).status).toBe(200);

      const result = await runKin(['passcode', '135790'], env);
      expect(result.code, result.stderr).toBe(0);

      expect((await onTwo.get('/api/profile')).status).toBe(401);
      await expectOldPasscodeRefused(two, email);
      await expectOldPasscodeRefused(one, email);
      expect((await signIn(two, email, '135790')).response.status).toBe(200);

      // One instance restarted with FAMILY_PASSCODE set to a new value: the other, still
      // running, follows at once.
      await stopServerProcess(one);
      const oneAgain = await start({ ...env, FAMILY_PASSCODE: '802468' });
      const { response: refused } = await signIn(two, email, '135790');
      expect(refused.status).toBe(401);
      expect((await signIn(two, email, '802468')).response.status).toBe(200);
      expect((await signIn(oneAgain, email, '802468')).response.status).toBe(200);
    },
    120_000,
  );
});

describe.runIf(testEngine() === 'sqlite')('npm run kin -- passcode, refusing', () => {
  /** A DATA_DIR whose database has `TEST_PASSCODE`, taken from `from` at the last start. */
  async function dataDir(from: PasscodeSource) {
    const storage = await createSqliteDataDir();
    cleanups.push(storage.drop);
    writeFileSync(path.join(storage.dataDir, 'family-passcode'), `${TEST_PASSCODE}\n`);
    const database = openSqlite(storage.databaseFile);
    await settleFamilyPasscode(database.db, {
      passcode: TEST_PASSCODE,
      from,
      hasher: createPasswordHasher(TEST_HASH_COST),
      logger: createLogger('silent'),
    });
    await database.close();
    return { env: { DATA_DIR: storage.dataDir, FAMILY_PASSCODE: '' }, storage };
  }

  /** What a change would touch: the stored hash, the file, the audit log. */
  async function state(storage: { dataDir: string; databaseFile: string }) {
    const database = openSqlite(storage.databaseFile);
    try {
      return {
        stored: await storedPasscode(database.db),
        file: readFileSync(path.join(storage.dataDir, 'family-passcode'), 'utf8'),
        changes: await database.db
          .selectFrom('audit_log')
          .select('detail')
          .where('event', '=', 'passcode_changed')
          .execute(),
      };
    } finally {
      await database.close();
    }
  }

  it('wrong DIGITS: says the passcode must be six digits, exits 2, changes nothing; right ones become the passcode', async () => {
    const { env, storage } = await dataDir('file');
    const before = await state(storage);
    for (const args of [['12345'], ['1234567'], ['12a456'], ['１２３４５６'], ['123456', '7']]) {
      const result = await runKin(['passcode', ...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('Usage: npm run kin -- passcode [DIGITS]');
      expect(result.stderr).toContain('Nothing was changed.');
      if (args.length === 1) {
        expect(result.stderr).toContain('Friends & Family Passcode must be exactly 6 digits');
      }
      expect(await state(storage)).toEqual(before);
    }

    const result = await runKin(['passcode', '042917'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(newPasscodeIn(result.stdout)).toBe('042917');
    const after = await state(storage);
    expect(after.file).toBe('042917\n');
    expect(after.changes).toEqual([{ detail: 'command' }]);
    expect(
      await createPasswordHasher().verify({ hash: after.stored!.hash, password: '042917' }),
    ).toBe(true);
  }, 60_000);

  it('while the server takes its passcode from FAMILY_PASSCODE: says to change that instead, changes nothing', async () => {
    const fromFile = await dataDir('file');
    const before = await state(fromFile.storage);
    const variableHere = await runKin(['passcode'], {
      ...fromFile.env,
      FAMILY_PASSCODE: TEST_PASSCODE,
    });
    expect(variableHere.code).toBe(1);
    expect(variableHere.stderr).toContain('FAMILY_PASSCODE is set');
    expect(variableHere.stderr).toContain('Nothing was changed.');
    expect(await state(fromFile.storage)).toEqual(before);

    // The server's environment had it at its last start, this shell's does not.
    const fromVariable = await dataDir('FAMILY_PASSCODE');
    const beforeToo = await state(fromVariable.storage);
    const result = await runKin(['passcode', '135790'], fromVariable.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('took the Friends & Family Passcode from FAMILY_PASSCODE');
    expect(result.stderr).toContain('Nothing was changed.');
    expect(await state(fromVariable.storage)).toEqual(beforeToo);
  }, 60_000);

  it('without a database in DATA_DIR: says so, creates nothing', async () => {
    const { storage } = await dataDir('file');
    const empty = path.join(storage.dataDir, 'elsewhere');
    const result = await runKin(['passcode'], { DATA_DIR: empty, FAMILY_PASSCODE: '' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`There is no database at ${path.join(empty, 'kin-health.db')}`);
    expect(result.stderr).toContain('Nothing was changed.');
    expect(existsSync(empty)).toBe(false);
  }, 30_000);
});
