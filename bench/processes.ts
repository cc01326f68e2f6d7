/**
 * The server processes a run measures: the product as `npm start` runs it, and the floor
 * server beside it. Each is started, waited for, read for memory and stopped by its own pid.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inGroup } from './memory-limit';

export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  /** Resident memory now, in bytes (VmRSS). */
  rss(): number;
  /** The most the process has held since it started (VmHWM). */
  peakRss(): number;
  /** Resident memory now of the process and every process it started (its job processes). */
  treeRss(): number;
  /** The same, process by process, by the script each runs. */
  treeRssParts(): { script: string; rss: number }[];
  /** The same memory with each shared page counted once (treePssOf). */
  treePss(): number;
  /** CPU time the process has used so far, user and system, in seconds. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** Variables of the product that would change what is measured if inherited from the shell. */
const PRODUCT_VARIABLES = [
  'DATABASE_URL',
  'AUTH_SECRET',
  'BASE_URL',
  'TRUST_PROXY',
  'WEB_DIR',
  'HOST',
  'PORT',
  'DATA_DIR',
  'FAMILY_PASSCODE',
  'AUTH_RATE_LIMIT',
  'PASSCODE_GUESS_LIMIT',
  'LOG_LEVEL',
  'NODE_OPTIONS',
];

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of PRODUCT_VARIABLES) delete env[name];
  return { ...env, ...extra };
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The processes `pid` started, and theirs (from each of its threads' `children`). */
function descendantsOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = tasks.flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  });
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

/** What a process runs: its script's name (`main.js`, `document-text-worker.js`). */
function scriptOf(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const script = args.findLast((arg) => /\.(m?js|ts)$/.test(arg)) ?? args[0] ?? String(pid);
    return path.basename(script);
  } catch {
    return String(pid);
  }
}

/** VmRSS of a process and of each process under it, by what each runs, in bytes. */
export function treeRssPartsOf(pid: number): { script: string; rss: number }[] {
  return [pid, ...descendantsOf(pid)].map((each) => ({
    script: scriptOf(each),
    rss: statusField(each, 'VmRSS'),
  }));
}

/** VmRSS of a process and of every process under it, in bytes. */
export function treeRssOf(pid: number): number {
  return treeRssPartsOf(pid).reduce((sum, part) => sum + part.rss, 0);
}

/** A process's proportional set size (Pss: a page shared by n processes counts 1/n), in bytes. */
function pssOf(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const match = /^Pss:\s+(\d+) kB/m.exec(rollup);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The proportional memory of a process and every process under it, in bytes: what they hold
 * between them, each page they share (Node's own binary, the libraries) counted once.
 */
export function treePssOf(pid: number): number {
  return [pid, ...descendantsOf(pid)].reduce((sum, each) => sum + pssOf(each), 0);
}

const CLOCK_TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

async function waitForHealth(url: string, exited: () => string | null): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const exit = exited();
    if (exit) throw new Error(exit);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer within 30 s`);
}

export async function startServerProcess(options: {
  name: string;
  nodeArgs: string[];
  env: Record<string, string>;
  port: number;
  healthPath: string;
  logFile: string;
  /**
   * A memory cgroup's `cgroup.procs` (bench/memory-limit.ts) the server starts in, it and
   * every process it starts held to that group's limit.
   */
  cgroupProcs?: string;
}): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const [command, args] = options.cgroupProcs
    ? inGroup(options.cgroupProcs, process.execPath, options.nodeArgs)
    : [process.execPath, options.nodeArgs];
  const child = spawn(command, args, {
    env: cleanEnv({ ...options.env, PORT: String(options.port), HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exitMessage: string | null = null;
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exitMessage = `${options.name} exited (${signal ?? code}); see ${options.logFile}`;
      resolve();
    });
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name} did not start`);
  await waitForHealth(url + options.healthPath, () => exitMessage);

  return {
    name: options.name,
    url,
    pid,
    rss: () => statusField(pid, 'VmRSS'),
    peakRss: () => statusField(pid, 'VmHWM'),
    treeRss: () => treeRssOf(pid),
    treeRssParts: () => treeRssPartsOf(pid),
    treePss: () => treePssOf(pid),
    cpuSeconds: () => cpuSecondsOf(pid),
    async stop() {
      if (exitMessage) return;
      child.kill('SIGTERM');
      const killed = await Promise.race([exited.then(() => true), sleep(15_000, false)]);
      if (!killed) {
        child.kill('SIGKILL');
        await exited;
      }
      log.end();
    },
  };
}

