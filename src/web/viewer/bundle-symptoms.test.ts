/** The share viewer's 'Symptoms': the export's symptom Observations, newest first, never as lab results. */
import type { Bundle } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { symptomResource } from '../../server/fhir/mappings/symptoms';
import type { FhirRows } from '../../server/fhir/fhir-source';
import { summarizeBundle } from './bundle-summary';

const context = {
  now: '2026-06-15T12:00:00.000Z',
  today: '2026-06-15',
  patient: { reference: 'Patient/p1' },
};

const symptom = (values: Partial<FhirRows['symptom']>) =>
  symptomResource(
    {
      id: crypto.randomUUID(),
      symptom: 'Headache',
      severity: null,
      started_at: '2026-06-01T08:00:00.000Z',
      ended_at: null,
      notes: null,
      family_member_id: null,
      created_at: context.now,
      updated_at: context.now,
      ...values,
    },
    context,
  );

describe("the viewer's symptoms", () => {
  it('lists each with its severity, when it started and whether it ended, newest first', () => {
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [
        symptom({ symptom: 'Dizziness', severity: 8, started_at: '2026-06-10T09:30:00.000Z' }),
        symptom({
          symptom: 'Earache',
          started_at: '2026-06-12T18:00:00.000Z',
          ended_at: '2026-06-13T07:00:00.000Z',
        }),
      ].map((resource) => ({ resource })),
    };
    const sections = summarizeBundle(bundle).sections;
    const symptoms = sections.find((section) => section.heading === 'Symptoms');
    expect(symptoms?.items.map((item) => item.title)).toEqual(['Earache', 'Dizziness']);
    expect(symptoms?.items[0]?.details.at(-1)).toMatch(/^Ended /);
    expect(symptoms?.items[1]?.details[0]).toBe('Severity 8/10');
    expect(symptoms?.items[1]?.details.at(-1)).toBe('Ongoing');
    expect(sections.find((section) => section.heading === 'Lab Results')?.items).toEqual([]);
  });
});
