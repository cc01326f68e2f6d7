/**
 * Vitest's global set-up for the API tests: the server and the operator's command built once,
 * as `npm run build` builds the server, for the tests that start them as processes
 * (server-process.ts, kin-command.ts). Started from source through tsx, each process spent
 * about 1.5 s of CPU compiling before it did anything.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildServer } from '../../../scripts/build-server.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory holding main.js (the server) and cli.js (`npm run kin`'s command). */
    builtServerDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = path.resolve('dist', `test-server-${String(process.pid)}`);
  await (buildServer as (outdir: string) => Promise<void>)(dir);
  project.provide('builtServerDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
