/**
 * Lab results in FHIR: Observations of category laboratory (LOINC code and text, a
 * valueQuantity in UCUM when the unit is one or a valueString, the range, the flag as a
 * v3 interpretation, the lab as performer), valid R4; the IPS Results section (30954-2);
 * and the import of laboratory Observations, Synthea's among them, with none skipped.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Bundle, Composition, Observation, Resource } from '@medplum/fhirtypes';
import { definitionsByType } from '../../../shared/records';
import { INTERPRETATION, UCUM, isUcumCode, labResultResource } from './lab-results';
import { importFhirBundle } from '../fhir-import';
import { buildPatientSummary } from '../fhir-summary';
import { CLOCK, MEMBER_ID, fullPerson, fullRecords, sourceOf } from '../testing/fhir-test-data';
import { fhirProblems } from '../testing/fhir-validator';

const context = { ...CLOCK, patient: { reference: 'urn:uuid:patient' } };
const labs = fullRecords().lab_result;
const byName = (name: string) => {
  const row = labs.find((lab) => lab.test_name === name);
  if (!row) throw new Error(name);
  return labResultResource(row, context);
};

describe('a lab result as an Observation', () => {
  it('is valid R4 with medplum, every field of every kind of result', () => {
    for (const row of labs) {
      const resource = labResultResource(row, context);
      expect(fhirProblems(resource), row.test_name).toEqual([]);
    }
  });

  it('has category laboratory, its LOINC code and name, a UCUM quantity, the range and the flag', () => {
    const ldl = byName('LDL Cholesterol');
    expect(ldl.category?.[0]?.coding?.[0]).toMatchObject({ code: 'laboratory' });
    expect(ldl.code).toEqual({
      coding: [
        {
          system: 'http://loinc.org',
          code: '18262-6',
          display: 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by Direct assay',
        },
      ],
      text: 'LDL Cholesterol',
    });
    expect(ldl.valueQuantity).toEqual({ value: 162, unit: 'mg/dL', system: UCUM, code: 'mg/dL' });
    expect(ldl.referenceRange).toEqual([
      { high: { value: 100, unit: 'mg/dL', system: UCUM, code: 'mg/dL' } },
    ]);
    expect(ldl.interpretation?.[0]?.coding?.[0]).toEqual({
      system: INTERPRETATION,
      code: 'H',
      display: 'High',
    });
    expect(ldl.effectiveDateTime).toBe('2026-03-04');
    expect(ldl.performer?.[0]?.display).toMatch(/^Quest /);
    expect(byName('HDL Cholesterol').interpretation?.[0]?.coding?.[0]?.code).toBe('L');
    expect(byName('HbA1c').interpretation?.[0]?.coding?.[0]?.code).toBe('N');
  });

  it('keeps a text result as a valueString, and a unit that is no UCUM code as unit text', () => {
    const ketones = byName('Urine ketones');
    expect(ketones.valueString).toBe('Negative');
    expect(ketones.valueQuantity).toBeUndefined();
    expect(ketones.interpretation).toBeUndefined();
    const counted = labs.find((lab) => lab.unit === 'cells per field');
    const resource = labResultResource(counted!, context);
    expect(resource.valueQuantity).toEqual({ value: 7, unit: 'cells per field' });
    expect(resource.code).toEqual({ text: counted!.test_name });
    expect(isUcumCode('10*3/uL')).toBe(true);
    expect(isUcumCode('cells per field')).toBe(false);
  });
});

describe('the IPS Results section', () => {
  it('lists the last twelve months of results, out of range first', async () => {
    const bundle = await buildPatientSummary(sourceOf(fullPerson, { lab_result: labs }), CLOCK);
    expect(fhirProblems(bundle)).toEqual([]);
    const composition = bundle.entry?.[0]?.resource as Composition;
    const section = composition.section?.find((s) => s.code?.coding?.[0]?.code === '30954-2');
    expect(section?.title).toBe('Results');
    const byUrl = new Map(bundle.entry?.map((entry) => [entry.fullUrl, entry.resource]));
    const names = (section?.entry ?? []).map(
      (reference) => (byUrl.get(reference.reference) as Observation).code.text,
    );
    // 2024's results are older than twelve months before 2026-06-15.
    expect(names).toEqual(['LDL Cholesterol', 'HDL Cholesterol', 'HbA1c', 'Urine ketones']);
    expect(section?.text?.div).toContain(
      'LDL Cholesterol, 162 mg/dL, High (range ≤ 100), 2026-03-04',
    );
    for (const entry of bundle.entry ?? []) {
      expect(fhirProblems(entry.resource as Resource)).toEqual([]);
    }
  });
});

const bundleOf = (...resources: Resource[]): Bundle => ({
  resourceType: 'Bundle',
  type: 'collection',
  entry: resources.map((resource, index) => ({ fullUrl: `urn:uuid:${index}`, resource })),
});

const laboratory = [
  {
    coding: [
      {
        system: 'http://terminology.hl7.org/CodeSystem/observation-category',
        code: 'laboratory',
      },
    ],
  },
];

describe('importing laboratory Observations', () => {
  it('takes every laboratory Observation of a Synthea patient, with its code, value and unit', () => {
    const synthea = JSON.parse(
      readFileSync(new URL('../fixtures/synthea-r4-luna60.json', import.meta.url), 'utf8'),
    ) as Bundle;
    const inFile = (synthea.entry ?? [])
      .map((entry) => entry.resource)
      .filter(
        (resource): resource is Observation =>
          resource?.resourceType === 'Observation' &&
          (resource.category ?? []).some((c) => c.coding?.some((x) => x.code === 'laboratory')),
      );
    expect(inFile.length).toBe(11);
    const result = importFhirBundle(synthea, { familyMemberId: MEMBER_ID });
    if (!result.ok) throw new Error(result.message);
    expect(result.imported.lab_result).toBe(inFile.length);
    const wbc = result.records.lab_result.find((r) => r.values.loinc_code === '6690-2');
    expect(wbc?.values).toMatchObject({
      test_name: 'Leukocytes [#/volume] in Blood by Automated count',
      unit: '10*3/uL',
      collected_date: '2014-08-28',
    });
    for (const { values } of result.records.lab_result) {
      definitionsByType.lab_result.schema.parse(values);
    }
  });

  it('reads a coded result as its text, goes through a panel to its members, skips errors', () => {
    const result = importFhirBundle(
      bundleOf(
        {
          resourceType: 'Observation',
          status: 'final',
          category: laboratory,
          code: { coding: [{ system: 'http://loinc.org', code: '2514-8' }] },
          effectiveDateTime: '2025-01-02T10:00:00Z',
          valueCodeableConcept: {
            coding: [
              {
                system: 'http://snomed.info/sct',
                code: '167287002',
                display: 'Urine ketone test negative',
              },
            ],
          },
        },
        {
          resourceType: 'Observation',
          status: 'final',
          category: laboratory,
          code: { text: 'Lipid panel' },
          effectiveDateTime: '2025-01-02',
          hasMember: [{ reference: 'urn:uuid:0' }],
        },
        {
          resourceType: 'Observation',
          status: 'entered-in-error',
          category: laboratory,
          code: { text: 'Glucose' },
          effectiveDateTime: '2025-01-02',
          valueQuantity: { value: 90, unit: 'mg/dL' },
        },
      ),
      { familyMemberId: null },
    );
    if (!result.ok) throw new Error(result.message);
    expect(result.records.lab_result.map((r) => r.values)).toEqual([
      expect.objectContaining({
        test_name: 'Urine ketones',
        loinc_code: '2514-8',
        result: 'Urine ketone test negative',
        collected_date: '2025-01-02',
      }),
    ]);
    expect(result.skipped).toEqual({ Observation: 1 });
  });

  it('reads back what the export wrote, field for field', () => {
    const resources = labs.map((row) => labResultResource(row, context));
    const result = importFhirBundle(bundleOf(...resources), { familyMemberId: MEMBER_ID });
    if (!result.ok) throw new Error(result.message);
    const fields = [
      'test_name',
      'loinc_code',
      'result',
      'unit',
      'range_low',
      'range_high',
      'collected_date',
      'lab',
      'ordered_by',
      'notes',
    ] as const;
    const pick = (values: Record<string, unknown>) =>
      Object.fromEntries(fields.map((field) => [field, values[field] ?? null]));
    expect(result.records.lab_result.map((r) => pick(r.values))).toEqual(
      labs.map((row) => pick(row)),
    );
  });
});
