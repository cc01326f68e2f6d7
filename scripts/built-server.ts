// The built product (`npm run build` first) on a port of its own with a throwaway data
// directory, for the scripts that walk it in a browser (screenshots.ts, family-journey.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_PASSCODE } from '../src/server/test/test-passcode';

export async function startBuiltServer(port: number) {
  const base = `http://localhost:${String(port)}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-walk-'));
  const server = spawn(process.execPath, ['dist/server/main.js'], {
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      FAMILY_PASSCODE: TEST_PASSCODE,
      AUTH_RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
    },
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.on('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i += 1) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { base, stop };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`the server did not start on ${base} (run npm run build first)`);
}
