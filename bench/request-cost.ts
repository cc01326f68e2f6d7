/**
 * `npm run bench:rewrites`: what a read costs the server, in process and one request at a
 * time, compared between builds of the code: the code as it is, and the code with one of its
 * rewrites of library code swapped back for the library (decision 9 says how for each).
 * The product's app (bench/request-cost-app.ts) answers the heavy user's timeline and one of
 * their visits through `app.request()`, on the benchmark's data.
 *
 *   npm run bench:rewrites -- build ours             bundles the code as it is now
 *   (swap one rewrite for the library's path)
 *   npm run bench:rewrites -- build library
 *   npm run bench:rewrites -- compare ours library   CPU time per request
 *   npm run bench:rewrites -- compare ours library --callgrind
 *   npm run bench:rewrites -- compare ours checked-ideal
 *                                                    the product beside its checked ideal
 *                                                    endpoint (run from the first build)
 *
 * CPU time: each build runs in its own process, the builds in turn, BENCH_CYCLES times (5);
 * each process times 15 rounds of 500 requests of each read after 6 such rounds of warm-up,
 * and the figure is the median of the processes' medians. It moves with what else the
 * machine runs (caches, frequency), though less than requests per second do. Under
 * `--callgrind` each build runs once in valgrind (about five minutes each), which counts
 * the instructions of 10 rounds of 300 requests of each read after 8 rounds of warm-up,
 * every thread of the process included, and the figure is the median round: a count that
 * does not move with the machine's load.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { serverBundleOptions } from '../scripts/build-server.mjs';
import { START_ENV, START_NODE_FLAGS } from './processes';

const BUILD_DIR = path.resolve('dist/bench');
const DATA_DIR = path.join(BUILD_DIR, 'data');
const READS = ['timeline', 'visit'] as const;
type Figures = Record<(typeof READS)[number], number>;

const env = { ...process.env, BENCH_DATA_DIR: DATA_DIR, ...START_ENV };

const bundleOf = (name: string) => path.join(BUILD_DIR, `request-cost-${name}.mjs`);

/** Not a build: the checked ideal endpoint of the same reads, run from the first build. */
const CHECKED_IDEAL = 'checked-ideal';

/** What runs a name: its build's bundle, or the first build's with its checked ideal. */
function measuredBy(name: string, names: string[]): string[] {
  if (name !== CHECKED_IDEAL) return [bundleOf(name)];
  const first = names.find((candidate) => candidate !== CHECKED_IDEAL);
  if (!first) throw new Error(`${CHECKED_IDEAL} runs from a build: name one before it`);
  return [bundleOf(first), '--ideal'];
}

async function bundle(name: string) {
  // As `npm run build` bundles the server: the same code, minified, with the same libraries
  // left to node_modules.
  await build({
    ...serverBundleOptions,
    entryPoints: ['bench/request-cost-app.ts'],
    outfile: bundleOf(name),
    logLevel: 'warning',
  });
  process.stdout.write(`built ${path.relative(process.cwd(), bundleOf(name))}\n`);
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { env, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
  }
  return result.stdout;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};

const emptyFigures = () => ({ timeline: [] as number[], visit: [] as number[] });

function cpuTime(names: string[], cycles: number): Map<string, Figures> {
  const perProcess = new Map(names.map((name) => [name, emptyFigures()]));
  for (let cycle = 0; cycle < cycles; cycle += 1) {
    // Alternating order, so that no build is always the one that runs first.
    const order = cycle % 2 ? [...names].reverse() : names;
    for (const name of order) {
      const output = run('node', [...START_NODE_FLAGS, ...measuredBy(name, names), '--measure']);
      const rounds = JSON.parse(output) as Record<string, number[]>;
      for (const read of READS) perProcess.get(name)?.[read].push(median(rounds[read] ?? []));
      process.stderr.write(`cycle ${cycle + 1}/${cycles}: ${name}\n`);
    }
  }
  return new Map(
    names.map((name) => {
      const figures = perProcess.get(name) ?? emptyFigures();
      return [name, { timeline: median(figures.timeline), visit: median(figures.visit) }];
    }),
  );
}

const REQUESTS_UNDER_CALLGRIND = 300;

function instructions(names: string[]): Map<string, Figures> {
  const dir = path.join(BUILD_DIR, 'callgrind');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const figures = new Map<string, Figures>();
  for (const name of names) {
    const out = path.join(dir, `${name}.out`);
    run('valgrind', [
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      '--zero-before=node::os::GetLoadAvg*',
      '--dump-before=node::os::GetUptime*',
      'node',
      ...START_NODE_FLAGS,
      ...measuredBy(name, names),
      '--measure',
      '--markers',
      '--warm-up-rounds',
      '8',
      '--rounds',
      '10',
      '--requests',
      String(REQUESTS_UNDER_CALLGRIND),
    ]);
    // One dump per measured round of each read: the timeline's, then the visit's, in turn.
    const perRequest = readdirSync(dir)
      .filter((file) => file.startsWith(`${name}.out.`))
      .sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()))
      .map((file) => {
        const totals = /^totals: (\d+)/m.exec(readFileSync(path.join(dir, file), 'utf8'));
        return Number(totals?.[1]) / REQUESTS_UNDER_CALLGRIND;
      });
    figures.set(name, {
      timeline: median(perRequest.filter((_, index) => index % 2 === 0)),
      visit: median(perRequest.filter((_, index) => index % 2 === 1)),
    });
    process.stderr.write(`${name}: counted\n`);
  }
  return figures;
}

/**
 * One line per build; after the first, each figure with how much more it is than the
 * first build's, and what share of its own request that difference is.
 */
function report(figures: Map<string, Figures>, title: string, digits: number) {
  const format = (value: number) =>
    value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const [first] = figures.values();
  const lines = [title, `${''.padEnd(16)}${'timeline'.padEnd(32)}one visit`];
  for (const [name, row] of figures) {
    const cells = READS.map((read) => {
      const difference = row[read] - (first?.[read] ?? NaN);
      const more =
        row === first
          ? ''
          : `  ${difference >= 0 ? '+' : ''}${format(difference)} (${Math.round((100 * difference) / row[read])}%)`;
      return `${format(row[read])}${more}`.padEnd(32);
    });
    lines.push(`${name.padEnd(16)}${cells.join('')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

const [command, ...rest] = process.argv.slice(2);
const names = rest.filter((argument) => !argument.startsWith('--'));
if (command === 'build' && names.length === 1) {
  await bundle(names[0] ?? '');
} else if (command === 'compare' && names.length > 0) {
  run('node', [...measuredBy(names[0] ?? '', names).slice(0, 1), '--seed']);
  if (rest.includes('--callgrind')) {
    report(instructions(names), 'Instructions per request (callgrind, median round)', 0);
  } else {
    const cycles = Number(process.env.BENCH_CYCLES ?? 5);
    report(cpuTime(names, cycles), `CPU µs per request (median of ${cycles} processes)`, 1);
  }
} else {
  process.stderr.write(
    'usage: npm run bench:rewrites -- build NAME | compare NAME... [checked-ideal] [--callgrind]\n',
  );
  process.exit(1);
}
