/** 'Download my data' and importing it back: the same data, or nothing changed at all. */
import { describe, expect, it } from 'vitest';
import { addDays, calendarDayOf } from '../../shared/date-values';
import {
  EXPORTED_ACCOUNT_HOLDER,
  IMPORT_NEEDS_EMPTY_ACCOUNT,
  type DataExport,
} from '../../shared/data-export';
import { recordDefinitions } from '../../shared/records';
import { sampleRecord } from '../test/factories';
import { addOneOfEveryType } from '../test/family-records';
import { MAX_IMPORT_BYTES } from '../../shared/data-export';
import { useTestServer, signedUpClient, type TestClient } from '../test/harness';

const server = useTestServer();

/** An export with its ids replaced by what they point at, so two accounts can be compared. */
function comparable(data: DataExport) {
  const memberNames = new Map(data.family_members.map((member) => [member.id, member.name]));
  const strip = ({ id: _id, family_member_id, ...rest }: Record<string, unknown>) => ({
    ...rest,
    ...(family_member_id === undefined
      ? {}
      : { member: family_member_id ? memberNames.get(String(family_member_id)) : null }),
  });
  const medicationNames = new Map(
    data.records.medications.map((row) => [row.id, row.medication_name]),
  );
  return {
    family_members: data.family_members.map(strip),
    records: Object.fromEntries(
      Object.entries(data.records).map(([table, rows]) => [table, rows.map(strip)]),
    ),
    dose_log: data.dose_log.map(({ id: _id, medication_id, ...rest }) => ({
      ...rest,
      medication: medicationNames.get(medication_id),
    })),
  };
}

async function fill(client: TestClient) {
  const leo = await client.post<{ id: string }>('/api/family-members', {
    name: 'Leo',
    date_of_birth: '2017-04-12',
    color: '#3b82f6',
  });
  await client.post('/api/family-members', { name: 'Ana', color: '#ec4899' });
  await addOneOfEveryType(client, leo.body.id);
  // A dose of Leo's medication, marked taken on a day it was due.
  const medications = await client.get<{ items: { id: string; family_member_id: string }[] }>(
    `/api/medications?member=${leo.body.id}`,
  );
  const taken = await client.post('/api/doses', {
    medication_id: medications.body.items[0]?.id,
    // Yesterday: doses are marked up to 30 days back.
    day: addDays(calendarDayOf(new Date()), -1),
    slot: 'Morning',
    status: 'taken',
  });
  expect(taken.status).toBe(201);
  await client.post(
    '/api/history',
    sampleRecord('condition', { is_family_history: true, relation: 'Grandmother' }),
  );
}

/** What `fill` writes: one record of each type, one more for Leo where a type links to members, and a family history entry. */
const FILLED_RECORDS =
  recordDefinitions.length +
  recordDefinitions.filter((definition) => definition.memberLinked).length +
  1;

