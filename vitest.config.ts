import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Unit tests (shared rules, web pieces) and API tests against a real database: a fresh
 * SQLite file per test file, and, when TEST_DATABASE_URL is set, the very same API tests
 * again on a fresh PostgreSQL database per test file.
 */
const apiTests = ['src/server/**/*.test.ts'];

const projects = [
  {
    test: {
      name: 'unit',
      include: ['src/shared/**/*.test.ts', 'scripts/**/*.test.mjs', 'bench/**/*.test.ts'],
      environment: 'node',
    },
  },
  {
    test: {
      name: 'web',
      include: ['src/web/**/*.test.{ts,tsx}'],
      environment: 'jsdom',
    },
  },
  {
    test: {
      name: 'api-sqlite',
      include: apiTests,
      environment: 'node',
      env: { TEST_ENGINE: 'sqlite' },
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
      environment: 'node',
      env: { TEST_ENGINE: 'postgres' },
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  });
}

export default defineConfig({
  test: {
    projects,
    // Vitest's default is one worker fewer than the machine's cores: one on a 2-core machine,
    // which then ran one test file at a time (the whole run 229 s there; with two, 149 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
