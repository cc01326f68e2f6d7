/**
 * The memory budget is held to what the run measured: a run that put no load on the server
 * (only downloads, `BENCH_SCENARIOS=summary-pdf`) has no peak under load to judge.
 */
import { describe, expect, it } from 'vitest';
import type { DownloadResult } from './downloads';
import { checkBudgets, formatReport, type ScenarioSummary } from './report';

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
