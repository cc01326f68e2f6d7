/**
 * Lab results over the API: the required fields and the range rule name their field; the
 * flag follows from the range (and marks the timeline); a panel is saved all or none, its
 * refusal naming the row and field; a result's trend holds every result of the same test
 * for the same person, newest first; a Viewer of a shared person sees, an Editor adds.
 */
import { describe, expect, it } from 'vitest';
import type { GivenGrant } from '../../shared/household';
import { RANGE_ORDER_MESSAGE } from '../../shared/records/lab-results';
import type { TimelinePage } from '../../shared/timeline';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { acceptGrant } from '../test/grant-acceptance';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';
import type { LabTrend } from './lab-routes';

const server = useTestServer();

type Lab = { id: string; test_name: string; result: string; family_member_id: string | null };
type Page = { items: Lab[]; counts: Record<string, number> };
type Refusal = { message: string; field?: string };

const lipidPanel = (overrides: Record<string, unknown> = {}) => ({
  collected_date: '2026-03-04',
  lab: 'Quest Diagnostics',
  ordered_by: 'Dr. Patel',
  family_member_id: null,
  results: [
    {
      test_name: 'Total cholesterol',
      loinc_code: '2093-3',
      result: '210',
      unit: 'mg/dL',
      range_high: '200',
    },
    {
      test_name: 'LDL Cholesterol',
      loinc_code: '18262-6',
      result: '162',
      unit: 'mg/dL',
      range_high: '100',
    },
    {
      test_name: 'HDL Cholesterol',
      loinc_code: '2085-9',
      result: '55',
      unit: 'mg/dL',
      range_low: '40',
    },
    {
      test_name: 'Triglycerides',
      loinc_code: '2571-8',
      result: '140',
      unit: 'mg/dL',
      range_high: '150',
    },
  ],
  ...overrides,
});

const countOf = async (client: TestClient) =>
  (await client.get<Page>('/api/labs')).body.items.length;

