/**
 * The real server as its own process, for tests that kill it, stop it or run two of it: the
 * server built as `npm run build` builds it (test/built-server-setup.ts), configured by
 * environment like production.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { TEST_PASSCODE, testEngine } from './harness';
import { createThrowawayPostgres } from './throwaway-postgres';

export interface ServerProcess {
  url: string;
  process: ChildProcess;
  output: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const main = path.join(inject('builtServerDir'), 'main.js');
  const child = spawn(process.execPath, ['--enable-source-maps', main], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      FAMILY_PASSCODE: TEST_PASSCODE,
      AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      AUTH_RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const check = () => {
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout?.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before it started:\n${output}`));
    });
  });
  return { url, process: child, output: () => output, exited };
}

export async function stopServerProcess(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (server.process.exitCode === null && server.process.signalCode === null)
    server.process.kill(signal);
  return server.exited;
}

/** Where a server process keeps its data: a fresh DATA_DIR, and a fresh database on PostgreSQL. */
export async function createServerStorage(): Promise<{
  env: Record<string, string>;
  drop: () => Promise<void>;
}> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-process-'));
  const removeDataDir = async () => rmSync(dataDir, { recursive: true, force: true });
  if (testEngine() !== 'postgres') return { env: { DATA_DIR: dataDir }, drop: removeDataDir };
  const throwaway = await createThrowawayPostgres();
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: throwaway.url },
    drop: async () => {
      await throwaway.drop();
      await removeDataDir();
    },
  };
}
