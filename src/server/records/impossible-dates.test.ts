/**
 * Records refuse what cannot be true, naming the field, and change nothing: a date of birth
 * or a date something happened in the future (with a day of slack for the time zones), a
 * year before 1900, a shot, visit, diagnosis or allergy before the person's date of birth,
 * and a frequency whose times of day do not match.
 */
import { describe, expect, it } from 'vitest';
import { addDays, calendarDayOf } from '../../shared/date-values';
import type { RecordType } from '../../shared/records/catalogue';
import { sampleRecord } from '../test/factories';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';

const server = useTestServer();
const TODAY = calendarDayOf(new Date());
const IN_TWO_DAYS = addDays(TODAY, 2);

const paths: Partial<Record<RecordType, string>> = {
  shot: '/api/shots',
  visit: '/api/visits',
  condition: '/api/history',
  allergy: '/api/allergies',
  note: '/api/notes',
  medication: '/api/medications',
};

async function refused(
  client: TestClient,
  type: RecordType,
  overrides: Record<string, unknown>,
  field: string,
  message: string,
) {
  const path = paths[type] ?? '';
  const before = (await client.get<{ items: unknown[] }>(path)).body.items.length;
  const response = await client.post<{ field: string; message: string }>(
    path,
    sampleRecord(type, overrides),
  );
  expect(response.status, JSON.stringify(overrides)).toBe(400);
  expect(response.body).toMatchObject({ field, message });
  expect((await client.get<{ items: unknown[] }>(path)).body.items).toHaveLength(before);
}

async function accepted(client: TestClient, type: RecordType, overrides: Record<string, unknown>) {
  const response = await client.post(paths[type] ?? '', sampleRecord(type, overrides));
  expect(response.status, JSON.stringify(overrides)).toBe(201);
}

describe('dates that cannot be true', () => {
  it('refuses a date of birth in the future, and one before 1900', async () => {
    const { client } = await signedUpClient(server);
    const future = await client.post<{ field: string; message: string }>('/api/family-members', {
      name: 'Leo',
      date_of_birth: IN_TWO_DAYS,
    });
    expect(future.status).toBe(400);
    expect(future.body).toMatchObject({
      field: 'date_of_birth',
      message: 'Date of Birth cannot be in the future',
    });
    const old = await client.post<{ field: string; message: string }>('/api/family-members', {
      name: 'Leo',
      date_of_birth: '1899-12-31',
    });
    expect(old.body).toMatchObject({
      field: 'date_of_birth',
      message: 'Date of Birth cannot be before 1900',
    });
    expect((await client.get<unknown[]>('/api/family-members')).body).toEqual([]);
    // Today is a birthday like any other; tomorrow is today somewhere east.
    await accepted(client, 'note', { note_date: addDays(TODAY, 1) });
    expect(
      (await client.post('/api/family-members', { name: 'Mia', date_of_birth: TODAY })).status,
    ).toBe(201);
  });

  it('refuses a diagnosis, an allergy or a note dated in the future, and any year before 1900', async () => {
    const { client } = await signedUpClient(server);
    await refused(
      client,
      'condition',
      { diagnosis_date: IN_TWO_DAYS },
      'diagnosis_date',
      'Diagnosis Date cannot be in the future',
    );
    await refused(
      client,
      'allergy',
      { noted_date: IN_TWO_DAYS },
      'noted_date',
      'Noted Date cannot be in the future',
    );
    await refused(
      client,
      'note',
      { note_date: IN_TWO_DAYS },
      'note_date',
      'Note Date cannot be in the future',
    );
    await refused(
      client,
      'visit',
      { visit_date: '1899-06-01T10:00:00.000Z' },
      'visit_date',
      'Visit Date cannot be before 1900',
    );
    await refused(
      client,
      'shot',
      { date_administered: '1899-06-01' },
      'date_administered',
      'Date Administered cannot be before 1900',
    );
    // A visit may be upcoming; so may a shot (the Upcoming tab of Shots).
    await accepted(client, 'visit', { visit_date: `${addDays(TODAY, 30)}T10:00:00.000Z` });
    await accepted(client, 'shot', { date_administered: addDays(TODAY, 30) });
  });

  it('refuses a shot, visit, diagnosis or allergy before the person’s date of birth', async () => {
    const { client } = await signedUpClient(server);
    const leo = await client.post<{ id: string }>('/api/family-members', {
      name: 'Leo',
      date_of_birth: '2020-05-10',
    });
    const member = { family_member_id: leo.body.id };
    const before = "cannot be before Leo's Date of Birth (2020-05-10)";
    await refused(
      client,
      'shot',
      { ...member, date_administered: '2019-01-01' },
      'date_administered',
      `Date Administered ${before}`,
    );
    await refused(
      client,
      'visit',
      { ...member, visit_date: '2020-05-01T10:00:00.000Z' },
      'visit_date',
      `Visit Date ${before}`,
    );
    await refused(
      client,
      'condition',
      { ...member, diagnosis_date: '2018-01-01' },
      'diagnosis_date',
      `Diagnosis Date ${before}`,
    );
    await refused(
      client,
      'allergy',
      { ...member, noted_date: '2020-01-01' },
      'noted_date',
      `Noted Date ${before}`,
    );
    // On the day of birth, and for the account holder (who has no date of birth), it holds.
    await accepted(client, 'shot', { ...member, date_administered: '2020-05-10' });
    await accepted(client, 'shot', { date_administered: '1950-01-01' });
    // A family history entry is a relative's: it may be older than the person.
    await accepted(client, 'condition', {
      diagnosis_date: '1980-01-01',
      is_family_history: true,
      relation: 'Grandmother',
    });

    // An edit that moves a record to a younger person is refused the same way.
    const mia = await client.post<{ id: string }>('/api/family-members', {
      name: 'Mia',
      date_of_birth: '2024-01-01',
    });
    const shot = await client.post<{ id: string }>(
      '/api/shots',
      sampleRecord('shot', { ...member, date_administered: '2021-01-01' }),
    );
    const moved = await client.put<{ field: string }>(
      `/api/shots/${shot.body.id}`,
      sampleRecord('shot', { family_member_id: mia.body.id, date_administered: '2021-01-01' }),
    );
    expect(moved.status).toBe(400);
    expect(moved.body.field).toBe('date_administered');
  });
});

