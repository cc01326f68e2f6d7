/**
 * The 'heavy-jobs' scenario (issue 57): the server given a memory budget (KIN_MEMORY_MB,
 * 512 here, the default) runs three heavy jobs that two family members start at the same
 * time: a 24 MB FHIR import (199,000 allergies), the 14-page 300 dpi scan uploaded and its
 * text read by OCR, and a 12-megapixel photo uploaded and thumbnailed. Meanwhile
 * /api/health is asked every 10 ms (open-loop), and the memory of the server and of every
 * job process it started is summed every 50 ms.
 *
 * Part of `npm run bench` (`BENCH_SCENARIOS=heavy-jobs` alone). On its own:
 *   npm run build && tsx bench/heavy-jobs.ts
 * (BENCH_MEMORY_MB gives the server another budget; BENCH_HEAVY_JOBS=import,scan,photo, any
 * of them, runs only those: what each takes alone; BENCH_KEEP=1 keeps the data directory.)
 *
 * The server runs held by the kernel to the budget, as a box of that size holds it
 * (bench/memory-limit.ts: a memory cgroup, swap refused; decision 0083): the line is met when
 * no process was killed for memory and every job was done. The processes' resident memory
 * is summed too, and told: it counts Node's binary and the libraries once for each process
 * that maps them. Where no cgroup can be made (BENCH_MEMORY_LIMIT=off, or not Linux), the
 * sum is held to the budget instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchConfig } from './config';
import { account, textOf, upload, type Account } from './document-client';
import { allergyBundle, askHealth, type HealthLatencies } from './import-stall';
import { memoryLimit, type MemoryLimit } from './memory-limit';
import { startProduct, type ServerProcess } from './processes';
import { printChecks, type BudgetCheck } from './report';
import { photo, scan } from './sample-documents';

export const HEAVY_JOBS_SCENARIO = 'heavy-jobs';

const JOBS = ['import', 'scan', 'photo'] as const;
const chosenJobs = new Set((process.env.BENCH_HEAVY_JOBS ?? JOBS.join(',')).split(','));
for (const job of chosenJobs) {
  if (!(JOBS as readonly string[]).includes(job)) {
    throw new Error(`BENCH_HEAVY_JOBS: '${job}' is none of ${JOBS.join(', ')}`);
  }
}
const skipped = { status: 0, seconds: 0, uploadSeconds: 0, thumbnail: true } as const;

export const heavyJobsBudget = {
  memoryMb: Number(process.env.BENCH_MEMORY_MB ?? 512),
  healthP99Ms: 100,
  sampleEveryMs: 50,
  /** How long the scan's text may take to be read before the run gives up on it. */
  textSeconds: 300,
};

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface HeavyJobsResult {
  memoryMb: number;
  /** The server's and its job processes' resident memory, summed, at its highest. */
  peakTreeRssBytes: number;
  /** The server's own process at its highest. */
  peakServerRssBytes: number;
  /** The same processes' proportional memory (a shared page counted once), at its highest. */
  peakTreePssBytes: number;
  /** Each process's share when the sum was at its highest, and how far into the run. */
  atPeak: { script: string; rss: number }[];
  peakAfterSeconds: number;
  restTreeRssBytes: number;
  health: HealthLatencies;
  importSeconds: number;
  importStatus: number;
  scanUploadSeconds: number;
  textSeconds: number;
  textStatus: string;
  photoSeconds: number;
  photoThumbnail: boolean;
  loadAverage: number;
  /** The kernel's limit the server ran under, what it saw, or why there was none. */
  limit: HeldTo | { why: string };
}

interface HeldTo {
  /** Processes the kernel killed for want of memory. */
  oomKills: number;
  /** The group's memory at its highest, page cache included. */
  peakBytes: number;
  /** Its anonymous memory (what only killing frees), at its highest as sampled. */
  peakAnonymousBytes: number;
}

