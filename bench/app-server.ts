/**
 * The product's app served over a real socket in the bench's own process, on a database the
 * bench opened (SQLite or PostgreSQL), with one account signed up through it: for the
 * benches of one feature (bench/documents.ts, bench/search.ts) that measure requests as the
 * browser makes them without starting the whole server.
 */
import { DEFAULT_MEMORY_PLAN } from '../src/server/config/memory';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import webPush from 'web-push';
import { createApp } from '../src/server/app';
import { createAuth } from '../src/server/auth/auth';
import { settleFamilyPasscode } from '../src/server/auth/family-passcode';
import { createPasswordHasher } from '../src/server/auth/password-hashing';
import { parseBackupConfig, type AppConfig } from '../src/server/config';
import type { Database } from '../src/server/db/database';
import { createLogger } from '../src/server/logger';
import { TEST_PASSCODE } from '../src/server/test/test-passcode';

/**
 * The app's settings for a bench: a fixed passcode, hashing cheap enough for sign-ups not to
 * count, no mail, no backups taken, reminders' keys of its own made once per run.
 */
export function benchAppConfig(dataDir: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: null,
    familyPasscode: TEST_PASSCODE,
    familyPasscodeGenerated: false,
    familyPasscodeFrom: 'FAMILY_PASSCODE',
    authSecret: 'bench-app-secret-bench-app-secret-0123456789',
    baseUrl: null,
    trustProxy: false,
    rateLimit: null,
    passcodeGuessLimit: null,
    sessionMaxAgeDays: 30,
    auditRetentionDays: 365,
    passwordHashing: { memoryKiB: 1_024, iterations: 1, parallelism: 1 },
    logLevel: 'warn',
    webDir: `${dataDir}/no-web-app`,
    backup: parseBackupConfig({}, dataDir),
    vapid: { ...webPush.generateVAPIDKeys(), subject: 'mailto:bench@example.invalid' },
    pushEndpoints: 'public',
    notifyAllowedHosts: [],
    mail: null,
    smartProviders: [],
    connectionsDueCheckMs: 15 * 60 * 1000,
    passkeys: true,
    singleSignOn: null,
    documentQuotaMb: 2048,
    ocrLanguages: ['eng'],
    memory: DEFAULT_MEMORY_PLAN,
    ...overrides,
  };
}

export interface BenchApp {
  /** `http://127.0.0.1:PORT` */
  base: string;
  /** The signed-in account's cookie and the origin a write must come from. */
  headers: { cookie: string; origin: string };
  userId: string;
  /** Another account signed up: its cookie and origin. */
  signUp(name: string): Promise<{ cookie: string; origin: string }>;
  close(): Promise<void>;
}

export async function startBenchApp(
  database: Database,
  dataDir: string,
  name = 'Maria Garcia',
): Promise<BenchApp> {
  const config = benchAppConfig(dataDir);
  const logger = createLogger('warn');
  await settleFamilyPasscode(database.db, {
    passcode: config.familyPasscode,
    from: config.familyPasscodeFrom,
    hasher: createPasswordHasher(config.passwordHashing),
    logger,
  });
  const auth = createAuth({ db: database.db, engine: database.engine, config, logger });
  const app = createApp({ database, auth, config, logger });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(started),
    );
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signUp = async (name: string) => {
    const response = await fetch(`${base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({
        name,
        email: `${name.toLowerCase().replace(/\W+/g, '.')}.${crypto.randomUUID()}@example.com`,
        password: 'bench-password-123',
        passcode: TEST_PASSCODE,
      }),
    });
    if (response.status !== 200)
      throw new Error(`sign-up: ${response.status} ${await response.text()}`);
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const { user } = (await response.json()) as { user: { id: string } };
    return { cookie, origin: base, userId: user.id };
  };
  const { userId, ...headers } = await signUp(name);
  return {
    base,
    headers,
    userId,
    signUp: async (other) => {
      const { cookie, origin } = await signUp(other);
      return { cookie, origin };
    },
    close: async () => {
      server.close();
    },
  };
}
