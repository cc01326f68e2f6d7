/**
 * Search (CONTRACT.md §5 'Search', issue #37) through the API, the same tests on both
 * engines: prefixes, accents, ranking, edits and deletions followed at once, another
 * account finding nothing, a Viewer finding only the persons granted to them, and records
 * already there before the index was made (the back-fill).
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { GivenGrant } from '../../shared/household';
import type { SearchAnswer } from '../../shared/search';
import { acceptGrant } from '../test/grant-acceptance';
import { sampleRecord } from '../test/factories';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';
import { syncSearchIndex } from './search-index-sync';

const server = useTestServer();

async function search(client: TestClient, q: string, extra = ''): Promise<SearchAnswer> {
  const response = await client.get<SearchAnswer>(`/api/search?q=${encodeURIComponent(q)}${extra}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

const titles = (answer: SearchAnswer) =>
  answer.groups.flatMap((group) => group.results.map((result) => result.title));

async function created(client: TestClient, path: string, body: Record<string, unknown>) {
  const response = await client.post<{ id: string }>(path, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}

/** A shot of the user's own, or of a member's. */
const addShot = (client: TestClient, shotName: string, memberId?: string) =>
  created(
    client,
    '/api/shots',
    sampleRecord('shot', {
      shot_name: shotName,
      ...(memberId ? { family_member_id: memberId } : {}),
    }),
  );

