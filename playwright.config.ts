import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium';
import { TEST_PASSCODE } from './src/server/test/test-passcode';

/**
 * Browser tests in Debian's Chromium against the production build, served by the product's
 * own `node dist/server/main.js` on a fresh data directory: on a phone-sized window, a
 * desktop one for the tests tagged @layout (their steps go through what the layout changes),
 * and, when TEST_DATABASE_URL is set,
 * the whole suite again on PostgreSQL.
 */
const port = Number(process.env.E2E_PORT ?? 4310);
const postgresPort = port + 1;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const phone = {
  ...devices['Desktop Chrome'],
  viewport: { width: 390, height: 844 },
  hasTouch: true,
};
const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } };

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 3,
  retries: 0,
  // Generous for the slower machines CI may run on: on a two-core AMD EPYC the suite took
  // three times as long as on the Xeon it was written on, and its longest tests (every
  // screen at one width, two accounts sharing a child) 70-100 s.
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    // The browser's language decides the app's (CONTRACT §6): the suite speaks English.
    locale: 'en-US',
    // As a person who asked their system for less motion: nothing on a screen is caught
    // halfway through a transition, and no frame is drawn for one (decision 0071).
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    { name: 'phone', use: { ...phone, baseURL: `http://localhost:${port}` } },
    {
      name: 'desktop',
      use: { ...desktop, baseURL: `http://localhost:${port}` },
      // The tests whose steps go through what the layout changes at a desk (the side bar,
      // lists beside records, forms and tables in columns, dialogs, scrolling, every screen
      // at three sizes), tagged @layout; what only renders the same answers in the same
      // order runs once, on the phone (decision 0071: the 15-minute CI).
      grep: /@layout/,
    },
    ...(onPostgres
      ? [
          {
            name: 'phone-postgres',
            use: { ...phone, baseURL: `http://localhost:${postgresPort}` },
            // The screens whose data the engine itself shapes beyond the API's JSON: the
            // measurements (numbers, units, percentiles), documents (their files are rows of
            // the database there), search (the engine's own full-text search) and sharing with
            // the household (the scopes' SQL). The API tests run every route on both engines
            // with exact answers, so the record forms and lists, the settings, the layout,
            // the names, sign-in and mail, which only render those answers, run once
            // (decision 0071: the 15-minute CI).
            testMatch: [
              'vitals.spec.ts',
              'lab-results.spec.ts',
              'growth.spec.ts',
              'documents.spec.ts',
              'search.spec.ts',
              'household.spec.ts',
            ],
          },
        ]
      : []),
  ],
  webServer: {
    command: 'npm run build && node --import tsx scripts/serve-e2e.ts',
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    // A SIGTERM, so that scripts/serve-e2e.ts drops its throwaway PostgreSQL databases and
    // stops its test servers (Playwright's default SIGKILL left the databases behind).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      FAMILY_PASSCODE: TEST_PASSCODE,
      AUTH_RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      // The stand-in ntfy servers and webhook receivers the specs start listen here.
      NOTIFY_ALLOWED_HOSTS: '127.0.0.1',
    },
  },
});
