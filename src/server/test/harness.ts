/**
 * A real server for API tests: the product's own app, migrations and auth, on a fresh
 * database of the engine under test (a SQLite file, or a PostgreSQL database made for the
 * test file and dropped after it). Requests go in-process through the app's fetch handler.
 *
 * Every statement a request sends is checked for its owner condition (sql-ownership.ts);
 * closing the server fails the test file if any statement reached user data without one.
 * What a test itself reads or writes to look at the data is not checked.
 */
import { DEFAULT_MEMORY_PLAN, type MemoryPlan } from '../config/memory';
import type { HeavyJobs } from '../runtime/heavy-jobs';
import type { SmartProvider } from '../connections/smart-providers';
import type { PushEndpointPolicy } from '../reminders/push-endpoints';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import webPush from 'web-push';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../app';
import { createAuth } from '../auth/auth';
import { settleFamilyPasscode } from '../auth/family-passcode';
import { createPasswordHasher, type HashCost } from '../auth/password-hashing';
import {
  parseBackupConfig,
  type AppConfig,
  type MailConfig,
  type RateLimitConfig,
  type SingleSignOnConfig,
} from '../config';
import { openPostgres, openSqlite, type Database } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import type { Engine } from '../db/schema';
import { createLogger, type Logger } from '../logger';
import { checkPreparedQueriesOnEveryCall } from '../db/prepared-query';
import { ownershipRecorder } from './sql-ownership';
import { TEST_PASSCODE } from './test-passcode';
import { createMailOutbox, createMailSender } from '../mail/mail-queue';
import { resetMailPreparer } from '../auth/password-reset-mail';
import { createThrowawayPostgres } from './throwaway-postgres';
import { createNotificationChannels } from '../notifications/notification-queue';

export { TEST_PASSCODE };

// Every call of every prepared query checks that its SQL does not depend on its values.
checkPreparedQueriesOnEveryCall(true);
export const TEST_ORIGIN = 'http://localhost:3000';

export function testEngine(): Engine {
  return process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
}

/** A user row put straight into a test database (no sign-up), for tests below the API. */
export async function insertTestUser(
  database: Database,
  user: { id: string; name: string; email: string },
) {
  const now = new Date().toISOString();
  const verified = database.engine === 'postgres' ? false : 0;
  await sql`insert into "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt")
    values (${user.id}, ${user.name}, ${user.email}, ${verified}, ${now}, ${now})`.execute(
    database.db,
  );
}

/**
 * A fresh database of the engine under test, migrated unless told not to (a migration's own
 * test runs the migrations itself), and how to throw it away.
 */
