/**
 * 'Download my data' is one of the files a user waits for: the whole account as one JSON
 * file (GET /api/export, 9.4 MB for the heavy user), timed to its last byte like the FHIR
 * downloads, its memory held flat as theirs (it is written as it is read), and selectable on
 * its own with BENCH_SCENARIOS.
 */
import { describe, expect, it } from 'vitest';
import { buildDownloads } from './downloads';

const downloads = buildDownloads({
  personIds: ['holder', 'member'],
  busiestId: 'member',
  today: '2026-11-27',
  calendarPath: '/api/calendar/token.ics',
});

describe('the downloads measured', () => {
  it("include 'Download my data', the whole account as JSON, within 2 s and 64 MB more memory", () => {
    const exported = downloads.find((download) => download.paths.includes('/api/export'));
    expect(exported).toMatchObject({
      key: 'data-export',
      label: "'Download my data', the heavy user's whole account",
      paths: ['/api/export'],
      contentType: 'application/json',
      budgetMs: 2000,
      memoryGrowthMb: 64,
    });
  });

  it("include the vaccine schedule of the heavy user's whole family, every person's in turn, within 50 ms (p50)", () => {
    expect(downloads.find((download) => download.key === 'vaccine-schedule-family')).toEqual({
      key: 'vaccine-schedule-family',
      label: "Vaccine schedule, the heavy user's whole family (p50)",
      paths: [
        '/api/persons/holder/vaccine-schedule?today=2026-11-27',
        '/api/persons/member/vaccine-schedule?today=2026-11-27',
      ],
      contentType: 'application/json',
      budgetMs: 50,
    });
  });

  it("include the timeline's vaccines due and a document's 'Attached To' choices", () => {
    expect(downloads.find((download) => download.key === 'vaccines-due')).toMatchObject({
      paths: ['/api/timeline/vaccine-doses?today=2026-11-27'],
      budgetMs: 50,
    });
    expect(downloads.find((download) => download.key === 'document-attach-choices')).toMatchObject({
      paths: ['/api/persons/member/attachable-records'],
      budgetMs: 100,
    });
  });

  it('each have a key of their own, so that BENCH_SCENARIOS can name one', () => {
    const keys = downloads.map((download) => download.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
