/**
 * Symptoms as FHIR (decision 0062): each an Observation of category `survey` coded as LOINC's
 * 'Symptom', valid R4, its severity a 1–10 score and its span the effective period; read back
 * into the same symptoms, and a symptom another system wrote as the Observation's value read too.
 */
import { describe, expect, it } from 'vitest';
import type { Bundle, Observation, Patient } from '@medplum/fhirtypes';
import { CLOCK, MEMBER_ID, fullRecords } from '../testing/fhir-test-data';
import { fhirProblems } from '../testing/fhir-validator';
import { SYMPTOM_LOINC, symptomResource } from './symptoms';
import { importFhirBundle } from '../fhir-import';
import { referenceTo } from '../fhir-elements';

const context = { ...CLOCK, patient: referenceTo<Patient>(MEMBER_ID) };
const rows = fullRecords().symptom;
const observations = rows.map((row) => symptomResource(row, context));

const bundleOf = (resources: Observation[]): Bundle => ({
  resourceType: 'Bundle',
  type: 'collection',
  entry: resources.map((resource) => ({ resource })),
});

describe('a symptom as FHIR', () => {
  it('is a valid R4 survey Observation: the symptom, its severity and its span', () => {
    for (const observation of observations) {
      expect(fhirProblems(observation), observation.code.text).toEqual([]);
    }
    const [ended, unended, unscored] = observations;
    expect(ended).toMatchObject({
      resourceType: 'Observation',
      status: 'final',
      category: [
        {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/observation-category',
              code: 'survey',
            },
          ],
        },
      ],
      code: {
        coding: [{ system: 'http://loinc.org', code: SYMPTOM_LOINC, display: 'Symptom' }],
        text: rows[0]!.symptom,
      },
      subject: context.patient,
      effectivePeriod: { start: '2026-03-03T21:00:00.000Z', end: '2026-03-04T06:30:00.000Z' },
      valueQuantity: {
        value: 7,
        unit: '/10',
        system: 'http://unitsofmeasure.org',
        code: '{score}',
      },
      note: [{ text: rows[0]!.notes }],
    });
    expect(unended).toMatchObject({ effectiveDateTime: '2026-04-01T08:00:00.000Z' });
    expect(unended?.effectivePeriod).toBeUndefined();
    expect(unscored?.valueQuantity).toBeUndefined();
  });

  it('is read back into the same symptoms', () => {
    const result = importFhirBundle(bundleOf(observations), { familyMemberId: MEMBER_ID });
    if (!result.ok) throw new Error(result.message);
    expect(result.skipped).toEqual({});
    expect(result.summary).toBe('Imported 3 symptoms');
    expect(result.records.symptom.map((record) => record.values)).toEqual(
      rows.map(({ id: _id, created_at: _c, updated_at: _u, ...values }) => values),
    );
  });

  it("reads another system's symptom held as the value, a score off the scale left out", () => {
    const result = importFhirBundle(
      bundleOf([
        {
          resourceType: 'Observation',
          status: 'final',
          code: { coding: [{ system: 'http://loinc.org', code: SYMPTOM_LOINC }], text: 'Symptom' },
          valueCodeableConcept: {
            coding: [{ system: 'http://snomed.info/sct', code: '25064002', display: 'Headache' }],
          },
          effectiveDateTime: '2025-01-02',
        },
        {
          resourceType: 'Observation',
          status: 'entered-in-error',
          code: { coding: [{ system: 'http://loinc.org', code: SYMPTOM_LOINC }], text: 'Cough' },
          effectiveDateTime: '2025-01-02T10:00:00Z',
        },
        {
          resourceType: 'Observation',
          status: 'final',
          code: { coding: [{ system: 'http://loinc.org', code: SYMPTOM_LOINC }], text: 'Fatigue' },
          effectivePeriod: { start: '2025-01-03T08:00:00+01:00' },
          valueQuantity: { value: 42 },
        },
      ]),
      { familyMemberId: null },
    );
    if (!result.ok) throw new Error(result.message);
    expect(result.records.symptom.map((record) => record.values)).toEqual([
      expect.objectContaining({
        symptom: 'Headache',
        severity: null,
        started_at: '2025-01-02T12:00:00.000Z',
        ended_at: null,
        family_member_id: null,
      }),
      expect.objectContaining({
        symptom: 'Fatigue',
        severity: null,
        started_at: '2025-01-03T07:00:00.000Z',
      }),
    ]);
    expect(result.skipped).toEqual({ Observation: 1 });
  });
});
