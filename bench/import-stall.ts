/**
 * The 'fhir-import' scenario: one signed-in user imports a 24 MB FHIR bundle of 199,000
 * allergies (the file that froze /api/health for 17 s on SQLite, and ran for over 16
 * minutes on PostgreSQL) while /api/health is asked every 10 ms, open-loop: each check's
 * latency counts from when it was due, whatever the answers before it did.
 *
 * Part of `npm run bench` (`BENCH_SCENARIOS=fhir-import` alone), on SQLite as the bench
 * runs. On its own, against PostgreSQL too:
 *   npm run build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_import \
 *     tsx bench/import-stall.ts
 * (an empty database, made beforehand; without BENCH_DATABASE_URL, a fresh SQLite one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchConfig } from './config';
import { startProduct, type ServerProcess } from './processes';
import { printChecks, type BudgetCheck } from './report';
import { BENCH_PASSWORD, signInCookie, signUp } from './seed';

export const IMPORT_SCENARIO = 'fhir-import';

/** The budget (issue 32, finding 5), on both engines. */
export const importBudget = {
  allergies: 199_000,
  healthP99Ms: 100,
  importSeconds: 60,
  healthEveryMs: 10,
};

export interface ImportStallResult {
  bytes: number;
  status: number;
  importSeconds: number;
  healthChecks: number;
  healthP50Ms: number;
  healthP99Ms: number;
  healthMaxMs: number;
  /** The same checks for IDLE_SECONDS before the import: the machine's own floor. */
  idle: HealthLatencies;
  /** The machine's load (1-minute average) when the import ended. */
  loadAverage: number;
  /** The server's resident memory at its highest during the import. */
  peakRssBytes: number;
}

/** Seconds of health checks before the import, with the server otherwise idle. */
const IDLE_SECONDS = 5;

/** A bundle of `count` allergies, about 120 bytes each: 24 MB for 199,000. */
export function allergyBundle(count: number): string {
  const entries: string[] = [];
  for (let index = 0; index < count; index += 1) {
    entries.push(
      `{"resource":{"resourceType":"AllergyIntolerance","id":"a${index}","code":{"text":"Substance ${index}"},"recordedDate":"2020-01-01"}}`,
    );
  }
  return `{"resourceType":"Bundle","type":"collection","entry":[${entries.join(',')}]}`;
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;

export interface HealthLatencies {
  checks: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** When the slowest check was due, from the first. */
  slowestAtSeconds: number;
}

const MB = 1024 * 1024;

/** A heavy job's check of the server's resident memory at its highest. */
export const peakRssCheck = (
  what: string,
  peakRssBytes: number,
  budgetMb: number,
): BudgetCheck => ({
  budget: `${what}: server RSS < ${budgetMb} MB`,
  measured: `${(peakRssBytes / MB).toFixed(0)} MB at its highest`,
  met: peakRssBytes < budgetMb * MB,
});

/** A heavy job's check of /api/health's p99 while it ran (`during`: 'while it runs'). */
export const healthCheck = (
  what: string,
  health: HealthLatencies,
  budgetMs: number,
  during: string,
): BudgetCheck => ({
  budget: `${what}: /api/health p99 < ${budgetMs} ms ${during}`,
  measured: `${health.p99Ms.toFixed(1)} ms (p50 ${health.p50Ms.toFixed(1)}, max ${health.maxMs.toFixed(1)}; ${health.checks} checks)`,
  met: health.p99Ms < budgetMs,
});

/**
 * Asks /api/health every `healthEveryMs`, open-loop (each check's latency counts from when it
 * was due, whatever the answers before it did), until `stop` settles.
 */
export async function askHealth(
  baseUrl: string,
  stop: Promise<unknown>,
  onTick: () => void = () => {},
): Promise<HealthLatencies> {
  const latencies: number[] = [];
  const started = performance.now();
  let slowest = { ms: 0, atMs: 0 };
  const inFlight = new Set<Promise<void>>();
  let asking = true;
  void stop.finally(() => (asking = false)).catch(() => {});
  let due = performance.now();
  while (asking) {
    const dueAt = due;
    const check = fetch(`${baseUrl}/api/health`)
      .then(async (response) => {
        await response.arrayBuffer();
        const ms = performance.now() - dueAt;
        latencies.push(ms);
        if (ms > slowest.ms) slowest = { ms, atMs: dueAt - started };
      })
      .catch(() => {
        latencies.push(Number.POSITIVE_INFINITY);
      });
    inFlight.add(check);
    void check.finally(() => inFlight.delete(check));
    onTick();
    due += importBudget.healthEveryMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  await Promise.all(inFlight);
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    checks: sorted.length,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.at(-1) ?? Number.NaN,
    slowestAtSeconds: slowest.atMs / 1000,
  };
}

export async function measureImportStall(options: {
  baseUrl: string;
  cookie: string;
  personId: string;
  server: ServerProcess;
  allergies?: number;
}): Promise<ImportStallResult> {
  const body = allergyBundle(options.allergies ?? importBudget.allergies);
  // The same checks with nothing else asked of the server first: what the machine itself
  // (its load, the bench's own process) adds to every answer.
  const idle = await askHealth(
    options.baseUrl,
    new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000)),
  );
  let peakRssBytes = options.server.rss();
  const started = performance.now();
  const importing = fetch(
    `${options.baseUrl}/api/import?person=${encodeURIComponent(options.personId)}`,
    {
      method: 'POST',
      headers: {
        cookie: options.cookie,
        origin: options.baseUrl,
        'content-type': 'application/fhir+json',
      },
      body,
    },
  ).then(async (response) => ({ response, answer: await response.text() }));
  const health = await askHealth(options.baseUrl, importing, () => {
    peakRssBytes = Math.max(peakRssBytes, options.server.rss());
  });
  const { response, answer } = await importing;
  const importSeconds = (performance.now() - started) / 1000;
  if (response.status !== 201) throw new Error(`import: ${response.status} ${answer}`);
  return {
    bytes: Buffer.byteLength(body),
    status: response.status,
    importSeconds,
    healthChecks: health.checks,
    healthP50Ms: health.p50Ms,
    healthP99Ms: health.p99Ms,
    healthMaxMs: health.maxMs,
    idle,
    loadAverage: os.loadavg()[0] ?? Number.NaN,
    peakRssBytes,
  };
}