describe('export and import', () => {
  it('round-trips every member and record into an empty account', async () => {
    const { client: source } = await signedUpClient(server, 'Source User');
    await fill(source);
    const exported = await source.get<DataExport>('/api/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(
      /attachment; filename="kin-health-export-\d{4}-\d{2}-\d{2}\.json"/,
    );
    expect(exported.body.family_members).toHaveLength(2);
    expect(Object.values(exported.body.records).flat()).toHaveLength(FILLED_RECORDS);
    expect(JSON.stringify(exported.body)).not.toMatch(/user_id|family_passcode|password/);

    const { client: target } = await signedUpClient(server, 'Target User');
    const imported = await target.post('/api/import', exported.body);
    expect(imported.status).toBe(201);
    expect(imported.body).toEqual({ family_members: 2, records: FILLED_RECORDS, doses: 1 });

    const again = await target.get<DataExport>('/api/export');
    expect(comparable(again.body)).toEqual(comparable(exported.body));
    // New ids: the source's rows are untouched and still the source's alone.
    const sourceIds = new Set(
      Object.values(exported.body.records)
        .flat()
        .map((row) => row.id),
    );
    expect(
      Object.values(again.body.records)
        .flat()
        .some((row) => sourceIds.has(row.id)),
    ).toBe(false);
    expect((await source.get<DataExport>('/api/export')).body.records).toEqual(
      exported.body.records,
    );

    // The imported records work like any other.
    const visits = await target.get<{ items: { family_member_name: string | null }[] }>(
      '/api/visits',
    );
    expect(visits.body.items.map((visit) => visit.family_member_name).sort()).toEqual(
      ['Leo', null].sort(),
    );
  });

  it('carries the persons each contact cares for, the whole family’s with none', async () => {
    const { client: source } = await signedUpClient(server, 'Maria Source');
    const holderId = (await source.get<{ id: string }>('/api/profile')).body.id;
    const leo = await source.post<{ id: string }>('/api/family-members', { name: 'Leo' });
    for (const [contact_name, person_ids] of [
      ['Dr. Paed', [leo.body.id]],
      ['Dr. Family', [holderId, leo.body.id]],
      ['Pharmacy', []],
    ] as const) {
      await source.post('/api/contacts', sampleRecord('contact', { contact_name, person_ids }));
    }
    const exported = (await source.get<DataExport>('/api/export')).body;
    const personsByName = (data: DataExport) => {
      const names = new Map(data.family_members.map((member) => [member.id, member.name]));
      names.set(EXPORTED_ACCOUNT_HOLDER, 'holder');
      return Object.fromEntries(
        data.records.contacts.map((row) => [
          row.contact_name,
          ((row.person_ids as string[] | undefined) ?? []).map((id) => names.get(id)).sort(),
        ]),
      );
    };
    const expected = {
      'Dr. Paed': ['Leo'],
      'Dr. Family': ['Leo', 'holder'],
      Pharmacy: [],
    };
    expect(personsByName(exported)).toEqual(expected);
    expect(JSON.stringify(exported)).not.toContain(holderId);

    const { client: target } = await signedUpClient(server, 'Maria Target');
    expect((await target.post('/api/import', exported)).status).toBe(201);
    const again = (await target.get<DataExport>('/api/export')).body;
    expect(personsByName(again)).toEqual(expected);

    // A person the file does not hold is refused by name, importing nothing.
    const broken = structuredClone(exported);
    broken.records.contacts[0]!.person_ids = ['someone-who-is-not-here-at-all'];
    const { client: third } = await signedUpClient(server);
    const refused = await third.post<{ message: string }>('/api/import', broken);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('Cares For');
    expect((await third.get<{ items: unknown[] }>('/api/contacts')).body.items).toEqual([]);
  });

  it('reads a version 1 file, whose conditions were keyed health_history', async () => {
    const { client: source } = await signedUpClient(server);
    await fill(source);
    const exported = (await source.get<DataExport>('/api/export')).body;
    const { conditions, ...others } = exported.records;
    const versionOne = {
      ...exported,
      version: 1,
      records: { ...others, health_history: conditions },
    };
    const { client: target } = await signedUpClient(server);
    expect((await target.post('/api/import', versionOne)).status).toBe(201);
    const again = (await target.get<DataExport>('/api/export')).body;
    expect(again.version).toBe(2);
    expect(comparable(again)).toEqual(comparable(exported));
  });

  it('reads a medication of a file written before No set time as taken at no set time', async () => {
    const { client: source } = await signedUpClient(server);
    await fill(source);
    const exported = (await source.get<DataExport>('/api/export')).body;
    const [first, ...rest] = exported.records.medications ?? [];
    const untimed = {
      ...first,
      frequency: 'Daily',
      time_morning: false,
      time_noon: false,
      time_evening: false,
      time_night: false,
    } as Record<string, unknown>;
    delete untimed.no_set_time;
    const older = {
      ...exported,
      records: { ...exported.records, medications: [untimed, ...rest] },
    };
    const { client: target } = await signedUpClient(server);
    expect((await target.post('/api/import', older)).status).toBe(201);
    const again = (await target.get<DataExport>('/api/export')).body;
    expect(again.records.medications?.[0]).toMatchObject({ frequency: 'Daily', no_set_time: true });
  });

  it('refuses to import into an account that has data, changing nothing', async () => {
    const { client: source } = await signedUpClient(server);
    await fill(source);
    const exported = (await source.get<DataExport>('/api/export')).body;
    const response = await source.post('/api/import', exported);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: IMPORT_NEEDS_EMPTY_ACCOUNT });
    expect(
      Object.values((await source.get<DataExport>('/api/export')).body.records).flat(),
    ).toHaveLength(FILLED_RECORDS);
  });

  it('refuses a broken file with a message naming the problem, importing nothing of it', async () => {
    const { client: source } = await signedUpClient(server);
    await fill(source);
    const exported = (await source.get<DataExport>('/api/export')).body;
    const { client: target } = await signedUpClient(server);

    const broken: Array<[string, unknown, RegExp]> = [
      ['not an export', { hello: 'world' }, /not a Kin Health export/],
      ['another version', { ...exported, version: 3 }, /version 1 or 2/],
      [
        'a bad record late in the file',
        {
          ...exported,
          records: {
            ...exported.records,
            contacts: [
              ...exported.records.contacts,
              { ...exported.records.contacts[0], contact_name: '' },
            ],
          },
        },
        /Contact 2: Contact Name is required/,
      ],
      [
        'a record whose member is missing',
        { ...exported, family_members: exported.family_members.slice(1) },
        /family member is not in the file/,
      ],
      [
        'a bad member',
        { ...exported, family_members: [{ ...exported.family_members[0], color: 'red' }] },
        /Family member 1: Color/,
      ],
    ];
    for (const [label, file, message] of broken) {
      const response = await target.post<{ message: string }>('/api/import', file);
      expect(response.status, label).toBe(400);
      expect(response.body.message, label).toMatch(message);
      const after = (await target.get<DataExport>('/api/export')).body;
      expect(after.family_members, label).toEqual([]);
      expect(Object.values(after.records).flat(), label).toEqual([]);
    }
  });

  it('need a session', async () => {
    expect((await server.client().get('/api/export')).status).toBe(401);
    expect((await server.client().post('/api/import', {})).status).toBe(401);
  });
});