async function importBundle(product: ServerProcess, who: Account, personId: string) {
  const started = performance.now();
  const response = await fetch(`${product.url}/api/import?person=${personId}`, {
    method: 'POST',
    headers: { ...who.headers, 'content-type': 'application/fhir+json' },
    body: allergyBundle(199_000),
  });
  const answer = await response.text();
  if (response.status !== 201) throw new Error(`import: ${response.status} ${answer}`);
  return { status: response.status, seconds: (performance.now() - started) / 1000 };
}

async function scanRead(product: ServerProcess, who: Account, bytes: Buffer) {
  const started = performance.now();
  const uploaded = await upload(product, who, 'scan.pdf (14 pages)', bytes);
  if (!uploaded.id) throw new Error(`scan upload: ${uploaded.status} ${uploaded.message}`);
  const deadline = started + heavyJobsBudget.textSeconds * 1000;
  for (;;) {
    const text = await textOf(product, who, uploaded.id);
    if (text.status === 'done' || text.status === 'failed' || performance.now() > deadline) {
      return {
        uploadSeconds: uploaded.seconds,
        seconds: (performance.now() - started) / 1000,
        status: text.status,
      };
    }
    await sleep(250);
  }
}

export async function measureHeavyJobs(
  product: ServerProcess,
  limit: MemoryLimit | { why: string },
): Promise<HeavyJobsResult> {
  const held = 'procsFile' in limit ? limit : null;
  const importer = await account(product, 'Ida');
  const scanner = await account(product, 'Sam');
  const importerId = (
    (await (
      await fetch(`${product.url}/api/auth/get-session`, { headers: importer.headers })
    ).json()) as { user: { id: string } }
  ).user.id;
  const [scanBytes, photoBytes] = [await scan(14), await photo(4000, 3000, 80, true)];
  await sleep(2_000);
  const restTreeRssBytes = product.treeRss();
  let peakTreeRssBytes = restTreeRssBytes;
  let peakServerRssBytes = product.rss();
  let peakTreePssBytes = product.treePss();
  let atPeak = product.treeRssParts();
  let peakAfterSeconds = 0;
  let peakAnonymousBytes = held?.anonymousBytes() ?? 0;
  const started = performance.now();
  const sampler = setInterval(() => {
    const parts = product.treeRssParts();
    const sum = parts.reduce((total, part) => total + part.rss, 0);
    if (sum > peakTreeRssBytes) {
      peakTreeRssBytes = sum;
      atPeak = parts;
      peakAfterSeconds = (performance.now() - started) / 1000;
    }
    peakServerRssBytes = Math.max(peakServerRssBytes, product.rss());
    peakTreePssBytes = Math.max(peakTreePssBytes, product.treePss());
    if (held) peakAnonymousBytes = Math.max(peakAnonymousBytes, held.anonymousBytes());
  }, heavyJobsBudget.sampleEveryMs);
  try {
    const jobs = Promise.all([
      chosenJobs.has('import') ? importBundle(product, importer, importerId) : skipped,
      chosenJobs.has('scan')
        ? scanRead(product, scanner, scanBytes)
        : { ...skipped, status: 'done' as const },
      chosenJobs.has('photo') ? upload(product, scanner, 'photo.jpg (12 MP)', photoBytes) : skipped,
    ]);
    const health = await askHealth(product.url, jobs);
    const [imported, read, photographed] = await jobs;
    return {
      memoryMb: heavyJobsBudget.memoryMb,
      peakTreeRssBytes,
      peakServerRssBytes,
      peakTreePssBytes,
      atPeak,
      peakAfterSeconds,
      restTreeRssBytes,
      health,
      importSeconds: imported.seconds,
      importStatus: imported.status,
      scanUploadSeconds: read.uploadSeconds,
      textSeconds: read.seconds,
      textStatus: read.status,
      photoSeconds: photographed.seconds,
      photoThumbnail: photographed.thumbnail === true,
      loadAverage: os.loadavg()[0] ?? Number.NaN,
      limit:
        'why' in limit
          ? { why: limit.why }
          : { oomKills: limit.oomKills(), peakBytes: limit.peakBytes(), peakAnonymousBytes },
    };
  } finally {
    clearInterval(sampler);
  }
}

