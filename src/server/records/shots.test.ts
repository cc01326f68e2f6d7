/** Shots: upcoming after today, past (given) today and before; undated ones in neither list. */
import { describe, expect, it } from 'vitest';
import { sampleRecord } from '../test/factories';
import { useTestServer, signedUpClient } from '../test/harness';

const server = useTestServer();

type Page = { items: { shot_name: string }[]; counts: Record<string, number> };

describe('shots', () => {
  it('split at the browser’s today; a shot dated today is past (given); undated ones are in neither', async () => {
    const { client } = await signedUpClient(server);
    for (const [name, date] of [
      ['Tomorrow', '2026-06-16'],
      ['Today', '2026-06-15'],
      ['Yesterday', '2026-06-14'],
      ['Next year', '2027-06-15'],
      ['Last year', '2025-06-15'],
      ['Undated', null],
    ] as const) {
      await client.post(
        '/api/shots',
        sampleRecord('shot', { shot_name: name, date_administered: date }),
      );
    }
    const upcoming = await client.get<Page>('/api/shots?view=upcoming&today=2026-06-15');
    expect(upcoming.body.items.map((shot) => shot.shot_name)).toEqual(['Tomorrow', 'Next year']);
    const past = await client.get<Page>('/api/shots?view=past&today=2026-06-15');
    expect(past.body.items.map((shot) => shot.shot_name)).toEqual([
      'Today',
      'Yesterday',
      'Last year',
    ]);
    expect(past.body.counts).toEqual({ upcoming: 2, past: 3 });
    const all = await client.get<Page>('/api/shots');
    expect(all.body.items.map((shot) => shot.shot_name)).toContain('Undated');
  });
});
