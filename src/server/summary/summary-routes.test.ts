/**
 * GET /api/persons/{personId}/summary.pdf over the API: one person's summary as a PDF whose
 * text (read back with pdftotext) holds the person, every section and their own records as
 * they stand today, and nothing of anyone else's.
 */
import { describe, expect, it, vi } from 'vitest';
import { definitionsByType } from '../../shared/records';
import type { RecordType } from '../../shared/records/definition';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { signedUpClient, TEST_ORIGIN, useTestServer, type TestClient } from '../test/harness';
import { pdfText } from '../test/pdf-text';
import { writeManyRecords } from '../test/many-records';
import { SUMMARY_HEADINGS as HEADINGS } from './summary-factories';
import { sharedSummaryPdfThread } from './summary-pdf-thread';
import { buildPersonSummary } from './person-summary-source';
import { ROWS_PER_SECTION } from '../../shared/person-summary';

const server = useTestServer();
const TODAY = '2026-06-15';

interface Family {
  client: TestClient;
  userId: string;
  leoId: string;
}

/** Leo's records: what his summary shows today, and what it leaves out (ended, due, past). */
const LEOS: [RecordType, Record<string, unknown>][] = [
  ['allergy', { substance: 'Amoxicillin', reaction: 'Rash', severity: 'Moderate' }],
  ['medication', { medication_name: 'Albuterol', dosage: '2 puffs', frequency: 'Twice Daily' }],
  ['medication', { medication_name: 'Cefdinir', start_date: '2026-01-10', end_date: '2026-01-20' }],
  ['condition', { condition_name: 'Asthma', status: 'Chronic', diagnosis_date: '2019-09-01' }],
  ['shot', { shot_name: 'MMR', date_administered: '2018-05-01', location: 'Riverside Pediatrics' }],
  ['shot', { shot_name: 'HPV vaccine', date_administered: '2027-01-01' }],
  ['visit', { visit_name: 'Asthma review', visit_date: '2030-03-04T09:30:00.000Z' }],
  ['visit', { visit_name: 'Ear infection', visit_date: '2025-02-01T10:00:00.000Z' }],
  ['insurance', { provider_name: 'KidsCare', policy_number: 'KC-4711', group_number: 'GRP-88' }],
];

/** Maria's own records, her family history, and a whole-family contact (in no one's summary). */
const MARIAS: [RecordType, Record<string, unknown>][] = [
  ['allergy', { substance: 'Latex' }],
  ['medication', { medication_name: 'Metformin' }],
  ['condition', { condition_name: 'Migraine' }],
  ['condition', { condition_name: 'Diabetes', is_family_history: true, relation: 'Grandmother' }],
  ['contact', { contact_name: 'Corner Pharmacy' }],
];

/** Maria with her own records and family history, and Leo with his, each told apart by name. */
async function family(): Promise<Family> {
  const { client } = await signedUpClient(server, 'Maria Garcia');
  const session = await client.get<{ user: { id: string } }>('/api/auth/get-session');
  const leo = await expectStatus(
    client.post<{ id: string }>('/api/family-members', {
      name: 'Leo Garcia',
      date_of_birth: '2017-04-12',
      color: '#3b82f6',
    }),
  );
  const records = [
    ...LEOS.map(([type, values]) => [type, { ...values, family_member_id: leo.id }] as const),
    ...MARIAS,
  ];
  for (const [type, values] of records) {
    await expectStatus(
      client.post(`/api/${definitionsByType[type].path}`, sampleRecord(type, values)),
    );
  }
  // The family doctor cares for both of them.
  await expectStatus(
    client.post(
      '/api/contacts',
      sampleRecord('contact', {
        contact_name: 'Dr. Amara Okafor',
        phone_number: '+1 555 0199',
        person_ids: [session.body.user.id, leo.id],
      }),
    ),
  );
  return { client, userId: session.body.user.id, leoId: leo.id };
}

/** Allergies of Leo's, written as an import of many writes them. */
const addAllergies = (family: Family, substances: string[], status = 'Active') =>
  writeManyRecords(
    server.db,
    'allergies',
    { userId: family.userId, memberId: family.leoId },
    substances.map((substance) => ({ substance, status })),
  );

