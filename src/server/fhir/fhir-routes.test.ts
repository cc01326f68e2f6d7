/**
 * The FHIR routes over the API: one person's records out as a Bundle and an IPS document
 * that validate, never another user's; a FHIR Bundle in, into a chosen person, once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type {
  Bundle,
  BundleEntry,
  Composition,
  ImmunizationRecommendation,
  Resource,
} from '@medplum/fhirtypes';
import { addDays, calendarDayOf } from '../../shared/date-values';
import type { FhirImportSummary } from '../../shared/fhir';
import { sampleRecord } from '../test/factories';
import { addOneOfEveryType } from '../test/family-records';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';
import { findPerson, personRecords } from '../persons/person-records';
import { danglingReferences, fhirProblems } from './testing/fhir-validator';

const server = useTestServer();
/** A day whose doses can still be marked: yesterday. */
const DOSE_DAY = addDays(calendarDayOf(new Date()), -1);
const TODAY = '2026-06-15';

interface Family {
  client: TestClient;
  userId: string;
  leoId: string;
}

/** An account holder with records of every type, and Leo with records of every type of his. */
async function family(): Promise<Family> {
  const { client } = await signedUpClient(server, 'Maria Garcia');
  const session = await client.get<{ user: { id: string } }>('/api/auth/get-session');
  const leo = await client.post<{ id: string }>('/api/family-members', {
    name: 'Leo Garcia',
    date_of_birth: '2017-04-12',
    color: '#3b82f6',
  });
  await addOneOfEveryType(client, leo.body.id);
  // Leo's own contact (the one above is the whole family's), his past visit (an Encounter)
  // beside his upcoming one (an Appointment), and the holder's family history.
  await client.post(
    '/api/contacts',
    sampleRecord('contact', { contact_name: 'Dr. Lena Paed', person_ids: [leo.body.id] }),
  );
  await client.post(
    '/api/visits',
    sampleRecord('visit', {
      visit_name: 'Ear infection',
      visit_date: '2025-02-01T10:00:00.000Z',
      family_member_id: leo.body.id,
    }),
  );
  await client.post(
    '/api/history',
    sampleRecord('condition', {
      condition_name: 'Diabetes',
      is_family_history: true,
      relation: 'Grandmother',
    }),
  );
  return { client, userId: session.body.user.id, leoId: leo.body.id };
}

const everythingOf = (client: TestClient, personId: string) =>
  client.get<Bundle>(`/api/fhir/Patient/${personId}/$everything?today=${TODAY}`);
const summaryOf = (client: TestClient, personId: string) =>
  client.get<Bundle>(`/api/fhir/Patient/${personId}/$summary?today=${TODAY}`);

const resourcesOf = (bundle: Bundle) =>
  (bundle.entry ?? []).map((entry: BundleEntry) => entry.resource as Resource);

function expectValid(bundle: Bundle) {
  expect(fhirProblems(bundle)).toEqual([]);
  for (const resource of resourcesOf(bundle)) {
    expect(fhirProblems(resource), `${resource.resourceType}/${resource.id}`).toEqual([]);
  }
  expect(danglingReferences(bundle)).toEqual([]);
}

const countByType = (bundle: Bundle) => {
  const counts: Record<string, number> = {};
  for (const { resourceType } of resourcesOf(bundle)) {
    counts[resourceType] = (counts[resourceType] ?? 0) + 1;
  }
  return counts;
};

/**
 * What a bundle says, without what only names it: ids, full URLs, references, the moment
 * of the export (the bundle's timestamp, wherever it is written), and when a due shot was
 * written down (an ImmunizationRecommendation's date: when its record was made, which an
 * import makes anew).
 */
function clinicalContent(bundle: Bundle): string[] {
  const strip = (value: unknown): unknown => {
    if (value === bundle.timestamp) return 'the moment of the export';
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'id' || key === 'fullUrl') continue;
      if (key === 'date' && out.resourceType === 'ImmunizationRecommendation') continue;
      if (key === 'reference' && typeof inner === 'string') continue;
      out[key] = strip(inner);
    }
    return out;
  };
  return resourcesOf(bundle)
    .map((resource) => JSON.stringify(strip(resource)))
    .sort();
}

