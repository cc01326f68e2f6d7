/**
 * Where a worker thread's code is: built beside the server's bundle
 * (scripts/build-server.mjs), started with the server's own Node options (`npm start`'s
 * source maps), or its source when the server runs from source (tests, `npm run
 * dev:server`), loaded through tsx.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The worker `name` (`summary-pdf-worker`) beside the module at `from` (its import.meta.url). */
export function workerSource(from: string, name: string): { url: URL; execArgv?: string[] } {
  const built = new URL(`./${name}.js`, from);
  if (existsSync(fileURLToPath(built))) return { url: built };
  return { url: new URL(`./${name}.ts`, from), execArgv: ['--import', 'tsx'] };
}