/** The PDF as the browser gets it: its bytes, not text. */
async function summaryOf(
  client: TestClient,
  personId: string,
  query = `?today=${TODAY}&tz=Europe/Oslo`,
) {
  const response = await server.fetch(
    new Request(`${TEST_ORIGIN}/api/persons/${personId}/summary.pdf${query}`, {
      headers: { origin: TEST_ORIGIN, cookie: client.cookieHeader },
    }),
  );
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes };
}

/** The PDF's text with its line breaks and column spacing as single spaces. */
const textOf = async (bytes: Uint8Array) => (await pdfText(bytes)).replace(/\s+/g, ' ');

describe('GET /api/persons/{personId}/summary.pdf', () => {
  it('is laid out on the summary thread, never on the thread that answers every request', async () => {
    const { client, leoId } = await family();
    const render = vi.spyOn(sharedSummaryPdfThread(), 'render');
    try {
      const response = await summaryOf(client, leoId);
      expect(response.status).toBe(200);
      expect(render).toHaveBeenCalledTimes(1);
      // The reader's account's language is handed to the thread, which loads its words.
      expect(render.mock.calls[0]?.[1]).toEqual({ timeZone: 'Europe/Oslo', language: 'en' });
    } finally {
      render.mockRestore();
    }
  });

  it('answers a family member’s summary: a PDF download with their records as they stand today', async () => {
    const { client, leoId } = await family();
    const response = await summaryOf(client, leoId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="kin-health-summary-leo-garcia-${TODAY}.pdf"`,
    );
    expect(Buffer.from(response.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = await textOf(response.bytes);
    for (const expected of [
      'Leo Garcia',
      'April 12, 2017',
      ...HEADINGS,
      'Amoxicillin',
      'Rash',
      'Moderate',
      'Albuterol',
      '2 puffs',
      'Twice Daily',
      'Morning, Night',
      'Asthma',
      'Chronic',
      'September 1, 2019',
      'MMR',
      'Riverside Pediatrics',
      'Asthma review',
      // 09:30 UTC in Oslo's winter time.
      'March 4, 2030, 10:30 AM',
      'KidsCare',
      'KC-4711',
      'GRP-88',
      'Dr. Amara Okafor',
      '+1 555 0199',
    ]) {
      expect(text, expected).toContain(expected);
    }
    // Ended, not yet given, past: not in a summary of today; and nothing of Maria's.
    for (const absent of [
      'Cefdinir',
      'HPV vaccine',
      'Ear infection',
      'Latex',
      'Metformin',
      'Migraine',
      'Diabetes',
      'Corner Pharmacy',
    ]) {
      expect(text, absent).not.toContain(absent);
    }
  });

  it('answers the account holder’s summary with her family history, and none of a member’s records', async () => {
    const { client, userId } = await family();
    const response = await summaryOf(client, userId, `?today=${TODAY}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="kin-health-summary-maria-garcia-${TODAY}.pdf"`,
    );
    const text = await textOf(response.bytes);
    for (const expected of [
      'Maria Garcia',
      ...HEADINGS,
      'Latex',
      'Metformin',
      'Migraine',
      'Diabetes',
      'Grandmother',
      'Dr. Amara Okafor',
    ]) {
      expect(text, expected).toContain(expected);
    }
    for (const absent of ['Amoxicillin', 'Albuterol', 'Asthma', 'MMR', 'KidsCare']) {
      expect(text, absent).not.toContain(absent);
    }
  });

  it('prints visit times in UTC when no time zone is given', async () => {
    const { client, leoId } = await family();
    const text = await textOf((await summaryOf(client, leoId, `?today=${TODAY}`)).bytes);
    expect(text).toContain('March 4, 2030, 9:30 AM');
  });

  it('answers another user’s person, or an id that is no one, as not found, and no one signed out', async () => {
    const theirs = await family();
    const { client: mine } = await signedUpClient(server);
    for (const personId of [
      theirs.leoId,
      theirs.userId,
      '0190d5e2-0000-7000-8000-000000000000',
      'x',
    ]) {
      const response = await mine.get(`/api/persons/${personId}/summary.pdf`);
      expect(response.status, personId).toBe(404);
      expect(response.body).toEqual({ message: 'Person not found' });
    }
    theirs.client.forgetCookies();
    expect((await theirs.client.get(`/api/persons/${theirs.leoId}/summary.pdf`)).status).toBe(401);
  });

  it('lists the vaccine doses overdue by the account’s schedule, and none when it follows none', async () => {
    const { client } = await signedUpClient(server, 'Ana Ruiz');
    const nora = await expectStatus(
      client.post<{ id: string }>('/api/family-members', {
        name: 'Nora Ruiz',
        date_of_birth: '2025-09-01',
      }),
    );
    const text = await textOf((await summaryOf(client, nora.id)).bytes);
    expect(text).toContain('Vaccine Doses Overdue');
    expect(text).toMatch(/DTaP 1 of 6 November 1, 2025/);
    for (const heading of HEADINGS) expect(text).toContain(heading);
    await expectStatus(client.patch('/api/profile', { vaccine_schedule: 'none' }), 200);
    const off = await textOf((await summaryOf(client, nora.id)).bytes);
    expect(off).not.toContain('Vaccine Doses Overdue');
  });

  it('shows a section’s first 1,000 rows in its order, and says how many more there are', async () => {
    const leos = await family();
    const count = ROWS_PER_SECTION + 3;
    // Written in the reverse of the summary's order; the Resolved one sorts after every Active.
    const substances = Array.from({ length: count }, (_, i) => `Substance ${count - i}`);
    await addAllergies(
      leos,
      substances.map((s) => s.replace(/\d+$/, (n) => n.padStart(4, '0'))),
    );
    await addAllergies(leos, ['Aardvark dander'], 'Resolved');
    const response = await summaryOf(leos.client, leos.leoId);
    expect(response.status).toBe(200);
    const text = await textOf(response.bytes);
    // Amoxicillin and Substances 0001–0999 make the thousand; 1000–1003 and Aardvark do not.
    expect(text).toContain('Amoxicillin');
    expect(text).toContain('Substance 0999');
    expect(text).not.toContain('Substance 1000');
    expect(text).not.toContain('Aardvark');
    expect(text).toContain('…and 5 more, not shown in this summary');
    // The other sections show all they have, and say nothing of more.
    expect(text.match(/not shown in this summary/g)).toHaveLength(1);
    expect(text).toContain('Albuterol');
  });

  it('keeps the first rows in the section’s order while it reads, however many it holds meanwhile', async () => {
    const leos = await family();
    const person = {
      id: leos.leoId,
      name: 'Leo Garcia',
      date_of_birth: '2017-04-12',
      email: null,
      family_member_id: leos.leoId,
    };
    // Thirteen Active and two Resolved, in no order: with three kept, the list is cut while read.
    const names = ['Kiwi', 'Egg', 'Resin', 'Dust', 'Peanut', 'Fig', 'Oat', 'Mold', 'Bee', 'Soy'];
    await addAllergies(leos, [...names, 'Cat', 'Wheat']);
    await addAllergies(leos, ['Almond', 'Ant'], 'Resolved');
    const clock = { now: '2026-06-15T12:00:00.000Z', today: TODAY };
    const read = (rowsPerSection?: number) =>
      buildPersonSummary(server.db, leos.userId, person, clock, { rowsPerSection });
    const cut = await read(3);
    expect(cut.allergies.map((a) => a.substance)).toEqual(['Amoxicillin', 'Bee', 'Cat']);
    expect(cut.not_shown).toEqual({ allergies: 12 });
    const whole = await read();
    expect(whole.allergies).toHaveLength(15);
    expect(whole.allergies.slice(0, 3)).toEqual(cut.allergies);
    expect(whole.allergies.slice(-2).map((a) => a.substance)).toEqual(['Almond', 'Ant']);
    expect(whole.not_shown).toEqual({});
  });

  it('refuses a today that is not a date and a time zone that does not exist, naming each', async () => {
    const { client } = await signedUpClient(server);
    const session = await client.get<{ user: { id: string } }>('/api/auth/get-session');
    const userId = session.body.user.id;
    const path = `/api/persons/${userId}/summary.pdf`;
    const soon = await client.get(`${path}?today=soon`);
    expect(soon.status).toBe(400);
    expect(soon.body).toMatchObject({ field: 'today' });
    for (const tz of ['Mars/Olympus_Mons', '', 'x'.repeat(100)]) {
      const response = await client.get(`${path}?tz=${encodeURIComponent(tz)}`);
      expect(response.status, tz).toBe(400);
      expect(response.body).toMatchObject({ field: 'tz' });
    }
  });
});
