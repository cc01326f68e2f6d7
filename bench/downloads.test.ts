/**
 * 'Download my data' is one of the files a user waits for: the whole account as one JSON
 * file (GET /api/export, 9.4 MB for the heavy user), timed to its last byte like the FHIR
 * downloads, and selectable on its own with BENCH_SCENARIOS.
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
  it("include 'Download my data', the whole account as JSON, within 2 s", () => {
    const exported = downloads.find((download) => download.paths.includes('/api/export'));
    expect(exported).toMatchObject({
      key: 'data-export',
      label: "'Download my data', the heavy user's whole account",
      paths: ['/api/export'],
      contentType: 'application/json',
      budgetMs: 2000,
    });
  });

  it('each have a key of their own, so that BENCH_SCENARIOS can name one', () => {
    const keys = downloads.map((download) => download.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
