/**
 * The figures of a run, summarised: medians over the rounds, each endpoint's ratios to its
 * floors (taken round by round, side by side, then the median), the budgets checked, and
 * the same figures printed as a table. A read's ratio budgets are held to its checked ideal
 * endpoint; its ratios to the bare ideal endpoint are reported beside them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { budgets } from './config';
import type { DownloadResult } from './downloads';
import type { LoadResult } from './load';
import type { Scenario } from './scenarios';
import type { ScreenResult } from './web';

/** A load measurement, or a database floor's loop (which has no server around it). */
/** Sizes in decimal units, as Vite and Chrome report them: the stricter reading of a budget. */
const KB = 1000;
const MB = 1000 * 1000;

export type Measurement = Pick<LoadResult, 'requestsPerSecond' | 'p50Ms' | 'p99Ms' | 'requests'> &
  Partial<LoadResult>;

/**
 * In this order in a round (and the reverse in the next): the new user next to the heavy,
 * and the product at a steady rate (reads only) beside its full-load figures.
 */
export const VARIANTS = [
  'product',
  'newUser',
  'ideal',
  'checkedIdeal',
  'framework',
  'database',
  'steady',
  'steadyIdeal',
] as const;
export type Variant = (typeof VARIANTS)[number];

export interface ScenarioRounds {
  scenario: Scenario;
  rounds: Partial<Record<Variant, Measurement>>[];
}

/** What the summary of an endpoint needs to know of its scenario. */
type ScenarioIdentity = Pick<Scenario, 'key' | 'label' | 'kind' | 'detail'>;

const median = (values: number[]): number => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

export interface VariantSummary {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuMsPerRequest?: number;
}

export interface ScenarioSummary {
  key: string;
  label: string;
  kind: Scenario['kind'];
  detail?: boolean;
  product: VariantSummary;
  /** The same request as the new user, measured beside the heavy user's. */
  newUser?: VariantSummary;
  /** The product at a steady, open-loop rate: the latency a household feels. */
  steady?: VariantSummary;
  /** Its ideal endpoint at the same rate, in the same round: what the machine allows. */
  steadyIdeal?: VariantSummary;
  ideal?: VariantSummary;
  /**
   * The ideal endpoint that also checks the session and sends the product's security
   * headers, as every API answer must (bench/floor-server.ts): what a read's ratio budgets
   * are held to.
   */
  checkedIdeal?: VariantSummary;
  framework?: VariantSummary;
  database?: VariantSummary;
  /** The endpoint's requests/s over each floor's, median of the per-round ratios. */
  ratios: { ideal?: number; checkedIdeal?: number; framework?: number; database?: number };
  /** The heavy user's p50 latency over the new user's, median of the per-round ratios. */
  heavyOverNewP50?: number;
  /** The product's p99 over its ideal endpoint's, in the same round; median of the rounds. */
  p99OverIdealP99?: number;
  /** The same over the checked ideal endpoint's p99 (the budgeted one, for reads). */
  p99OverCheckedIdealP99?: number;
  unexpectedResponses: number;
  /** The server's highest RSS while it answered this endpoint (heavy or new user). */
  peakRssBytes: number;
}

export function summarise(
  results: { scenario: ScenarioIdentity; rounds: ScenarioRounds['rounds'] }[],
): ScenarioSummary[] {
  return results.map(({ scenario, rounds }) => {
    const of = (variant: Variant): VariantSummary | undefined => {
      const measured = rounds.map((round) => round[variant]).filter((m) => m !== undefined);
      if (!measured.length) return undefined;
      return {
        requestsPerSecond: median(measured.map((m) => m.requestsPerSecond)),
        p50Ms: median(measured.map((m) => m.p50Ms)),
        p99Ms: median(measured.map((m) => m.p99Ms)),
        cpuMsPerRequest: median(measured.map((m) => m.cpuMsPerRequest ?? Number.NaN)),
      };
    };
    /** The median over the rounds of a figure taken within each round. */
    const perRound = (figure: (round: (typeof rounds)[number]) => number | undefined) => {
      const values = rounds
        .map((round) => figure(round) ?? Number.NaN)
        .filter((value) => Number.isFinite(value));
      return values.length ? median(values) : undefined;
    };
    /** A figure of the product over the same figure of another variant, round by round. */
    const productOver = (other: Variant, figure: 'requestsPerSecond' | 'p50Ms' | 'p99Ms') =>
      perRound((round) => {
        const value = round.product?.[figure];
        const baseline = round[other]?.[figure];
        return value !== undefined && baseline ? value / baseline : undefined;
      });
    const ratio = (floor: Variant) => productOver(floor, 'requestsPerSecond');
    const product = of('product');
    if (!product) throw new Error(`${scenario.key} was never measured`);
    return {
      key: scenario.key,
      label: scenario.label,
      kind: scenario.kind,
      detail: scenario.detail,
      product,
      newUser: of('newUser'),
      ideal: of('ideal'),
      checkedIdeal: of('checkedIdeal'),
      framework: of('framework'),
      database: of('database'),
      steady: of('steady'),
      steadyIdeal: of('steadyIdeal'),
      ratios: {
        ideal: ratio('ideal'),
        checkedIdeal: ratio('checkedIdeal'),
        framework: ratio('framework'),
        database: ratio('database'),
      },
      heavyOverNewP50: productOver('newUser', 'p50Ms'),
      p99OverIdealP99: productOver('ideal', 'p99Ms'),
      p99OverCheckedIdealP99: productOver('checkedIdeal', 'p99Ms'),
      unexpectedResponses: rounds.reduce((sum, round) => sum + (round.product?.unexpected ?? 0), 0),
      peakRssBytes: Math.max(
        ...rounds.flatMap((round) => [round.product?.peakRss ?? 0, round.newUser?.peakRss ?? 0]),
      ),
    };
  });
}

