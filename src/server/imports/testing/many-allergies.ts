/**
 * A Bundle of many allergies seen at one visit, whose doctor comes last: the reading must
 * keep what later entries are pointed to by earlier ones (read-fhir-file.ts, streamed).
 */
import type { Bundle } from '@medplum/fhirtypes';

export function manyAllergiesBundle(count: number): Bundle {
  const allergies = Array.from({ length: count }, (_, index) => ({
    resource: {
      resourceType: 'AllergyIntolerance' as const,
      id: `a${index}`,
      patient: { reference: 'urn:uuid:patient' },
      code: { text: `Substance ${index} ${'x'.repeat(120)}` },
      recordedDate: '2020-01-01',
      encounter: { reference: 'urn:uuid:visit' },
    },
  }));
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      {
        fullUrl: 'urn:uuid:visit',
        resource: {
          resourceType: 'Encounter',
          status: 'finished',
          class: { code: 'AMB' },
          type: [{ text: 'Check-up' }],
          period: { start: '2024-02-01T10:00:00Z' },
          participant: [{ individual: { reference: 'urn:uuid:doctor' } }],
        },
      },
      ...allergies,
      {
        fullUrl: 'urn:uuid:doctor',
        resource: { resourceType: 'Practitioner', name: [{ given: ['Ada'], family: 'King' }] },
      },
    ],
  };
}
