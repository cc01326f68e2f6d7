/**
 * The summary PDF's 'Lab Results': the person's results of the twelve months up to the
 * reader's today, out of range first (with their flag), then the newest; older ones left out.
 */
import { describe, expect, it } from 'vitest';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { signedUpClient, useTestServer } from '../test/harness';
import { ownSummaryText } from '../test/summary-pdf-text';
import { LAB_RESULTS_HEADING } from './summary-document';

const server = useTestServer();

describe('the summary PDF', () => {
  it('lists the last twelve months of lab results, out of range first', async () => {
    const { client } = await signedUpClient(server, 'Rosa Diaz');
    const pdf = await ownSummaryText(server, client, '2026-06-15');
    expect(await pdf()).not.toContain(LAB_RESULTS_HEADING);

    const add = (values: Record<string, unknown>) =>
      expectStatus(client.post('/api/labs', sampleRecord('lab_result', values)));
    await add({
      test_name: 'HbA1c',
      result: '5.4',
      unit: '%',
      range_low: '4',
      range_high: '5.6',
      collected_date: '2026-05-01',
    });
    await add({
      test_name: 'LDL Cholesterol',
      result: '162',
      range_high: '100',
      collected_date: '2026-03-04',
    });
    await add({
      test_name: 'Ferritin',
      result: '8',
      unit: 'ng/mL',
      range_low: '15',
      range_high: '150',
      lab: 'Northside Lab',
      collected_date: '2025-09-01',
    });
    await add({ test_name: 'TSH', result: '9.9', range_high: '4', collected_date: '2025-06-01' });

    const text = await pdf();
    expect(text).toContain(LAB_RESULTS_HEADING);
    const order = ['LDL Cholesterol', 'Ferritin', 'HbA1c'].map((name) => text.indexOf(name));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toMatch(/LDL Cholesterol 162 mg\/dL High ≤ 100/);
    expect(text).toMatch(/Ferritin 8 ng\/mL Low 15–150 Northside Lab/);
    expect(text).toMatch(/HbA1c 5\.4 % Normal 4–5\.6/);
    // A year and more before the reader's today: not in the summary.
    expect(text).not.toContain('TSH');
  });
});
