/**
 * `npm run bench`: builds (in the npm script), seeds a fresh database, starts the product
 * server and the floor server on loopback, measures every endpoint beside its floors in
 * rounds after a warm-up, measures the first screens in Chromium, then prints a table and
 * writes the same figures as JSON to bench/results/ (latest.json and one file per run).
 *
 * Ratios are the figures to quote: an endpoint and its floors are measured one right after
 * the other in each round (in alternating order from round to round), so whatever else the
 * machine is doing weighs on both alike.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../src/server/config';
import { SQLITE_FILE_NAME } from '../src/server/db/database';
import { createLogger } from '../src/server/logger';
import { createBackup } from '../src/server/operations/backup';
import { localToday } from '../src/shared/dates';
import { benchConfig, budgets, seedShape } from './config';
import { openCapture } from './capture-sql';
import type { FloorSpec } from './floor-spec';
import { buildDownloads, measureDownload, type DownloadResult } from './downloads';
import { runLoad, runSteady, type LoadRequest } from './load';
import { loggedRequests, startFloorServer, startProduct, type ServerProcess } from './processes';
import {
  checkBudgets,
  formatReport,
  summarise,
  VARIANTS,
  type BudgetCheck,
  type Measurement,
  type ScenarioRounds,
  type Variant,
} from './report';
import { buildScenarios, SIGN_IN_CONNECTIONS, signInStatements, type Scenario } from './scenarios';
import { BENCH_PASSWORD, seedDatabase, signUp, type BenchAccount, type SeededUser } from './seed';
import { recordDefinitions } from '../src/shared/records';
import { createShareLinkFor, measureFirstScreens } from './web';
import { IMPORT_SCENARIO, importChecks, runImportScenario } from './import-stall';
import { HEAVY_JOBS_SCENARIO, heavyJobsChecks, runHeavyJobsScenario } from './heavy-jobs';
import { measureReminderJob, REMINDER_JOB_SCENARIO, reminderJobChecks } from './reminder-job';

const progress = (message: string) => process.stderr.write(`${message}\n`);

/** Signs in through the product and returns the cookies it set. */
async function signIn(baseUrl: string, account: BenchAccount): Promise<Record<string, string>> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({
      email: account.email,
      password: account.password,
      passcode: benchConfig.passcode,
    }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return Object.fromEntries(
    response.headers.getSetCookie().map((cookie) => {
      const [pair = ''] = cookie.split(';');
      const separator = pair.indexOf('=');
      return [pair.slice(0, separator), pair.slice(separator + 1)];
    }),
  );
}

/** Where the floor server answers for each of its variants (bench/floor-server.ts). */
const FLOOR_PATHS: Record<Extract<Variant, 'ideal' | 'checkedIdeal' | 'framework'>, string> = {
  ideal: 'ideal',
  checkedIdeal: 'api/checked',
  framework: 'fixed',
};

const cookieHeader = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** The heavy user's person with the most records: the holder (no member) or a member. */
function busiestPerson(db: SQLite.Database, user: SeededUser): { id: string; records: number } {
  const counts = new Map<string, number>();
  for (const definition of recordDefinitions) {
    if (!definition.memberLinked) continue;
    const rows = db
      .prepare(
        `select family_member_id as member, count(*) as n from ${definition.table} where user_id = ? group by family_member_id`,
      )
      .all(user.id) as { member: string | null; n: number }[];
    for (const { member, n } of rows) {
      const person = member ?? user.id;
      counts.set(person, (counts.get(person) ?? 0) + n);
    }
  }
  const [id, records] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [user.id, 0];
  return { id, records };
}