/**
 * How `npm start` runs the server (package.json; docs/operations.md, "Memory"): its V8
 * flags and the allocator's settings. bench/processes.test.ts holds package.json's start
 * line and the documentation to these.
 */
export const START_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=4',
  '--heap-growing-percent=25',
];
export const START_ENV = {
  GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=131072:glibc.malloc.hugetlb=1',
} as const;
/** What follows the V8 flags on `npm start`'s line: source-mapped traces, and the server. */
export const START_SCRIPT: readonly string[] = ['--enable-source-maps', 'dist/server/main.js'];

/** Node's flags that write a V8 CPU profile into `dir` at exit (none without a directory). */
function cpuProfiling(dir: string | null, name?: string): string[] {
  if (!dir) return [];
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...(name ? [`--cpu-prof-name=${name}`] : [])];
}

/** The product, started the way `npm start` starts it, on the given data directory. */
export function startProduct(options: {
  dataDir: string;
  port: number;
  passcode: string;
  cpuProfileDir: string | null;
  /** V8 flags instead of `npm start`'s (an experiment). */
  nodeFlags: readonly string[] | null;
  /** More of the server's environment (DATABASE_URL, for a run on PostgreSQL). */
  env?: Record<string, string>;
  /** The memory cgroup it runs in (startServerProcess). */
  cgroupProcs?: string;
}): Promise<ServerProcess> {
  return startServerProcess({
    name: 'product server',
    nodeArgs: [
      ...cpuProfiling(options.cpuProfileDir),
      ...(options.nodeFlags ?? START_NODE_FLAGS),
      ...START_SCRIPT,
    ],
    env: {
      DATA_DIR: options.dataDir,
      FAMILY_PASSCODE: options.passcode,
      // Sign-in is measured at full speed: the per-address limit would refuse it.
      AUTH_RATE_LIMIT: 'off',
      // No LOG_LEVEL: the default, one log line a request, as a default install writes.
      ...START_ENV,
      ...options.env,
    },
    port: options.port,
    healthPath: '/api/health',
    logFile: path.join(options.dataDir, 'product-server.log'),
    ...(options.cgroupProcs && { cgroupProcs: options.cgroupProcs }),
  });
}

/**
 * The floor server (bench/floor-server.ts), serving the spec file's floors. It runs as the
 * product runs, under `npm start`'s V8 flags and allocator settings (or the experiment's
 * flags the product is given): a young generation held small for the memory budget costs
 * the product collections, and a floor on Node's defaults would not pay them
 * (decision 87).
 */
export function startFloorServer(options: {
  specFile: string;
  port: number;
  logFile: string;
  cpuProfileDir: string | null;
  /** V8 flags instead of `npm start`'s, as the product is given them. */
  nodeFlags: readonly string[] | null;
}): Promise<ServerProcess> {
  return startServerProcess({
    name: 'floor server',
    nodeArgs: [
      ...cpuProfiling(options.cpuProfileDir, 'floor-server.cpuprofile'),
      ...(options.nodeFlags ?? START_NODE_FLAGS),
      '--import',
      'tsx',
      'bench/floor-server.ts',
    ],
    env: { FLOOR_SPEC: options.specFile, ...START_ENV },
    port: options.port,
    healthPath: '/health',
    logFile: options.logFile,
  });
}

/**
 * Waits until a server's log holds the product's request line (request-log.ts) for each
 * path, for two seconds at most: the log reaches its file through a pipe, a little later
 * than the answer.
 */
export async function loggedRequests(logFile: string, paths: readonly string[]): Promise<void> {
  const missing = () => {
    // Only whole lines: the last may be half written when it is read.
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .slice(0, -1)
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; path?: string });
    return paths.filter(
      (wanted) => !lines.some((line) => line.msg === 'request' && line.path === wanted),
    );
  };
  for (let waited = 0; missing().length > 0; waited += 50) {
    if (waited >= 2000)
      throw new Error(`${logFile} has no request line for ${missing().join(', ')}`);
    await sleep(50);
  }
}
