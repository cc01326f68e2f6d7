/**
 * The benchmark measures the server as `npm start` runs it: the start line in package.json,
 * the flags and settings the benchmark starts the server with, and the line the operations
 * guide tells a host to use are one and the same, and Node accepts every flag in it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { FloorSpec } from './floor-spec';
import {
  loggedRequests,
  START_ENV,
  START_NODE_FLAGS,
  START_SCRIPT,
  startFloorServer,
  treePssOf,
  treeRssOf,
} from './processes';

const startLine = [
  ...Object.entries(START_ENV).map(([name, value]) => `${name}=${value}`),
  'node',
  ...START_NODE_FLAGS,
  ...START_SCRIPT,
].join(' ');

describe('how the server is started', () => {
  it('is the same in package.json as in the benchmark', () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<
      string,
      string
    >;
    expect(scripts.start).toBe(`npm run build && ${startLine}`);
  });

  it('is the line docs/operations.md gives', () => {
    const guide = readFileSync('docs/operations.md', 'utf8');
    const block = /### Memory[\s\S]*?```sh\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
    expect(block.replace(/\\\n\s*/g, '').trim()).toBe(startLine);
    for (const flag of START_NODE_FLAGS) expect(guide).toContain(`**\`${flag}\`.**`);
  });

  it('has flags the Node.js running it accepts', () => {
    const output = execFileSync(
      process.execPath,
      [...START_NODE_FLAGS, '-e', 'process.stdout.write("started")'],
      { env: { ...process.env, ...START_ENV }, encoding: 'utf8' },
    );
    expect(output).toBe('started');
  });
});

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the floor server', () => {
  it('runs as npm start runs the product, and its checked ideal endpoint answers in the request’s language and writes the product’s request line', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kin-floor-'));
    const databaseFile = path.join(dir, 'floor.db');
    const db = new SQLite(databaseFile);
    db.exec('create table session (token text primary key, expiresAt text not null)');
    db.close();
    const spec: FloorSpec = {
      databaseFile,
      session: {
        sessionSql: 'select expiresAt from session where token = ?',
        secret: 'floor-test-secret-floor-test-secret-0123',
        tokenCookie: 'kin.session_token',
      },
      fixed: {},
      ideal: {
        probe: {
          kind: 'read',
          status: 200,
          statements: [{ sql: 'select 1 as one', parameters: [] }],
        },
      },
    };
    const specFile = path.join(dir, 'floor-spec.json');
    writeFileSync(specFile, JSON.stringify(spec));
    const logFile = path.join(dir, 'floor-server.log');
    const floor = await startFloorServer({
      specFile,
      port: await freePort(),
      logFile,
      cpuProfileDir: null,
      nodeFlags: null,
    });
    try {
      const commandLine = readFileSync(`/proc/${floor.pid}/cmdline`, 'utf8').split('\0');
      expect(commandLine).toEqual(expect.arrayContaining([...START_NODE_FLAGS]));
      const environment = readFileSync(`/proc/${floor.pid}/environ`, 'utf8').split('\0');
      // The allocator's settings are there (glibc drops from the variable the ones it does
      // not know: hugetlb before glibc 2.38).
      for (const name of Object.keys(START_ENV)) {
        expect(environment.some((entry) => entry.startsWith(`${name}=`))).toBe(true);
      }

      const answer = await fetch(`${floor.url}/api/checked/probe`);
      await answer.arrayBuffer();
      expect(answer.status).toBe(401);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      // In the request's language, as every answer of the product is.
      const spanish = await fetch(`${floor.url}/api/checked/probe`, {
        headers: { 'accept-language': 'es' },
      });
      expect(await spanish.json()).toEqual({ message: 'No autenticado' });
      await loggedRequests(logFile, ['/api/checked/probe']);
      // The bare ideal endpoint stays bare: no line of its own.
      await (await fetch(`${floor.url}/ideal/probe`)).arrayBuffer();
      await expect(loggedRequests(logFile, ['/ideal/probe'])).rejects.toThrow(/no request line/);
    } finally {
      await floor.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the memory of a process tree', () => {
  it('counts a page its processes share once: the proportional sum is below the resident one', async () => {
    const { spawn } = await import('node:child_process');
    // A child of this process: Node's binary mapped by both.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10_000)']);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const resident = treeRssOf(process.pid);
      const proportional = treePssOf(process.pid);
      expect(proportional).toBeGreaterThan(0);
      expect(proportional).toBeLessThan(resident);
    } finally {
      child.kill();
    }
  });
});
