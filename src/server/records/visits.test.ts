/** Visits: upcoming from now on (soonest first), past before now (latest first). */
import { describe, expect, it } from 'vitest';
import { sampleRecord } from '../test/factories';
import { useTestServer, signedUpClient } from '../test/harness';

const server = useTestServer();

type Page = {
  items: { visit_name: string; visit_date: string }[];
  counts: Record<string, number>;
  next: number | null;
};
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('visits', () => {
  it('split at now into upcoming (ascending) and past (descending), with counts', async () => {
    const { client } = await signedUpClient(server);
    for (const [name, minutes] of [
      ['Past far', -60 * 24 * 30],
      ['Future far', 60 * 24 * 30],
      ['Past near', -5],
      ['Future near', 5],
    ] as const) {
      await client.post(
        '/api/visits',
        sampleRecord('visit', { visit_name: name, visit_date: inMinutes(minutes) }),
      );
    }
    const upcoming = await client.get<Page>('/api/visits?view=upcoming');
    expect(upcoming.body.items.map((visit) => visit.visit_name)).toEqual([
      'Future near',
      'Future far',
    ]);
    expect(upcoming.body.counts).toEqual({ upcoming: 2, past: 2 });
    const past = await client.get<Page>('/api/visits?view=past');
    expect(past.body.items.map((visit) => visit.visit_name)).toEqual(['Past near', 'Past far']);
    const all = await client.get<Page>('/api/visits');
    expect(all.body.items.map((visit) => visit.visit_name)).toEqual([
      'Future far',
      'Future near',
      'Past near',
      'Past far',
    ]);
  });

  it('store the time in UTC whatever offset it was sent with', async () => {
    const { client } = await signedUpClient(server);
    const created = await client.post<{ visit_date: string }>(
      '/api/visits',
      sampleRecord('visit', { visit_date: '2030-03-04T09:30:00+05:30' }),
    );
    expect(created.body.visit_date).toBe('2030-03-04T04:00:00.000Z');
  });

  it.each([
    '2030-03-04',
    '2030-03-04T09:30',
    '2030-02-30T09:30:00Z',
    '2030-03-04T25:00:00Z',
    'soon',
  ])('refuse a visit date of %j', async (visitDate) => {
    const { client } = await signedUpClient(server);
    const response = await client.post<{ field: string; message: string }>(
      '/api/visits',
      sampleRecord('visit', { visit_date: visitDate }),
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      field: 'visit_date',
      message: 'Visit Date must be a date and time',
    });
  });

  it('page through long lists', async () => {
    const { client } = await signedUpClient(server);
    for (let index = 0; index < 7; index += 1) {
      await client.post(
        '/api/visits',
        sampleRecord('visit', { visit_name: `Visit ${index}`, visit_date: inMinutes(60 + index) }),
      );
    }
    const first = await client.get<Page>('/api/visits?view=upcoming&limit=3');
    expect(first.body.items.map((visit) => visit.visit_name)).toEqual([
      'Visit 0',
      'Visit 1',
      'Visit 2',
    ]);
    expect(first.body.next).toBe(3);
    const last = await client.get<Page>('/api/visits?view=upcoming&limit=3&offset=6');
    expect(last.body.items.map((visit) => visit.visit_name)).toEqual(['Visit 6']);
    expect(last.body.next).toBeNull();
    expect(last.body.counts.upcoming).toBe(7);
  });
});
