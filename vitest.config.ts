import { globSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { firstScreenWords } from './scripts/first-screen-words-plugin.ts';

/**
 * Unit tests (shared rules, web pieces) and API tests against a real database: a fresh
 * SQLite file per test file, and, when TEST_DATABASE_URL is set, the very same API tests
 * again on a fresh PostgreSQL database per test file.
 */
const apiTests = ['src/server/**/*.test.ts'];
// The API test files share their worker's loaded modules (each still makes its own database
// and server): loading the app again for every file was a third of the run's time.
const isolate = false;
/**
 * API test files that never reach a database (PDF drawing, file readers, threads, FHIR
 * mappings): the same on either engine, so run once, in api-sqlite. A file is counted as
 * reaching one when it names anything that can open one, even in a comment: a file wrongly
 * counted runs twice, never zero times.
 */
const REACHES_A_DATABASE =
  /harness|server-process|kin-command|throwaway-postgres|createTestServer|openDatabase|testEngine|Kysely|database|\bdb\b/i;
/** The server's workers run as built, not from source (src/server/test/built-workers.ts). */
const BUILT_WORKERS = 'src/server/test/built-workers.ts';
const engineFreeTests = globSync(apiTests).filter(
  (file) => !REACHES_A_DATABASE.test(readFileSync(file, 'utf8')),
);

const projects: TestProjectInlineConfiguration[] = [
  {
    test: {
      name: 'unit',
      include: ['src/shared/**/*.test.ts', 'scripts/**/*.test.mjs', 'bench/**/*.test.ts'],
      environment: 'node',
    },
  },
  {
    // The app's build-made modules (lib/i18n.ts imports the first screens' words).
    plugins: [firstScreenWords({ webRoot: 'src/web' })],
    test: {
      name: 'web',
      include: ['src/web/**/*.test.{ts,tsx}'],
      environment: 'jsdom',
      // English through react-i18next, as the app speaks before a language is chosen.
      setupFiles: ['src/web/test-i18n.ts'],
    },
  },
  {
    test: {
      name: 'api-sqlite',
      include: apiTests,
      environment: 'node',
      env: { TEST_ENGINE: 'sqlite' },
      setupFiles: [BUILT_WORKERS],
      isolate,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
];

if (process.env.TEST_DATABASE_URL) {
  projects.push({
    test: {
      name: 'api-postgres',
      include: apiTests,
      exclude: [...configDefaults.exclude, ...engineFreeTests],
      environment: 'node',
      env: { TEST_ENGINE: 'postgres' },
      setupFiles: [BUILT_WORKERS],
      isolate,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  });
}

export default defineConfig({
  test: {
    projects,
    // The server and `npm run kin`'s command built once, for the tests that start them.
    globalSetup: ['src/server/test/built-server-setup.ts'],
    // Vitest's default is one worker fewer than the machine's cores: one on a 2-core machine,
    // which then ran one test file at a time (the whole run 229 s there; with two, 149 s).
    // Not three there: with the browser tests beside it, two documents tests failed
    // (decision 0071).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
