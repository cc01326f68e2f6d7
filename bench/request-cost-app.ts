/**
 * The measured side of `npm run bench:rewrites` (bench/request-cost.ts bundles it, as the
 * server is bundled for `npm start`, and runs the bundle). The product's app answers the
 * heavy user's timeline and one of their visits through `app.request()`, in process: no
 * socket, no load generator, one request at a time.
 *
 *   --seed       seeds the benchmark's data (bench/seed.ts) afresh into BENCH_DATA_DIR
 *   --measure    warms up, then prints the CPU time of each read, per request, in rounds
 *                (--warm-up-rounds 6, --rounds 15, --requests 500 of each read per round)
 *   --markers    around each measured block, calls os.loadavg() and os.uptime(): callgrind
 *                zeroes its counts at the first and writes them out at the second
 *   --reads      which reads, by their names below (timeline,visit by default; the lists'
 *                first pages too: visits-upcoming, visits-past, medications), for a profile
 *                (`node --cpu-prof`) of one of them
 *   --ideal      measures the checked ideal endpoint of the same reads instead
 *                (bench/floor-app.ts, on the same data, with the SQL the seed captured
 *                from the product's repositories as the benchmark does): the two side by
 *                side say what the product does beyond it, with no socket in between
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, uptime } from 'node:os';
import path from 'node:path';
import { destination } from 'pino';
import { createApp } from '../src/server/app';
import { createAuth } from '../src/server/auth/auth';
import { settleFamilyPasscode } from '../src/server/auth/family-passcode';
import { createPasswordHasher } from '../src/server/auth/password-hashing';
import { openSqlite } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';
import { createLogger } from '../src/server/logger';
import { localToday } from '../src/shared/dates';
import { TEST_PASSCODE } from '../src/server/test/test-passcode';
import { benchAppConfig } from './app-server';
import { openCapture } from './capture-sql';
import { floorApp } from './floor-app';
import type { FloorSpec } from './floor-spec';
import { buildScenarios, type Scenario } from './scenarios';
import { BENCH_PASSWORD, seedDatabase, type BenchAccount } from './seed';

function dataDirectory(): string {
  const dir = process.env.BENCH_DATA_DIR;
  if (!dir) throw new Error('BENCH_DATA_DIR must name the data directory');
  return dir;
}
const dataDir = dataDirectory();
const file = path.join(dataDir, 'kin-health.db');
const seededFile = path.join(dataDir, 'seeded.json');
const specFile = path.join(dataDir, 'floor-spec.json');
/** The checked ideal endpoint's name of each read (bench/scenarios.ts). */
const IDEAL_KEYS = {
  timeline: 'timeline',
  visit: 'visit-detail',
  'visits-upcoming': 'visits-upcoming',
  'visits-past': 'visits-past',
  medications: 'medications',
} as const;
type Read = keyof typeof IDEAL_KEYS;

const config = benchAppConfig(dataDir, {
  authSecret: 'request-cost-secret-request-cost-secret-0123',
  // The default level: a line per request (written to /dev/null by openApp).
  logLevel: 'info',
});

// The default level: a line per request, written to /dev/null.
const nullLogger = () => createLogger('info', destination({ dest: '/dev/null', sync: true }));

function openApp() {
  const database = openSqlite(file);
  const logger = nullLogger();
  const auth = createAuth({ db: database.db, engine: database.engine, config, logger });
  return { database, app: createApp({ database, auth, config, logger }) };
}

interface Seeded {
  cookie: string;
  /** The product's path of each read. */
  paths: Record<Read, string>;
}

async function seed() {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const { database, app } = openApp();
  await migrateToLatest(database.db);
  // As a start does before it serves: the configured passcode becomes the server's.
  await settleFamilyPasscode(database.db, {
    passcode: config.familyPasscode,
    from: config.familyPasscodeFrom,
    hasher: createPasswordHasher(config.passwordHashing),
    logger: createLogger('warn'),
  });
  const cookies: string[] = [];
  const signUp = async (name: string, email: string): Promise<BenchAccount> => {
    const response = await app.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        host: 'localhost',
        origin: 'http://localhost',
      },
      body: JSON.stringify({ name, email, password: BENCH_PASSWORD, passcode: TEST_PASSCODE }),
    });
    if (!response.ok) throw new Error(`sign-up: ${response.status} ${await response.text()}`);
    cookies.push(
      response.headers
        .getSetCookie()
        .map((cookie) => cookie.split(';')[0])
        .join('; '),
    );
    const body = (await response.json()) as { user: { id: string } };
    return { id: body.user.id, name, email, password: BENCH_PASSWORD };
  };
  const heavy = await signUp('Maria Garcia', 'heavy@example.com');
  const fresh = await signUp('Sam Lee', 'new@example.com');
  await database.close();
  const seeded = seedDatabase(file, { heavy, fresh });
  const scenarios = buildScenarios({
    heavy: seeded.heavy,
    today: localToday(),
    passcode: TEST_PASSCODE,
  });
  const scenarioOf = (read: Read) => {
    const scenario = scenarios.find((candidate) => candidate.key === IDEAL_KEYS[read]);
    if (!scenario) throw new Error(`no read ${read} among the scenarios`);
    return scenario;
  };
  const reads = Object.keys(IDEAL_KEYS) as Read[];
  const result: Seeded = {
    cookie: cookies[0] ?? '',
    paths: Object.fromEntries(
      reads.map((read) => [read, scenarioOf(read).path]),
    ) as Seeded['paths'],
  };
  writeFileSync(seededFile, JSON.stringify(result));
  writeFileSync(specFile, JSON.stringify(await idealSpec(reads.map(scenarioOf), result.cookie)));
}

