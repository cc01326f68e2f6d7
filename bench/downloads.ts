/**
 * The files a user waits for (a FHIR export, a summary): one request at a time, as the
 * heavy user's busiest person, timed from the request to the last byte, with the server's
 * memory sampled while it answers. Each has its own budget: a time, and for a streamed one
 * how much the server's memory may grow while it answers (flat memory, whatever the size).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerProcess } from './processes';

export interface DownloadScenario {
  key: string;
  label: string;
  /** Fetched one after the other; the time is until the last byte of the last. */
  paths: string[];
  /** The answer's media type, checked so that an error page is never timed. */
  contentType: string;
  budgetMs: number;
  /** For a streamed answer: the most the server's RSS may grow while it answers. */
  memoryGrowthMb?: number;
  /** Asked by the household's grantee (default: the heavy user). */
  asGrantee?: boolean;
}

export interface DownloadResult {
  key: string;
  label: string;
  /** Medians over the measured requests. */
  ms: number;
  bytes: number;
  rssGrowthBytes: number;
  budgetMs: number;
  memoryGrowthMb?: number;
}

/**
 * What the heavy user downloads: their whole account as one JSON file ('Download my data'),
 * every person's FHIR bundle in turn (their whole history, 20,000 records), the busiest
 * person's alone, that person's summary as FHIR and as a PDF, today's doses, every person's
 * vaccine schedule and the timeline's vaccines due, a document's 'Attached To' choices, and
 * what a calendar app reads each hour.
 */
