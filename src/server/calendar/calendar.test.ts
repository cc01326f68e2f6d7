/**
 * The private calendar feed: a link made in Profile Settings, read with no session by a
 * calendar app, parsed here with ical.js as one would parse it; nothing but visits and
 * shots in it; a wrong or revoked token a plain 404; limited per address; audited.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { CalendarLinkState } from '../../shared/calendar';
import { sampleRecord } from '../test/factories';
import { addOneOfEveryType } from '../test/family-records';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';
import { hashToken } from './calendar-links';

const server = useTestServer();
const limited = useTestServer({ rateLimit: { max: 3, windowSeconds: 60 } });

const inAYear = (days = 0) =>
  new Date(Date.now() + (365 + days) * 24 * 60 * 60 * 1000).toISOString();

async function family(client: TestClient) {
  const leo = await client.post<{ id: string }>('/api/family-members', {
    name: 'Leo',
    color: '#3b82f6',
  });
  await addOneOfEveryType(client, leo.body.id);
  const visit = await client.post<{ id: string }>(
    '/api/visits',
    sampleRecord('visit', {
      visit_name: 'Pediatric check-up',
      doctor_name: 'Dr. Chen',
      office_name: 'Elm Street Clinic',
      visit_date: inAYear(),
      notes: 'Ask about the rash',
      family_member_id: leo.body.id,
    }),
  );
  await client.post(
    '/api/visits',
    sampleRecord('visit', { visit_name: 'Long ago', visit_date: '2020-01-01T10:00:00.000Z' }),
  );
  await client.post(
    '/api/shots',
    sampleRecord('shot', {
      shot_name: 'MMR booster',
      date_administered: inAYear(3).slice(0, 10),
      family_member_id: leo.body.id,
    }),
  );
  return { leoId: leo.body.id, visitId: visit.body.id };
}

async function createLink(client: TestClient, personId: string | null = null) {
  const response = await client.post<{ link: CalendarLinkState }>('/api/calendar-link', {
    person_id: personId,
  });
  expect(response.status).toBe(201);
  return response.body.link.url ?? '';
}

/** The feed as a calendar app reads it: no cookie, no origin. */
const readFeed = (url: string) => server.fetch(new Request(url));

function eventsOf(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      location: event.location,
      description: event.description,
      sequence: event.sequence,
      start: event.startDate,
    };
  });
}