describe('lab results', () => {
  it('need a test name, a result and a collected date, each refusal naming its field', async () => {
    const { client } = await signedUpClient(server);
    for (const [field, message] of [
      ['test_name', 'Test Name is required'],
      ['result', 'Result is required'],
      ['collected_date', 'Collected Date is required'],
    ]) {
      const refused = await client.post<Refusal>(
        '/api/labs',
        sampleRecord('lab_result', { [field as string]: '' }),
      );
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ field, message });
    }
    const notNumber = await client.post<Refusal>(
      '/api/labs',
      sampleRecord('lab_result', { range_low: 'low' }),
    );
    expect(notNumber.body).toMatchObject({
      field: 'range_low',
      message: 'Range Low must be a number',
    });
    const badCode = await client.post<Refusal>(
      '/api/labs',
      sampleRecord('lab_result', { loinc_code: 'LDL' }),
    );
    expect(badCode.body.field).toBe('loinc_code');
    expect(await countOf(client)).toBe(0);
  });

  it('refuse a Range Low above the Range High, and take equal bounds', async () => {
    const { client } = await signedUpClient(server);
    const refused = await client.post<Refusal>(
      '/api/labs',
      sampleRecord('lab_result', { range_low: '120', range_high: '100' }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: 'range_low', message: RANGE_ORDER_MESSAGE });
    await expectStatus(
      client.post('/api/labs', sampleRecord('lab_result', { range_low: '100', range_high: '100' })),
    );
    // A text result is kept as typed, with no flag.
    const text = await expectStatus(
      client.post<Lab>('/api/labs', sampleRecord('lab_result', { result: 'Negative' })),
    );
    expect(text.result).toBe('Negative');
  });

  it('mark out-of-range results on the timeline, and not those in range', async () => {
    const { client } = await signedUpClient(server);
    await expectStatus(client.post('/api/labs/panel', lipidPanel()));
    const timeline = (await client.get<TimelinePage>('/api/timeline')).body;
    const marks = Object.fromEntries(timeline.events.map((event) => [event.name, event.mark]));
    expect(marks).toEqual({
      'Total cholesterol': 'High',
      'LDL Cholesterol': 'High',
      'HDL Cholesterol': null,
      Triglycerides: null,
    });
    expect(timeline.events.every((event) => event.type === 'lab_result')).toBe(true);
  });

  it('save a panel in one go with its shared date, lab and person', async () => {
    const { client } = await signedUpClient(server);
    const member = await expectStatus(
      client.post<{ id: string }>('/api/family-members', { name: 'Grandma' }),
    );
    const saved = await expectStatus(
      client.post<{ items: (Lab & Record<string, unknown>)[] }>(
        '/api/labs/panel',
        lipidPanel({ family_member_id: member.id }),
      ),
    );
    expect(saved.items).toHaveLength(4);
    for (const item of saved.items) {
      expect(item).toMatchObject({
        collected_date: '2026-03-04',
        lab: 'Quest Diagnostics',
        ordered_by: 'Dr. Patel',
        family_member_id: member.id,
      });
    }
    expect((await client.get<Page>('/api/labs')).body.counts).toEqual({ all: 4 });
  });

  it('save a panel all or none: a bad row names its row and field, and nothing is saved', async () => {
    const { client } = await signedUpClient(server);
    const panel = lipidPanel();
    panel.results[2] = { ...panel.results[2], result: '' } as (typeof panel.results)[number];
    const refused = await client.post<Refusal>('/api/labs/panel', panel);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      field: 'results.2.result',
      message: 'Row 3: Result is required',
    });

    const badRange = lipidPanel();
    badRange.results[1] = {
      ...badRange.results[1],
      range_low: '300',
    } as (typeof panel.results)[number];
    expect((await client.post<Refusal>('/api/labs/panel', badRange)).body).toMatchObject({
      field: 'results.1.range_low',
      message: `Row 2: ${RANGE_ORDER_MESSAGE}`,
    });

    const noDate = await client.post<Refusal>(
      '/api/labs/panel',
      lipidPanel({ collected_date: '' }),
    );
    expect(noDate.body).toMatchObject({
      field: 'collected_date',
      message: 'Collected Date is required',
    });
    const empty = await client.post<Refusal>('/api/labs/panel', lipidPanel({ results: [] }));
    expect(empty.body).toMatchObject({ field: 'results', message: 'Add at least one result' });

    // A person that is not the user's: refused when the rows are written, none of them kept.
    const stranger = await signedUpClient(server, 'Somebody Else');
    const theirs = await expectStatus(
      stranger.client.post<{ id: string }>('/api/family-members', { name: 'Not yours' }),
    );
    const foreign = await client.post<Refusal>(
      '/api/labs/panel',
      lipidPanel({ family_member_id: theirs.id }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.field).toBe('family_member_id');
    expect(await countOf(client)).toBe(0);
  });

  it('answer a trend: the same test (LOINC code, else name ignoring case) of the same person, newest first', async () => {
    const { client } = await signedUpClient(server);
    const member = await expectStatus(
      client.post<{ id: string }>('/api/family-members', { name: 'Grandpa' }),
    );
    const add = (values: Record<string, unknown>) =>
      expectStatus(client.post<Lab>('/api/labs', sampleRecord('lab_result', values)));
    const first = await add({ result: '150', collected_date: '2024-01-10' });
    await add({ result: '162', collected_date: '2026-03-04' });
    // The same test typed by hand, without its code.
    const typedLdl = await add({
      test_name: 'ldl cholesterol',
      loinc_code: null,
      result: '140',
      collected_date: '2025-02-01',
    });
    // Another test, and the same test of another person: not in the trend.
    const hdl = await add({ test_name: 'HDL Cholesterol', loinc_code: '2085-9', result: '50' });
    const grandpas = await add({ result: '99', family_member_id: member.id });

    const trend = await client.get<LabTrend>(`/api/labs/${first.id}/trend`);
    expect(trend.status).toBe(200);
    expect(trend.body.test_name).toBe('LDL Cholesterol');
    expect(trend.body.points.map((point) => [point.collected_date, point.result])).toEqual([
      ['2026-03-04', '162'],
      ['2025-02-01', '140'],
      ['2024-01-10', '150'],
    ]);

    const typed = await add({ test_name: 'Strep A', loinc_code: null, result: 'Negative' });
    await add({
      test_name: 'STREP A',
      loinc_code: null,
      result: 'Positive',
      collected_date: '2025-01-01',
    });
    const byName = await client.get<LabTrend>(`/api/labs/${typed.id}/trend`);
    expect(byName.body.points.map((point) => point.result)).toEqual(['Negative', 'Positive']);

    // Each trend's own test and person, whichever trend of the same kind was asked for first
    // (the query is prepared once for each kind).
    const results = async (id: string) =>
      (await client.get<LabTrend>(`/api/labs/${id}/trend`)).body.points.map((p) => p.result);
    expect(await results(hdl.id)).toEqual(['50']);
    expect(await results(grandpas.id)).toEqual(['99']);
    expect(await results(typedLdl.id)).toEqual(['162', '140', '150']);

    // Someone else's record has no trend for this user.
    const stranger = await signedUpClient(server, 'Somebody Else');
    expect((await stranger.client.get(`/api/labs/${first.id}/trend`)).status).toBe(404);
  });

  it('of a shared person: a Viewer sees them and their trend, an Editor adds a panel', async () => {
    const owner = await signedUpClient(server, 'Olivia Owner');
    const other = await signedUpClient(server, 'Grace Grantee');
    const mia = await expectStatus(
      owner.client.post<{ id: string }>('/api/family-members', { name: 'Mia' }),
    );
    const miaLab = await expectStatus(
      owner.client.post<Lab>('/api/labs', sampleRecord('lab_result', { family_member_id: mia.id })),
    );
    await expectStatus(owner.client.post('/api/labs', sampleRecord('lab_result')));
    const grant = async (role: 'viewer' | 'editor') => {
      const response = await owner.client.post<GivenGrant>('/api/household/grants', {
        personId: mia.id,
        email: other.email,
        role,
      });
      await acceptGrant(other.client, response);
    };
    await grant('viewer');
    const seen = (await other.client.get<Page>('/api/labs')).body.items;
    expect(seen.map((lab) => lab.id)).toEqual([miaLab.id]);
    const trend = await other.client.get<LabTrend>(`/api/labs/${miaLab.id}/trend`);
    expect(trend.body.points.map((point) => point.id)).toEqual([miaLab.id]);
    const viewerPanel = await other.client.post(
      '/api/labs/panel',
      lipidPanel({ family_member_id: mia.id }),
    );
    expect(viewerPanel.status).toBe(403);

    await grant('editor');
    await expectStatus(
      other.client.post('/api/labs/panel', lipidPanel({ family_member_id: mia.id })),
    );
    const owned = (await owner.client.get<Page>(`/api/labs?member=${mia.id}`)).body.items;
    expect(owned).toHaveLength(5);
  });

  it('cannot be read or listed without a session', async () => {
    const anonymous = server.client();
    expect((await anonymous.get('/api/labs')).status).toBe(401);
    expect((await anonymous.post('/api/labs/panel', lipidPanel())).status).toBe(401);
  });
});
