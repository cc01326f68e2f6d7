/** $summary: an IPS document Bundle, its sections, what goes where, and R4 validity. */
import { describe, expect, it } from 'vitest';
import type {
  Bundle,
  Composition,
  CompositionSection,
  Observation,
  Resource,
} from '@medplum/fhirtypes';
import { SYSTEM } from './fhir-elements';
import { buildPatientSummary } from './fhir-summary';
import {
  CLOCK,
  TRICKY,
  accountHolder,
  sourceOf,
  emptySource,
  fullMemberSource,
  fullRecords,
  fullSource,
  fullPerson,
} from './testing/fhir-test-data';
import { danglingReferences, fhirProblems } from './testing/fhir-validator';

const byCode = (composition: Composition) =>
  Object.fromEntries(
    (composition.section ?? []).map((section) => [section.code?.coding?.[0]?.code, section]),
  ) as Record<string, CompositionSection>;

function resolve(bundle: Bundle, section: CompositionSection | undefined): Resource[] {
  const byUrl = new Map(bundle.entry?.map((entry) => [entry.fullUrl, entry.resource]));
  return (section?.entry ?? []).map((reference) => byUrl.get(reference.reference) as Resource);
}

describe('$summary', () => {
  it.each([
    ['a member with every field', fullMemberSource],
    ['the account holder with family history', fullSource],
    ['a person with nothing', emptySource],
  ])('%s: a valid R4 document, each resource valid', async (_, source) => {
    const bundle = await buildPatientSummary(source(), CLOCK);
    expect(fhirProblems(bundle)).toEqual([]);
    for (const entry of bundle.entry ?? []) {
      expect(fhirProblems(entry.resource as Resource), entry.fullUrl).toEqual([]);
    }
    expect(danglingReferences(bundle)).toEqual([]);
  });

  it('is a document whose first entry is the IPS Composition', async () => {
    const bundle = await buildPatientSummary(fullMemberSource(), CLOCK);
    expect(bundle).toMatchObject({
      type: 'document',
      timestamp: CLOCK.now,
      identifier: { system: 'urn:ietf:rfc:3986' },
    });
    const composition = bundle.entry?.[0]?.resource as Composition;
    expect(composition).toMatchObject({
      resourceType: 'Composition',
      status: 'final',
      type: { coding: [{ system: SYSTEM.loinc, code: '60591-5' }] },
      subject: { reference: bundle.entry?.[1]?.fullUrl },
      date: CLOCK.now,
      author: [{ reference: bundle.entry?.[2]?.fullUrl }],
    });
    expect(composition.title).toContain(fullPerson.name);
    expect(composition.text?.status).toBe('generated');
    expect(bundle.entry?.[1]?.resource?.resourceType).toBe('Patient');
    expect(bundle.entry?.[2]?.resource?.resourceType).toBe('Device');
  });

  it('a person with nothing: the three required sections, each saying there is no information', async () => {
    const bundle = await buildPatientSummary(emptySource(), CLOCK);
    const composition = bundle.entry?.[0]?.resource as Composition;
    const sections = byCode(composition);
    expect(Object.keys(sections)).toEqual(['10160-0', '48765-2', '11450-4']);
    const codes = Object.values(sections).map((section) => {
      const [entry] = resolve(bundle, section) as {
        code?: unknown;
        medicationCodeableConcept?: unknown;
      }[];
      return JSON.stringify(entry?.code ?? entry?.medicationCodeableConcept);
    });
    expect(codes.map((code) => JSON.parse(code).coding[0])).toEqual([
      {
        system: SYSTEM.absentUnknown,
        code: 'no-medication-info',
        display: 'No information about medications',
      },
      {
        system: SYSTEM.absentUnknown,
        code: 'no-allergy-info',
        display: 'No information about allergies',
      },
      {
        system: SYSTEM.absentUnknown,
        code: 'no-problem-info',
        display: 'No information about problems',
      },
    ]);
    expect(sections['48765-2']?.text?.div).toContain('No information about allergies.');
  });

  it('puts each record in its section: current medications, active problems, given shots...', async () => {
    const records = fullRecords(null);
    const bundle = await buildPatientSummary(sourceOf(accountHolder, records), CLOCK);
    const sections = byCode(bundle.entry?.[0]?.resource as Composition);
    expect(Object.keys(sections)).toEqual([
      '10160-0',
      '48765-2',
      '11450-4',
      '11369-6',
      '30954-2',
      '11348-0',
      '10157-6',
      '18776-5',
      '8716-3',
    ]);
    const ids = (code: string) => resolve(bundle, sections[code]).map((resource) => resource.id);
    const idsOf = <T extends { id: string }>(rows: T[], keep: (row: T) => boolean) =>
      rows.filter(keep).map((row) => row.id);

    expect(ids('10160-0')).toEqual(
      idsOf(records.medication, (m) => m.end_date === null || m.end_date >= CLOCK.today),
    );
    expect(ids('10160-0')).toHaveLength(records.medication.length - 1);
    expect(ids('48765-2')).toEqual(idsOf(records.allergy, () => true));
    expect(ids('11450-4')).toEqual(
      idsOf(records.condition, (c) => !c.is_family_history && c.status !== 'Resolved'),
    );
    expect(ids('11348-0')).toEqual(
      idsOf(records.condition, (c) => !c.is_family_history && c.status === 'Resolved'),
    );
    expect(ids('10157-6')).toEqual(idsOf(records.condition, (c) => c.is_family_history));
    expect(ids('11369-6')).toEqual(
      idsOf(
        records.shot,
        (s) => s.date_administered === null || s.date_administered <= CLOCK.today,
      ),
    );
    expect(resolve(bundle, sections['18776-5']).map((r) => r.resourceType)).toEqual([
      'ImmunizationRecommendation',
      'Appointment',
      'Appointment',
    ]);
    // Vital signs: the newest of each sign, newest first, each valid in its profile.
    const signs = resolve(bundle, sections['8716-3']) as Observation[];
    const codes = signs.map((sign) => sign.code.coding?.[0]?.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toEqual(
      expect.arrayContaining(['29463-7', '8302-2', '85354-9', '39156-5', '2339-0', '1558-6']),
    );
    const weight = signs.find((sign) => sign.code.coding?.[0]?.code === '29463-7');
    const newestWeight = records.vital
      .filter((row) => row.weight_kg !== null)
      .sort((a, b) => b.measured_at.localeCompare(a.measured_at))[0];
    expect(weight?.valueQuantity).toEqual({
      value: newestWeight?.weight_kg,
      unit: 'kg',
      system: 'http://unitsofmeasure.org',
      code: 'kg',
    });
    // Nothing of the past visits, notes, insurance or contacts.
    const kinds = new Set(bundle.entry?.map((entry) => entry.resource?.resourceType));
    for (const kind of ['Encounter', 'DocumentReference', 'Coverage', 'Practitioner']) {
      expect(kinds.has(kind as Resource['resourceType'])).toBe(false);
    }
  });

  it('every section has an escaped XHTML narrative listing its entries', async () => {
    const bundle = await buildPatientSummary(fullMemberSource(), CLOCK);
    const composition = bundle.entry?.[0]?.resource as Composition;
    for (const section of composition.section ?? []) {
      expect(section.text?.status).toBe('generated');
      const items = section.text?.div.match(/<li>/g) ?? [];
      expect(items).toHaveLength(section.entry?.length ?? 0);
      expect(section.text?.div).not.toContain('<b>');
    }
    expect(byCode(composition)['48765-2']?.text?.div).toContain(
      'Zoë&#39;s &lt;b&gt;&quot;Ünïcødé&quot;&lt;/b&gt; &amp; 漢字 🙂',
    );
    expect(TRICKY).toContain('<b>');
    expect(composition.text?.div).toContain('Élodie Zoë&#39;s &lt;b&gt;');
  });

  it('is the same document on every export at the same clock', async () => {
    const source = fullSource();
    const first = await buildPatientSummary(source, CLOCK);
    expect(await buildPatientSummary(source, CLOCK)).toEqual(first);
  });
});