describe('the private calendar feed', () => {
  it('holds the upcoming visits and shots of everyone, and nothing else', async () => {
    const { client } = await signedUpClient(server);
    const { visitId } = await family(client);
    const url = await createLink(client);
    expect(url).toMatch(/^http:\/\/localhost:3000\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);

    const response = await readFeed(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = await response.text();
    const events = eventsOf(text);
    const checkUp = events.find((event) => event.uid === `${visitId}@kin-health`);
    expect(checkUp).toMatchObject({
      summary: 'Pediatric check-up (Leo)',
      location: 'Elm Street Clinic',
      description: 'Doctor: Dr. Chen',
      sequence: 0,
    });
    expect(checkUp?.start.zone?.tzid).toBe('UTC');
    const booster = events.find((event) => event.summary === 'Shot: MMR booster (Leo)');
    expect(booster?.start.isDate).toBe(true);
    expect(events.map((event) => event.summary)).not.toContain('Long ago');
    // The sample records are dated in the future too: visits and shots, nothing else.
    expect(events.every((event) => /^(Shot: )?[\w -]+( \(Leo\))?$/.test(event.summary))).toBe(true);
    for (const secret of ['Asthma', 'Lisinopril', 'Referral', 'Peanuts', 'rash', 'SmileCare']) {
      expect(text).not.toContain(secret);
    }
  });

  it('bumps an event’s SEQUENCE when its visit changes, keeping its UID', async () => {
    const { client } = await signedUpClient(server);
    const { visitId, leoId } = await family(client);
    const url = await createLink(client);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await client.put(
      `/api/visits/${visitId}`,
      sampleRecord('visit', {
        visit_name: 'Pediatric check-up, moved',
        visit_date: inAYear(1),
        family_member_id: leoId,
      }),
    );
    const events = eventsOf(await (await readFeed(url)).text());
    const moved = events.find((event) => event.uid === `${visitId}@kin-health`);
    expect(moved?.summary).toBe('Pediatric check-up, moved (Leo)');
    expect(moved?.sequence).toBeGreaterThan(0);
  });

  it('is the same text while nothing in it changes, and shows each change at once', async () => {
    const { client } = await signedUpClient(server);
    const { visitId, leoId } = await family(client);
    // A baby's vaccine doses are in the feed too, stamped with the day they were planned for.
    await client.patch('/api/profile', { vaccine_schedule: 'us-cdc' });
    await client.post('/api/family-members', {
      name: 'Nora',
      color: '#3b82f6',
      date_of_birth: new Date(Date.now() - 40 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10),
    });
    const url = await createLink(client);
    const first = await (await readFeed(url)).text();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await (await readFeed(url)).text();
    expect(again).toBe(first);
    const doses = eventsOf(first).filter((event) => event.summary.startsWith('Vaccine: '));
    expect(doses.length).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    expect(first).toContain(`DTSTAMP:${today}T000000Z`);

    // A visit's doctor changed, a shot added, the visit deleted: each read shows it.
    await client.put(
      `/api/visits/${visitId}`,
      sampleRecord('visit', {
        visit_name: 'Pediatric check-up',
        doctor_name: 'Dr. Osei',
        visit_date: inAYear(),
        family_member_id: leoId,
      }),
    );
    const changed = eventsOf(await (await readFeed(url)).text());
    expect(changed.find((event) => event.uid === `${visitId}@kin-health`)?.description).toBe(
      'Doctor: Dr. Osei',
    );
    await client.post(
      '/api/shots',
      sampleRecord('shot', {
        shot_name: 'Flu',
        date_administered: inAYear(5).slice(0, 10),
        family_member_id: leoId,
      }),
    );
    const added = eventsOf(await (await readFeed(url)).text());
    expect(added.map((event) => event.summary)).toContain('Shot: Flu (Leo)');
    await client.delete(`/api/visits/${visitId}`);
    const deleted = eventsOf(await (await readFeed(url)).text());
    expect(deleted.map((event) => event.uid)).not.toContain(`${visitId}@kin-health`);
  });

  it('covers one person when made for one', async () => {
    const { client } = await signedUpClient(server);
    const { leoId } = await family(client);
    const url = await createLink(client, leoId);
    const summaries = eventsOf(await (await readFeed(url)).text()).map((event) => event.summary);
    expect(summaries.sort()).toEqual(['Annual checkup', 'Pediatric check-up', 'Shot: MMR booster']);
  });

  it('answers a wrong, malformed or revoked token with a plain 404, and a new link ends the old', async () => {
    const { client } = await signedUpClient(server);
    await family(client);
    const first = await createLink(client);
    const second = await createLink(client);
    expect((await readFeed(first)).status).toBe(404);
    expect((await readFeed(second)).status).toBe(200);
    const wrong = second.replace(/[A-Za-z0-9_-]{43}/, 'A'.repeat(43));
    for (const url of [wrong, second.replace('.ics', ''), `${second}x`]) {
      const response = await readFeed(url);
      expect(response.status, url).toBe(404);
      expect(await response.text()).toBe('Not found');
    }
    expect((await client.delete('/api/calendar-link')).status).toBe(204);
    expect((await readFeed(second)).status).toBe(404);
    expect((await client.get('/api/calendar-link')).body).toEqual({ link: null });
  });

  it('keeps only the token’s hash, and shows the URL only when the link is made', async () => {
    const { client } = await signedUpClient(server);
    const url = await createLink(client);
    const token = /([A-Za-z0-9_-]{43})\.ics$/.exec(url)?.[1] ?? '';
    const rows = await server.db.selectFrom('calendar_links').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.map((row) => row.token_hash)).toContain(hashToken(token));
    const state = await client.get<{ link: CalendarLinkState }>('/api/calendar-link');
    expect(state.body.link).toMatchObject({ person_id: null, last_read_at: null });
    expect(state.body.link.url).toBeUndefined();
    await readFeed(url);
    const read = await client.get<{ link: CalendarLinkState }>('/api/calendar-link');
    expect(read.body.link.last_read_at).not.toBeNull();
    // A calendar app polling from the same address is not written down on every reading.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await readFeed(url);
    const again = await client.get<{ link: CalendarLinkState }>('/api/calendar-link');
    expect(again.body.link.last_read_at).toBe(read.body.link.last_read_at);
  });

  it('is made only for the user’s own persons, and only with a session', async () => {
    const theirs = await signedUpClient(server);
    const { leoId } = await family(theirs.client);
    const { client: mine } = await signedUpClient(server);
    const response = await mine.post('/api/calendar-link', { person_id: leoId });
    expect(response.status).toBe(404);
    mine.forgetCookies();
    expect((await mine.post('/api/calendar-link', { person_id: null })).status).toBe(401);
    expect((await mine.get('/api/calendar-link')).status).toBe(401);
  });

  it('writes down the link’s making, its reading from a new address, and refused tokens', async () => {
    const { client } = await signedUpClient(server);
    const url = await createLink(client);
    await readFeed(url);
    await readFeed(url);
    await readFeed(url.replace(/[A-Za-z0-9_-]{43}/, 'B'.repeat(43)));
    const activity =
      await client.get<{ event: string; detail: string | null }[]>('/api/security-activity');
    const events = activity.body.map((entry) => entry.event);
    expect(events.filter((event) => event === 'calendar_feed_read')).toHaveLength(1);
    expect(events).toContain('calendar_link_created');
    const refused = await server.db
      .selectFrom('audit_log')
      .select(['event', 'detail'])
      .where('detail', '=', 'calendar-feed')
      .execute();
    expect(refused).toContainEqual({ event: 'verification_failed', detail: 'calendar-feed' });
  });
});

describe('the calendar feed’s limit', () => {
  it('refuses an address that keeps trying, and writes it down', async () => {
    const { client } = await signedUpClient(limited);
    const response = await client.post<{ link: CalendarLinkState }>('/api/calendar-link', {
      person_id: null,
    });
    const url = response.body.link.url ?? '';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      statuses.push((await limited.fetch(new Request(url))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const rows = await limited.db
      .selectFrom('audit_log')
      .select('event')
      .where('event', '=', 'too_many_attempts')
      .where('detail', '=', 'calendar-feed')
      .execute();
    expect(rows.length).toBeGreaterThan(0);
  });
});