/** The scenario's budget lines, for the report. */
export function importChecks(result: ImportStallResult, engine: string): BudgetCheck[] {
  const what = `FHIR import of ${(result.bytes / 1024 / 1024).toFixed(0)} MB (${importBudget.allergies.toLocaleString('en-US')} allergies), ${engine}`;
  return [
    {
      budget: `${what}: /api/health p99 < ${importBudget.healthP99Ms} ms while it runs (asked every ${importBudget.healthEveryMs} ms)`,
      measured: `${result.healthP99Ms.toFixed(1)} ms (p50 ${result.healthP50Ms.toFixed(1)}, max ${result.healthMaxMs.toFixed(1)}; ${result.healthChecks} checks; idle server before: p50 ${result.idle.p50Ms.toFixed(1)}, p99 ${result.idle.p99Ms.toFixed(1)}, max ${result.idle.maxMs.toFixed(1)}; load ${result.loadAverage.toFixed(1)})`,
      met: result.healthP99Ms < importBudget.healthP99Ms,
    },
    {
      budget: `${what}: done in < ${importBudget.importSeconds} s`,
      measured: `${result.importSeconds.toFixed(1)} s (server RSS at most ${(result.peakRssBytes / 1024 / 1024).toFixed(0)} MB; load ${result.loadAverage.toFixed(1)})`,
      met: result.importSeconds < importBudget.importSeconds,
    },
  ];
}

/** Signs a new account up and in, and measures its import. */
export async function runImportScenario(product: ServerProcess): Promise<ImportStallResult> {
  const account = await signUp(
    product.url,
    { name: 'Ida Importer', email: `importer-${Date.now()}@example.com`, password: BENCH_PASSWORD },
    benchConfig.passcode,
  );
  const cookie = await signInCookie(product.url, account, benchConfig.passcode);
  return measureImportStall({
    baseUrl: product.url,
    cookie,
    personId: account.id,
    server: product,
  });
}

async function standalone() {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kin-bench-import-'));
  const product = await startProduct({
    dataDir,
    // BENCH_PORT (bench/config.ts): another port, beside a full run on the bench's own.
    port: benchConfig.productPort,
    passcode: benchConfig.passcode,
    cpuProfileDir: benchConfig.cpuProfileDir,
    nodeFlags: null,
    env: databaseUrl ? { DATABASE_URL: databaseUrl } : {},
  });
  try {
    const result = await runImportScenario(product);
    const engine = databaseUrl ? 'PostgreSQL' : 'SQLite';
    // A budget not met fails the run, as the full bench's checks do.
    printChecks(importChecks(result, engine));
  } finally {
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  standalone().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
