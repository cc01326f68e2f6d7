/** What the viewer reads off a shared bundle, section by section. */
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { summarizeBundle } from './bundle-summary';

const bundleOf = (...resources: Resource[]): Bundle => ({
  resourceType: 'Bundle',
  type: 'searchset',
  entry: resources.map((resource) => ({ resource })),
});

const patient = { reference: 'Patient/p1' };

describe('summarizeBundle', () => {
  it('reads the person and each section the viewer shows', () => {
    const summary = summarizeBundle(
      bundleOf(
        {
          resourceType: 'Patient',
          id: 'p1',
          name: [{ text: 'Leo Garcia' }],
          birthDate: '2017-04-12',
        },
        {
          resourceType: 'AllergyIntolerance',
          patient,
          code: { text: 'Penicillin' },
          reaction: [{ manifestation: [{ text: 'Hives' }], severity: 'severe' }],
        },
        {
          resourceType: 'MedicationStatement',
          status: 'active',
          subject: patient,
          medicationCodeableConcept: { text: 'Amoxicillin' },
          dosage: [{ text: '250 mg' }],
        },
        {
          resourceType: 'MedicationStatement',
          status: 'completed',
          subject: patient,
          medicationCodeableConcept: { text: 'Old pill' },
        },
        { resourceType: 'Condition', subject: patient, code: { text: 'Asthma' } },
        {
          resourceType: 'Immunization',
          status: 'completed',
          patient,
          vaccineCode: { text: 'MMR' },
          occurrenceDateTime: '2020-01-01',
        },
        {
          resourceType: 'Appointment',
          status: 'booked',
          description: 'Check-up',
          start: '2030-01-01T10:00:00Z',
          participant: [{ status: 'accepted', actor: { display: 'Dr. Chen' } }],
        },
        {
          resourceType: 'Coverage',
          id: 'c1',
          status: 'active',
          beneficiary: patient,
          payor: [{ reference: 'Organization/o1' }],
        },
        { resourceType: 'Organization', id: 'o1', name: 'Acme Health' },
        { resourceType: 'Practitioner', id: 'd1', name: [{ text: 'Dr. Chen' }] },
      ),
    );
    expect(summary.name).toBe('Leo Garcia');
    expect(summary.birthDate).toBe('2017-04-12');
    const titles = Object.fromEntries(
      summary.sections.map((section) => [section.heading, section.items.map((i) => i.title)]),
    );
    expect(titles).toMatchObject({
      Allergies: ['Penicillin'],
      'Current Medications': ['Amoxicillin'],
      Conditions: ['Asthma'],
      Immunizations: ['MMR'],
      'Upcoming Visits': ['Check-up'],
      Insurance: ['Acme Health'],
      'Care Team': ['Dr. Chen'],
    });
    const allergy = summary.sections[0]!.items[0]!;
    expect(allergy.details).toEqual(['Hives', 'Severity: severe']);
  });
});
