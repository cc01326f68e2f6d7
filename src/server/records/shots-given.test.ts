/**
 * A shot dated today has been given (CONTRACT.md §6 'Shots dated today'), and every place
 * that tells a given shot from one to come agrees, because each asks `isShotGiven`: three
 * shots, dated yesterday, today and tomorrow, through the Shots list, FHIR $everything, the
 * IPS $summary, the PDF, a share link's bundle and its viewer, the calendar feed and the
 * vaccine schedule. The reader's today is fixed, as the browser sends it (the calendar feed
 * is given the same day the way its route gives it the server's).
 */
import ICAL from 'ical.js';
import type {
  Bundle,
  Composition,
  Immunization,
  ImmunizationRecommendation,
  Resource,
} from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { isShotGiven, shotDefinition } from '../../shared/records/shots';
import type { VaccineScheduleAnswer } from '../../shared/vaccines/schedule-setting';
import { summarizeBundle } from '../../web/viewer/bundle-summary';
import { calendarFeed } from '../calendar/calendar-feed';
import { createCalendarLinks } from '../calendar/calendar-links';
import { sampleRecord } from '../test/factories';
import { signedUpClient, TEST_ORIGIN, useTestServer, type TestClient } from '../test/harness';
import { pdfText } from '../test/pdf-text';

const server = useTestServer();

const YESTERDAY = '2026-06-14';
const TODAY = '2026-06-15';
const TOMORROW = '2026-06-16';

/** A baby of two months, and a shot of hers each day: Hep B yesterday, DTaP today, IPV tomorrow. */
async function babyWithThreeShots() {
  const { client } = await signedUpClient(server, 'Ana Ruiz');
  await client.patch('/api/profile', { vaccine_schedule: 'us-cdc' });
  const baby = await client.post<{ id: string }>('/api/family-members', {
    name: 'Nora Ruiz',
    date_of_birth: '2026-04-15',
    sex: 'female',
  });
  expect(baby.status).toBe(201);
  const shots = [
    { shot_name: 'Hep B dose 1', vaccine_code: '45', date_administered: YESTERDAY },
    { shot_name: 'DTaP dose 1', vaccine_code: '107', date_administered: TODAY },
    { shot_name: 'IPV dose 1', vaccine_code: '10', date_administered: TOMORROW },
  ];
  for (const shot of shots) {
    const saved = await client.post(
      '/api/shots',
      sampleRecord('shot', { ...shot, location: null, family_member_id: baby.body.id }),
    );
    expect(saved.status).toBe(201);
  }
  return { client, babyId: baby.body.id };
}

const GIVEN = ['DTaP dose 1', 'Hep B dose 1'];
const TO_COME = ['IPV dose 1'];

const resourcesOf = (bundle: Bundle): Resource[] =>
  (bundle.entry ?? []).flatMap((entry) => (entry.resource ? [entry.resource] : []));

/** The shots of a bundle: completed Immunizations, and recommendations the user recorded. */
function shotsIn(resources: Resource[]) {
  const immunizations = resources.filter(
    (resource): resource is Immunization => resource.resourceType === 'Immunization',
  );
  const recommendations = resources.filter(
    (resource): resource is ImmunizationRecommendation =>
      resource.resourceType === 'ImmunizationRecommendation' && !resource.meta?.tag?.length,
  );
  return {
    completed: immunizations
      .filter((immunization) => immunization.status === 'completed')
      .map((immunization) => immunization.vaccineCode.text)
      .sort(),
    due: recommendations.map((r) => r.recommendation[0]?.vaccineCode?.[0]?.text).sort(),
  };
}

async function pdfOf(client: TestClient, personId: string) {
  const response = await server.fetch(
    new Request(`${TEST_ORIGIN}/api/persons/${personId}/summary.pdf?today=${TODAY}&tz=UTC`, {
      headers: { origin: TEST_ORIGIN, cookie: client.cookieHeader },
    }),
  );
  expect(response.status).toBe(200);
  return (await pdfText(new Uint8Array(await response.arrayBuffer()))).replace(/\s+/g, ' ');
}

describe('isShotGiven', () => {
  it.each([
    [YESTERDAY, true],
    [TODAY, true],
    [TOMORROW, false],
    ['2027-01-01', false],
    [null, true],
  ])('a shot dated %s is given on 2026-06-15: %s', (date, given) => {
    expect(isShotGiven(date, TODAY)).toBe(given);
  });

  it("is what the Shots list's views say in SQL: 'Past' given and dated, 'Upcoming' the rest dated", () => {
    const holds = (comparison: string, date: string) =>
      ({ '>': date > TODAY, '>=': date >= TODAY, '<': date < TODAY, '<=': date <= TODAY })[
        comparison
      ];
    const { past, upcoming } = shotDefinition.views;
    for (const date of [YESTERDAY, TODAY, TOMORROW]) {
      expect(holds(past.comparison, date)).toBe(isShotGiven(date, TODAY));
      expect(holds(upcoming.comparison, date)).toBe(!isShotGiven(date, TODAY));
    }
    expect([past.includesEmpty, upcoming.includesEmpty]).toEqual([false, false]);
  });
});