export async function createTestDatabase(
  options: { migrate?: boolean; onStatement?: (sql: string) => void } = {},
): Promise<{
  database: Database;
  drop: () => Promise<void>;
}> {
  const migrate = options.migrate ?? true;
  const open = { onStatement: options.onStatement };
  if (testEngine() === 'postgres') {
    const throwaway = await createThrowawayPostgres();
    const database = openPostgres(throwaway.url, 5, open);
    if (migrate) await migrateToLatest(database.db);
    return {
      database,
      drop: async () => {
        await database.close();
        await throwaway.drop();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'kin-test-'));
  const database = openSqlite(path.join(dir, 'test.db'), open);
  if (migrate) await migrateToLatest(database.db);
  return {
    database,
    drop: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The server's log lines that match `pattern`, kept to be said when an assertion fails
 * (`useTestServer({ logs })`, then `expect(value, lines.said()).…`).
 */
export function logLines(pattern: RegExp) {
  const lines: string[] = [];
  return {
    write: (line: string) => {
      if (pattern.test(line)) lines.push(line);
    },
    said: () => lines.join('\n'),
  };
}

/** The log lines that say why a document was kept without its thumbnail or display copy. */
export const documentCopiesUnmade = () => logLines(/without its thumbnail or display copy/);

export interface TestServerOptions {
  rateLimit?: RateLimitConfig | null;
  /** The server-wide limit on wrong passcodes (default: off, as every other limit). */
  passcodeGuessLimit?: RateLimitConfig | null;
  /** Where the server's logs go (default: nowhere). */
  logs?: { write(line: string): void };
  passwordHashing?: HashCost;
  pushEndpoints?: PushEndpointPolicy;
  /** NOTIFY_ALLOWED_HOSTS (default: none). */
  notifyAllowedHosts?: string[];
  /** As BASE_URL and TRUST_PROXY set them (default: neither). */
  baseUrl?: string;
  trustProxy?: boolean;
  /** As PASSKEYS sets it (default: on). */
  passkeys?: boolean;
  sessionMaxAgeDays?: number;
  /** A built web app to serve (default: none, and every page answers 503). */
  webDir?: string;
  /** Mail through a test SMTP server (test/smtp-server.ts); default: mail is not set up. */
  mail?: MailConfig;
  /** Single sign-on with a test OpenID Provider (test/openid-provider.ts); default: off. */
  singleSignOn?: SingleSignOnConfig;
  /** DOCUMENT_QUOTA_MB (default 2048). */
  documentQuotaMb?: number;
  /** Patient portals (test/smart-server.ts); default: none. */
  smartProviders?: SmartProvider[];
  /** How often the portals' daily sync looks for connections due (default 15 minutes). */
  connectionsDueCheckMs?: number;
  /** Where heavy work waits its turn (default: the app's own, one at a time as at 512 MB). */
  heavyJobs?: HeavyJobs;
  /** What KIN_MEMORY_MB gives each part (default: the default budget's plan). */
  memory?: MemoryPlan;
}

/**
 * The tests sign up hundreds of users: hashing each password and passcode at the product's
 * cost would take minutes. A test of the hashing itself asks for DEFAULT_HASH_COST.
 */
export const TEST_HASH_COST: HashCost = { memoryKiB: 1_024, iterations: 1, parallelism: 1 };

/** One key pair for every test server (making one is quick, but there is no need). */
export const TEST_VAPID_KEYS = webPush.generateVAPIDKeys();

export function testConfig(options: TestServerOptions = {}): AppConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: tmpdir(),
    databaseUrl: null,
    familyPasscode: TEST_PASSCODE,
    familyPasscodeFrom: 'FAMILY_PASSCODE',
    familyPasscodeGenerated: false,
    authSecret: 'test-secret-test-secret-test-secret-0123456789',
    baseUrl: options.baseUrl ?? null,
    trustProxy: options.trustProxy ?? false,
    passkeys: options.passkeys ?? true,
    rateLimit: options.rateLimit ?? null,
    passcodeGuessLimit: options.passcodeGuessLimit ?? null,
    sessionMaxAgeDays: options.sessionMaxAgeDays ?? 30,
    auditRetentionDays: 365,
    passwordHashing: options.passwordHashing ?? TEST_HASH_COST,
    logLevel: 'silent',
    webDir: options.webDir ?? path.join(tmpdir(), 'kin-no-web-app'),
    backup: parseBackupConfig({}, tmpdir()),
    vapid: { ...TEST_VAPID_KEYS, subject: 'mailto:test@example.invalid' },
    // The tests' push service listens on 127.0.0.1 over http (push-endpoints.ts).
    pushEndpoints: options.pushEndpoints ?? 'any',
    notifyAllowedHosts: options.notifyAllowedHosts ?? [],
    mail: options.mail ?? null,
    singleSignOn: options.singleSignOn ?? null,
    smartProviders: options.smartProviders ?? [],
    connectionsDueCheckMs: options.connectionsDueCheckMs ?? 15 * 60 * 1000,
    documentQuotaMb: options.documentQuotaMb ?? 2048,
    ocrLanguages: ['eng'],
    memory: options.memory ?? DEFAULT_MEMORY_PLAN,
  };
}

/** As a start does before it serves: the configured passcode becomes the server's. */
export async function settleConfiguredPasscode(
  database: Database,
  config: AppConfig,
  logger: Logger,
): Promise<void> {
  await settleFamilyPasscode(database.db, {
    passcode: config.familyPasscode,
    from: config.familyPasscodeFrom,
    hasher: createPasswordHasher(config.passwordHashing),
    logger,
  });
}

export async function createTestServer(options: TestServerOptions = {}) {
  // Statements sent while the app answers a request are checked; a test's own are not.
  const inRequest = new AsyncLocalStorage<true>();
  const ownership = ownershipRecorder();
  const { database, drop } = await createTestDatabase({
    onStatement: (sql) => {
      if (inRequest.getStore()) ownership.record(sql);
    },
  });
  const config = testConfig(options);
  const logger = options.logs
    ? createLogger('debug', { write: (line: string) => options.logs?.write(line) })
    : createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  await settleConfiguredPasscode(database, config, logger);
  const outbox = createMailOutbox(database.db, config.mail !== null);
  const auth = createAuth({ db: database.db, engine: database.engine, config, logger, outbox });
  const app = createApp({ database, auth, config, logger, outbox, heavyJobs: options.heavyJobs });
  const fetch = (request: Request) => inRequest.run(true, () => app.fetch(request));
  const baseUrl = config.baseUrl ?? TEST_ORIGIN;
  // Not started: a test sends what is queued when it chooses (`mailSender.runOnce()`).
  const mailSender = config.mail
    ? createMailSender({
        db: database.db,
        outbox,
        mail: config.mail,
        baseUrl,
        logger,
        prepare: { 'password-reset': resetMailPreparer(auth, baseUrl) },
      })
    : null;
  // The account's ntfy topics and webhooks: queued by a test's reminder job, sent when the
  // test chooses (`notificationSender.runOnce()`).
  const { outbox: notifications, sender: notificationSender } = createNotificationChannels({
    db: database.db,
    authSecret: config.authSecret,
    allowedHosts: config.notifyAllowedHosts,
    baseUrl: config.baseUrl,
    logger,
  });
  return {
    outbox,
    mailSender,
    notifications,
    notificationSender,
    app,
    database,
    db: database.db,
    auth,
    /** The app's answer to a request, as a browser would get it. */
    fetch,
    client: () => new TestClient(fetch),
    close: async () => {
      await drop();
      ownership.assertNone();
    },
  };
}

/** A test server for the whole file: started before its tests, closed (and checked) after. */
export function useTestServer(options: TestServerOptions = {}): TestServer {
  let current: TestServer | undefined;
  beforeAll(async () => {
    current = await createTestServer(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as TestServer, {
    get: (_target, key) => {
      if (!current) throw new Error('The test server starts in beforeAll');
      return Reflect.get(current, key);
    },
  });
}

export type TestServer = Awaited<ReturnType<typeof createTestServer>>;

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

let emailCounter = 0;
export function uniqueEmail(prefix = 'user'): string {
  emailCounter += 1;
  return `${prefix}-${Date.now().toString(36)}-${emailCounter}@example.com`;
}

type FetchHandler = (request: Request) => Response | Promise<Response>;

/**
 * A browser-like client: keeps its cookies, sends its origin. In process, through the app's
 * fetch handler, or over HTTP to a server process (`TestClient.over(url)`).
 */
export class TestClient {
  private cookies = new Map<string, string>();
  private extraHeaders: Record<string, string> = {};

  constructor(
    private readonly fetchHandler: FetchHandler,
    readonly origin: string = TEST_ORIGIN,
  ) {}

  /** A client of a server listening at `url`. */
  static over(url: string): TestClient {
    return new TestClient((request) => fetch(request), url);
  }

  /** The same browser, session and all, against another server (another instance). */
  against(url: string): TestClient {
    const client = TestClient.over(url);
    client.cookies = new Map(this.cookies);
    return client;
  }

  get cookieHeader(): string {
    return [...this.cookies.entries()].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TestResponse<T>> {
    const init: RequestInit = {
      method,
      headers: {
        host: new URL(this.origin).host,
        origin: this.origin,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
        ...this.extraHeaders,
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    };
    const response = await this.fetchHandler(new Request(`${this.origin}${path}`, init));
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      if (/max-age=0/i.test(cookie) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: the raw text is the body.
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  /** Sends bytes as the request's body (an upload), with the headers given. */
  async sendBytes<T = unknown>(
    method: string,
    path: string,
    bytes: Uint8Array,
    headers: Record<string, string> = {},
  ): Promise<TestResponse<T>> {
    const response = await this.fetchHandler(
      new Request(`${this.origin}${path}`, {
        method,
        headers: {
          host: new URL(this.origin).host,
          origin: this.origin,
          'content-type': 'application/octet-stream',
          'content-length': String(bytes.byteLength),
          ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
          ...this.extraHeaders,
          ...headers,
        },
        body: bytes as BodyInit,
      }),
    );
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: the raw text is the body.
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  /** A file's answer as bytes, with its headers. */
  async getBytes(path: string, headers: Record<string, string> = {}) {
    const response = await this.fetchHandler(
      new Request(`${this.origin}${path}`, {
        headers: {
          host: new URL(this.origin).host,
          origin: this.origin,
          ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
          ...headers,
        },
      }),
    );
    return {
      status: response.status,
      headers: response.headers,
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  put<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body ?? {});
  }
  patch<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, body ?? {});
  }
  delete<T = unknown>(path: string) {
    return this.request<T>('DELETE', path);
  }

  signUp(input: { name?: string; email?: string; password?: string; passcode?: string } = {}) {
    return this.post('/api/auth/sign-up/email', {
      name: input.name ?? 'Test User',
      email: input.email ?? uniqueEmail(),
      password: input.password ?? 'secret-password',
      passcode: input.passcode ?? TEST_PASSCODE,
    });
  }

  signIn(input: { email: string; password: string; passcode?: string }) {
    return this.post('/api/auth/sign-in/email', { passcode: TEST_PASSCODE, ...input });
  }

  signOut() {
    return this.post('/api/auth/sign-out', {});
  }

  forgetCookies() {
    this.cookies.clear();
  }

  /** Sends these headers (a user agent, say) with every later request. */
  withHeaders(headers: Record<string, string>): this {
    this.extraHeaders = { ...this.extraHeaders, ...headers };
    return this;
  }
}

/** A signed-up, signed-in client. */
export async function signedUpClient(server: TestServer, name = 'Test User') {
  const client = server.client();
  const email = uniqueEmail();
  const response = await client.signUp({ name, email });
  if (response.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(response.body)}`);
  return { client, email, password: 'secret-password' };
}
