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
    expect(allergy.details).toEqual(['Hives', 'Severity: Severe']);
  });

  it('follows references by the urn:uuid addresses the server writes', () => {
    const address = (n: number) => `urn:uuid:00000000-0000-4000-8000-00000000000${n}`;
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [
        { fullUrl: address(1), resource: { resourceType: 'Patient', id: 'p1' } },
        {
          fullUrl: address(2),
          resource: {
            resourceType: 'Coverage',
            id: 'c1',
            status: 'active',
            beneficiary: { reference: address(1) },
            payor: [{ reference: address(3) }],
            type: { text: 'Dental' },
          },
        },
        // Ids that are not UUIDs get an address of their own, unlike their id.
        {
          fullUrl: address(3),
          resource: { resourceType: 'Organization', id: 'o-1', name: 'Acme' },
        },
        {
          fullUrl: address(4),
          resource: { resourceType: 'Practitioner', id: 'd-1', name: [{ text: 'Dr. Chen' }] },
        },
        {
          fullUrl: address(5),
          resource: {
            resourceType: 'PractitionerRole',
            practitioner: { reference: address(4) },
            code: [{ text: 'Doctor' }],
            specialty: [{ text: 'Pediatrics' }],
          },
        },
      ],
    };
    const sections = Object.fromEntries(
      summarizeBundle(bundle).sections.map((section) => [section.heading, section.items]),
    );
    expect(sections.Insurance).toEqual([{ title: 'Acme', details: ['Dental', 'Current'] }]);
    expect(sections['Care Team']).toEqual([
      { title: 'Dr. Chen', details: ['Doctor', 'Pediatrics'] },
    ]);
  });
});