describe('an import', () => {
  /** A request body that says whether the server has started reading it. */
  function watchedBody(text: string) {
    const state = { pulled: false };
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          state.pulled = true;
          controller.enqueue(bytes);
          controller.close();
        },
      },
      // Nothing is fetched ahead: pull() runs only when the server reads.
      { highWaterMark: 0 },
    );
    return { stream, state };
  }

  const importRequest = (client: TestClient, body: ReadableStream<Uint8Array> | string) =>
    server.app.fetch(
      new Request(`http://localhost:3000/api/import`, {
        method: 'POST',
        headers: {
          origin: 'http://localhost:3000',
          'content-type': 'application/json',
          cookie: client.cookieHeader,
        },
        body,
        // A stream body is sent as it comes.
        ...(typeof body === 'string' ? {} : { duplex: 'half' }),
      } as RequestInit),
    );

  it('into an account with data is refused before its body is read', async () => {
    const { client } = await signedUpClient(server);
    await fill(client);
    const exported = (await client.get<DataExport>('/api/export')).body;
    const { stream, state } = watchedBody(JSON.stringify(exported));
    const response = await importRequest(client, stream);
    expect(response.status).toBe(409);
    expect(state.pulled).toBe(false);
  });

  it('runs one at a time per account', async () => {
    const { client: source } = await signedUpClient(server);
    await fill(source);
    const text = JSON.stringify((await source.get<DataExport>('/api/export')).body);
    const { client } = await signedUpClient(server);

    // The first import waits for its body; a second one meanwhile is refused.
    let send: (chunk: Uint8Array | null) => void = () => {};
    const slow = new ReadableStream<Uint8Array>({
      start(controller) {
        send = (chunk) => (chunk ? controller.enqueue(chunk) : controller.close());
      },
    });
    const first = importRequest(client, slow);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await importRequest(client, text);
    expect(second.status).toBe(409);
    expect(((await second.json()) as { message: string }).message).toMatch(/already running/);
    send(new TextEncoder().encode(text));
    send(null);
    expect((await first).status).toBe(201);
    expect(
      Object.values((await client.get<DataExport>('/api/export')).body.records).flat(),
    ).toHaveLength(FILLED_RECORDS);
  });

  it('over the size limit is refused with 413, and changes nothing', async () => {
    const { client } = await signedUpClient(server);
    const huge = JSON.stringify({
      format: 'kin-health-export',
      padding: 'x'.repeat(MAX_IMPORT_BYTES),
    });
    const response = await importRequest(client, huge);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { message: string }).message).toMatch(/too large/);
    // The lock was given back: a good import goes through.
    const { client: source } = await signedUpClient(server);
    await fill(source);
    const exported = (await source.get<DataExport>('/api/export')).body;
    expect((await client.post('/api/import', exported)).status).toBe(201);
  });

  it('that is not JSON is refused, and gives the lock back', async () => {
    const { client } = await signedUpClient(server);
    const response = await importRequest(client, '{ not json');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/JSON/);
    expect((await importRequest(client, '{ still not json')).status).toBe(400);
  });
});
