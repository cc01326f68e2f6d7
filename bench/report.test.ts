/**
 * The memory budget is held to what the run measured: a run that put no load on the server
 * (only downloads, `BENCH_SCENARIOS=summary-pdf`) has no peak under load to judge. A read's
 * share of its checked ideal endpoint (the session check and the headers included) is
 * reported beside its share of the ideal one; the budgets stay with the ideal one.
 */
import { describe, expect, it } from 'vitest';
import type { DownloadResult } from './downloads';
import { checkBudgets, formatReport, summarise, type ScenarioSummary } from './report';
import type { Scenario } from './scenarios';

const MB = 1000 * 1000;

const pdf: DownloadResult = {
  key: 'summary-pdf',
  label: 'Summary PDF, busiest person',
  ms: 480,
  bytes: 0.3 * MB,
  rssGrowthBytes: 30 * MB,
  budgetMs: 500,
};

const creates: ScenarioSummary = {
  key: 'create-visit',
  label: 'Create a visit',
  kind: 'create',
  product: { requestsPerSecond: 1500, p50Ms: 30, p99Ms: 60 },
  ratios: {},
  unexpectedResponses: 0,
  peakRssBytes: 190 * MB,
};

const memory = (peakUnderLoadBytes: number) => ({
  atRestBytes: 110 * MB,
  peakUnderLoadBytes,
  highWaterBytes: 140 * MB,
});

const rssCheck = (checks: ReturnType<typeof checkBudgets>) =>
  checks.find((check) => check.budget.startsWith('Server RSS under load'));

describe('the memory budget', () => {
  it('is checked against the peak under load when the run put load on the server', () => {
    expect(rssCheck(checkBudgets([creates], memory(190 * MB), [], [pdf]))).toEqual({
      budget: 'Server RSS under load < 200 MB',
      measured: '190 MB',
      met: true,
    });
    expect(rssCheck(checkBudgets([creates], memory(214 * MB), [], [pdf]))?.met).toBe(false);
  });

  it('is left out, not called met, when the run only downloaded', () => {
    const checks = checkBudgets([], memory(0), [], [pdf]);
    expect(rssCheck(checks)).toBeUndefined();
    expect(checks.map((check) => check.budget)).toEqual([
      'Summary PDF, busiest person: < 500 ms to the last byte',
    ]);
    const report = formatReport({
      header: [],
      summaries: [],
      memory: memory(0),
      screens: [],
      downloads: [pdf],
      checks,
    });
    expect(report).toContain(
      'Server memory (RSS): 110 MB at rest, no load in this run (high-water mark 140 MB)',
    );
  });
});

describe('the checked ideal endpoint', () => {
  const visit = { key: 'visit-detail', label: 'One visit (detail)', detail: true, kind: 'read' };
  const at = (requestsPerSecond: number) => ({
    requestsPerSecond,
    p50Ms: 2,
    p99Ms: 4,
    requests: requestsPerSecond * 4,
  });
  const [summary] = summarise([
    {
      scenario: visit as Scenario,
      rounds: [
        { product: at(8000), ideal: at(32000), checkedIdeal: at(11000) },
        { product: at(9000), ideal: at(30000), checkedIdeal: at(12000) },
        { product: at(7000), ideal: at(31000), checkedIdeal: at(10000) },
      ],
    },
  ]);

  it('gives a read its share of the checked ideal, round by round, beside the ideal', () => {
    // 8000/11000, 9000/12000, 7000/10000: the median of the rounds' ratios is 0.727.
    expect(summary?.ratios.checkedIdeal).toBeCloseTo(8000 / 11000, 5);
    expect(summary?.ratios.ideal).toBeCloseTo(8000 / 32000, 5);
    const report = formatReport({
      header: [],
      summaries: summary ? [summary] : [],
      memory: memory(150 * MB),
      screens: [],
      downloads: [],
      checks: [],
    });
    const row = report.split('\n').find((line) => line.startsWith('One visit (detail) '));
    expect(report).toContain('÷ checked');
    expect(report).toContain("p99 ÷ checked's");
    expect(row).toContain('11,000');
    expect(row).toContain('0.73');
  });

  it('leaves the budgets with the ideal endpoint', () => {
    const checks = checkBudgets(summary ? [summary] : [], memory(150 * MB), [], []);
    expect(checks.find((check) => check.budget.includes('of its ideal endpoint'))).toEqual({
      budget: "One visit (detail): ≥ 0.4 of its ideal endpoint's req/s",
      measured: '0.25',
      met: false,
    });
  });
});
