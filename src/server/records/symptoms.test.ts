/**
 * Symptoms (CONTRACT §6) through the API, on both engines: made, listed newest first and per
 * person, bad input refused naming the field with nothing saved, another account's symptoms
 * and members out of reach, found by search, on the timeline, and in the summary PDF's
 * 'Recent Symptoms' (those of the last 30 days).
 */
import { subDays } from 'date-fns/subDays';
import { describe, expect, it } from 'vitest';
import type { RecordPage } from '../../shared/records/definition';
import { ENDED_BEFORE_STARTED } from '../../shared/records/symptoms';
import type { SearchAnswer } from '../../shared/search';
import type { TimelinePage } from '../../shared/timeline';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { signedUpClient, useTestServer } from '../test/harness';
import { ownSummaryText } from '../test/summary-pdf-text';
import { RECENT_SYMPTOMS_HEADING } from '../summary/summary-document';

const server = useTestServer();

type Symptom = {
  id: string;
  symptom: string;
  severity: number | null;
  started_at: string;
  ended_at: string | null;
  family_member_id: string | null;
  family_member_name: string | null;
};

const symptom = (overrides: Record<string, unknown> = {}) => sampleRecord('symptom', overrides);

describe('symptoms', () => {
  it('are made and listed newest first, each person’s apart', async () => {
    const { client } = await signedUpClient(server);
    const kid = await expectStatus(
      client.post<{ id: string }>('/api/family-members', {
        name: 'Kid',
        date_of_birth: '2019-02-03',
      }),
    );
    const first = await expectStatus(
      client.post<Symptom>('/api/symptoms', symptom({ severity: '4' })),
      201,
    );
    expect(first).toMatchObject({ symptom: 'Headache', severity: 4, family_member_id: null });
    await expectStatus(
      client.post('/api/symptoms', {
        ...symptom({ symptom: 'Cough', severity: 8, family_member_id: kid.id }),
        started_at: '2026-03-05T09:00:00+01:00',
        ended_at: null,
      }),
      201,
    );
    const all = await client.get<RecordPage<Symptom>>('/api/symptoms');
    expect(all.body.items.map((item) => item.symptom)).toEqual(['Cough', 'Headache']);
    expect(all.body.items[0]).toMatchObject({
      started_at: '2026-03-05T08:00:00.000Z',
      ended_at: null,
      family_member_name: 'Kid',
    });
    const kids = await client.get<RecordPage<Symptom>>(`/api/symptoms?member=${kid.id}`);
    expect(kids.body.items.map((item) => item.symptom)).toEqual(['Cough']);

    const one = await client.get<Symptom>(`/api/symptoms/${first.id}`);
    expect(one.body).toMatchObject({ id: first.id, severity: 4 });
    const edited = await client.put<Symptom>(
      `/api/symptoms/${first.id}`,
      symptom({ severity: 9, ended_at: null }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ severity: 9, ended_at: null });
  });

  it('refuses bad input naming the field, and saves nothing', async () => {
    const { client } = await signedUpClient(server);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ symptom: '' }, 'symptom', 'Symptom is required'],
      [{ severity: 0 }, 'severity', 'Severity must be between 1 and 10'],
      [{ severity: 11 }, 'severity', 'Severity must be between 1 and 10'],
      [{ severity: 'bad' }, 'severity', 'Severity must be a whole number'],
      [{ severity: 2.5 }, 'severity', 'Severity must be a whole number'],
      [{ started_at: null }, 'started_at', 'Started At is required'],
      [{ started_at: 'soon' }, 'started_at', 'Started At must be a date and time'],
      [{ ended_at: '2026-03-04T06:00:00.000Z' }, 'ended_at', ENDED_BEFORE_STARTED],
      [{ ended_at: '2999-01-01T00:00:00.000Z' }, 'ended_at', 'Ended At cannot be in the future'],
    ];
    for (const [override, field, message] of cases) {
      const response = await client.post('/api/symptoms', symptom(override));
      expect(response.status, JSON.stringify(override)).toBe(400);
      expect(response.body).toMatchObject({ field, message });
    }
    const kid = await expectStatus(
      client.post<{ id: string }>('/api/family-members', {
        name: 'Kid',
        date_of_birth: '2026-03-10',
      }),
    );
    const beforeBirth = await client.post(
      '/api/symptoms',
      symptom({ family_member_id: kid.id, ended_at: null }),
    );
    expect(beforeBirth.status).toBe(400);
    expect(beforeBirth.body).toMatchObject({ field: 'started_at' });
    expect((await client.get<RecordPage<Symptom>>('/api/symptoms')).body.items).toEqual([]);
  });

  it('are out of reach of another account: its records, and its members', async () => {
    const owner = await signedUpClient(server);
    const other = await signedUpClient(server);
    const kid = await expectStatus(
      owner.client.post<{ id: string }>('/api/family-members', { name: 'Kid' }),
    );
    const mine = await expectStatus(owner.client.post<Symptom>('/api/symptoms', symptom()), 201);

    expect((await other.client.get(`/api/symptoms/${mine.id}`)).status).toBe(404);
    expect((await other.client.put(`/api/symptoms/${mine.id}`, symptom())).status).toBe(404);
    expect((await other.client.delete(`/api/symptoms/${mine.id}`)).status).toBe(404);
    expect((await other.client.get<RecordPage<Symptom>>('/api/symptoms')).body.items).toEqual([]);
    const intoTheirMember = await other.client.post(
      '/api/symptoms',
      symptom({ family_member_id: kid.id }),
    );
    expect(intoTheirMember.status).toBe(400);
    expect(intoTheirMember.body).toMatchObject({ field: 'family_member_id' });
    // Still there, unchanged, for its owner.
    expect((await owner.client.get<Symptom>(`/api/symptoms/${mine.id}`)).body.severity).toBe(6);

    const anonymous = server.client();
    expect((await anonymous.get('/api/symptoms')).status).toBe(401);
    expect((await anonymous.post('/api/symptoms', symptom())).status).toBe(401);
  });

  it('are found by search and shown on the timeline', async () => {
    const { client } = await signedUpClient(server);
    const made = await expectStatus(
      client.post<Symptom>(
        '/api/symptoms',
        symptom({ symptom: 'Dizziness', notes: 'After standing up' }),
      ),
      201,
    );
    const found = await client.get<SearchAnswer>('/api/search?q=dizz');
    const group = found.body.groups.find((item) => item.type === 'symptom');
    expect(group?.heading).toBe('Symptoms');
    expect(group?.results[0]).toMatchObject({
      id: made.id,
      title: 'Dizziness',
      path: `/symptoms/${made.id}`,
    });
    const byNotes = await client.get<SearchAnswer>('/api/search?q=standing');
    expect(byNotes.body.groups.some((item) => item.type === 'symptom')).toBe(true);

    const timeline = await client.get<TimelinePage>('/api/timeline');
    expect(timeline.body.events).toContainEqual(
      expect.objectContaining({
        type: 'symptom',
        id: made.id,
        name: 'Dizziness',
        date: made.started_at,
      }),
    );
  });

  it('of the last 30 days are the summary PDF’s Recent Symptoms, newest first', async () => {
    const { client } = await signedUpClient(server, 'Rosa Diaz');
    const now = new Date();
    const pdf = await ownSummaryText(server, client, now.toISOString().slice(0, 10));
    expect(await pdf()).not.toContain(RECENT_SYMPTOMS_HEADING);

    const at = (days: number, hour: number) => {
      const day = subDays(now, days);
      day.setUTCHours(hour, 0, 0, 0);
      return day.toISOString();
    };
    await expectStatus(
      client.post('/api/symptoms', {
        symptom: 'Migraine',
        severity: 8,
        started_at: at(3, 6),
        ended_at: at(3, 9),
        notes: 'Light hurt',
      }),
      201,
    );
    await expectStatus(
      client.post('/api/symptoms', { symptom: 'Sore throat', started_at: at(1, 7) }),
      201,
    );
    await expectStatus(
      client.post('/api/symptoms', { symptom: 'Old rash', severity: 2, started_at: at(45, 7) }),
      201,
    );
    const text = await pdf();
    expect(text).toContain(RECENT_SYMPTOMS_HEADING);
    expect(text).toContain('Symptom Severity Started Ended Notes');
    expect(text).toMatch(/Sore throat – .* Ongoing .*Migraine 8\/10 .* Light hurt/);
    expect(text).not.toContain('Old rash');
  });
});