async function main() {
  if (!existsSync('dist/server/main.js') || !existsSync('dist/web/index.html')) {
    throw new Error('The product is not built: run `npm run bench` (it builds first).');
  }
  mkdirSync(benchConfig.resultsDir, { recursive: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kin-bench-'));
  const databaseFile = path.join(dataDir, SQLITE_FILE_NAME);
  const servers: ServerProcess[] = [];
  const loadAverageBefore = os.loadavg();
  const startedAt = new Date();

  try {
    progress(`Fresh database in ${dataDir}: migrating, signing up two users for real…`);
    const setup = await startProduct({
      dataDir,
      port: benchConfig.productPort,
      passcode: benchConfig.passcode,
      cpuProfileDir: null,
      nodeFlags: benchConfig.nodeFlags,
    });
    const heavyAccount = await signUp(
      setup.url,
      { name: 'Maria Garcia', email: 'heavy@example.com', password: BENCH_PASSWORD },
      benchConfig.passcode,
    );
    const freshAccount = await signUp(
      setup.url,
      { name: 'Sam Lee', email: 'new@example.com', password: BENCH_PASSWORD },
      benchConfig.passcode,
    );
    await setup.stop();

    const seedStarted = performance.now();
    const seeded = seedDatabase(databaseFile, { heavy: heavyAccount, fresh: freshAccount });
    progress(
      `Seeded ${seeded.users} users in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    // Today's backup, made before the measured server starts: otherwise its catch-up backup
    // (a server with none makes one a minute after it starts) would fall inside a measurement.
    await createBackup({
      databaseFile,
      backupDir: path.join(dataDir, 'backups'),
      reason: 'manual',
      logger: createLogger('warn'),
    });

    const product = await startProduct({
      dataDir,
      port: benchConfig.productPort,
      passcode: benchConfig.passcode,
      cpuProfileDir: benchConfig.cpuProfileDir,
      nodeFlags: benchConfig.nodeFlags,
    });
    servers.push(product);
    await sleep(1000);
    const rssAtStart = product.rss();

    const heavyCookies = await signIn(product.url, seeded.heavy);
    const cookies = {
      heavy: cookieHeader(heavyCookies),
      new: cookieHeader(await signIn(product.url, seeded.fresh)),
    };
    const today = localToday();
    const scenarios = buildScenarios({
      heavy: seeded.heavy,
      today,
      passcode: benchConfig.passcode,
    });

    const maintenance = new SQLite(databaseFile);
    maintenance.pragma('busy_timeout = 5000');
    /** Takes away what a write measurement added, so every round reads the same data. */
    const removeWritesSince = (mark: string) => {
      maintenance.transaction(() => {
        maintenance
          .prepare('delete from visits where user_id = ? and created_at >= ?')
          .run(seeded.heavy.id, mark);
        maintenance
          .prepare('delete from "session" where "userId" = ? and "createdAt" >= ?')
          .run(seeded.heavy.id, mark);
      })();
    };

    const productRequest = (scenario: Scenario, user: 'heavy' | 'new' = 'heavy'): LoadRequest => ({
      url: product.url + scenario.path,
      method: scenario.method,
      headers: {
        ...(scenario.kind === 'sign-in' ? {} : { cookie: cookies[user] }),
        ...(scenario.method === 'POST'
          ? { 'content-type': 'application/json', origin: product.url }
          : {}),
      },
      body: scenario.body,
      expectedStatus: scenario.expectedStatus,
    });

    // Each endpoint's own answer: the framework floor sends a body of the same size back.
    const fixed: FloorSpec['fixed'] = {};
    const ideal: FloorSpec['ideal'] = {};
    const sampleMark = new Date().toISOString();
    for (const scenario of scenarios) {
      const request = productRequest(scenario);
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      const body = await response.text();
      if (response.status !== scenario.expectedStatus) {
        throw new Error(`${scenario.key}: ${response.status} ${body}`);
      }
      if (scenario.floors) fixed[scenario.key] = { status: response.status, body };
      if (scenario.newUser) {
        const asNew = productRequest(scenario, 'new');
        const check = await fetch(asNew.url, { headers: asNew.headers });
        if (check.status !== 200)
          throw new Error(`${scenario.key} as the new user: ${check.status}`);
        await check.arrayBuffer();
      }
    }
    removeWritesSince(sampleMark);

    const capture = openCapture(databaseFile);
    for (const scenario of scenarios) {
      if (!scenario.floors) continue;
      if (scenario.kind === 'sign-in') {
        ideal[scenario.key] = {
          kind: 'sign-in',
          status: 200,
          statements: signInStatements.map((sql) => ({ sql, parameters: [] })),
          signIn: {
            email: seeded.heavy.email,
            password: seeded.heavy.password,
            passcode: benchConfig.passcode,
          },
        };
      } else if (scenario.capture) {
        const { statements, result } = await capture.capture(scenario.capture, {
          rollBack: scenario.kind === 'create',
        });
        const created = result as { id: string; created_at: string };
        ideal[scenario.key] = {
          kind: scenario.kind,
          status: scenario.expectedStatus,
          statements,
          ...(scenario.kind === 'create'
            ? { fresh: { id: created.id, now: created.created_at } }
            : {}),
        };
      }
    }
    const tokenCookie = Object.keys(heavyCookies).find((name) => name.endsWith('.session_token'));
    if (!tokenCookie) throw new Error('sign-in set no session cookie');
    const spec: FloorSpec = {
      databaseFile,
      fixed,
      ideal,
      // The checked ideal endpoint checks sessions as the product does, with its key.
      session: {
        sessionSql: capture.sessionSql(),
        secret: loadConfig({ DATA_DIR: dataDir, FAMILY_PASSCODE: benchConfig.passcode }).authSecret,
        tokenCookie,
      },
    };
    await capture.close();
    const specFile = path.join(dataDir, 'floor-spec.json');
    writeFileSync(specFile, JSON.stringify(spec));

    const floorLog = path.join(dataDir, 'floor-server.log');
    const floor = await startFloorServer({
      specFile,
      port: benchConfig.floorPort,
      logFile: floorLog,
      cpuProfileDir: benchConfig.cpuProfileDir,
      nodeFlags: benchConfig.nodeFlags,
    });
    servers.push(floor);
    // The checked ideal endpoint must do its checks, or its figures would flatter it: it
    // answers the signed-in user as the product does, and refuses anyone else.
    const checkedPathOf = (scenario: Scenario) => `/${FLOOR_PATHS.checkedIdeal}/${scenario.key}`;
    const checkedReads = scenarios.filter((s) => s.floors && s.kind === 'read');
    for (const scenario of checkedReads) {
      const url = floor.url + checkedPathOf(scenario);
      const signedIn = await fetch(url, { headers: { cookie: cookies.heavy } });
      await signedIn.arrayBuffer();
      const anonymous = await fetch(url);
      await anonymous.arrayBuffer();
      const headers = signedIn.headers;
      if (
        signedIn.status !== 200 ||
        anonymous.status !== 401 ||
        headers.get('cache-control') !== 'no-store' ||
        !headers.get('content-security-policy')
      ) {
        throw new Error(
          `checked ideal endpoint of ${scenario.key}: ${signedIn.status} signed in, ` +
            `${anonymous.status} without a session, or without the product's headers`,
        );
      }
    }
    // …and writes each request's log line, as the product does.
    await loggedRequests(floorLog, checkedReads.map(checkedPathOf));
    const rssAtRest = product.rss();

    const measure = async (
      scenario: Scenario,
      variant: Variant,
      seconds: number,
    ): Promise<Measurement | undefined> => {
      if (variant === 'newUser' && !scenario.newUser) return undefined;
      if (variant === 'steady' || variant === 'steadyIdeal') {
        if (scenario.kind !== 'read') return undefined;
        const request =
          variant === 'steady'
            ? productRequest(scenario)
            : {
                ...productRequest(scenario),
                url: `${floor.url}/${FLOOR_PATHS.ideal}/${scenario.key}`,
              };
        return await runSteady(request, {
          rate: budgets.steadyRatePerSecond,
          seconds,
          server: variant === 'steady' ? product : floor,
        });
      }
      if (variant !== 'product' && variant !== 'newUser' && !scenario.floors) return undefined;
      if (variant === 'checkedIdeal' && scenario.kind !== 'read') return undefined;
      const mark = new Date().toISOString();
      try {
        if (variant === 'database') {
          if (scenario.kind === 'sign-in') return undefined;
          const response = await fetch(`${floor.url}/db-floor/${scenario.key}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ seconds }),
          });
          if (!response.ok)
            throw new Error(`database floor of ${scenario.key}: ${response.status}`);
          return (await response.json()) as Measurement;
        }
        const request =
          variant === 'product' || variant === 'newUser'
            ? productRequest(scenario, variant === 'newUser' ? 'new' : 'heavy')
            : {
                ...productRequest(scenario),
                url: `${floor.url}/${FLOOR_PATHS[variant]}/${scenario.key}`,
              };
        return await runLoad(request, {
          connections: scenario.connections ?? benchConfig.connections,
          seconds,
          server: variant === 'product' || variant === 'newUser' ? product : floor,
        });
      } finally {
        if (scenario.kind !== 'read') removeWritesSince(mark);
      }
    };

    const measured =
      benchConfig.only === 'web'
        ? []
        : scenarios.filter(
            (scenario) => !benchConfig.scenarios || benchConfig.scenarios.has(scenario.key),
          );
    progress(`Warm-up: ${benchConfig.warmupSeconds} s per target`);
    for (const scenario of measured) {
      for (const variant of VARIANTS) await measure(scenario, variant, benchConfig.warmupSeconds);
    }

    const results: ScenarioRounds[] = measured.map((scenario) => ({ scenario, rounds: [] }));
    let peakUnderLoad = 0;
    for (let round = 0; round < benchConfig.rounds; round += 1) {
      progress(`Round ${round + 1} of ${benchConfig.rounds}`);
      const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
      for (const entry of results) {
        const measured: Partial<Record<Variant, Measurement>> = {};
        for (const variant of order) {
          const result = await measure(entry.scenario, variant, benchConfig.durationSeconds);
          if (result) measured[variant] = result;
        }
        entry.rounds.push(measured);
        peakUnderLoad = Math.max(
          peakUnderLoad,
          measured.product?.peakRss ?? 0,
          measured.newUser?.peakRss ?? 0,
        );
        const p = measured.product;
        if (p) {
          progress(
            `  ${entry.scenario.label}: ${Math.round(p.requestsPerSecond)} req/s, p50 ${p.p50Ms.toFixed(1)} ms, p99 ${p.p99Ms.toFixed(1)} ms` +
              (measured.ideal
                ? `; ideal ${Math.round(measured.ideal.requestsPerSecond)} req/s`
                : ''),
          );
        }
      }
    }
    const rssAfterLoad = product.rss();
    const highWater = product.peakRss();

    const downloads: DownloadResult[] = [];
    if (benchConfig.only !== 'web') {
      const busiest = busiestPerson(maintenance, seeded.heavy);
      progress(`Downloads, for the heavy user's busiest person (${busiest.records} records)`);
      const personIds = [seeded.heavy.id, ...seeded.heavy.memberIds];
      const calendarLink = await fetch(`${product.url}/api/calendar-link`, {
        method: 'POST',
        headers: { cookie: cookies.heavy, origin: product.url, 'content-type': 'application/json' },
        body: JSON.stringify({ person_id: null }),
      });
      const { link } = (await calendarLink.json()) as { link: { url: string } };
      const calendarPath = new URL(link.url).pathname;
      // The household's grantee: every person of the heavy user's shared with them.
      const granteeAccount = await signUp(
        product.url,
        { name: 'Grace Kim', email: 'grantee@example.com', password: BENCH_PASSWORD },
        benchConfig.passcode,
      );
      const granteeCookie = cookieHeader(await signIn(product.url, granteeAccount));
      for (const personId of personIds) {
        const granted = await fetch(`${product.url}/api/household/grants`, {
          method: 'POST',
          headers: {
            cookie: cookies.heavy,
            origin: product.url,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ personId, email: granteeAccount.email, role: 'viewer' }),
        });
        if (granted.status !== 201) throw new Error(`grant: ${granted.status}`);
        // The grantee enters the grant's one-time code, as the owner passed it on.
        const { acceptanceCode } = (await granted.json()) as { acceptanceCode: string };
        const accepted = await fetch(`${product.url}/api/household/accept`, {
          method: 'POST',
          headers: {
            cookie: granteeCookie,
            origin: product.url,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ code: acceptanceCode }),
        });
        if (accepted.status !== 204) throw new Error(`accept: ${accepted.status}`);
      }
      const wanted = buildDownloads({ personIds, busiestId: busiest.id, today, calendarPath });
      for (const download of wanted) {
        if (benchConfig.scenarios && !benchConfig.scenarios.has(download.key)) continue;
        const cookie = download.asGrantee ? granteeCookie : cookies.heavy;
        const result = await measureDownload(product.url, cookie, download, product, 5);
        progress(`  ${result.label}: ${Math.round(result.ms)} ms`);
        downloads.push(result);
      }
    }

    // The import scenario: its own account, so that no other measurement reads its records.
    const imports: BudgetCheck[] = [];
    if (
      benchConfig.only !== 'web' &&
      (!benchConfig.scenarios || benchConfig.scenarios.has(IMPORT_SCENARIO))
    ) {
      progress('A 24 MB FHIR import, /api/health asked meanwhile');
      const result = await runImportScenario(product);
      progress(
        `  import: ${result.importSeconds.toFixed(1)} s; /api/health p99 ${result.healthP99Ms.toFixed(1)} ms`,
      );
      imports.push(...importChecks(result, 'SQLite'));
    }

    // The reminder job, in this process, on a database of its own (bench/reminder-job.ts).
    const reminderJob: BudgetCheck[] = [];
    if (
      benchConfig.only !== 'web' &&
      (!benchConfig.scenarios || benchConfig.scenarios.has(REMINDER_JOB_SCENARIO))
    ) {
      progress("The reminder job: one minute's work for 1,000 accounts");
      const reminderDir = path.join(dataDir, 'reminder-job');
      mkdirSync(reminderDir);
      reminderJob.push(...reminderJobChecks(await measureReminderJob(reminderDir)));
    }

    progress('First screens in Chromium');
    const screens =
      benchConfig.only === 'api'
        ? []
        : await measureFirstScreens({
            baseUrl: product.url.replace('127.0.0.1', 'localhost'),
            chromiumPath: benchConfig.chromiumPath,
            loads: benchConfig.pageLoads,
            cpuThrottlingRate: benchConfig.cpuThrottlingRate,
            signIn: () => signIn(product.url, seeded.heavy),
            viewerUrl: await createShareLinkFor({
              baseUrl: product.url.replace('127.0.0.1', 'localhost'),
              cookie: cookieHeader(await signIn(product.url, seeded.fresh)),
              personId: seeded.fresh.id,
            }),
          });
    maintenance.close();

    const summaries = summarise(results);
    const memory = {
      atStartBytes: rssAtStart,
      atRestBytes: rssAtRest,
      peakUnderLoadBytes: peakUnderLoad,
      afterLoadBytes: rssAfterLoad,
      highWaterBytes: highWater,
    };
    // Heavy jobs at once on a server of its own, started with its memory budget.
    const heavy: BudgetCheck[] = [];
    if (
      benchConfig.only !== 'web' &&
      (!benchConfig.scenarios || benchConfig.scenarios.has(HEAVY_JOBS_SCENARIO))
    ) {
      progress('Heavy jobs at once: an import, a scan read by OCR and a photo, at 512 MB');
      heavy.push(...heavyJobsChecks(await runHeavyJobsScenario(benchConfig.heavyJobsPort)));
    }

    const checks = [
      ...checkBudgets(summaries, screens, downloads),
      ...imports,
      ...reminderJob,
      ...heavy,
    ];
    const sqliteVersion = (() => {
      const db = new SQLite(':memory:');
      const version = (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
      db.close();
      return version;
    })();
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    const header = [
      `Kin Health benchmark, ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${git('rev-parse', '--short', 'HEAD')}`,
      `Machine: ${os.cpus().length} × ${cpu}, Node ${process.version}, SQLite ${sqliteVersion} (WAL, synchronous=FULL); load average before ${loadAverageBefore.map((v) => v.toFixed(2)).join(' ')}`,
      `Data: ${seeded.users.toLocaleString('en-US')} users; heavy user: ${seeded.heavy.memberIds.length} family members, ${Object.values(
        seeded.heavy.counts,
      )
        .reduce((a, b) => a + b, 0)
        .toLocaleString(
          'en-US',
        )} records; new user: ${Object.values(seeded.fresh.counts).reduce((a, b) => a + b, 0)} records from the last three months (a full first page in each list)`,
      `Load: autocannon in the orchestrating process (the servers each run in their own), ${benchConfig.connections} connections (sign-in: ${SIGN_IN_CONNECTIONS}), ${benchConfig.rounds} rounds × ${benchConfig.durationSeconds} s after a ${benchConfig.warmupSeconds} s warm-up; each read also at a steady, open-loop ${budgets.steadyRatePerSecond} req/s from a worker thread of its own (one request every ${1000 / budgets.steadyRatePerSecond} ms whatever the answers do, latency counted from when each was due). Figures are medians over the rounds; ratios are taken per round, side by side, then the median.`,
      `Sign-in rate limiting is off for this run (AUTH_RATE_LIMIT=off); by default each address may try 10 times a minute.`,
      `Floors: framework = a bare @hono/node-server route sending a fixed body of the endpoint's size; ideal = a bare Hono route running the endpoint's own SQL (from the product's query log) through prepared better-sqlite3 statements, no session check, validation or query builder (sign-in: the two hash checks, side by side, and the session insert); checked = the ideal endpoint with the product's session check (cookie signature, session row), security headers and request log line, which every API answer must have (reads: what their ratio budgets are held to; the bare ideal is reported beside it); db floor = the same statements in a loop. The floors run under npm start's V8 flags and allocator settings, as the product does.`,
    ];
    const report = formatReport({ header, summaries, memory, screens, downloads, checks });
    process.stdout.write(`\n${report}`);

    const json = {
      startedAt: startedAt.toISOString(),
      commit: git('rev-parse', 'HEAD'),
      machine: {
        cpus: os.cpus().length,
        cpu,
        node: process.version,
        sqlite: sqliteVersion,
        loadAverageBefore,
        loadAverageAfter: os.loadavg(),
      },
      settings: { ...benchConfig, seed: seedShape },
      loadGenerator: 'autocannon 8, in the orchestrating process; servers in their own processes',
      authRateLimit: 'off',
      endpoints: summaries,
      memory,
      web: screens,
      downloads,
      budgets: checks,
      rounds: results.map(({ scenario, rounds }) => ({ key: scenario.key, rounds })),
    };
    const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
    // A partial run (BENCH_ONLY, BENCH_SCENARIOS) or an experiment with other V8 flags
    // (BENCH_NODE_FLAGS) never replaces the full figures the README quotes.
    const names =
      benchConfig.only || benchConfig.scenarios || benchConfig.nodeFlags
        ? [`bench-${stamp}.json`]
        : [`bench-${stamp}.json`, 'latest.json'];
    for (const name of names) {
      writeFileSync(path.join(benchConfig.resultsDir, name), `${JSON.stringify(json, null, 2)}\n`);
    }
    progress(`Figures written to ${names.map((name) => `bench/results/${name}`).join(' and ')}`);
  } finally {
    for (const server of servers.reverse()) await server.stop();
    if (process.env.BENCH_KEEP_DATA) progress(`Data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 1;
});
