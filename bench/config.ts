/**
 * The settings of one benchmark run: ports, load shape, durations, the accounts it makes,
 * and the budgets it checks. Durations and rounds can be changed from the environment for
 * a quicker (noisier) run; the defaults are what the figures in docs/performance.md come from.
 */
import path from 'node:path';
import { TEST_PASSCODE } from '../src/server/test/test-passcode';

function numberFromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    throw new Error(`${name} must be a positive number, not "${value}"`);
  }
  return parsed;
}

function parseOnly(value: string | undefined): 'api' | 'web' | null {
  if (value === undefined || value === '') return null;
  if (value === 'api' || value === 'web') return value;
  throw new Error(`BENCH_ONLY must be "api" or "web", not "${value}"`);
}

export const benchConfig = {
  /**
   * The product server and the floor server; 44xx is this benchmark's range. `BENCH_PORT`
   * moves both (the floor server on the next port), so that two runs on one machine do not
   * find each other's server.
   */
  productPort: numberFromEnv('BENCH_PORT', 4401),
  floorPort: numberFromEnv('BENCH_PORT', 4401) + 1,
  /** A product server of its own for the heavy jobs at once (its memory budget, its data). */
  heavyJobsPort: numberFromEnv('BENCH_PORT', 4401) + 2,
  connections: numberFromEnv('BENCH_CONNECTIONS', 50),
  /** Seconds each measurement lasts. */
  durationSeconds: numberFromEnv('BENCH_DURATION', 4),
  /** Seconds each target is loaded, and discarded, before the first round. */
  warmupSeconds: numberFromEnv('BENCH_WARMUP', 2),
  rounds: numberFromEnv('BENCH_ROUNDS', 5),
  /** Page loads per first screen in Chromium; the median is reported. */
  pageLoads: numberFromEnv('BENCH_PAGE_LOADS', 5),
  cpuThrottlingRate: 4,
  /** When set, the product server runs with `--cpu-prof` and writes its profile here. */
  cpuProfileDir: process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null,
  resultsDir: path.resolve('bench/results'),
  /** `api` or `web` measures only that half (quicker, while working on one of them). */
  only: parseOnly(process.env.BENCH_ONLY),
  /** `BENCH_SCENARIOS=timeline,visit-detail` measures only those endpoints (an experiment). */
  scenarios: process.env.BENCH_SCENARIOS
    ? new Set(process.env.BENCH_SCENARIOS.split(',').map((key) => key.trim()))
    : null,
  /**
   * `BENCH_NODE_FLAGS="--max-semi-space-size=16"` starts the product server with these V8
   * flags instead of `npm start`'s (an experiment).
   */
  nodeFlags: process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(/\s+/) : null,
  passcode: TEST_PASSCODE,
  chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
} as const;

export const seedShape = {
  users: 1000,
  heavyMembers: 5,
  /** The heavy user's 23,000 records, over every type (3,000 of them lab results). */
  heavyRecords: {
    visits: 6000,
    medications: 3000,
    shots: 3000,
    notes: 4000,
    conditions: 2000,
    insurance: 1000,
    contacts: 1000,
    lab_results: 3000,
    // Issue 35: a weigh-in most days, blood pressure and pulse on some.
    vitals: 5000,
  },
  /** Every other user's records, so that tables hold many owners, as they will. */
  recordsPerOtherUser: 20,
  /**
   * A new user's records per timeline type: three months of use, enough that every first
   * page measured is full, so the comparison with the heavy user is of like with like.
   */
  newUserRecordsPerType: 80,
} as const;

export const budgets = {
  /**
   * Every read reaches at least this share of its checked ideal endpoint's requests per
   * second: the endpoint's own SQL with the session check and the security headers that
   * every API answer must have (bench/floor-server.ts). The bare ideal endpoint (the SQL
   * alone) stays reported beside it, not budgeted.
   */
  readShareOfCheckedIdeal: 0.8,
  /**
   * Under the run's full load a read's p99 is at most this multiple of its checked ideal
   * endpoint's p99 in the same round: with every connection always waiting, latency is
   * queueing, and the ideal endpoint queues too (Little's law), so only the ratio is
   * meaningful.
   */
  p99OverCheckedIdealP99: 1.5,
  /** The latency a household feels: every read at a steady, open-loop rate. */
  steadyRatePerSecond: 200,
  steadyP99Ms: 10,
  /** A new user's first-page latency within this share of the heavy user's. */
  newVersusHeavy: 0.2,
  createsPerSecond: 1000,
  /** Issue 57: room on the first screens for a language catalogue and the desktop layout. */
  firstScreenJsKb: 150,
  /**
   * What the first screens may not grow past while they are over `firstScreenJsKb` (the
   * budget before issue 57): the browser tests fail a change that pulls a library into one.
   */
  firstScreenJsCeilingKb: 170,
  lcpMs: 1500,
  /** The server's RSS while the reads and creates are loaded. */
  rssDuringReadsMb: 200,
  /**
   * The server's RSS during the sign-in burst, where Argon2id hashes of 19 MiB each are in
   * flight (each sign-in checks two: the password and the passcode).
   */
  rssDuringSignInMb: 250,
} as const;
