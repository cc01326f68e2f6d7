/**
 * Medications: current with no end date or one of today or later; past with an earlier one.
 * "Today" is the browser's calendar date, sent with the request.
 */
import { describe, expect, it } from 'vitest';
import { END_BEFORE_START_MESSAGE } from '../../shared/records/medications';
import { sampleRecord } from '../test/factories';
import { useTestServer, signedUpClient } from '../test/harness';

const server = useTestServer();

type Page = {
  items: { medication_name: string; time_morning: boolean }[];
  counts: Record<string, number>;
};

describe('medications', () => {
  it('are current until the end of their end date, in the browser’s today', async () => {
    const { client } = await signedUpClient(server);
    const add = (name: string, start: string | null, end: string | null) =>
      client.post(
        '/api/medications',
        sampleRecord('medication', { medication_name: name, start_date: start, end_date: end }),
      );
    await add('Ongoing', '2026-01-01', null);
    await add('Ends today', '2026-03-01', '2026-06-15');
    await add('Ended yesterday', '2026-02-01', '2026-06-14');
    await add('Ended long ago', '2025-01-01', '2025-02-01');
    await add('Starts later', '2026-07-01', null);

    const current = await client.get<Page>('/api/medications?view=current&today=2026-06-15');
    expect(current.body.items.map((medication) => medication.medication_name)).toEqual([
      'Starts later',
      'Ends today',
      'Ongoing',
    ]);
    const past = await client.get<Page>('/api/medications?view=past&today=2026-06-15');
    expect(past.body.items.map((medication) => medication.medication_name)).toEqual([
      'Ended yesterday',
      'Ended long ago',
    ]);
    expect(past.body.counts).toEqual({ current: 3, past: 2 });

    // A day later, in the browser's calendar, the one that ended today is past.
    const nextDay = await client.get<Page>('/api/medications?view=past&today=2026-06-16');
    expect(nextDay.body.items.map((medication) => medication.medication_name)).toContain(
      'Ends today',
    );
  });

  it('keep their times of day as booleans', async () => {
    const { client } = await signedUpClient(server);
    const created = await client.post<Record<string, boolean>>(
      '/api/medications',
      sampleRecord('medication', {
        time_morning: true,
        time_noon: false,
        time_evening: true,
        time_night: false,
      }),
    );
    expect(created.body).toMatchObject({
      time_morning: true,
      time_noon: false,
      time_evening: true,
      time_night: false,
    });
    const missing = await client.post<Record<string, boolean>>('/api/medications', {
      medication_name: 'Plain',
    });
    expect(missing.body).toMatchObject({
      time_morning: false,
      time_noon: false,
      time_evening: false,
      time_night: false,
    });
  });

  it('refuse an end date before the start date', async () => {
    const { client } = await signedUpClient(server);
    const response = await client.post(
      '/api/medications',
      sampleRecord('medication', { start_date: '2026-05-02', end_date: '2026-05-01' }),
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ field: 'end_date', message: END_BEFORE_START_MESSAGE });
  });

  it('refuse a frequency outside the list and a time of day that is not a yes or no', async () => {
    const { client } = await signedUpClient(server);
    const frequency = await client.post(
      '/api/medications',
      sampleRecord('medication', { frequency: 'Hourly' }),
    );
    expect(frequency.body).toMatchObject({
      field: 'frequency',
      message: 'Frequency must be one of: Daily, Twice Daily, Weekly, As Needed',
    });
    const flag = await client.post(
      '/api/medications',
      sampleRecord('medication', { time_noon: 'yes' }),
    );
    expect(flag.body).toMatchObject({ field: 'time_noon', message: 'Noon must be true or false' });
  });
});
