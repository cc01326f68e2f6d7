/**
 * Today's doses over the API: the checklist of due doses per time of day and person,
 * marking taken or skipped and undoing, 'As Needed' logging, adherence over 30 days with
 * missed doses derived, and no one else's medications.
 */
import { describe, expect, it } from 'vitest';
import {
  addDays,
  adherenceOf,
  dueSlots,
  type Adherence,
  type TodayDoses,
} from '../../shared/doses';
import { sampleRecord } from '../test/factories';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';

const server = useTestServer();
const TODAY = '2026-06-15';

async function medication(client: TestClient, overrides: Record<string, unknown>) {
  const response = await client.post<{ id: string }>(
    '/api/medications',
    sampleRecord('medication', {
      time_morning: false,
      time_noon: false,
      time_evening: false,
      time_night: false,
      start_date: '2026-06-01',
      end_date: null,
      ...overrides,
    }),
  );
  expect(response.status).toBe(201);
  return response.body.id;
}

const today = (client: TestClient, day = TODAY) =>
  client.get<TodayDoses>(`/api/doses?today=${day}`);

describe('the dose schedule', () => {
  const daily = {
    frequency: 'Daily',
    start_date: '2026-06-10',
    end_date: '2026-06-20',
    time_morning: true,
    time_noon: false,
    time_evening: false,
    time_night: true,
  };

  it('is due in each marked time of day between start and end, weekly on the start’s weekday, never as needed', () => {
    expect(dueSlots(daily, '2026-06-09')).toEqual([]);
    expect(dueSlots(daily, '2026-06-10')).toEqual(['Morning', 'Night']);
    expect(dueSlots(daily, '2026-06-20')).toEqual(['Morning', 'Night']);
    expect(dueSlots(daily, '2026-06-21')).toEqual([]);
    const weekly = { ...daily, frequency: 'Weekly', end_date: null };
    expect(dueSlots(weekly, '2026-06-17')).toEqual(['Morning', 'Night']);
    expect(dueSlots(weekly, '2026-06-18')).toEqual([]);
    expect(dueSlots({ ...daily, frequency: 'As Needed' }, '2026-06-12')).toEqual([]);
  });

  it('counts adherence as taken over due, a day’s unmarked doses missed once it is over', () => {
    const marks = [
      { day: '2026-06-13', slot: 'Morning' as const, status: 'taken' as const },
      { day: '2026-06-13', slot: 'Night' as const, status: 'taken' as const },
      { day: '2026-06-14', slot: 'Morning' as const, status: 'skipped' as const },
      { day: '2026-06-15', slot: 'Morning' as const, status: 'taken' as const },
    ];
    const result: Adherence = adherenceOf(daily, marks, '2026-06-15');
    // Due: the 10th to the 14th (10 doses) and this morning's, marked; tonight's is not yet due.
    expect(result).toMatchObject({ taken: 3, skipped: 1, missed: 7 });
    expect(result.ratio).toBeCloseTo(3 / 11);
    expect(result.strip).toHaveLength(14);
    expect(result.strip.at(-1)).toEqual({ day: '2026-06-15', status: 'partly' });
    expect(result.strip.at(-3)).toEqual({ day: '2026-06-13', status: 'taken' });
    expect(result.strip.at(-2)).toEqual({ day: '2026-06-14', status: 'missed' });
    expect(result.strip[0]).toEqual({ day: addDays('2026-06-15', -13), status: 'none' });
  });
});

