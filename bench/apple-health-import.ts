/**
 * The Apple Health bench (issue 50, item 4): a generated 300 MB `export.xml` (three years of
 * a watch's heart rate and step counts, daily weights and blood pressures) is previewed and
 * then imported into the account holder through `POST /api/import`, the raw file as the
 * body, while /api/health is asked every 10 ms (open-loop, as bench/import-stall.ts asks).
 * Budgets: the whole import (preview and write) in under 120 s on the 2-core machine, the
 * server's RSS under 350 MB (its VmHWM), /api/health p99 under 100 ms.
 *
 *   npm run build && npx tsx bench/apple-health-import.ts
 *   npx tsx bench/apple-health-import.ts --reader-only
 *     (the reader alone, in a process of its own started with the server's V8 flags)
 *
 * BENCH_APPLE_MB sets the export's size (default 300); BENCH_PORT the server's port.
 */
import { spawnSync } from 'node:child_process';
import { openAsBlob, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readAppleHealthFile } from '../src/server/imports/apple-health/read-apple-health';
import {
  writeAppleHealthXml,
  type WrittenExport,
} from '../src/server/imports/testing/apple-health-export';
import { benchConfig } from './config';
import { askHealth, healthCheck, peakRssCheck, type HealthLatencies } from './import-stall';
import { START_ENV, START_NODE_FLAGS, startProduct } from './processes';
import { printChecks, type BudgetCheck } from './report';
import { BENCH_PASSWORD, signInCookie, signUp } from './seed';

export const appleHealthBudget = {
  megabytes: Number(process.env.BENCH_APPLE_MB ?? 300),
  importSeconds: 120,
  peakRssMb: 350,
  healthP99Ms: 100,
};

const MB = 1024 * 1024;

export interface AppleHealthImportResult {
  written: WrittenExport;
  previewSeconds: number;
  importSeconds: number;
  /** Preview and import together. */
  totalSeconds: number;
  peakRssBytes: number;
  health: HealthLatencies;
  added: number;
}

/** This process's resident memory at its highest (VmHWM). */
function ownPeakRss(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

function exportFile(dir: string): { file: string; written: WrittenExport } {
  const file = path.join(dir, 'export.xml');
  const started = performance.now();
  const written = writeAppleHealthXml(file, {
    years: 3,
    targetBytes: appleHealthBudget.megabytes * MB,
  });
  process.stdout.write(
    `export.xml: ${(written.bytes / MB).toFixed(0)} MB, ${written.heartRates.toLocaleString('en-US')} heart rates (${written.heartRatePerDay} a day), ${written.steps.toLocaleString('en-US')} step counts, ${written.weights} weights, ${written.bloodPressures} blood pressures; written in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return { file, written };
}

/** Reads `file` in this process: its time, and this process's peak RSS. */
async function read(file: string) {
  const before = ownPeakRss();
  const started = performance.now();
  const result = await readAppleHealthFile({ path: file, name: 'export.xml', size: 0 }, {});
  const seconds = (performance.now() - started) / 1000;
  if ('ok' in result) throw new Error(result.message);
  process.stdout.write(
    `reader alone: ${seconds.toFixed(1)} s, ${result.records.summary}; peak RSS ${(ownPeakRss() / MB).toFixed(0)} MB (${(before / MB).toFixed(0)} MB with its modules loaded, before reading)\n`,
  );
}

/** The reader alone, in a fresh process with the server's V8 flags (not the writer's garbage). */
function readerOnly(dir: string) {
  const { file } = exportFile(dir);
  const script = fileURLToPath(import.meta.url);
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, ...START_NODE_FLAGS, script, '--read', file],
    { stdio: 'inherit', env: { ...process.env, ...START_ENV } },
  );
  if (child.status !== 0) throw new Error(`the reader exited (${child.status ?? child.signal})`);
}

async function post(url: string, cookie: string, origin: string, file: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/xml' },
    // Streamed from disk: the bench holds none of the file in memory.
    body: await openAsBlob(file),
  });
  return { status: response.status, answer: await response.text() };
}

export async function measureAppleHealthImport(dir: string): Promise<AppleHealthImportResult> {
  const { file, written } = exportFile(dir);
  const product = await startProduct({
    dataDir: dir,
    port: benchConfig.productPort,
    passcode: benchConfig.passcode,
    cpuProfileDir: benchConfig.cpuProfileDir,
    nodeFlags: null,
  });
  try {
    const account = await signUp(
      product.url,
      { name: 'Maria Lopez', email: `apple-${Date.now()}@example.com`, password: BENCH_PASSWORD },
      benchConfig.passcode,
    );
    const cookie = await signInCookie(product.url, account, benchConfig.passcode);
    let peakRssBytes = product.rss();
    const started = performance.now();
    let previewSeconds = 0;
    const importing = (async () => {
      const preview = await post(
        `${product.url}/api/import?preview=true&file=export.xml`,
        cookie,
        product.url,
        file,
      );
      if (preview.status !== 200) throw new Error(`preview: ${preview.status} ${preview.answer}`);
      previewSeconds = (performance.now() - started) / 1000;
      const done = await post(
        `${product.url}/api/import?person=${encodeURIComponent(account.id)}&file=export.xml`,
        cookie,
        product.url,
        file,
      );
      if (done.status !== 201) throw new Error(`import: ${done.status} ${done.answer}`);
      return JSON.parse(done.answer) as { added: number };
    })();
    const health = await askHealth(product.url, importing, () => {
      peakRssBytes = Math.max(peakRssBytes, product.rss());
    });
    const { added } = await importing;
    const totalSeconds = (performance.now() - started) / 1000;
    return {
      written,
      previewSeconds,
      importSeconds: totalSeconds - previewSeconds,
      totalSeconds,
      peakRssBytes: Math.max(peakRssBytes, product.peakRss()),
      health,
      added,
    };
  } finally {
    await product.stop();
  }
}

export function appleHealthChecks(result: AppleHealthImportResult): BudgetCheck[] {
  const what = `Apple Health export.xml of ${(result.written.bytes / MB).toFixed(0)} MB, preview then import`;
  return [
    {
      budget: `${what}: done in < ${appleHealthBudget.importSeconds} s`,
      measured: `${result.totalSeconds.toFixed(1)} s (preview ${result.previewSeconds.toFixed(1)} s, import ${result.importSeconds.toFixed(1)} s; ${result.added} records added; load ${os.loadavg()[0]?.toFixed(1)})`,
      met: result.totalSeconds < appleHealthBudget.importSeconds,
    },
    peakRssCheck(what, result.peakRssBytes, appleHealthBudget.peakRssMb),
    healthCheck(what, result.health, appleHealthBudget.healthP99Ms, 'while it runs'),
  ];
}

async function standalone() {
  const reading = process.argv.indexOf('--read');
  if (reading > 0) {
    await read(process.argv[reading + 1] ?? '');
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kin-bench-apple-'));
  try {
    if (process.argv.includes('--reader-only')) {
      readerOnly(dir);
      return;
    }
    const result = await measureAppleHealthImport(dir);
    printChecks(appleHealthChecks(result));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  standalone().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