describe('a shot dated today is given everywhere', () => {
  it('in the Shots list: under Past with yesterday’s, tomorrow’s under Upcoming', async () => {
    const { client } = await babyWithThreeShots();
    type Page = { items: { shot_name: string }[]; counts: Record<string, number> };
    const view = (name: string) => client.get<Page>(`/api/shots?view=${name}&today=${TODAY}`);
    const past = (await view('past')).body;
    expect(past.items.map((shot) => shot.shot_name)).toEqual(['DTaP dose 1', 'Hep B dose 1']);
    expect(past.counts).toEqual({ upcoming: 1, past: 2 });
    expect((await view('upcoming')).body.items.map((shot) => shot.shot_name)).toEqual(TO_COME);
  });

  it('in FHIR $everything and in a share link’s bundle, and so in the share viewer', async () => {
    const { client, babyId } = await babyWithThreeShots();
    const url = `/api/fhir/Patient/${babyId}/$everything?today=${TODAY}`;
    const everything = resourcesOf((await client.get<Bundle>(url)).body);
    expect(shotsIn(everything)).toEqual({ completed: GIVEN, due: TO_COME });
    expect(
      everything.find(
        (r): r is Immunization =>
          r.resourceType === 'Immunization' && r.vaccineCode.text === 'DTaP dose 1',
      )?.occurrenceDateTime,
    ).toBe(TODAY);

    // The bundle a share link carries, as the owner's browser asks for it.
    const shared = (await client.get<Bundle>(`${url}&types=shot&vaccines=overdue`)).body;
    expect(shotsIn(resourcesOf(shared))).toEqual({ completed: GIVEN, due: TO_COME });
    const immunizations = summarizeBundle(shared).sections.find(
      (section) => section.heading === 'Immunizations',
    )?.items;
    const detailsOf = (title: string) =>
      immunizations?.find((item) => item.title === title)?.details.join(' ');
    expect(detailsOf('DTaP dose 1')).not.toMatch(/Due/);
    expect(detailsOf('Hep B dose 1')).not.toMatch(/Due/);
    expect(detailsOf('IPV dose 1')).toMatch(/^Due /);
  });

  it('in the IPS $summary: among Immunizations, tomorrow’s in the plan of care', async () => {
    const { client, babyId } = await babyWithThreeShots();
    const bundle = (await client.get<Bundle>(`/api/fhir/Patient/${babyId}/$summary?today=${TODAY}`))
      .body;
    const resources = resourcesOf(bundle);
    const composition = resources[0] as Composition;
    const sectionShots = (code: string) => {
      const section = composition.section?.find((s) => s.code?.coding?.[0]?.code === code);
      const ids = new Set(section?.entry?.map((entry) => entry.reference) ?? []);
      return shotsIn(
        (bundle.entry ?? []).flatMap((entry) =>
          entry.resource && ids.has(entry.fullUrl) ? [entry.resource] : [],
        ),
      );
    };
    expect(sectionShots('11369-6')).toEqual({ completed: GIVEN, due: [] });
    expect(sectionShots('18776-5').due).toEqual(TO_COME);
  });

  it('in the summary PDF, under Immunizations', async () => {
    const { client, babyId } = await babyWithThreeShots();
    const text = await pdfOf(client, babyId);
    const immunizations = text.slice(
      text.indexOf('Immunizations'),
      text.indexOf('Upcoming Visits'),
    );
    expect(immunizations).toContain('DTaP dose 1 June 15, 2026');
    expect(immunizations).toContain('Hep B dose 1 June 14, 2026');
    expect(text).not.toContain('IPV dose 1');
  });

  it('in the calendar feed: no event for it, tomorrow’s is one', async () => {
    const { client, babyId } = await babyWithThreeShots();
    const made = await client.post<{ link: { url: string } }>('/api/calendar-link', {
      person_id: babyId,
    });
    expect(made.status).toBe(201);
    const token = made.body.link.url
      .split('/')
      .at(-1)!
      .replace(/\.ics$/, '');
    const link = await createCalendarLinks(server.db).byToken(token);
    const feed = await calendarFeed(server.db, link!, {
      now: `${TODAY}T12:00:00.000Z`,
      today: TODAY,
    });
    const calendar = new ICAL.Component(ICAL.parse(feed));
    const shotEvents = calendar
      .getAllSubcomponents('vevent')
      .map((component) => new ICAL.Event(component))
      .filter((event) => event.summary.startsWith('Shot: '))
      .map((event) => [event.summary, event.startDate.toString()]);
    expect(shotEvents).toEqual([['Shot: IPV dose 1', TOMORROW]]);
  });

  it('in the vaccine schedule: Done, given today', async () => {
    const { client, babyId } = await babyWithThreeShots();
    const plan = (
      await client.get<VaccineScheduleAnswer>(
        `/api/persons/${babyId}/vaccine-schedule?today=${TODAY}`,
      )
    ).body;
    const first = (vaccine: string) =>
      plan.doses.find((dose) => dose.vaccine === vaccine && dose.dose === 1);
    expect(first('DTaP')).toMatchObject({ status: 'Done', given: TODAY });
    expect(first('Hep B')).toMatchObject({ status: 'Done', given: YESTERDAY });
    expect(first('IPV')?.status).not.toBe('Done');
    expect(first('IPV')?.given).toBeUndefined();
  });
});