export function buildDownloads(context: {
  personIds: string[];
  busiestId: string;
  today: string;
  /** The heavy user's private calendar feed, everyone's visits and shots. */
  calendarPath: string;
}): DownloadScenario[] {
  // The seeded contacts care for no one (the whole family's): asked for, so that each
  // person's download carries the whole care team, as it did before contacts had persons.
  const everything = (id: string) =>
    `/api/fhir/Patient/${id}/$everything?today=${context.today}&contacts=whole-family`;
  return [
    {
      // Profile Settings' 'Download my data': written as it is read, a page of rows at a
      // time, so held to the same flat memory as $everything.
      key: 'data-export',
      label: "'Download my data', the heavy user's whole account",
      paths: ['/api/export'],
      contentType: 'application/json',
      budgetMs: 2000,
      memoryGrowthMb: 64,
    },
    {
      key: 'fhir-everything-all',
      label: 'FHIR $everything, every person in turn',
      paths: context.personIds.map(everything),
      contentType: 'application/fhir+json',
      budgetMs: 2000,
      memoryGrowthMb: 64,
    },
    {
      key: 'fhir-everything',
      label: 'FHIR $everything, busiest person',
      paths: [everything(context.busiestId)],
      contentType: 'application/fhir+json',
      budgetMs: 2000,
      memoryGrowthMb: 64,
    },
    {
      key: 'fhir-summary',
      label: 'FHIR $summary (IPS), busiest person',
      paths: [`/api/fhir/Patient/${context.busiestId}/$summary?today=${context.today}`],
      contentType: 'application/fhir+json',
      budgetMs: 1000,
    },
    {
      key: 'doses-today',
      label: "Today's doses checklist (p50)",
      paths: [`/api/doses?today=${context.today}`],
      contentType: 'application/json',
      budgetMs: 10,
    },
    {
      // Issue 38's budget: every person's Schedule tab in turn, computed by CDSi from their
      // shots (the account holder's answer says no date of birth: no plan to compute).
      key: 'vaccine-schedule-family',
      label: "Vaccine schedule, the heavy user's whole family (p50)",
      paths: context.personIds.map(
        (id) => `/api/persons/${id}/vaccine-schedule?today=${context.today}`,
      ),
      contentType: 'application/json',
      budgetMs: 50,
    },
    {
      // The timeline's 'Vaccines due': every member's plan, counted per person.
      key: 'vaccines-due',
      label: "Timeline's vaccines due, the heavy user's whole family (p50)",
      paths: [`/api/timeline/vaccine-doses?today=${context.today}`],
      contentType: 'application/json',
      budgetMs: 50,
    },
    {
      // 'Edit Document' → 'Attached To': every record of the busiest person, named.
      key: 'document-attach-choices',
      label: "A document's 'Attached To' choices, busiest person (p50)",
      paths: [`/api/persons/${context.busiestId}/attachable-records`],
      contentType: 'application/json',
      budgetMs: 100,
    },
    {
      // Issue 35: the trend /vitals draws, every entry of the busiest person in one answer.
      key: 'vitals-trend',
      label: 'Vitals trend, busiest person (p50)',
      paths: [`/api/persons/${context.busiestId}/vitals`],
      contentType: 'application/json',
      budgetMs: 20,
    },
    {
      key: 'calendar-feed',
      label: 'Calendar feed, everyone (p50)',
      paths: [context.calendarPath],
      contentType: 'text/calendar',
      budgetMs: 20,
    },
    {
      key: 'timeline-owner',
      label: 'Timeline, first page, the owner (p50)',
      paths: ['/api/timeline'],
      contentType: 'application/json',
      budgetMs: 10,
    },
    {
      // Another account that every person of the heavy user's is shared with (Viewer): the
      // same 20,000 records, reached through six grants.
      key: 'timeline-grantee',
      label: 'Timeline, first page, a grantee of all six persons (p50)',
      paths: ['/api/timeline'],
      contentType: 'application/json',
      budgetMs: 20,
      asGrantee: true,
    },
    {
      key: 'summary-pdf',
      label: 'Summary PDF, busiest person',
      paths: [
        `/api/persons/${context.busiestId}/summary.pdf?today=${context.today}&tz=Europe/Oslo&contacts=whole-family`,
      ],
      contentType: 'application/pdf',
      budgetMs: 500,
    },
  ];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function downloadOnce(
  urls: string[],
  headers: Record<string, string>,
  scenario: DownloadScenario,
  server: ServerProcess,
): Promise<{ ms: number; bytes: number; rssGrowthBytes: number }> {
  const before = server.rss();
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, server.rss());
      await sleep(10);
    }
  })();
  const started = performance.now();
  let bytes = 0;
  let ms: number | undefined;
  try {
    for (const url of urls) {
      const response = await fetch(url, { headers });
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok || !type.startsWith(scenario.contentType)) {
        throw new Error(`${scenario.key}: ${response.status} ${await response.text()}`);
      }
      for await (const chunk of response.body ?? []) bytes += (chunk as Uint8Array).byteLength;
    }
    // Timed at the last byte: the memory sampler's own wait (up to 10 ms) is not the answer's.
    ms = performance.now() - started;
  } finally {
    sampling = false;
    await sampler;
  }
  return { ms: ms ?? Number.NaN, bytes, rssGrowthBytes: peak - before };
}

/** One warm-up request, then `times` measured ones, one after another. */
export async function measureDownload(
  baseUrl: string,
  cookie: string,
  scenario: DownloadScenario,
  server: ServerProcess,
  times: number,
): Promise<DownloadResult> {
  const urls = scenario.paths.map((path) => baseUrl + path);
  const headers = { cookie };
  await downloadOnce(urls, headers, scenario, server);
  const runs = [];
  for (let index = 0; index < times; index += 1) {
    runs.push(await downloadOnce(urls, headers, scenario, server));
  }
  return {
    key: scenario.key,
    label: scenario.label,
    ms: median(runs.map((run) => run.ms)),
    bytes: median(runs.map((run) => run.bytes)),
    rssGrowthBytes: Math.max(...runs.map((run) => run.rssGrowthBytes)),
    budgetMs: scenario.budgetMs,
    memoryGrowthMb: scenario.memoryGrowthMb,
  };
}
