import { describe, expect, it } from 'vitest';
import { readClinicalRecords } from './clinical-records';

const file = (name: string, resource: object) => ({ name, text: JSON.stringify(resource) });

describe("an export's clinical records", () => {
  it('reads the rest when one resource is of a shape the FHIR import cannot take', () => {
    const result = readClinicalRecords([
      // A reaction that is not a list: no version check names it, and R4's reader fails on it.
      file('AllergyIntolerance-1.json', {
        resourceType: 'AllergyIntolerance',
        id: 'a1',
        code: { text: 'Latex' },
        reaction: { manifestation: [{ text: 'Hives' }] },
      }),
      file('AllergyIntolerance-2.json', {
        resourceType: 'AllergyIntolerance',
        id: 'a2',
        code: { text: 'Peanut' },
      }),
    ]);
    expect(result.skipped).toEqual({ AllergyIntolerance: 1 });
    expect(result.records.allergy.map(({ values }) => values.substance)).toEqual(['Peanut']);
  });

  it('takes the version export.xml names for a file before its shapes', () => {
    const condition = {
      resourceType: 'Condition',
      id: 'c1',
      subject: { reference: 'Patient/1' },
      code: { text: 'Migraine' },
    };
    expect(
      readClinicalRecords(
        [file('Condition-c1.json', condition)],
        new Map([['Condition-c1.json', '3.0.1']]),
      ).skipped,
    ).toEqual({ 'Condition (a FHIR STU3 clinical record: Kin Health reads FHIR R4)': 1 });
    expect(
      readClinicalRecords(
        [file('Condition-c1.json', condition)],
        new Map([['Condition-c1.json', '4.0.1']]),
      ).records.condition,
    ).toHaveLength(1);
  });
});