describe('a frequency and its times of day', () => {
  const untimed = {
    time_morning: false,
    time_noon: false,
    time_evening: false,
    time_night: false,
  };

  it('refuses times that do not match the frequency, and takes No set time said explicitly', async () => {
    const { client } = await signedUpClient(server);
    const frequency = 'frequency';
    await refused(
      client,
      'medication',
      { ...untimed, frequency: 'Twice Daily', time_morning: true },
      frequency,
      "Frequency 'Twice Daily' needs two times of day, or tick 'No set time'",
    );
    await refused(
      client,
      'medication',
      { ...untimed, frequency: 'Daily' },
      frequency,
      "Frequency 'Daily' needs a time of day, or tick 'No set time'",
    );
    await refused(
      client,
      'medication',
      { ...untimed, frequency: 'Weekly' },
      frequency,
      "Frequency 'Weekly' needs a time of day, or tick 'No set time'",
    );
    await refused(
      client,
      'medication',
      { ...untimed, frequency: 'As Needed', time_night: true },
      frequency,
      "Frequency 'As Needed' takes no time of day",
    );
    await accepted(client, 'medication', {
      ...untimed,
      frequency: 'Twice Daily',
      time_morning: true,
      time_evening: true,
    });
    await accepted(client, 'medication', { ...untimed, frequency: 'As Needed' });
    const saved = await client.post<{ no_set_time: boolean }>(
      '/api/medications',
      sampleRecord('medication', { ...untimed, frequency: 'Daily', no_set_time: true }),
    );
    expect(saved.status).toBe(201);
    expect(saved.body.no_set_time).toBe(true);
    // With a time ticked, 'No set time' does not hold.
    const timed = await client.post<{ no_set_time: boolean }>(
      '/api/medications',
      sampleRecord('medication', { frequency: 'Daily', time_morning: true, no_set_time: true }),
    );
    expect(timed.body.no_set_time).toBe(false);
  });

  it('lists a medication taken at no set time under Any time in Today’s Medications', async () => {
    const { client } = await signedUpClient(server);
    await accepted(client, 'medication', {
      ...untimed,
      medication_name: 'Fish oil',
      frequency: 'Daily',
      no_set_time: true,
      start_date: null,
      end_date: null,
    });
    const today = await client.get<{ doses: { medication_name: string; slot: string }[] }>(
      `/api/doses?today=${TODAY}`,
    );
    expect(today.body.doses).toMatchObject([{ medication_name: 'Fish oil', slot: 'Any time' }]);
  });
});
