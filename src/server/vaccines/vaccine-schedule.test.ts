/**
 * GET /api/persons/{personId}/vaccine-schedule (CONTRACT §5), a member's Sex, a shot's
 * Vaccine (a CVX code) and the account's 'Vaccine Schedule' setting, over the API.
 */
import type { GivenGrant } from '../../shared/household';
import { acceptGrant } from '../test/grant-acceptance';
import { describe, expect, it } from 'vitest';
import { expectStatus } from '../test/family-records';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';

const server = useTestServer();
const TODAY = '2026-11-27';

interface Dose {
  vaccine: string;
  dose: number;
  of: number;
  earliest: string;
  due: string;
  status: string;
  given?: string;
  matchedByName?: boolean;
}
interface ScheduleAnswer {
  schedule: string;
  doses: Dose[];
  missing?: string;
  tracked?: boolean;
  name?: string;
  immune?: { vaccine: string; bornBefore: string; exclusions: string[] }[];
  source?: string;
}

async function childWithShots(client: TestClient) {
  const child = await expectStatus(
    client.post<{ id: string; sex: string | null }>('/api/family-members', {
      name: 'Nora',
      date_of_birth: '2025-09-27',
      sex: 'female',
    }),
  );
  for (const [name, code, date] of [
    ['Hep B', '45', '2025-09-27'],
    ['MMR booster', null, '2026-11-01'],
  ] as const) {
    await expectStatus(
      client.post('/api/shots', {
        shot_name: name,
        vaccine_code: code,
        date_administered: date,
        family_member_id: child.id,
      }),
    );
  }
  return child;
}

const scheduleOf = (client: TestClient, personId: string) =>
  client.get<ScheduleAnswer>(`/api/persons/${personId}/vaccine-schedule?today=${TODAY}`);