describe('search', () => {
  it('finds words by their beginning, without regard to case or accents', async () => {
    const { client } = await signedUpClient(server);
    await created(
      client,
      '/api/medications',
      sampleRecord('medication', {
        medication_name: 'Amoxicillin',
        prescribed_doctor: 'Dr José Núñez',
      }),
    );
    expect(titles(await search(client, 'amox'))).toEqual(['Amoxicillin']);
    expect(titles(await search(client, 'AMOXI'))).toEqual(['Amoxicillin']);
    expect(titles(await search(client, 'Jose'))).toEqual(['Amoxicillin']);
    expect(titles(await search(client, 'josé nunez'))).toEqual(['Amoxicillin']);
    expect(titles(await search(client, 'jose smith'))).toEqual([]);
    expect(titles(await search(client, 'moxi'))).toEqual([]);
    const answer = await search(client, 'nunez');
    expect(answer.groups[0]).toMatchObject({ type: 'medication', heading: 'Medications' });
    const [result] = answer.groups[0]!.results;
    expect(result!.path).toMatch(/^\/medications\/[0-9a-f-]{36}$/);
    expect(result!.snippet).toContain('Núñez');
    expect(answer.terms).toEqual(['nunez']);
  });

  it('groups results by record type and ranks a match in the title, then more matches, first', async () => {
    const { client } = await signedUpClient(server);
    await created(
      client,
      '/api/notes',
      sampleRecord('note', {
        title: 'Letter from the clinic',
        content: 'Tetanus booster: the tetanus shot is due',
      }),
    );
    await addShot(client, 'Tetanus');
    await created(
      client,
      '/api/visits',
      sampleRecord('visit', { visit_name: 'Check-up', notes: 'asked about tetanus' }),
    );
    const answer = await search(client, 'tetanus');
    expect(answer.groups.map((group) => group.heading)).toEqual(['Shots', 'Notes', 'Visits']);
    expect(titles(answer)).toEqual(['Tetanus', 'Letter from the clinic', 'Check-up']);
  });

  it('follows an edit and a deletion at once', async () => {
    const { client } = await signedUpClient(server);
    const id = await created(
      client,
      '/api/allergies',
      sampleRecord('allergy', { substance: 'Penicillin' }),
    );
    expect(titles(await search(client, 'penic'))).toEqual(['Penicillin']);
    const edited = await client.put(
      `/api/allergies/${id}`,
      sampleRecord('allergy', { substance: 'Peanuts' }),
    );
    expect(edited.status).toBe(200);
    expect(titles(await search(client, 'penic'))).toEqual([]);
    expect(titles(await search(client, 'peanut'))).toEqual(['Peanuts']);
    expect((await client.delete(`/api/allergies/${id}`)).status).toBe(204);
    expect(titles(await search(client, 'peanut'))).toEqual([]);
  });

  it('never finds another account’s records (replayed as the other user)', async () => {
    const owner = await signedUpClient(server, 'Owner');
    const other = await signedUpClient(server, 'Other');
    const member = await created(owner.client, '/api/family-members', { name: 'Kid' });
    const queries = ['zebrafish', 'zebra', 'Zébra', 'dr quokka', 'quok'];
    for (const definition of ['visit', 'note', 'contact'] as const) {
      const path = { visit: '/api/visits', note: '/api/notes', contact: '/api/contacts' }[
        definition
      ];
      const field = { visit: 'visit_name', note: 'title', contact: 'contact_name' }[definition];
      await created(
        owner.client,
        path,
        sampleRecord(definition, {
          [field]: 'Zebrafish Dr Quokka',
          ...(definition === 'contact' ? {} : { family_member_id: member }),
        }),
      );
    }
    for (const q of queries) {
      expect(titles(await search(owner.client, q)).length, q).toBeGreaterThan(0);
      expect(await search(other.client, q)).toMatchObject({ groups: [] });
      expect(await search(other.client, q, `&member=${member}`)).toMatchObject({ groups: [] });
    }
  });

  it('a Viewer finds only the persons granted to them, and the member filter applies', async () => {
    const owner = await signedUpClient(server, 'Owner');
    const viewer = await signedUpClient(server, 'Viewer');
    const mia = await created(owner.client, '/api/family-members', { name: 'Mia' });
    const leo = await created(owner.client, '/api/family-members', { name: 'Leo' });
    await addShot(owner.client, 'Rotavirus Mia', mia);
    await addShot(owner.client, 'Rotavirus Leo', leo);
    await addShot(owner.client, 'Rotavirus Owner');
    await created(
      owner.client,
      '/api/contacts',
      sampleRecord('contact', { contact_name: 'Rotavirus Clinic' }),
    );
    expect(titles(await search(viewer.client, 'rotavirus'))).toEqual([]);
    const granted = await owner.client.post<GivenGrant>('/api/household/grants', {
      personId: mia,
      email: viewer.email,
      role: 'viewer',
    });
    await acceptGrant(viewer.client, granted);
    const seen = await search(viewer.client, 'rotavirus');
    expect(titles(seen)).toEqual(['Rotavirus Mia']);
    expect(seen.groups[0]!.results[0]!.person).toEqual({
      name: 'Mia',
      color: expect.any(String),
      you: false,
    });
    expect(titles(await search(viewer.client, 'rotavirus', `&member=${leo}`))).toEqual([]);
    expect(titles(await search(owner.client, 'rotavirus', `&member=${leo}`))).toEqual([
      'Rotavirus Leo',
    ]);
    expect(titles(await search(owner.client, 'rotavirus')).sort()).toEqual([
      'Rotavirus Clinic',
      'Rotavirus Leo',
      'Rotavirus Mia',
      'Rotavirus Owner',
    ]);
  });

  it('names each result’s person: a member, the user themself, an owner who shared themself', async () => {
    const owner = await signedUpClient(server, 'Maria Garcia');
    const viewer = await signedUpClient(server, 'Sam Viewer');
    const leo = await created(owner.client, '/api/family-members', { name: 'Leo' });
    await addShot(owner.client, 'Varicella');
    await addShot(owner.client, 'Varicella booster', leo);
    await created(
      owner.client,
      '/api/contacts',
      sampleRecord('contact', { contact_name: 'Varicella Clinic' }),
    );
    const persons = (answer: SearchAnswer) =>
      Object.fromEntries(
        answer.groups.flatMap((group) =>
          group.results.map((result) => [result.title, result.person]),
        ),
      );
    expect(persons(await search(owner.client, 'varicel'))).toEqual({
      Varicella: { name: 'Maria Garcia', color: expect.any(String), you: true },
      'Varicella booster': { name: 'Leo', color: expect.any(String), you: false },
      'Varicella Clinic': null,
    });
    // The account holder's own person filter keeps their own name.
    const self = (await owner.client.get<{ id: string }>('/api/profile')).body.id;
    expect(persons(await search(owner.client, 'varicel', `&member=${self}`))).toEqual({
      Varicella: { name: 'Maria Garcia', color: expect.any(String), you: true },
    });
    // Shared with another account, the owner's own records carry the owner's name, not "you".
    const granted = await owner.client.post<GivenGrant>('/api/household/grants', {
      personId: self,
      email: viewer.email,
      role: 'viewer',
    });
    await acceptGrant(viewer.client, granted);
    expect(persons(await search(viewer.client, 'varicel'))).toEqual({
      Varicella: { name: 'Maria Garcia', color: expect.any(String), you: false },
    });
  });

  it('forgets the records of a removed person', async () => {
    const owner = await signedUpClient(server, 'Owner');
    const member = await created(owner.client, '/api/family-members', { name: 'Nia' });
    await created(
      owner.client,
      '/api/notes',
      sampleRecord('note', { title: 'Orthodontist', family_member_id: member }),
    );
    expect(titles(await search(owner.client, 'orthodont'))).toEqual(['Orthodontist']);
    expect((await owner.client.delete(`/api/family-members/${member}`)).status).toBe(204);
    expect(titles(await search(owner.client, 'orthodont'))).toEqual([]);
    const { rows } = await sql<{
      count: number;
    }>`select count(*) as count from search_entries where title = 'Orthodontist'`.execute(
      server.db,
    );
    expect(Number(rows[0]?.count)).toBe(0);
  });

  it('answers nothing for a query with no words, and names a bad parameter', async () => {
    const { client } = await signedUpClient(server);
    expect(await search(client, '  "*" ')).toMatchObject({ groups: [] });
    const missing = await client.get<{ field?: string }>('/api/search');
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('q');
    const tooMany = await client.get('/api/search?q=a&limit=500');
    expect(tooMany.status).toBe(400);
    expect((await server.client().get('/api/search?q=a')).status).toBe(401);
  });

  it('indexes the records there were before the index (the back-fill)', async () => {
    const { client } = await signedUpClient(server);
    await created(client, '/api/history', sampleRecord('condition', { condition_name: 'Xerosis' }));
    await sql`delete from search_entries`.execute(server.db);
    await sql`delete from search_sources`.execute(server.db);
    expect(titles(await search(client, 'xeros'))).toEqual([]);
    await syncSearchIndex(server.db);
    expect(titles(await search(client, 'xeros'))).toEqual(['Xerosis']);
  });
});

