// Serves the built product for the browser tests: on PORT with a fresh SQLite data
// directory and, when TEST_DATABASE_URL is set, on PORT+1 with a fresh PostgreSQL database
// as well. The PostgreSQL one starts first, so that when PORT answers, both are up.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createThrowawayPostgres } from '../src/server/test/throwaway-postgres';

const port = Number(process.env.PORT ?? 4310);
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<unknown>> = [];

function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-e2e-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    stdio: 'inherit',
    env: { ...process.env, ...env, DATA_DIR: dataDir },
  });
  children.push(child);
  child.on('exit', (code) => shutdown(code ?? 0));
  return child;
}

async function waitForHealth(url: string) {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

let shuttingDown = false;
async function shutdown(code: number) {
  if (shuttingDown) return;
  shuttingDown = true;
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) =>
          child.exitCode !== null ? resolve() : child.on('exit', () => resolve()),
        ),
    ),
  );
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  process.exit(code);
}
process.on('SIGTERM', () => shutdown(0));
process.on('SIGINT', () => shutdown(0));

if (process.env.TEST_DATABASE_URL) {
  const throwaway = await createThrowawayPostgres(process.env.TEST_DATABASE_URL, 'kin_e2e');
  cleanups.push(throwaway.drop);
  start({ PORT: String(port + 1), DATABASE_URL: throwaway.url });
  await waitForHealth(`http://127.0.0.1:${port + 1}/api/health`);
}
start({ PORT: String(port), DATABASE_URL: '' });