describe('the vaccine schedule', () => {
  it('keeps a member’s sex and a shot’s vaccine code, and refuses others by name', async () => {
    const { client } = await signedUpClient(server);
    const child = await childWithShots(client);
    expect(child.sex).toBe('female');
    const badSex = await client.post('/api/family-members', { name: 'X', sex: 'other' });
    expect(badSex.status).toBe(400);
    expect(JSON.stringify(badSex.body)).toContain('Sex must be one of: Female, Male');
    const badCode = await client.post('/api/shots', { shot_name: 'X', vaccine_code: 'ZZ' });
    expect(badCode.status).toBe(400);
    expect(JSON.stringify(badCode.body)).toContain('Vaccine must be');
    const imported = await client.post<{ vaccine_code: string }>('/api/shots', {
      shot_name: 'Pediarix',
      vaccine_code: '110',
    });
    expect(imported.status).toBe(201);
    expect(imported.body.vaccine_code).toBe('110');
  });

  it('keeps a member’s sex and a shot’s code through the account’s own export and import', async () => {
    const { client } = await signedUpClient(server);
    await childWithShots(client);
    const exported = await expectStatus(client.get<Record<string, unknown>>('/api/export'), 200);
    const { client: target } = await signedUpClient(server, 'Target User');
    await expectStatus(target.post('/api/import', exported));
    const members = await expectStatus(
      target.get<{ sex: string | null }[]>('/api/family-members'),
      200,
    );
    expect(members.map((member) => member.sex)).toEqual(['female']);
    const shots = await expectStatus(
      target.get<{ items: { vaccine_code: string | null }[] }>('/api/shots'),
      200,
    );
    expect(shots.items.map((shot) => shot.vaccine_code).sort()).toEqual(['45', null]);
  });

  it('puts the doses due from today on in the private calendar feed, all-day', async () => {
    const { client } = await signedUpClient(server);
    const child = await childWithShots(client);
    // A grown-up with no shot recorded: their catch-up doses are due now, not on a day to come.
    await expectStatus(
      client.post('/api/family-members', { name: 'Omar', date_of_birth: '1990-05-01' }),
    );
    const feedSummaries = async (personId: string | null) => {
      const link = await expectStatus(
        client.post<{ link: { url?: string } }>('/api/calendar-link', { person_id: personId }),
      );
      const feed = await (await server.fetch(new Request(link.link.url ?? ''))).text();
      expect(feed).toMatch(/DTSTART;VALUE=DATE:\d{8}/);
      return [...feed.matchAll(/^SUMMARY:(.*)$/gm)].map((match) => match[1]!.trim());
    };
    const summaries = await feedSummaries(null);
    expect(summaries.some((summary) => /^Vaccine: .+ dose \d+ \(Nora\)$/.test(summary))).toBe(true);
    expect(summaries).not.toContain('Vaccine: MMR dose 1 (Nora)');
    expect(summaries).not.toContain('Vaccine: MMR dose 1 (Omar)');
    expect(summaries).not.toContain('Vaccine: Varicella dose 1 (Omar)');
    // The dose after a catch-up one is a day to come: Varicella dose 2 weeks after dose 1.
    expect(summaries).toContain('Vaccine: Varicella dose 2 (Omar)');
    // Nora's own link lists the same doses of hers.
    const hers = await feedSummaries(child.id);
    expect(hers.filter((summary) => summary.startsWith('Vaccine: ')).sort()).toEqual(
      summaries.filter((summary) => summary.endsWith('(Nora)')).sort(),
    );
  });

  it('names where the advice comes from in the reader’s language', async () => {
    const { client } = await signedUpClient(server);
    const child = await childWithShots(client);
    const english = await expectStatus(scheduleOf(client, child.id), 200);
    expect(english.source).toMatch(/^CDC CDSi supporting data v\d+\.\d+$/);
    const version = english.source!.split(' v').pop();
    const spanish = await expectStatus(
      client
        .withHeaders({ 'accept-language': 'es' })
        .get<ScheduleAnswer>(`/api/persons/${child.id}/vaccine-schedule?today=${TODAY}`),
      200,
    );
    expect(spanish.source).toBe(`datos de apoyo CDSi de los CDC de EE. UU., v${version}`);
  });

  it('answers the plan as CONTRACT §5 says, doses given matched by code or by name', async () => {
    const { client } = await signedUpClient(server);
    const child = await childWithShots(client);
    const answer = await expectStatus(scheduleOf(client, child.id), 200);
    expect(answer.schedule).toBe('us-cdc');
    const hepB = answer.doses.find((d) => d.vaccine === 'Hep B' && d.dose === 1);
    expect(hepB).toMatchObject({
      vaccine: 'Hep B',
      dose: 1,
      of: 3,
      earliest: '2025-09-27',
      due: '2025-09-27',
      status: 'Done',
      given: '2025-09-27',
    });
    const mmr = answer.doses.find((d) => d.vaccine === 'MMR' && d.dose === 1);
    expect(mmr).toMatchObject({ status: 'Done', given: '2026-11-01', matchedByName: true });
    const dtap = answer.doses.find((d) => d.vaccine === 'DTaP' && d.dose === 1);
    expect(dtap).toMatchObject({ of: 6, status: 'Overdue', due: '2025-11-27', cvx: '107' });
    for (const dose of answer.doses) {
      expect(dose.earliest).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(['Done', 'Overdue', 'Due', 'Upcoming']).toContain(dose.status);
    }
  });

  it('says what is missing without a date of birth, and follows the account’s setting', async () => {
    const { client } = await signedUpClient(server);
    const session = await client.get<{ user: { id: string } }>('/api/auth/get-session');
    const self = await expectStatus(scheduleOf(client, session.body.user.id), 200);
    expect(self).toMatchObject({ schedule: 'us-cdc', doses: [], missing: 'date_of_birth' });

    const child = await childWithShots(client);
    const off = await client.patch('/api/profile', { vaccine_schedule: 'none' });
    expect(off.status).toBe(200);
    expect((await expectStatus(scheduleOf(client, child.id), 200)).doses).toEqual([]);
    expect((await expectStatus(scheduleOf(client, child.id), 200)).schedule).toBe('none');
    const wrong = await client.patch('/api/profile', { vaccine_schedule: 'mars' });
    expect(wrong.status).toBe(400);
  });

  it('shows a shared person to a Viewer and no one else’s to anyone', async () => {
    const owner = await signedUpClient(server, 'Olga Owner');
    const other = await signedUpClient(server, 'Vic Viewer');
    const child = await childWithShots(owner.client);
    expect((await scheduleOf(other.client, child.id)).status).toBe(404);
    const granted = await owner.client.post<GivenGrant>('/api/household/grants', {
      personId: child.id,
      email: other.email,
      role: 'viewer',
    });
    expect(granted.status).toBe(201);
    await acceptGrant(other.client, granted);
    const shared = await expectStatus(scheduleOf(other.client, child.id), 200);
    expect(shared.doses.some((d) => d.vaccine === 'MMR' && d.status === 'Done')).toBe(true);
    // The schedule is the owner's choice, not the reader's.
    await expectStatus(owner.client.patch('/api/profile', { vaccine_schedule: 'none' }), 200);
    expect(await expectStatus(scheduleOf(other.client, child.id), 200)).toMatchObject({
      schedule: 'none',
      doses: [],
    });
    await expectStatus(owner.client.patch('/api/profile', { vaccine_schedule: 'us-cdc' }), 200);
    await expectStatus(other.client.patch('/api/profile', { vaccine_schedule: 'none' }), 200);
    expect((await expectStatus(scheduleOf(other.client, child.id), 200)).schedule).toBe('us-cdc');
    expect((await scheduleOf(server.client(), child.id)).status).toBe(401);
    expect(
      (await other.client.get(`/api/persons/${child.id}/vaccine-schedule?today=x`)).status,
    ).toBe(400);
  });
});

