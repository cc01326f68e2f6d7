/**
 * Where a worker thread's code is: built beside the server's bundle
 * (scripts/build-server.mjs), started with the server's own Node options (`npm start`'s
 * source maps), or its source when the server runs from source (`npm run dev:server`),
 * loaded through tsx. The API tests run the server from source but its workers as built
 * (`useBuiltWorkers`): through tsx, the documents process spent 11 s of CPU and 100 MB of
 * its 192 MB heap compiling pdf.js before its first job, against 3 s and 17 MB built, and
 * now and then ran out of heap doing it (decision 0082).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The directory of a build of the server whose workers run in place of their source. */
let builtWorkers: string | undefined;

/** Runs the workers built into `dir` (the tests' build of the server) rather than their source. */
export function useBuiltWorkers(dir: string): void {
  builtWorkers = dir;
}

/** The worker `name` (`summary-pdf-worker`) beside the module at `from` (its import.meta.url). */
export function workerSource(from: string, name: string): { url: URL; execArgv?: string[] } {
  const beside = new URL(`./${name}.js`, from);
  if (existsSync(fileURLToPath(beside))) return { url: beside };
  const built = builtWorkers && path.join(builtWorkers, `${name}.js`);
  if (built && existsSync(built)) return { url: pathToFileURL(built) };
  return { url: new URL(`./${name}.ts`, from), execArgv: ['--import', 'tsx'] };
}