describe('GET /api/fhir/Patient/{personId}/$everything', () => {
  it('answers a valid R4 Bundle of every record of a member, as application/fhir+json', async () => {
    const { client, leoId } = await family();
    const response = await everythingOf(client, leoId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="kin-health-fhir-leo-garcia-${TODAY}.json"`,
    );
    const bundle = response.body;
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expectValid(bundle);
    expect(countByType(bundle)).toMatchObject({
      Patient: 1,
      Encounter: 1,
      Appointment: 1,
      MedicationStatement: 1,
      ImmunizationRecommendation: 1,
      DocumentReference: 1,
      Condition: 1,
      AllergyIntolerance: 1,
      Coverage: 1,
      CareTeam: 1,
    });
    const patient = resourcesOf(bundle).find((resource) => resource.resourceType === 'Patient');
    expect(patient).toMatchObject({ id: leoId, birthDate: '2017-04-12' });
  });

  it('holds the account holder’s own records and family history, not a member’s', async () => {
    const { client, userId } = await family();
    const bundle = (await everythingOf(client, userId)).body;
    expectValid(bundle);
    const counts = countByType(bundle);
    expect(counts).toMatchObject({ Appointment: 1, Condition: 1, FamilyMemberHistory: 1 });
    expect(counts.Encounter).toBeUndefined();
  });

  it('carries the dose log: taken doses as MedicationAdministrations, skipped ones as MedicationStatements not taken', async () => {
    const { client, userId, leoId } = await family();
    const medications = await client.get<{ items: { id: string }[] }>(
      `/api/medications?member=${leoId}`,
    );
    const medicationId = medications.body.items[0]?.id;
    const marks: Record<string, string> = {};
    for (const [slot, status] of [
      ['Morning', 'taken'],
      ['Night', 'skipped'],
    ] as const) {
      const mark = await client.post<{ id: string }>('/api/doses', {
        medication_id: medicationId,
        day: DOSE_DAY,
        slot,
        status,
      });
      expect(mark.status).toBe(201);
      marks[status] = mark.body.id;
    }
    const bundle = (await everythingOf(client, leoId)).body;
    expectValid(bundle);
    const byId = new Map(resourcesOf(bundle).map((resource) => [resource.id, resource]));
    expect(byId.get(marks.taken)).toMatchObject({
      resourceType: 'MedicationAdministration',
      status: 'completed',
      supportingInformation: [{ reference: `urn:uuid:${medicationId}` }],
      note: [{ text: `Morning dose of ${DOSE_DAY}` }],
    });
    expect(byId.get(marks.skipped)).toMatchObject({
      resourceType: 'MedicationStatement',
      status: 'not-taken',
      statusReason: [{ text: 'Skipped' }],
      effectiveDateTime: DOSE_DAY,
      partOf: [{ reference: `urn:uuid:${medicationId}` }],
      note: [{ text: `Night dose of ${DOSE_DAY}` }],
    });
    const own = (await everythingOf(client, userId)).body;
    expect(countByType(own).MedicationAdministration).toBeUndefined();
  });

  it('is a valid Bundle for a person with no records', async () => {
    const { client } = await signedUpClient(server);
    const leo = await client.post<{ id: string }>('/api/family-members', {
      name: 'Leo',
      color: '#3b82f6',
    });
    const bundle = (await everythingOf(client, leo.body.id)).body;
    expectValid(bundle);
    expect(countByType(bundle)).toEqual({ Patient: 1 });
  });

  it('answers another user’s person, or an id that is no one, as not found', async () => {
    const theirs = await family();
    const { client: mine } = await signedUpClient(server);
    for (const personId of [
      theirs.leoId,
      theirs.userId,
      '0190d5e2-0000-7000-8000-000000000000',
      'x',
    ]) {
      for (const operation of ['$everything', '$summary']) {
        const response = await mine.get(`/api/fhir/Patient/${personId}/${operation}`);
        expect(response.status, `${personId} ${operation}`).toBe(404);
        expect(response.body).toEqual({ message: 'Person not found' });
      }
    }
    theirs.client.forgetCookies();
    expect((await everythingOf(theirs.client, theirs.leoId)).status).toBe(401);
  });

  it('refuses a today that is not a date, naming it', async () => {
    const { client, userId } = await family();
    const response = await client.get(`/api/fhir/Patient/${userId}/$everything?today=soon`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ field: 'today' });
  });

  it('reads a person’s records a page at a time, each once, in the order they were made', async () => {
    const { userId, leoId } = await family();
    const person = await findPerson(server.db, userId, leoId);
    expect(person).toMatchObject({ id: leoId, family_member_id: leoId });
    const visits: string[] = [];
    for await (const row of personRecords(server.db, userId, person!, 'visit', { pageRows: 1 })) {
      visits.push(String(row.visit_name));
    }
    expect(visits).toEqual(['Annual checkup', 'Ear infection']);
    expect(await findPerson(server.db, userId, 'not-an-id')).toBeUndefined();
  });
});

describe('GET /api/fhir/Patient/{personId}/$summary', () => {
  it('answers a valid IPS document: the Composition first, its required sections filled', async () => {
    const { client, leoId } = await family();
    const response = await summaryOf(client, leoId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const bundle = response.body;
    expect(bundle.type).toBe('document');
    expectValid(bundle);
    const composition = resourcesOf(bundle)[0] as Composition;
    expect(composition.resourceType).toBe('Composition');
    expect(composition.type.coding?.[0]).toMatchObject({
      system: 'http://loinc.org',
      code: '60591-5',
    });
    const sections = new Map(
      (composition.section ?? []).map((section) => [section.code?.coding?.[0]?.code, section]),
    );
    for (const code of ['10160-0', '48765-2', '11450-4']) expect(sections.has(code)).toBe(true);
    expect(sections.get('48765-2')?.text?.div).toContain('Peanuts');
    expect(sections.get('10160-0')?.text?.div).toContain('Lisinopril');
  });

  it('says "no known" in each required section of a person with nothing', async () => {
    const { client } = await signedUpClient(server);
    const session = await client.get<{ user: { id: string } }>('/api/auth/get-session');
    const bundle = (await summaryOf(client, session.body.user.id)).body;
    expectValid(bundle);
    const composition = resourcesOf(bundle)[0] as Composition;
    expect(composition.section?.map((section) => section.code?.coding?.[0]?.code)).toEqual([
      '10160-0',
      '48765-2',
      '11450-4',
    ]);
  });
});

describe('POST /api/import?person={id} with a FHIR R4 Bundle', () => {
  const importInto = (client: TestClient, personId: string, body: unknown) =>
    client.request<FhirImportSummary & { message?: string; field?: string }>(
      'POST',
      `/api/import?person=${personId}`,
      body,
    );

  it('round-trips a member: imported into a fresh account’s member, exported again, the same content', async () => {
    const source = await family();
    const exported = (await everythingOf(source.client, source.leoId)).body;

    const { client: target } = await signedUpClient(server, 'Sam Lee');
    const mia = await target.post<{ id: string }>('/api/family-members', {
      name: 'Leo Garcia',
      date_of_birth: '2017-04-12',
      color: '#ec4899',
    });
    const imported = await importInto(target, mia.body.id, exported);
    expect(imported.status).toBe(201);
    expect(imported.body.summary).toBe(
      'Imported 2 visits, 1 medication, 1 shot, 1 note, 1 condition, 1 allergy, 1 lab result, 1 insurance policy, 1 vitals entry, 1 symptom, 1 contact',
    );
    const again = (await everythingOf(target, mia.body.id)).body;
    expectValid(again);
    expect(clinicalContent(again)).toEqual(clinicalContent(exported));

    // The same file again adds nothing.
    const twice = await importInto(target, mia.body.id, exported);
    expect(twice.status).toBe(201);
    expect(twice.body.already_imported).toBe(12);
    expect(twice.body.summary).toBe('Imported nothing (12 records were already here)');
    expect(clinicalContent((await everythingOf(target, mia.body.id)).body)).toEqual(
      clinicalContent(exported),
    );
  });

  it('imports a Synthea patient no one here wrote, counting what it skipped', async () => {
    const { client } = await signedUpClient(server);
    const session = await client.get<{ user: { id: string } }>('/api/auth/get-session');
    const synthea: unknown = JSON.parse(
      readFileSync(path.join(import.meta.dirname, 'fixtures/synthea-r4-luna60.json'), 'utf8'),
    );
    const response = await importInto(client, session.body.user.id, synthea);
    expect(response.status).toBe(201);
    expect(response.body.summary).toMatch(/^Imported \d+ visits, .*; skipped .*\d+ Observations/);
    const visits = await client.get<{ counts: Record<string, number> }>('/api/visits');
    const { upcoming = 0, past = 0 } = visits.body.counts;
    expect(upcoming + past).toBe(response.body.imported.visit);
    expectValid((await everythingOf(client, session.body.user.id)).body);
  });

  it('refuses what is not an R4 Bundle with a message, and changes nothing', async () => {
    const { client, userId } = await family();
    const before = (await everythingOf(client, userId)).body;
    const refusals: Array<[unknown, RegExp]> = [
      [{ resourceType: 'Bundle', type: 'history', entry: [] }, /of type 'history'/],
      // Not FHIR at all: not a kind of file Kin Health imports (CONTRACT §6).
      [{ hello: 'world' }, /not a kind Kin Health can import/],
      [
        {
          resourceType: 'Bundle',
          type: 'collection',
          entry: [{ resource: { resourceType: 'MedicationOrder', id: 'm', status: 'active' } }],
        },
        /FHIR DSTU2 Bundle, not R4/,
      ],
    ];
    for (const [body, message] of refusals) {
      const response = await importInto(client, userId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toMatch(message);
      expect(response.body.field).toBe('file');
    }
    const notJson = await client.request('POST', `/api/import?person=${userId}`, '{not json');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({
      message: 'This file is not a kind Kin Health can import',
    });
    expect(clinicalContent((await everythingOf(client, userId)).body)).toEqual(
      clinicalContent(before),
    );
  });

  it('imports into no one else’s person, and asks for a person when none is given', async () => {
    const theirs = await family();
    const exported = (await everythingOf(theirs.client, theirs.leoId)).body;
    const { client: mine } = await signedUpClient(server);
    const response = await importInto(mine, theirs.leoId, exported);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Person not found' });

    const noPerson = await mine.post<{ message: string; field: string }>('/api/import', exported);
    expect(noPerson.status).toBe(400);
    expect(noPerson.body.field).toBe('person');
    expect((await everythingOf(theirs.client, theirs.leoId)).body.entry).toHaveLength(
      exported.entry?.length ?? 0,
    );
  });
});

describe("a share link's bundle (?vaccines=overdue)", () => {
  it('carries the child’s overdue doses, valid and tagged computed, and importing it back adds no shot', async () => {
    const { client } = await signedUpClient(server, 'Ana Ruiz');
    const nora = await client.post<{ id: string }>('/api/family-members', {
      name: 'Nora Ruiz',
      date_of_birth: '2025-09-01',
    });
    const url = `/api/fhir/Patient/${nora.body.id}/$everything?today=${TODAY}&types=shot`;
    const shared = (await client.get<Bundle>(`${url}&vaccines=overdue`)).body;
    expectValid(shared);
    const overdue = resourcesOf(shared).filter(
      (resource) => resource.resourceType === 'ImmunizationRecommendation',
    ) as ImmunizationRecommendation[];
    const dtap = overdue.find((r) => r.recommendation[0]?.vaccineCode?.[0]?.text === 'DTaP');
    expect(dtap?.meta?.tag).toEqual([expect.objectContaining({ code: 'computed' })]);
    expect(dtap?.recommendation[0]).toMatchObject({
      forecastStatus: { coding: [expect.objectContaining({ code: 'overdue' })] },
      doseNumberPositiveInt: 1,
      seriesDosesPositiveInt: 6,
      dateCriterion: [expect.objectContaining({ value: '2025-11-01' })],
    });
    // $everything itself is unchanged: no computed doses.
    expect(
      resourcesOf((await client.get<Bundle>(url)).body).some(
        (resource) => resource.resourceType === 'ImmunizationRecommendation',
      ),
    ).toBe(false);

    const imported = await client.request<FhirImportSummary>(
      'POST',
      `/api/import?person=${nora.body.id}`,
      shared,
    );
    expect(imported.body.imported.shot ?? 0).toBe(0);
    const shots = await client.get<{ items: unknown[] }>(`/api/shots?person=${nora.body.id}`);
    expect(shots.body.items).toEqual([]);

    await client.patch('/api/profile', { vaccine_schedule: 'none' });
    expect(
      resourcesOf((await client.get<Bundle>(`${url}&vaccines=overdue`)).body).some(
        (resource) => resource.resourceType === 'ImmunizationRecommendation',
      ),
    ).toBe(false);
  });
});