/** The checked ideal endpoint's spec for the reads, captured as the benchmark does. */
async function idealSpec(scenarios: Scenario[], cookie: string): Promise<FloorSpec> {
  const capture = openCapture(file);
  const ideal: FloorSpec['ideal'] = {};
  for (const scenario of scenarios) {
    if (!scenario.capture) throw new Error(`no read ${scenario.key} to capture`);
    const { statements } = await capture.capture(scenario.capture);
    ideal[scenario.key] = { kind: 'read', status: 200, statements };
  }
  const tokenCookie = cookie
    .split('; ')
    .map((pair) => pair.split('=')[0] ?? '')
    .find((name) => name.endsWith('.session_token'));
  if (!tokenCookie) throw new Error('sign-up set no session cookie');
  const sessionSql = capture.sessionSql();
  await capture.close();
  return {
    databaseFile: file,
    fixed: {},
    ideal,
    session: { sessionSql, secret: config.authSecret, tokenCookie },
  };
}

const option = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};

/** The reads `--reads` names (the timeline and one visit by default). */
function readsAsked(): Read[] {
  const index = process.argv.indexOf('--reads');
  const names = index === -1 ? ['timeline', 'visit'] : (process.argv[index + 1] ?? '').split(',');
  for (const name of names) {
    if (!(name in IDEAL_KEYS)) throw new Error(`--reads: no read named ${name}`);
  }
  return names as Read[];
}

/** The app that answers, and the path of each read. */
function measured(ideal: boolean, seeded: Seeded, asked: Read[]) {
  if (ideal) {
    const spec = JSON.parse(readFileSync(specFile, 'utf8')) as FloorSpec;
    const { app, close } = floorApp(spec, nullLogger());
    const reads = asked.map((read) => [read, `/api/checked/${IDEAL_KEYS[read]}`] as const);
    return { app, reads, close: async () => close() };
  }
  const { app, database } = openApp();
  const reads = asked.map((read) => [read, seeded.paths[read]] as const);
  return { app, reads, close: () => database.close() };
}

async function measure(markers: boolean, ideal: boolean) {
  const seeded = JSON.parse(readFileSync(seededFile, 'utf8')) as Seeded;
  const { app, reads, close } = measured(ideal, seeded, readsAsked());
  // As a browser sends them (better-auth's own session check needs the host).
  const headers = { cookie: seeded.cookie, host: 'localhost' };
  // What @hono/node-server hands the app with each request: without a socket to read the
  // client's address from, reading it would throw (and be caught) on every request.
  const server = { incoming: { socket: { remoteAddress: '127.0.0.1', remoteFamily: 'IPv4' } } };
  const run = async (url: string, count: number) => {
    for (let n = 0; n < count; n += 1) {
      const response = await app.request(url, { headers }, server);
      if (response.status !== 200) {
        throw new Error(`${url}: ${response.status} ${await response.text()}`);
      }
      await response.arrayBuffer();
    }
  };
  const requests = option('requests', 500);
  const warmUpRounds = option('warm-up-rounds', 6);
  const microseconds: Record<string, number[]> = Object.fromEntries(
    reads.map(([name]) => [name, []]),
  );
  // The warm-up is rounds like the measured ones: the JIT then optimizes for both reads in
  // turn, rather than for the first one, and does not start over within a measured round.
  for (let round = 0; round < warmUpRounds + option('rounds', 15); round += 1) {
    const measured = round >= warmUpRounds;
    for (const [name, url] of reads) {
      if (measured && markers) loadavg();
      const before = process.cpuUsage();
      await run(url, requests);
      const used = process.cpuUsage(before);
      if (measured && markers) uptime();
      if (measured) microseconds[name]?.push((used.user + used.system) / requests);
    }
  }
  await close();
  process.stdout.write(`${JSON.stringify(microseconds)}\n`);
}

if (process.argv.includes('--seed')) {
  await seed();
} else if (process.argv.includes('--measure')) {
  await measure(process.argv.includes('--markers'), process.argv.includes('--ideal'));
}
