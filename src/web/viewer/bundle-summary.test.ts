/** What the viewer reads off a shared bundle, section by section. */
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { documentReferenceResource } from '../../server/fhir/fhir-documents';
import { conditionResource } from '../../server/fhir/mappings/conditions';
import { medicationResource } from '../../server/fhir/mappings/medications';
import { noteResource } from '../../server/fhir/mappings/notes';
import { overdueDoseResource } from '../../server/fhir/mappings/shots';
import type { FhirRows } from '../../server/fhir/fhir-source';
import { sharedDocuments, summarizeBundle } from './bundle-summary';
import { day } from './bundle-words';

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
    // A severe allergy is marked as such, beside its name, rather than as one more detail.
    const allergy = summary.sections[0]!.items[0]!;
    expect(allergy.details).toEqual(['Hives']);
    expect(allergy.badge).toBe('Severe');
  });

  it("keeps a milder allergy's severity among its details, unmarked", () => {
    const summary = summarizeBundle(
      bundleOf({
        resourceType: 'AllergyIntolerance',
        patient,
        code: { text: 'Dust' },
        reaction: [{ manifestation: [{ text: 'Sneezing' }], severity: 'mild' }],
      }),
    );
    const allergy = summary.sections[0]!.items[0]!;
    expect(allergy.details).toEqual(['Sneezing', 'Severity: Mild']);
    expect(allergy.badge).toBeUndefined();
  });

  it.each([
    [
      'Twice Daily',
      { time_morning: true, time_evening: true },
      ['Twice Daily', 'Morning, Evening'],
    ],
    ['Daily', { time_night: true }, ['Daily', 'Night']],
    ['Weekly', {}, ['Weekly']],
    ['As Needed', {}, ['As Needed']],
    [
      'Daily',
      { time_morning: true, time_noon: true, time_evening: true, time_night: true },
      ['Daily', 'Morning, Noon, Evening, Night'],
    ],
  ] as const)(
    'shows a %s medication with its frequency and times of day, as the PDF does',
    (frequency, times, expected) => {
      const medication = {
        id: 'm1',
        medication_name: 'Inhaler',
        dosage: '2 puffs',
        frequency,
        time_morning: false,
        time_noon: false,
        time_evening: false,
        time_night: false,
        ...times,
        start_date: null,
        end_date: null,
        condition: null,
        prescribed_doctor: null,
        notes: null,
      } as unknown as FhirRows['medication'];
      const resource = medicationResource(medication, {
        now: '2026-11-27T00:00:00Z',
        today: '2026-11-27',
        patient,
      });
      const summary = summarizeBundle(bundleOf(resource));
      expect(summary.sections[1]!.items[0]!.details).toEqual(['2 puffs', ...expected]);
    },
  );

  it("shows family history recorded for the person under 'Family History', as the PDF does, never among their own conditions", () => {
    const condition = (values: Partial<FhirRows['condition']>) =>
      conditionResource(
        {
          id: 'h1',
          condition_name: 'Asthma',
          status: null,
          diagnosis_date: null,
          notes: null,
          is_family_history: false,
          relation: null,
          ...values,
        } as unknown as FhirRows['condition'],
        { now: '2026-11-27T00:00:00Z', today: '2026-11-27', patient },
      );
    const sections = Object.fromEntries(
      summarizeBundle(
        bundleOf(
          condition({ id: 'c1' }),
          condition({
            id: 'h2',
            condition_name: 'Type 2 diabetes',
            is_family_history: true,
            relation: 'Grandmother',
            status: 'Chronic',
            diagnosis_date: '2001-05-02',
          }),
        ),
      ).sections.map((section) => [section.heading, section.items]),
    );
    expect(sections.Conditions?.map((item) => item.title)).toEqual(['Asthma']);
    expect(sections['Family History']).toEqual([
      {
        title: 'Type 2 diabetes',
        details: ['Grandmother', 'Chronic', `Diagnosed ${day('2001-05-02')}`],
      },
    ]);
  });

  it("lists the overdue doses the share link carries under 'Vaccine Doses Overdue', as the PDF does, not among the shots", () => {
    const context = { now: '2026-11-27T00:00:00Z', today: '2026-11-27', patient };
    const dose = { vaccine: 'MMR', dose: 2, of: 2, due: '2026-10-01', cvx: '03' };
    const sections = Object.fromEntries(
      summarizeBundle(bundleOf(overdueDoseResource('p1', dose, context))).sections.map(
        (section) => [section.heading, section.items],
      ),
    );
    expect(sections['Vaccine Doses Overdue']).toEqual([
      { title: 'MMR', details: ['Dose 2 of 2', `Due ${day('2026-10-01')}`] },
    ]);
    expect(sections.Immunizations).toEqual([]);
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

describe('sharedDocuments', () => {
  const context = { now: '2026-03-01T10:00:00.000Z', today: '2026-03-01', patient };
  const documentOf = (overrides: Partial<Parameters<typeof documentReferenceResource>[0]>) => ({
    id: 'd1',
    title: 'Discharge letter',
    document_type: 'Letter',
    document_date: '2026-02-03',
    file_name: 'letter.pdf',
    mime_type: 'application/pdf',
    size_bytes: 4,
    created_at: '2026-02-04T09:00:00.000Z',
    record_ids: [],
    file: async function* () {},
    ...overrides,
  });

  it("reads each document's file and what a browser shows of it; notes stay notes", () => {
    const bundle = bundleOf(
      documentReferenceResource(documentOf({}), { data: 'JVBERg==' }, context),
      documentReferenceResource(
        documentOf({
          id: 'd2',
          title: 'Rash',
          document_type: 'Imaging',
          document_date: null,
          file_name: 'IMG_1.HEIC',
          mime_type: 'image/heic',
          display: { size_bytes: 3, file: async function* () {} },
        }),
        { data: 'AAAA', displayData: '/9j/' },
        context,
      ),
      noteResource(
        {
          id: 'n1',
          title: 'Call back',
          note_type: 'Personal Note',
          note_date: null,
          content: 'Hi',
          family_member_id: null,
          created_at: '2026-02-01T00:00:00.000Z',
          updated_at: '2026-02-01T00:00:00.000Z',
        },
        context,
      ),
    );
    expect(sharedDocuments(bundle)).toEqual([
      {
        id: 'd1',
        title: 'Discharge letter',
        type: 'Letter',
        date: day('2026-02-03'),
        file: { contentType: 'application/pdf', fileName: 'letter.pdf', data: 'JVBERg==' },
        shown: { contentType: 'application/pdf', fileName: 'letter.pdf', data: 'JVBERg==' },
      },
      {
        id: 'd2',
        title: 'Rash',
        type: 'Imaging',
        date: day('2026-02-04T09:00:00.000Z'),
        file: { contentType: 'image/heic', fileName: 'IMG_1.HEIC', data: 'AAAA' },
        shown: { contentType: 'image/jpeg', fileName: 'IMG_1.jpg', data: '/9j/' },
      },
    ]);
    const notes = summarizeBundle(bundle).sections.find((s) => s.heading === 'Notes');
    expect(notes?.items.map((item) => item.title)).toEqual(['Call back']);
  });

  it('names a file by its type, without invisible characters', () => {
    const bundle = bundleOf(
      documentReferenceResource(
        documentOf({ file_name: 'report.html' }),
        { data: 'JVBERg==' },
        context,
      ),
      documentReferenceResource(
        documentOf({ id: 'd2', file_name: 'invoice\u202efdp.exe' }),
        { data: 'JVBERg==' },
        context,
      ),
    );
    expect(sharedDocuments(bundle).map((document) => document.file.fileName)).toEqual([
      'report.html.pdf',
      'invoicefdp.exe.pdf',
    ]);
  });
});
