/**
 * A real server for API tests: the product's own app, migrations and auth, on a fresh
 * database of the engine under test (a SQLite file, or a PostgreSQL database made for the
 * test file and dropped after it). Requests go in-process through the app's fetch handler.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createApp } from '../app';
import { createAuth } from '../auth/auth';
import type { HashCost } from '../auth/password-hashing';
import { parseBackupConfig, type AppConfig, type RateLimitConfig } from '../config';
import { openPostgres, openSqlite, type Database } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import type { Engine } from '../db/schema';
import { createLogger } from '../logger';

export const TEST_PASSCODE = '246810';
export const TEST_ORIGIN = 'http://localhost:3000';

export function testEngine(): Engine {
  return process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
}

function postgresUrl(database: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A fresh database of the engine under test, migrated unless told not to (a migration's own
 * test runs the migrations itself), and how to throw it away.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<{
  database: Database;
  drop: () => Promise<void>;
}> {
  const migrate = options.migrate ?? true;
  if (testEngine() === 'postgres') {
    const name = `kin_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const database = openPostgres(postgresUrl(name), 5);
    if (migrate) await migrateToLatest(database.db);
    return {
      database,
      drop: async () => {
        await database.close();
        const cleaner = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await cleaner.connect();
        await cleaner.query(`drop database if exists ${name} with (force)`);
        await cleaner.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'kin-test-'));
  const database = openSqlite(path.join(dir, 'test.db'));
  if (migrate) await migrateToLatest(database.db);
  return {
    database,
    drop: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestServerOptions {
  rateLimit?: RateLimitConfig | null;
  /** Where the server's logs go (default: nowhere). */
  logs?: { write(line: string): void };
  passwordHashing?: HashCost;
  /** As BASE_URL and TRUST_PROXY set them (default: neither). */
  baseUrl?: string;
  trustProxy?: boolean;
}

/**
 * The tests sign up hundreds of users: hashing each password and passcode at the product's
 * cost would take minutes. A test of the hashing itself asks for DEFAULT_HASH_COST.
 */
export const TEST_HASH_COST: HashCost = { memoryKiB: 1_024, iterations: 1, parallelism: 1 };

export function testConfig(options: TestServerOptions = {}): AppConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: tmpdir(),
    databaseUrl: null,
    familyPasscode: TEST_PASSCODE,
    familyPasscodeGenerated: false,
    authSecret: 'test-secret-test-secret-test-secret-0123456789',
    baseUrl: options.baseUrl ?? null,
    trustProxy: options.trustProxy ?? false,
    rateLimit: options.rateLimit ?? null,
    passwordHashing: options.passwordHashing ?? TEST_HASH_COST,
    logLevel: 'silent',
    webDir: path.join(tmpdir(), 'kin-no-web-app'),
    backup: parseBackupConfig({}, tmpdir()),
  };
}

export async function createTestServer(options: TestServerOptions = {}) {
  const { database, drop } = await createTestDatabase();
  const config = testConfig(options);
  const logger = options.logs
    ? createLogger('debug', { write: (line: string) => options.logs?.write(line) })
    : createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const auth = createAuth({ db: database.db, engine: database.engine, config, logger });
  const app = createApp({ database, auth, config, logger });
  return {
    app,
    database,
    db: database.db,
    auth,
    client: () => new TestClient(app.fetch),
    close: drop,
  };
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

/** A browser-like client: keeps its cookies, sends its origin. */
export class TestClient {
  private cookies = new Map<string, string>();
  private extraHeaders: Record<string, string> = {};

  constructor(private readonly fetchHandler: (request: Request) => Response | Promise<Response>) {}

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
        host: new URL(TEST_ORIGIN).host,
        origin: TEST_ORIGIN,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
        ...this.extraHeaders,
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    };
    const response = await this.fetchHandler(new Request(`${TEST_ORIGIN}${path}`, init));
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

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  put<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body ?? {});
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