export interface BudgetCheck {
  budget: string;
  measured: string;
  met: boolean;
}

/** 'met      {budget}: {measured}', or 'NOT MET  …'. */
const checkLine = (check: BudgetCheck) =>
  `${check.met ? 'met    ' : 'NOT MET'}  ${check.budget}: ${check.measured}`;

/** A standalone bench's checks, one line each; a budget not met fails the run. */
export function printChecks(checks: readonly BudgetCheck[]) {
  for (const check of checks) {
    process.stdout.write(`${checkLine(check)}\n`);
    if (!check.met) process.exitCode = 1;
  }
}

/**
 * A bench run on its own (`npx tsx bench/x.ts`), when `moduleUrl` is the file run: measured
 * in a fresh temporary folder, removed after, its checks printed.
 */
export function runStandalone(
  moduleUrl: string,
  folderPrefix: string,
  measure: (dir: string) => Promise<BudgetCheck[]>,
): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  const dir = mkdtempSync(path.join(os.tmpdir(), folderPrefix));
  measure(dir)
    .then(printChecks)
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    })
    .finally(() => rmSync(dir, { recursive: true, force: true }));
}

export function checkBudgets(
  summaries: ScenarioSummary[],
  screens: ScreenResult[],
  downloads: DownloadResult[] = [],
): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  for (const download of downloads) {
    checks.push({
      budget: `${download.label}: < ${download.budgetMs} ms to the last byte`,
      measured: `${Math.round(download.ms)} ms for ${(download.bytes / MB).toFixed(1)} MB`,
      met: download.ms < download.budgetMs,
    });
    if (download.memoryGrowthMb !== undefined) {
      checks.push({
        budget: `${download.label}: flat memory, server RSS grows < ${download.memoryGrowthMb} MB while it answers`,
        measured: `${(download.rssGrowthBytes / MB).toFixed(0)} MB`,
        met: download.rssGrowthBytes / MB < download.memoryGrowthMb,
      });
    }
  }
  for (const summary of summaries.filter((s) => s.kind === 'read')) {
    const share = summary.ratios.checkedIdeal ?? Number.NaN;
    checks.push({
      budget: `${summary.label}: ≥ ${budgets.readShareOfCheckedIdeal} of its checked ideal endpoint's req/s`,
      measured: `${ratio(share)} (of the bare ideal endpoint: ${ratio(summary.ratios.ideal)})`,
      met: share >= budgets.readShareOfCheckedIdeal,
    });
    const p99Ratio = summary.p99OverCheckedIdealP99 ?? Number.NaN;
    checks.push({
      budget: `${summary.label}: p99 ≤ ${budgets.p99OverCheckedIdealP99}× its checked ideal endpoint's p99, at the run's connections`,
      measured:
        `${ms(summary.product.p99Ms)} vs ${ms(summary.checkedIdeal?.p99Ms)} ms (${ratio(p99Ratio)}×, per round; ` +
        `the bare ideal endpoint: ${ms(summary.ideal?.p99Ms)} ms, ${ratio(summary.p99OverIdealP99)}×)`,
      met: p99Ratio <= budgets.p99OverCheckedIdealP99,
    });
    const steadyP99 = summary.steady?.p99Ms ?? Number.NaN;
    checks.push({
      budget: `${summary.label}: p99 < ${budgets.steadyP99Ms} ms at a steady ${budgets.steadyRatePerSecond} req/s`,
      measured: `${ms(steadyP99)} ms (its ideal endpoint at the same rate: ${ms(summary.steadyIdeal?.p99Ms)} ms)`,
      met: steadyP99 < budgets.steadyP99Ms,
    });
  }
  for (const summary of summaries.filter((s) => s.newUser && s.heavyOverNewP50 !== undefined)) {
    const difference = (summary.heavyOverNewP50 ?? Number.NaN) - 1;
    checks.push({
      budget: `${summary.label}: heavy user's p50 within ${budgets.newVersusHeavy * 100}% of a new user's`,
      measured: `${summary.product.p50Ms.toFixed(1)} vs ${summary.newUser?.p50Ms.toFixed(1)} ms (${signed(difference)}, per round)`,
      met: Math.abs(difference) <= budgets.newVersusHeavy,
    });
  }
  for (const create of summaries.filter((s) => s.kind === 'create')) {
    checks.push({
      budget: `${create.label}: ≥ ${budgets.createsPerSecond}/s (synchronous=FULL)`,
      measured: `${Math.round(create.product.requestsPerSecond)}/s`,
      met: create.product.requestsPerSecond >= budgets.createsPerSecond,
    });
  }
  for (const screen of screens) {
    const kb = screen.js.gzipBytes / KB;
    checks.push({
      budget: `${screen.path}: ≤ ${budgets.firstScreenJsKb} kB of compressed JavaScript`,
      measured: `${kb.toFixed(1)} kB`,
      met: kb <= budgets.firstScreenJsKb,
    });
    if (screen.sizeOnly) continue;
    checks.push({
      budget: `${screen.path}: LCP < ${budgets.lcpMs} ms at ${4}× CPU throttling`,
      measured: `${Math.round(screen.lcpMs)} ms`,
      met: screen.lcpMs < budgets.lcpMs,
    });
  }
  // Each load is held to its own memory budget, and only a load the run put on the server:
  // a run of downloads alone (BENCH_SCENARIOS=summary-pdf) has no peak under load to judge.
  const memoryBudgets = [
    {
      during: 'the reads and creates',
      loads: summaries.filter((s) => s.kind !== 'sign-in'),
      mb: budgets.rssDuringReadsMb,
    },
    {
      during: 'the sign-in burst (Argon2id hashes of 19 MiB in flight)',
      loads: summaries.filter((s) => s.kind === 'sign-in'),
      mb: budgets.rssDuringSignInMb,
    },
  ];
  for (const { during, loads, mb } of memoryBudgets) {
    if (!loads.length) continue;
    const peak = Math.max(...loads.map((s) => s.peakRssBytes)) / MB;
    checks.push({
      budget: `Server RSS during ${during} < ${mb} MB`,
      measured: `${peak.toFixed(0)} MB`,
      met: peak < mb,
    });
  }
  return checks;
}

