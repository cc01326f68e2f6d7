/**
 * Today's doses over the API: the checklist of due doses per time of day and person,
 * marking taken or skipped and undoing, 'As Needed' logging, adherence over 30 days with
 * missed doses derived from the day the medication was added (days before it are not
 * tracked unless back-filled), and no one else's medications.
 */
import { describe, expect, it } from 'vitest';
import { calendarDayOf } from '../../shared/date-values';
import {
  addDays,
  adherenceOf,
  dueSlots,
  trackedFrom,
  type Adherence,
  type TodayDoses,
} from '../../shared/doses';
import { sampleRecord } from '../test/factories';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';

const server = useTestServer();
/** The server's today: marks are taken up to 30 days back, never for a future day. */
const TODAY = calendarDayOf(new Date());

async function medication(client: TestClient, overrides: Record<string, unknown>) {
  const response = await client.post<{ id: string }>(
    '/api/medications',
    sampleRecord('medication', {
      time_morning: false,
      time_noon: false,
      time_evening: false,
      time_night: false,
      start_date: addDays(TODAY, -14),
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
    created_at: '2026-06-01T09:00:00.000Z',
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
    expect(result.strip.at(-1)).toEqual({
      day: '2026-06-15',
      status: 'partly',
      doses: [
        { slot: 'Morning', state: 'taken' },
        { slot: 'Night', state: 'due' },
      ],
    });
    expect(result.strip.at(-3)).toMatchObject({ day: '2026-06-13', status: 'taken' });
    expect(result.strip.at(-2)).toMatchObject({ day: '2026-06-14', status: 'missed' });
    expect(result.strip[0]).toEqual({ day: addDays('2026-06-15', -13), status: 'none', doses: [] });
  });

  it('tracks from the later of the start and the day added: earlier days are not tracked, not missed', () => {
    // Entered on the 15th with a start two months before: nothing is missed.
    const entered = { ...daily, start_date: '2026-04-15', end_date: null };
    const added = { ...entered, created_at: '2026-06-15T08:00:00.000Z' };
    const result = adherenceOf(added, [], '2026-06-15');
    expect(result).toMatchObject({ ratio: null, taken: 0, missed: 0, not_tracked: 58 });
    expect(result.tracked_from).toBe('2026-06-15');
    expect(result.strip.at(-2)).toMatchObject({ day: '2026-06-14', status: 'untracked' });
    expect(result.strip.at(-1)).toMatchObject({ day: '2026-06-15', status: 'due' });

    // A past day back-filled is tracked: its unmarked dose is missed.
    const filled = adherenceOf(
      added,
      [{ day: '2026-06-14', slot: 'Morning', status: 'taken' }],
      '2026-06-15',
    );
    expect(filled).toMatchObject({ taken: 1, missed: 1, not_tracked: 56 });
    expect(filled.strip.at(-2)).toMatchObject({ status: 'partly' });

    // Added late in a day somewhere east of UTC, or any time in the west: that day is the
    // first one tracked, never the one before.
    expect(trackedFrom({ start_date: null, created_at: '2026-06-14T22:30:00.000Z' })).toBe(
      '2026-06-15',
    );
    expect(trackedFrom({ start_date: '2026-07-01', created_at: '2026-06-14T09:00:00.000Z' })).toBe(
      '2026-07-01',
    );
  });

  it('is due once at Any time for a scheduled medication with no set time', () => {
    const untimed = { ...daily, time_morning: false, time_night: false };
    expect(dueSlots(untimed, '2026-06-12')).toEqual(['Any time']);
    expect(dueSlots({ ...untimed, frequency: 'As Needed' }, '2026-06-12')).toEqual([]);
    expect(dueSlots({ ...untimed, frequency: null }, '2026-06-12')).toEqual([]);
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
      end_date: addDays(TODAY, -1),
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
    // Added today with a start two weeks ago: those 28 doses are not tracked, not missed;
    // today: Night taken, Morning still due.
    expect(adherence.body).toMatchObject({ taken: 1, skipped: 0, missed: 0, not_tracked: 28 });
  });

  it('lists what ends today or later beside what has no end, in one name order; not what starts tomorrow', async () => {
    const { client } = await signedUpClient(server);
    await medication(client, { medication_name: 'Lisinopril', time_morning: true });
    await medication(client, { medication_name: 'Metformin', time_morning: true, end_date: TODAY });
    await medication(client, {
      medication_name: 'Betaxolol',
      time_evening: true,
      end_date: addDays(TODAY, 10),
    });
    await medication(client, { medication_name: 'Amoxicillin', time_noon: true });
    await medication(client, {
      medication_name: 'Zinc',
      time_morning: true,
      start_date: addDays(TODAY, 1),
    });
    await medication(client, {
      medication_name: 'Cetirizine',
      time_morning: true,
      end_date: addDays(TODAY, -1),
    });

    const { body } = await today(client);
    expect(body.doses.map((dose) => `${dose.medication_name} ${dose.slot}`)).toEqual([
      'Amoxicillin Noon',
      'Betaxolol Evening',
      'Lisinopril Morning',
      'Metformin Morning',
    ]);
  });

  it('back-fills a past day up to 30 days back, never a future one; a back-filled day counts', async () => {
    const { client } = await signedUpClient(server);
    const lisinopril = await medication(client, {
      medication_name: 'Lisinopril',
      start_date: addDays(TODAY, -60),
      time_morning: true,
      time_night: true,
    });
    const adherence = async () =>
      (await client.get<Adherence>(`/api/doses/adherence/${lisinopril}?today=${TODAY}`)).body;
    expect(await adherence()).toMatchObject({ ratio: null, missed: 0, not_tracked: 58 });

    const mark = (day: string, slot: string, status: string) =>
      client.post<{ field: string; message: string }>('/api/doses', {
        medication_id: lisinopril,
        day,
        slot,
        status,
      });
    const yesterday = addDays(TODAY, -1);
    expect((await mark(yesterday, 'Morning', 'taken')).status).toBe(201);
    expect(await adherence()).toMatchObject({ taken: 1, missed: 1, not_tracked: 56 });
    expect((await adherence()).strip.at(-2)).toMatchObject({
      day: yesterday,
      status: 'partly',
      doses: [
        { slot: 'Morning', state: 'taken' },
        { slot: 'Night', state: 'missed' },
      ],
    });

    expect((await mark(addDays(TODAY, -30), 'Night', 'skipped')).status).toBe(201);
    for (const day of [addDays(TODAY, -33), addDays(TODAY, 2)]) {
      const refused = await mark(day, 'Morning', 'taken');
      expect(refused.status, day).toBe(400);
      expect(refused.body.field).toBe('day');
      expect(refused.body.message).toMatch(/^Day /);
    }

    // Once the medication has been kept for a while, its unmarked days are missed.
    await server.db
      .updateTable('medications')
      .set({ created_at: `${addDays(TODAY, -10)}T00:00:00.000Z` })
      .where('id', '=', lisinopril)
      .execute();
    expect(await adherence()).toMatchObject({ taken: 1, missed: 1 + 2 * 9 });
  });

  it('refuses a dose that is not due, a bad field, and anyone else’s medication', async () => {
    const { client } = await signedUpClient(server);
    const lisinopril = await medication(client, {
      medication_name: 'Lisinopril',
      time_morning: true,
    });
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ medication_id: lisinopril, day: TODAY, slot: 'Noon', status: 'taken' }, 'slot'],
      [
        { medication_id: lisinopril, day: addDays(TODAY, -20), slot: 'Morning', status: 'taken' },
        'slot',
      ],
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

  it('refuses a dose that is not due in the request’s language', async () => {
    const { client } = await signedUpClient(server);
    const lisinopril = await medication(client, {
      medication_name: 'Lisinopril',
      time_morning: true,
    });
    const body = { medication_id: lisinopril, day: TODAY, slot: 'Noon', status: 'taken' };
    const german = await client.request<{ message: string; field: string }>(
      'POST',
      '/api/doses',
      body,
      { 'accept-language': 'de' },
    );
    const day = new Intl.DateTimeFormat('de-DE', { dateStyle: 'long' }).format(
      new Date(`${TODAY}T00:00:00`),
    );
    expect(german.status).toBe(400);
    expect(german.body).toEqual({
      message: `Zeitpunkt: Lisinopril ist am ${day} nicht für „Mittags“ fällig`,
      field: 'slot',
    });
    const english = await client.post<{ message: string }>('/api/doses', body);
    expect(english.body.message).toBe(`Slot: Lisinopril is not due in the Noon on ${TODAY}`);
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