describe('/api/doses', () => {
  it('lists today’s due doses per time of day and person, and marks, re-marks and undoes them', async () => {
    const { client } = await signedUpClient(server);
    const leo = await client.post<{ id: string }>('/api/family-members', {
      name: 'Leo',
      color: '#3b82f6',
    });
    const lisinopril = await medication(client, {
      medication_name: 'Lisinopril',
      time_morning: true,
      time_night: true,
    });
    await medication(client, {
      medication_name: 'Amoxicillin',
      time_noon: true,
      family_member_id: leo.body.id,
    });
    await medication(client, {
      medication_name: 'Ended',
      time_morning: true,
      end_date: '2026-06-14',
    });
    const ibuprofen = await medication(client, {
      medication_name: 'Ibuprofen',
      frequency: 'As Needed',
    });

    const before = (await today(client)).body;
    expect(before.doses.map((dose) => `${dose.medication_name} ${dose.slot}`)).toEqual([
      'Amoxicillin Noon',
      'Lisinopril Morning',
      'Lisinopril Night',
    ]);
    expect(before.doses[0]).toMatchObject({ family_member_name: 'Leo', mark: null });
    expect(before.as_needed.map((item) => item.medication_name)).toEqual(['Ibuprofen']);

    const taken = await client.post<{ id: string; status: string; marked_at: string }>(
      '/api/doses',
      { medication_id: lisinopril, day: TODAY, slot: 'Morning', status: 'taken' },
    );
    expect(taken.status).toBe(201);
    const skipped = await client.post<{ id: string }>('/api/doses', {
      medication_id: lisinopril,
      day: TODAY,
      slot: 'Night',
      status: 'skipped',
    });
    // Marked again: the new mark replaces the old.
    await client.post('/api/doses', {
      medication_id: lisinopril,
      day: TODAY,
      slot: 'Night',
      status: 'taken',
    });
    await client.post('/api/doses', {
      medication_id: ibuprofen,
      day: TODAY,
      slot: 'As Needed',
      status: 'taken',
    });
    const after = (await today(client)).body;
    expect(after.doses.map((dose) => dose.mark?.status ?? null)).toEqual([null, 'taken', 'taken']);
    expect(after.as_needed[0]?.taken).toHaveLength(1);
    expect((await client.delete(`/api/doses/${skipped.body.id}`)).status).toBe(404);

    expect((await client.delete(`/api/doses/${taken.body.id}`)).status).toBe(204);
    expect((await today(client)).body.doses[1]?.mark).toBeNull();

    const adherence = await client.get<Adherence>(
      `/api/doses/adherence/${lisinopril}?today=${TODAY}`,
    );
    expect(adherence.status).toBe(200);
    // From the 1st to the 14th: 28 doses missed; today: Night taken, Morning still due.
    expect(adherence.body).toMatchObject({ taken: 1, skipped: 0, missed: 28 });
  });

  it('refuses a dose that is not due, a bad field, and anyone else’s medication', async () => {
    const { client } = await signedUpClient(server);
    const lisinopril = await medication(client, {
      medication_name: 'Lisinopril',
      time_morning: true,
    });
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ medication_id: lisinopril, day: TODAY, slot: 'Noon', status: 'taken' }, 'slot'],
      [{ medication_id: lisinopril, day: '2026-05-01', slot: 'Morning', status: 'taken' }, 'slot'],
      [{ medication_id: lisinopril, day: TODAY, slot: 'As Needed', status: 'taken' }, 'slot'],
      [{ medication_id: lisinopril, day: 'today', slot: 'Morning', status: 'taken' }, 'day'],
      [{ medication_id: lisinopril, day: TODAY, slot: 'Morning', status: 'maybe' }, 'status'],
      [{ medication_id: 'x', day: TODAY, slot: 'Morning', status: 'taken' }, 'medication_id'],
    ];
    for (const [body, field] of refusals) {
      const response = await client.post<{ field: string }>('/api/doses', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.field).toBe(field);
    }

    const { client: other } = await signedUpClient(server);
    const mark = await other.post('/api/doses', {
      medication_id: lisinopril,
      day: TODAY,
      slot: 'Morning',
      status: 'taken',
    });
    expect(mark.status).toBe(404);
    expect((await other.get(`/api/doses/adherence/${lisinopril}?today=${TODAY}`)).status).toBe(404);
    expect((await today(other)).body.doses).toEqual([]);
    expect((await today(client)).body.doses[0]?.mark).toBeNull();
  });

  it('takes a medication’s log with it when it is deleted', async () => {
    const { client } = await signedUpClient(server);
    const lisinopril = await medication(client, {
      medication_name: 'Lisinopril',
      time_morning: true,
    });
    await client.post('/api/doses', {
      medication_id: lisinopril,
      day: TODAY,
      slot: 'Morning',
      status: 'taken',
    });
    expect((await client.delete(`/api/medications/${lisinopril}`)).status).toBe(204);
    const left = await server.db
      .selectFrom('dose_log')
      .select('id')
      .where('medication_id', '=', lisinopril)
      .execute();
    expect(left).toEqual([]);
  });
});