/** The scenario's budget lines, for the report. */
export function heavyJobsChecks(result: HeavyJobsResult): BudgetCheck[] {
  const what = `KIN_MEMORY_MB=${result.memoryMb}: ${
    chosenJobs.size === JOBS.length
      ? "a 24 MB FHIR import, a 14-page scan's OCR and a 12 MP photo at once"
      : [...chosenJobs].join(' and ')
  }`;
  const mb = (bytes: number) => (bytes / MB).toFixed(0);
  const summed = `${mb(result.peakTreeRssBytes)} MB at most, ${result.peakAfterSeconds.toFixed(1)} s in (${result.atPeak.map((part) => `${part.script} ${mb(part.rss)}`).join(', ')}; the server's own ${mb(result.peakServerRssBytes)} MB; shared pages counted once ${mb(result.peakTreePssBytes)} MB at most; ${mb(result.restTreeRssBytes)} MB at rest before)`;
  const jobs = `import ${result.importSeconds.toFixed(1)} s, scan read ${result.textStatus} in ${result.textSeconds.toFixed(1)} s, photo ${result.photoSeconds.toFixed(1)} s${result.photoThumbnail ? ' with its thumbnail' : ' without a thumbnail'}`;
  const done = result.textStatus === 'done' && result.photoThumbnail;
  const { limit } = result;
  return [
    'why' in limit
      ? {
          budget: `${what}: the server and its job processes < ${result.memoryMb} MB (summed every ${heavyJobsBudget.sampleEveryMs} ms; no kernel limit here: ${limit.why})`,
          measured: `${summed}; ${jobs}`,
          met: result.peakTreeRssBytes < result.memoryMb * MB && done,
        }
      : {
          budget: `${what}: held by the kernel to ${result.memoryMb} MB (a memory cgroup, no swap): no process killed, every job done`,
          measured: `${limit.oomKills} killed; anonymous memory ${mb(limit.peakAnonymousBytes)} MB at most, ${mb(limit.peakBytes)} MB with page cache; resident sizes summed every ${heavyJobsBudget.sampleEveryMs} ms ${summed}; ${jobs}`,
          met: limit.oomKills === 0 && done,
        },
    {
      budget: `${what}: /api/health p99 < ${heavyJobsBudget.healthP99Ms} ms meanwhile`,
      measured: `${result.health.p99Ms.toFixed(1)} ms (p50 ${result.health.p50Ms.toFixed(1)}, max ${result.health.maxMs.toFixed(1)}, ${result.health.slowestAtSeconds.toFixed(1)} s in; ${result.health.checks} checks; load ${result.loadAverage.toFixed(1)})`,
      met: result.health.p99Ms < heavyJobsBudget.healthP99Ms,
    },
  ];
}

/** The product started with the scenario's budget on a data directory of its own. */
export async function runHeavyJobsScenario(port: number): Promise<HeavyJobsResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kin-bench-heavy-'));
  const limit =
    process.env.BENCH_MEMORY_LIMIT === 'off'
      ? { why: 'BENCH_MEMORY_LIMIT=off' }
      : memoryLimit(heavyJobsBudget.memoryMb, `kin-bench-heavy-${process.pid}`);
  const product = await startProduct({
    dataDir,
    port,
    passcode: benchConfig.passcode,
    cpuProfileDir: benchConfig.cpuProfileDir,
    nodeFlags: benchConfig.nodeFlags,
    env: { KIN_MEMORY_MB: String(heavyJobsBudget.memoryMb) },
    ...('procsFile' in limit && { cgroupProcs: limit.procsFile }),
  });
  try {
    return await measureHeavyJobs(product, limit);
  } catch (error) {
    const killed = 'procsFile' in limit ? limit.oomKills() : 0;
    if (killed === 0) throw error;
    throw new Error(`the kernel killed ${killed} of the server's processes at the limit`, {
      cause: error,
    });
  } finally {
    await product.stop();
    if ('procsFile' in limit) limit.remove();
    if (process.env.BENCH_KEEP) process.stdout.write(`data directory kept: ${dataDir}\n`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runHeavyJobsScenario(benchConfig.productPort)
    .then((result) => printChecks(heavyJobsChecks(result)))
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    });
}
