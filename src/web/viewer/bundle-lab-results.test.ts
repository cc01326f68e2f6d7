/** The share viewer's 'Lab Results': out of range first with their flag, from the export's Observations. */
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { labResultResource } from '../../server/fhir/mappings/lab-results';
import type { FhirRows } from '../../server/fhir/fhir-source';
import { summarizeBundle } from './bundle-summary';

const context = {
  now: '2026-06-15T12:00:00.000Z',
  today: '2026-06-15',
  patient: { reference: 'Patient/p1' },
};

const lab = (values: Partial<FhirRows['lab_result']>): Resource =>
  labResultResource(
    {
      id: `0190d5e2-0000-7000-8000-00000000000${values.result?.length ?? 0}`,
      test_name: 'Test',
      loinc_code: null,
      result: '1',
      unit: null,
      range_low: null,
      range_high: null,
      collected_date: '2026-01-01',
      lab: null,
      ordered_by: null,
      notes: null,
      family_member_id: null,
      created_at: context.now,
      updated_at: context.now,
      ...values,
    },
    context,
  );

describe("the viewer's lab results", () => {
  it('lists them out of range first, flagged High or Low, each with its value, range and date', () => {
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [
        lab({
          test_name: 'HbA1c',
          result: '5.4',
          unit: '%',
          range_low: '4',
          range_high: '5.6',
          collected_date: '2026-05-01',
        }),
        lab({
          test_name: 'LDL Cholesterol',
          result: '162',
          unit: 'mg/dL',
          range_high: '100',
          collected_date: '2026-03-04',
          lab: 'Quest',
        }),
        lab({ test_name: 'Urine ketones', result: 'Negative', collected_date: '2026-05-02' }),
      ].map((resource) => ({ resource })),
    };
    const section = summarizeBundle(bundle).sections.find((s) => s.heading === 'Lab Results');
    expect(section?.items.map((item) => [item.title, item.badge])).toEqual([
      ['LDL Cholesterol', 'High'],
      ['Urine ketones', undefined],
      ['HbA1c', undefined],
    ]);
    expect(section?.items[0]?.details).toEqual(
      expect.arrayContaining(['162 mg/dL', 'Range: ≤ 100', 'Quest']),
    );
    expect(section?.items[2]?.details).toEqual(expect.arrayContaining(['Normal']));
  });
});