describe('search of vitals (decision 0047)', () => {
  const measured = {
    measured_at: '2026-03-04T08:15:00.000Z',
    weight_kg: 72.5,
    systolic_mmhg: 120,
    diastolic_mmhg: 80,
    heart_rate_per_min: 64,
    temperature_c: 37.2,
    oxygen_saturation_pct: 97,
    blood_glucose_mg_dl: 99,
    glucose_timing: 'Fasting',
    notes: 'After the long walk',
  };
  const metricName =
    'Weight 72.5 kg · BP 120/80 mmHg · Pulse 64 /min · Temp 37.2 °C · SpO2 97% · Glucose 5.5 mmol/L';

  const vitalsResults = (answer: SearchAnswer) =>
    answer.groups.find((group) => group.type === 'vital')?.results ?? [];

  it('finds an entry by its notes, its measures’ names and its values in either units', async () => {
    const { client } = await signedUpClient(server);
    const id = await created(client, '/api/vitals', measured);
    const found = [
      'walk',
      'weight',
      'Blood pressure',
      'bp',
      '120/80',
      '72.5 kg',
      '72.5',
      '159.8 lb',
      'pulse 64',
      'heart rate',
      'temperature 37.2',
      'temp 99',
      '99 °F',
      'spo2 97',
      'oxygen saturation',
      'glucose 5.5',
      'blood sugar 99 mg/dL',
      'fasting',
    ];
    for (const q of found) {
      const answer = await search(client, q);
      expect(
        answer.groups.map((group) => group.heading),
        q,
      ).toEqual(['Vitals']);
      expect(vitalsResults(answer), q).toMatchObject([
        { type: 'vital', id, path: `/vitals/${id}`, title: metricName, date: measured.measured_at },
      ]);
    }
    // Nothing it does not hold, and no word of the stored moment's text.
    for (const q of ['height', 'head', '73 kg', '121', 'respiratory', 'pain', '2026', '08']) {
      expect(vitalsResults(await search(client, q)), q).toEqual([]);
    }
    // Its notes are its snippet, marked where they match; a value's match quotes nothing.
    expect(vitalsResults(await search(client, 'walk'))[0]?.snippet).toBe('After the long walk');
    expect(vitalsResults(await search(client, '120/80'))[0]?.snippet).toBe('');
  });

  it('writes the same words on both engines', async () => {
    const { client } = await signedUpClient(server);
    const id = await created(client, '/api/vitals', measured);
    const { rows } = await sql<{ title: string; body: string }>`select title, body
      from search_entries where record_id = ${id}`.execute(server.db);
    const words = (text: string) => text.replace(/\s+/g, ' ').trim();
    expect(rows.map((row) => [words(row.title), words(row.body)])).toEqual([
      [
        'Weight Blood Pressure BP Systolic Diastolic Heart Rate Pulse Temperature Temp Oxygen Saturation SpO2 Blood Glucose Sugar',
        'After the long walk Fasting 72 5 kg 159 8 lb 120 mmHg 80 mmHg 64 min 37 2 C 99 F 97 5 5 mmol L 99 mg dL',
      ],
    ]);
  });

  it('names the entry in the reader’s units, and follows an edit and a deletion at once', async () => {
    const { client } = await signedUpClient(server);
    const id = await created(client, '/api/vitals', measured);
    expect((await client.patch('/api/profile', { units: 'us' })).status).toBe(200);
    expect(vitalsResults(await search(client, 'weight'))[0]?.title).toBe(
      'Weight 159.8 lb · BP 120/80 mmHg · Pulse 64 /min · Temp 99 °F · SpO2 97% · Glucose 99 mg/dL',
    );
    const edited = await client.put(`/api/vitals/${id}`, {
      ...measured,
      weight_kg: 80,
      systolic_mmhg: null,
      diastolic_mmhg: null,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(vitalsResults(await search(client, '72.5'))).toEqual([]);
    expect(vitalsResults(await search(client, 'blood pressure'))).toEqual([]);
    expect(vitalsResults(await search(client, 'weight 80 kg'))).toHaveLength(1);
    expect((await client.delete(`/api/vitals/${id}`)).status).toBe(204);
    expect(vitalsResults(await search(client, 'weight'))).toEqual([]);
  });

  it('another account finds nothing; a Viewer of the person finds the entry', async () => {
    const owner = await signedUpClient(server, 'Owner');
    const other = await signedUpClient(server, 'Other');
    const mia = await created(owner.client, '/api/family-members', { name: 'Mia' });
    await created(owner.client, '/api/vitals', { ...measured, family_member_id: mia });
    expect(vitalsResults(await search(owner.client, 'weight'))).toHaveLength(1);
    expect(await search(other.client, 'weight')).toMatchObject({ groups: [] });
    expect(await search(other.client, 'weight', `&member=${mia}`)).toMatchObject({ groups: [] });
    const granted = await owner.client.post<GivenGrant>('/api/household/grants', {
      personId: mia,
      email: other.email,
      role: 'viewer',
    });
    await acceptGrant(other.client, granted);
    // Named in the reader's units, whoever keeps the entry.
    expect((await other.client.patch('/api/profile', { units: 'us' })).status).toBe(200);
    expect(vitalsResults(await search(other.client, 'walk', `&member=${mia}`))).toMatchObject([
      {
        title: expect.stringMatching(/^Weight 159\.8 lb · BP 120\/80 mmHg/),
        person: { name: 'Mia' },
      },
    ]);
  });
});