const signed = (share: number) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(0)}%`;
const count = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '–' : Math.round(value).toLocaleString('en-US');
const ms = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(value < 10 ? 2 : 1);
const ratio = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(2);
const cpu = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(3);
const kb = (bytes: number) => (bytes / KB).toFixed(1);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join(
    '\n',
  );
}

export function formatReport(report: {
  header: string[];
  summaries: ScenarioSummary[];
  memory: { atRestBytes: number; peakUnderLoadBytes: number; highWaterBytes: number };
  screens: ScreenResult[];
  downloads: DownloadResult[];
  checks: BudgetCheck[];
}): string {
  const endpoints = table(
    [
      'endpoint',
      'req/s',
      'p50 ms',
      'p99 ms',
      'ideal req/s',
      'checked req/s',
      'framework req/s',
      'db floor /s',
      `p99 at ${budgets.steadyRatePerSecond}/s`,
      'ideal',
      '÷ ideal',
      '÷ checked',
      '÷ framework',
      '÷ db floor',
    ],
    report.summaries.flatMap((s) => [
      [
        s.label,
        count(s.product.requestsPerSecond),
        ms(s.product.p50Ms),
        ms(s.product.p99Ms),
        count(s.ideal?.requestsPerSecond),
        count(s.checkedIdeal?.requestsPerSecond),
        count(s.framework?.requestsPerSecond),
        count(s.database?.requestsPerSecond),
        ms(s.steady?.p99Ms),
        ms(s.steadyIdeal?.p99Ms),
        ratio(s.ratios.ideal),
        ratio(s.ratios.checkedIdeal),
        ratio(s.ratios.framework),
        ratio(s.ratios.database),
      ],
      ...(s.newUser
        ? [
            [
              `  the same, as the new user`,
              count(s.newUser.requestsPerSecond),
              ms(s.newUser.p50Ms),
              ms(s.newUser.p99Ms),
              '',
              '',
              '',
              '',
              '',
              '',
              '',
              '',
              '',
              '',
            ],
          ]
        : []),
    ]),
  );
  const floors = table(
    [
      'floors, and server CPU per request',
      'ideal p50',
      'ideal p99',
      'checked p99',
      'framework p50',
      'framework p99',
      'db p50',
      'db p99',
      'CPU ms/req',
      'ideal CPU',
      'checked CPU',
      'framework CPU',
      "p99 ÷ ideal's",
      "p99 ÷ checked's",
      'peak RSS MB',
    ],
    report.summaries.map((s) => [
      s.label,
      ms(s.ideal?.p50Ms),
      ms(s.ideal?.p99Ms),
      ms(s.checkedIdeal?.p99Ms),
      ms(s.framework?.p50Ms),
      ms(s.framework?.p99Ms),
      ms(s.database?.p50Ms),
      ms(s.database?.p99Ms),
      cpu(s.product.cpuMsPerRequest),
      cpu(s.ideal?.cpuMsPerRequest),
      cpu(s.checkedIdeal?.cpuMsPerRequest),
      cpu(s.framework?.cpuMsPerRequest),
      ratio(s.p99OverIdealP99),
      ratio(s.p99OverCheckedIdealP99),
      (s.peakRssBytes / MB).toFixed(0),
    ]),
  );
  const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
  const underLoad =
    report.summaries.length > 0
      ? `${mb(report.memory.peakUnderLoadBytes)} at most under load`
      : 'no load in this run';
  const memory = `Server memory (RSS): ${mb(report.memory.atRestBytes)} at rest, ${underLoad} (high-water mark ${mb(report.memory.highWaterBytes)})`;
  const web = table(
    [
      'first screen',
      'JS gzip kB',
      'JS files',
      'JS raw kB',
      'CSS gzip kB',
      'sent kB',
      'FCP ms',
      'LCP ms',
    ],
    report.screens.map((screen) => [
      screen.label,
      kb(screen.js.gzipBytes),
      String(screen.js.files),
      kb(screen.js.rawBytes),
      kb(screen.css.gzipBytes),
      kb(screen.js.wireBytes + screen.css.wireBytes),
      screen.sizeOnly ? '–' : String(Math.round(screen.fcpMs)),
      screen.sizeOnly ? '–' : String(Math.round(screen.lcpMs)),
    ]),
  );
  const downloads = table(
    ['download, one at a time', 'ms', 'MB', 'RSS growth MB'],
    report.downloads.map((download) => [
      download.label,
      String(Math.round(download.ms)),
      (download.bytes / MB).toFixed(1),
      (download.rssGrowthBytes / MB).toFixed(0),
    ]),
  );
  const checks = report.checks.map((check) => `  ${checkLine(check)}`).join('\n');
  return [
    ...report.header,
    '',
    endpoints,
    '',
    floors,
    '',
    memory,
    '',
    downloads,
    '',
    web,
    '',
    'Budgets',
    checks,
    '',
  ].join('\n');
}

/** What bench/run.ts writes to bench/results/*.json, as far as judging it again needs. */
export interface SavedRun {
  startedAt: string;
  commit: string;
  endpoints: ScenarioIdentity[];
  rounds: { key: string; rounds: ScenarioRounds['rounds'] }[];
  memory: { atRestBytes: number; peakUnderLoadBytes: number; highWaterBytes: number };
  web: ScreenResult[];
  downloads: DownloadResult[];
}

/**
 * A saved run's figures summarised again from its rounds and held to the budgets as they are
 * now (bench/config.ts), without measuring again: the report it would print today.
 */
export function rejudge(run: SavedRun): string {
  const summaries = summarise(
    run.rounds.map(({ key, rounds }) => {
      const scenario = run.endpoints.find((endpoint) => endpoint.key === key);
      if (!scenario) throw new Error(`${key}: rounds of an endpoint the run does not name`);
      return { scenario, rounds };
    }),
  );
  return formatReport({
    header: [
      `Kin Health benchmark of ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC, commit ${run.commit.slice(0, 7)}: its figures judged again against today's budgets`,
    ],
    summaries,
    memory: run.memory,
    screens: run.web,
    downloads: run.downloads,
    checks: checkBudgets(summaries, run.web, run.downloads),
  });
}
