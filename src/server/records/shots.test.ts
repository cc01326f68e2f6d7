/** Shots: upcoming from today on, past before; undated shots are in neither list. */
import { describe, expect, it } from 'vitest';
import { sampleRecord } from '../test/factories';
import { useTestServer, signedUpClient } from '../test/harness';

const server = useTestServer();

type Page = { items: { shot_name: string }[]; counts: Record<string, number> };

describe('shots', () => {
  it('split at the browser’s today; a shot dated today is upcoming; undated ones are in neither', async () => {
    const { client } = await signedUpClient(server);
    for (const [name, date] of [
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
    expect(upcoming.body.items.map((shot) => shot.shot_name)).toEqual(['Today', 'Next year']);
    const past = await client.get<Page>('/api/shots?view=past&today=2026-06-15');
    expect(past.body.items.map((shot) => shot.shot_name)).toEqual(['Yesterday', 'Last year']);
    expect(past.body.counts).toEqual({ upcoming: 2, past: 2 });
    const all = await client.get<Page>('/api/shots');
    expect(all.body.items.map((shot) => shot.shot_name)).toContain('Undated');
  });
});