describe('an adult’s schedule, and a schedule turned off', () => {
  const grandmother = (client: TestClient) =>
    expectStatus(
      client.post<{ id: string }>('/api/family-members', {
        name: 'Rose',
        date_of_birth: '1954-03-10',
        sex: 'female',
      }),
    );

  it('gives a grandmother born in 1954 the adult series and no date of her childhood', async () => {
    const { client } = await signedUpClient(server);
    const rose = await grandmother(client);
    const answer = await expectStatus(scheduleOf(client, rose.id), 200);
    expect(answer).toMatchObject({ schedule: 'us-cdc', tracked: true, name: 'Rose' });
    expect(answer.doses.every((dose) => dose.due >= '1973-03-10')).toBe(true);
    expect(answer.doses.some((dose) => dose.status === 'Overdue')).toBe(false);
    const vaccines = new Set(answer.doses.map((dose) => dose.vaccine));
    for (const vaccine of ['Zoster', 'Pneumococcal', 'Tdap', 'Influenza', 'COVID-19', 'RSV']) {
      expect(vaccines.has(vaccine), vaccine).toBe(true);
    }
    for (const vaccine of ['MMR', 'Varicella', 'Hib', 'DTaP', 'PCV', 'HPV', 'MenACWY', 'Hep A']) {
      expect(vaccines.has(vaccine), vaccine).toBe(false);
    }
    expect(answer.immune?.map((group) => group.vaccine)).toEqual(['MMR', 'Varicella']);
  });

  it('turns a member’s schedule off and on, for the owner only', async () => {
    const owner = await signedUpClient(server, 'Olga Owner');
    const other = await signedUpClient(server, 'Eve Editor');
    const rose = await grandmother(owner.client);
    const tracking = (client: TestClient, body: unknown, id = rose.id) =>
      client.put<{ tracked: boolean }>(`/api/persons/${id}/vaccine-schedule/tracking`, body);
    expect(await expectStatus(tracking(owner.client, { tracked: false }), 200)).toEqual({
      tracked: false,
    });
    const off = await expectStatus(scheduleOf(owner.client, rose.id), 200);
    expect(off).toMatchObject({ tracked: false, doses: [], name: 'Rose' });
    expect((await expectStatus(dueOf(owner.client), 200)).persons).toEqual([]);

    // Bad input changes nothing; another account's request finds no one.
    const bad = await tracking(owner.client, { tracked: 'no' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('tracked');
    expect((await tracking(other.client, { tracked: true })).status).toBe(404);
    expect((await expectStatus(scheduleOf(owner.client, rose.id), 200)).tracked).toBe(false);
    // An editor of a shared person may record shots, but the schedule is the owner's choice.
    const granted = await owner.client.post<GivenGrant>('/api/household/grants', {
      personId: rose.id,
      email: other.email,
      role: 'editor',
    });
    await acceptGrant(other.client, granted);
    expect((await tracking(other.client, { tracked: true })).status).toBe(403);
    expect((await expectStatus(scheduleOf(other.client, rose.id), 200)).tracked).toBe(false);
    const session = await owner.client.get<{ user: { id: string } }>('/api/auth/get-session');
    expect((await tracking(owner.client, { tracked: false }, session.body.user.id)).status).toBe(
      404,
    );
    expect((await tracking(server.client(), { tracked: true })).status).toBe(401);

    await expectStatus(tracking(owner.client, { tracked: true }), 200);
    expect(
      (await expectStatus(scheduleOf(owner.client, rose.id), 200)).doses.length,
    ).toBeGreaterThan(0);
  });
});

interface PersonDue {
  personId: string;
  name: string;
  overdue: number;
  due: number;
  soon: number;
}
const dueOf = (client: TestClient, today = TODAY) =>
  client.get<{ persons: PersonDue[] }>(`/api/timeline/vaccine-doses?today=${today}`);

describe('the timeline’s vaccine doses', () => {
  it('counts per person the doses overdue, due and due in the next 30 days, of own and shared persons, by the owner’s setting', async () => {
    const owner = await signedUpClient(server, 'Olga Owner');
    const reader = await signedUpClient(server, 'Rita Reader');
    const child = await childWithShots(owner.client);
    const own = await expectStatus(dueOf(owner.client), 200);
    expect(own.persons).toHaveLength(1);
    const [nora] = own.persons;
    expect(nora).toMatchObject({ personId: child.id, name: 'Nora' });
    const plan = await expectStatus(scheduleOf(owner.client, child.id), 200);
    const count = (status: string) =>
      plan.doses.filter((dose) => dose.status === status && dose.due <= '2026-12-27').length;
    expect(nora).toMatchObject({
      overdue: count('Overdue'),
      due: count('Due'),
      soon: count('Upcoming'),
    });
    expect(nora!.overdue).toBeGreaterThan(0);

    expect((await expectStatus(dueOf(reader.client), 200)).persons).toEqual([]);
    const granted = await owner.client.post<GivenGrant>('/api/household/grants', {
      personId: child.id,
      email: reader.email,
      role: 'viewer',
    });
    await acceptGrant(reader.client, granted);
    await expectStatus(reader.client.patch('/api/profile', { vaccine_schedule: 'none' }), 200);
    expect((await expectStatus(dueOf(reader.client), 200)).persons).toEqual(own.persons);
    await expectStatus(owner.client.patch('/api/profile', { vaccine_schedule: 'none' }), 200);
    expect((await expectStatus(dueOf(owner.client), 200)).persons).toEqual([]);
    expect((await expectStatus(dueOf(reader.client), 200)).persons).toEqual([]);
    expect((await dueOf(reader.client, 'x')).status).toBe(400);
    expect((await server.client().get('/api/timeline/vaccine-doses')).status).toBe(401);
  });
});
