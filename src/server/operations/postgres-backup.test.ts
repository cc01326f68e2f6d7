/**
 * PostgreSQL is backed up with pg_dump and restored with pg_restore, by the very commands
 * docs/operations.md gives (read from it here, and run by the shell as written there, with
 * the machine's client tools): a seeded database, dumped while its server runs and restored
 * into a new empty database, answers the API's GETs as it did.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { readEverything, seedFamily } from '../test/family-records';
import { TestClient, testEngine } from '../test/harness';
import { createServerStorage, startServerProcess, stopServerProcess } from '../test/server-process';

const run = promisify(execFile);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** The documented command that starts with `program`, from a shell block of the docs. */
function documentedCommand(program: 'pg_dump' | 'pg_restore'): string {
  const docs = readFileSync(path.join(process.cwd(), 'docs/operations.md'), 'utf8');
  const blocks = [...docs.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const lines = blocks.flatMap((block) => block.split('\n'));
  const found = lines.filter((line) => line.startsWith(`${program} `));
  expect(found, `docs/operations.md gives one ${program} command`).toHaveLength(1);
  return found[0]!;
}

async function createDatabase(): Promise<string> {
  const name = `kin_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const cleaner = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await cleaner.connect();
    await cleaner.query(`drop database if exists ${name} with (force)`);
    await cleaner.end();
  });
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

describe.runIf(testEngine() === 'postgres')('a PostgreSQL backup made as documented', () => {
  it('restores into a new database that answers as the old one did', async () => {
    const dumpCommand = documentedCommand('pg_dump');
    const restoreCommand = documentedCommand('pg_restore');
    expect(dumpCommand).toContain('--format=custom');
    expect(restoreCommand).toContain('--no-owner');

    const storage = await createServerStorage();
    cleanups.push(storage.drop);
    const server = await startServerProcess(storage.env);
    cleanups.push(() => stopServerProcess(server, 'SIGKILL'));
    const client = TestClient.over(server.url);
    const family = await seedFamily(client);
    const before = await readEverything(client, family);

    // Dumped while the server runs, in a directory of its own, as the docs' line writes it.
    const workDir = mkdtempSync(path.join(tmpdir(), 'kin-pg-dump-'));
    cleanups.push(() => rmSync(workDir, { recursive: true, force: true }));
    await run('sh', ['-c', dumpCommand], {
      cwd: workDir,
      env: { ...process.env, DATABASE_URL: storage.env.DATABASE_URL },
    });
    const dumps = readdirSync(workDir).filter((name) => name.endsWith('.dump'));
    expect(dumps).toEqual([expect.stringMatching(/^kin-health-\d{4}-\d{2}-\d{2}\.dump$/)]);
    await stopServerProcess(server);

    // Restored into a new, empty database; the docs' example file name becomes this dump's.
    const restoredUrl = await createDatabase();
    const restore = restoreCommand.replace(/kin-health-[\w-]+\.dump/, dumps[0]!);
    expect(restore).toContain(dumps[0]);
    const restored = await run('sh', ['-c', restore], {
      cwd: workDir,
      env: { ...process.env, DATABASE_URL: restoredUrl },
    });
    expect(restored.stderr).toBe('');

    const again = await startServerProcess({ ...storage.env, DATABASE_URL: restoredUrl });
    cleanups.push(() => stopServerProcess(again, 'SIGKILL'));
    expect(await readEverything(client.against(again.url), family)).toEqual(before);
  });
});
