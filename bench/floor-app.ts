/**
 * The floors' app (bench/floor-server.ts serves it; bench/request-cost-app.ts runs its checked
 * ideal endpoint in process, beside the product's app):
 *
 * - /fixed/{name}: the framework floor, a bare Hono route answering a fixed JSON body of the
 *   same size as the endpoint's answer;
 * - /ideal/{name}: the ideal endpoint, a bare Hono route that runs the endpoint's own SQL
 *   (taken from the product's query log) through prepared better-sqlite3 statements and
 *   returns the rows, with no session check, validation or query builder;
 * - /api/checked/{name}: the checked ideal endpoint, the same route with what every API
 *   answer of the product must do besides its own SQL: answer in the request's language,
 *   check the session (the product's cookie reading and signature check, its session row
 *   SQL, the session's expiry), record the client's address, send the product's security
 *   headers and write the request's log line (the product's own middleware and functions
 *   for each; under /api/ as the product's API answers are, so that they say no-store
 *   too). Reads only;
 * - POST /db-floor/{name}: the database floor, the same statements in a loop, timed here.
 *
 * This is the one place where raw SQL statements run: the product's queries go through
 * Kysely.
 */
import SQLite from 'better-sqlite3';
import type { Logger } from 'pino';
import { createPasswordHasher } from '../src/server/auth/password-hashing';
import { securityHeaders } from '../src/server/http/browser-protections';
import { recordClientIp } from '../src/server/http/client-ip';
import { singleCookie, verifiedToken } from '../src/server/http/session';
import { requestLog } from '../src/server/http/request-log';
import { requestLanguage } from '../src/server/i18n/server-language';
import { tr } from '../src/shared/i18n/translate';
import { NOT_AUTHENTICATED_MESSAGE } from '../src/shared/messages';
import { Hono } from 'hono';
import { v7 as uuidv7 } from 'uuid';
import type { FloorSpec, IdealSpec } from './floor-spec';
import { percentile } from './load';

/** The floors of `spec`, on its database; `logger` takes the checked ideal's log lines. */
export function floorApp(spec: FloorSpec, logger: Logger) {
  // The product's own connection settings: a write is synced to disk as the product's is.
  const sqlite = new SQLite(spec.databaseFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');

  type Params = unknown[];

  /** An endpoint's statements, prepared once, and how one request runs them. */
  function prepare(ideal: IdealSpec): () => unknown {
    const statements = ideal.statements.map((captured) => ({
      statement: sqlite.prepare(captured.sql),
      parameters: captured.parameters,
    }));

    if (ideal.kind === 'read') {
      return () => {
        const results = statements.map(({ statement, parameters }) => statement.all(...parameters));
        return results.length === 1 ? results[0] : results;
      };
    }

    if (ideal.kind === 'create') {
      const fresh = ideal.fresh;
      if (!fresh) throw new Error('a create needs the values that stand for its new id and time');
      return () => {
        const id = uuidv7();
        const now = new Date().toISOString();
        const substitute = (parameters: Params) =>
          parameters.map((value) => (value === fresh.id ? id : value === fresh.now ? now : value));
        let row: unknown;
        for (const { statement, parameters } of statements) {
          if (statement.reader) row = statement.get(...substitute(parameters));
          else statement.run(...substitute(parameters));
        }
        return row;
      };
    }

    // Sign-in: find the account, check the password and the passcode against their hashes,
    // and store a session; the hash checks are the work, as they are in the product.
    const signIn = ideal.signIn;
    const hasher = createPasswordHasher();
    const [findAccount, insertSession] = statements;
    if (!signIn || !findAccount || !insertSession) throw new Error('sign-in spec is incomplete');
    return async () => {
      const account = findAccount.statement.get(signIn.email) as
        | { id: string; email: string; name: string; password: string; family_passcode: string }
        | undefined;
      if (!account) throw new Error('no such account');
      const [passwordOk, passcodeOk] = await Promise.all([
        hasher.verify({ hash: account.password, password: signIn.password }),
        hasher.verify({ hash: account.family_passcode, password: signIn.passcode }),
      ]);
      if (!passwordOk || !passcodeOk) throw new Error('refused');
      const token = uuidv7();
      const now = new Date();
      insertSession.statement.run(
        uuidv7(),
        new Date(now.getTime() + 30 * 24 * 60 * 60 * 1000).toISOString(),
        token,
        now.toISOString(),
        now.toISOString(),
        account.id,
      );
      return { token, user: { id: account.id, email: account.email, name: account.name } };
    };
  }

  const app = new Hono();
  app.get('/health', (c) => c.json({ status: 'ok' }));

  for (const [name, fixed] of Object.entries(spec.fixed)) {
    app.on(['GET', 'POST'], `/fixed/${name}`, async (c) => {
      if (c.req.method === 'POST') await c.req.text();
      return c.body(fixed.body, fixed.status as 200, { 'content-type': 'application/json' });
    });
  }

  const sessionStatement = sqlite.prepare(spec.session.sessionSql);

  /** Whether the request's cookie is a correctly signed one of a live session. */
  function signedIn(cookies: string | undefined): boolean {
    const signed = cookies ? singleCookie(cookies, spec.session.tokenCookie) : null;
    const token = signed === null ? null : verifiedToken(signed, spec.session.secret);
    if (token === null) return false;
    const row = sessionStatement.get(token) as { expiresAt: string } | undefined;
    return row !== undefined && new Date(row.expiresAt).getTime() > Date.now();
  }

  // The product writes a line for every request it answers (at the default level, which the
  // benchmark runs it at), to its standard output; so does the checked ideal endpoint, with the
  // product's own middleware, to the same kind of sink (decision 87). Every answer of the
  // product is in the request's language, and every /api request has its client's address
  // recorded (rate limits and the audit log read it): the checked ideal endpoint does both,
  // with the product's own code (decision 89).
  app.use(
    '/api/checked/*',
    requestLanguage(),
    requestLog(logger, []),
    securityHeaders({ baseUrl: null, trustProxy: false }),
    (c, next) => {
      recordClientIp(c, false);
      return next();
    },
  );

  const runners = new Map<string, () => unknown>();
  for (const [name, ideal] of Object.entries(spec.ideal)) {
    const run = prepare(ideal);
    runners.set(name, run);
    const status = ideal.status as 200;
    if (ideal.kind === 'read') {
      app.get(`/ideal/${name}`, async (c) => c.json(await run(), status));
      app.get(`/api/checked/${name}`, async (c) =>
        signedIn(c.req.header('cookie'))
          ? c.json(await run(), status)
          : c.json({ message: tr(NOT_AUTHENTICATED_MESSAGE) }, 401),
      );
    } else {
      app.post(`/ideal/${name}`, async (c) => {
        await c.req.json();
        return c.json(await run(), status);
      });
    }
  }

  /** The database floor: the endpoint's statements back to back, with nothing around them. */
  app.post('/db-floor/:name', async (c) => {
    const run = runners.get(c.req.param('name'));
    if (!run) return c.json({ message: 'no such floor' }, 404);
    const { seconds } = await c.req.json<{ seconds: number }>();
    const durations: number[] = [];
    const started = performance.now();
    const until = started + seconds * 1000;
    while (performance.now() < until) {
      const before = performance.now();
      // Reads and creates are synchronous, as better-sqlite3 is; only sign-in awaits its hashes.
      const result = run();
      if (result instanceof Promise) await result;
      durations.push(performance.now() - before);
    }
    const elapsedSeconds = (performance.now() - started) / 1000;
    durations.sort((a, b) => a - b);
    return c.json({
      requestsPerSecond: durations.length / elapsedSeconds,
      p50Ms: percentile(durations, 0.5),
      p99Ms: percentile(durations, 0.99),
      requests: durations.length,
    });
  });

  return { app, close: () => sqlite.close() };
}
