/**
 * FHIR in: a round trip through our own export, stable source ids, the real schemas
 * accepting every record, field limits, refusals, and a real Synthea bundle.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '@medplum/fhirtypes';
import { v7 } from 'uuid';
import { definitionsByType } from '../../shared/records';
import { streamPatientEverything } from './fhir-everything';
import { importFhirBundle, importSummary, type ImportedRecords } from './fhir-import';
import { FHIR_RECORD_TYPES, type FhirRows, type FhirSource } from './fhir-source';
import { buildPatientSummary } from './fhir-summary';
import { runInLanguage, startServerLanguages } from '../i18n/server-language';
import {
  CLOCK,
  MEMBER_ID,
  accountHolder,
  emptySource,
  fullPerson,
  fullRecords,
  sourceOf,
} from './testing/fhir-test-data';

async function everything(source: FhirSource): Promise<Bundle> {
  let text = '';
  for await (const chunk of streamPatientEverything(source, CLOCK)) text += chunk;
  return JSON.parse(text) as Bundle;
}

function imported(bundle: unknown, familyMemberId: string | null = null) {
  const result = importFhirBundle(bundle, { familyMemberId });
  if (!result.ok) throw new Error(result.message);
  return result;
}

/** Imported records stored again, as a new person's rows. */
function storedAgain(records: ImportedRecords) {
  return Object.fromEntries(
    FHIR_RECORD_TYPES.map((type) => [
      type,
      records[type].map(({ values }) => ({
        ...values,
        id: v7(),
        created_at: '2026-06-01T00:00:00.000Z',
        updated_at: '2026-06-01T00:00:00.000Z',
      })),
    ]),
  ) as { [K in keyof FhirRows]: FhirRows[K][] };
}

/** A bundle with ids set aside: addresses become entry positions, record ids go. */
function normalised(bundle: Bundle): unknown[] {
  const position = new Map(bundle.entry?.map((entry, index) => [entry.fullUrl, `entry-${index}`]));
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) {
      return typeof value === 'string' ? (position.get(value) ?? value) : value;
    }
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(record)
        .filter(([key]) => key !== 'id')
        // When a due shot was recorded is not clinical content.
        .filter(
          ([key]) => !(record.resourceType === 'ImmunizationRecommendation' && key === 'date'),
        )
        .map(([key, item]) => [key, strip(item)]),
    );
  };
  return (bundle.entry ?? []).map(strip);
}

describe('round trip', () => {
  it('export, import, export again: the same clinical content', async () => {
    const records = fullRecords(null);
    const first = await everything(sourceOf(accountHolder, records));
    const result = imported(first);
    const again = await everything(
      sourceOf(
        { ...accountHolder, id: 'AnotherAccountId0000000000000000' },
        storedAgain(result.records),
      ),
    );
    expect(normalised(again)).toEqual(normalised(first));
    for (const type of FHIR_RECORD_TYPES) {
      expect(result.imported[type], type).toBe(records[type].length);
    }
    expect(result.skipped).toEqual({});
  });

  it('each record comes back field for field', async () => {
    const records = fullRecords(null);
    const result = imported(await everything(sourceOf(accountHolder, records)));
    for (const type of FHIR_RECORD_TYPES) {
      const original = records[type].map(
        ({ id: _id, created_at: _c, updated_at: _u, ...values }) => values,
      );
      expect(
        result.records[type].map((record) => record.values),
        type,
      ).toEqual(original);
    }
  });

  it("a family member's records carry the member chosen for the import", async () => {
    const bundle = await everything(sourceOf(fullPerson, fullRecords()));
    const result = imported(bundle, MEMBER_ID);
    expect(result.records.visit.every((r) => r.values.family_member_id === MEMBER_ID)).toBe(true);
    expect(result.records.allergy.every((r) => r.values.family_member_id === MEMBER_ID)).toBe(true);
    expect(result.records.contact.every((r) => !('family_member_id' in r.values))).toBe(true);
  });
});

describe('source ids', () => {
  it('are the same on every import of the same bundle, and unique', async () => {
    const bundle = await everything(sourceOf(accountHolder, fullRecords(null)));
    const ids = (result: ReturnType<typeof imported>) =>
      FHIR_RECORD_TYPES.flatMap((type) => result.records[type].map((record) => record.source_id));
    const once = ids(imported(bundle));
    expect(ids(imported(JSON.parse(JSON.stringify(bundle))))).toEqual(once);
    expect(new Set(once).size).toBe(once.length);
  });

  it('name a record the same way in $everything and in $summary', async () => {
    const source = sourceOf(accountHolder, fullRecords(null));
    const all = imported(await everything(source));
    const summary = imported(await buildPatientSummary(source, CLOCK));
    const everythingIds = new Set(all.records.medication.map((record) => record.source_id));
    expect(summary.records.medication.length).toBeGreaterThan(0);
    for (const record of summary.records.medication) {
      expect(everythingIds.has(record.source_id)).toBe(true);
    }
  });
});

describe('the real schemas', () => {
  it('accept every imported record as it is', async () => {
    const result = imported(await everything(sourceOf(accountHolder, fullRecords(null))), null);
    for (const type of FHIR_RECORD_TYPES) {
      if (type === 'allergy') continue;
      const schema = definitionsByType[type].schema;
      for (const { values } of result.records[type]) {
        expect(schema.parse(values), type).toEqual(values);
      }
    }
  });

  it('an empty summary holds nothing to import: its no-information entries are not records', async () => {
    const result = imported(await buildPatientSummary(emptySource(), CLOCK));
    expect(result.imported).toEqual({});
    expect(result.skipped).toEqual({});
    expect(result.summary).toBe('The file holds no records to import.');
  });
});

const patient = {
  fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000001',
  resource: { resourceType: 'Patient' },
};
const subject = { reference: patient.fullUrl };
const bundleOf = (...resources: object[]) => ({
  resourceType: 'Bundle',
  type: 'collection',
  entry: [patient, ...resources.map((resource) => ({ resource }))],
});

describe('texts and dates from other systems', () => {
  it('are fitted to the field limits, so the schemas accept them', () => {
    const long = 'é'.repeat(300);
    const result = imported(
      bundleOf(
        {
          resourceType: 'Condition',
          code: { text: `${long}\u0007` },
          subject,
          onsetDateTime: '2019-04',
          note: [{ text: `bad \uD800 surrogate ${'🙂'.repeat(6000)}` }],
        },
        {
          resourceType: 'MedicationStatement',
          status: 'active',
          medicationCodeableConcept: { coding: [{ display: 'Ibuprofen' }] },
          subject,
          effectivePeriod: { start: '2026-05-01', end: '2026-04-01' },
        },
        {
          resourceType: 'Practitioner',
          name: [{ given: ['Ana', 'María'], family: 'Núñez', prefix: ['Dr.'] }],
          telecom: [
            { system: 'phone', value: '1'.repeat(80) },
            { system: 'email', value: 'not an email' },
          ],
        },
        {
          resourceType: 'Encounter',
          status: 'finished',
          class: { code: 'AMB' },
          subject,
          period: { start: '2020-02-03' },
        },
      ),
    );
    const [condition] = result.records.condition;
    expect(condition?.values.condition_name).toHaveLength(200);
    expect(condition?.values.condition_name.endsWith('…')).toBe(true);
    expect(condition?.values.diagnosis_date).toBeNull();
    expect(condition?.values.notes?.length).toBeLessThanOrEqual(10_000);
    expect(condition?.values.notes).toContain('\uFFFD');
    expect(result.records.medication[0]?.values).toMatchObject({
      medication_name: 'Ibuprofen',
      start_date: null,
      end_date: '2026-04-01',
    });
    expect(result.records.contact[0]?.values).toMatchObject({
      contact_name: 'Dr. Ana María Núñez',
      contact_type: 'Doctor',
      phone_number: null,
      email: null,
    });
    expect(result.records.visit[0]?.values).toMatchObject({
      visit_name: 'Visit',
      visit_date: '2020-02-03T12:00:00.000Z',
    });
    for (const type of ['condition', 'medication', 'contact', 'visit'] as const) {
      for (const { values } of result.records[type]) definitionsByType[type].schema.parse(values);
    }
  });

  it('a statement and the prescription it is based on are one medication', () => {
    const prescription = {
      fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000002',
      resource: {
        resourceType: 'MedicationRequest',
        status: 'active',
        intent: 'order',
        medicationCodeableConcept: { text: 'Metformin' },
        subject,
        requester: { display: 'Dr. Lee' },
      },
    };
    const bundle = bundleOf({
      resourceType: 'MedicationStatement',
      status: 'active',
      medicationCodeableConcept: { text: 'Metformin' },
      subject,
      basedOn: [{ reference: prescription.fullUrl }],
    });
    const result = imported({ ...bundle, entry: [...bundle.entry, prescription] });
    expect(result.records.medication.map((record) => record.values)).toMatchObject([
      { medication_name: 'Metformin', prescribed_doctor: 'Dr. Lee' },
    ]);
    expect(result.skipped).toEqual({});
  });

  it('records entered in error, refuted or not given are skipped and counted', () => {
    const result = imported(
      bundleOf(
        {
          resourceType: 'Condition',
          code: { text: 'Flu' },
          subject,
          verificationStatus: { coding: [{ code: 'entered-in-error' }] },
        },
        {
          resourceType: 'Immunization',
          status: 'not-done',
          vaccineCode: { text: 'MMR' },
          patient: subject,
          occurrenceDateTime: '2020-01-01',
        },
        {
          resourceType: 'AllergyIntolerance',
          patient: subject,
          code: {
            coding: [
              { system: 'http://snomed.info/sct', code: '716186003', display: 'No known allergy' },
            ],
          },
        },
        { resourceType: 'Observation', status: 'final', code: { text: 'Weight' } },
        { resourceType: 'Observation', status: 'final', code: { text: 'Height' } },
      ),
    );
    expect(result.imported).toEqual({});
    expect(result.skipped).toEqual({
      Condition: 1,
      Immunization: 1,
      AllergyIntolerance: 1,
      Observation: 2,
    });
    expect(result.summary).toBe(
      'Imported nothing; skipped 2 Observations, 1 AllergyIntolerance, 1 Condition, 1 Immunization',
    );
  });

  it('a resource of a shape R4 does not allow is skipped, and the rest still read', () => {
    const result = imported(
      bundleOf(
        // A DSTU2 Observation: its category is one concept, not a list.
        {
          resourceType: 'Observation',
          status: 'final',
          category: { coding: [{ code: 'laboratory' }] },
          code: { text: 'Hemoglobin' },
          valueQuantity: { value: 13.2, unit: 'g/dL' },
          effectiveDateTime: '2020-01-01',
        },
        { resourceType: 'Condition', code: { text: 'Asthma' }, subject },
      ),
    );
    expect(result.imported).toEqual({ condition: 1 });
    expect(result.skipped).toEqual({ Observation: 1 });
  });
});

describe('the summary sentence', () => {
  it('counts what came in and what did not', () => {
    expect(importSummary({ medication: 12, condition: 4 }, { Observation: 30 })).toBe(
      'Imported 12 medications, 4 conditions; skipped 30 Observations',
    );
    expect(importSummary({ allergy: 1, insurance: 2 }, {})).toBe(
      'Imported 1 allergy, 2 insurance policies',
    );
  });
});

describe('refusals', () => {
  const message = (json: unknown) => {
    const result = importFhirBundle(json, { familyMemberId: null });
    return result.ok ? 'accepted' : result.message;
  };

  it('what is not FHIR, or not a Bundle', () => {
    expect(message('{oops')).toBe('This file is not a FHIR R4 Bundle: it is not JSON.');
    expect(message([1, 2])).toBe('This file is not a FHIR R4 Bundle: it is not a JSON object.');
    expect(message({ format: 'kin-health-export' })).toBe(
      'This file is not a FHIR R4 Bundle: it has no resourceType, so it is not FHIR.',
    );
    expect(message({ resourceType: 'Patient', id: 'p' })).toMatch(
      /^This file is a single FHIR Patient, not a Bundle\./,
    );
    expect(message({ resourceType: 'Bundle', type: 'collection', entry: {} })).toMatch(
      /not a list/,
    );
    expect(message({ resourceType: 'Bundle', entry: [] })).toBe(
      'This file is not a FHIR R4 Bundle: it has no type.',
    );
  });

  it('bundle types other than collection, document, searchset and transaction', () => {
    expect(message({ resourceType: 'Bundle', type: 'history', entry: [] })).toBe(
      "This Bundle is of type 'history', which cannot be imported: Kin Health imports collection, document, searchset and transaction Bundles.",
    );
  });

  it('an STU3 bundle, by its shapes', () => {
    const stu3 = bundleOf({
      resourceType: 'Condition',
      clinicalStatus: 'active',
      code: { text: 'Asthma' },
      subject,
    });
    expect(message(stu3)).toBe(
      'This file is a FHIR STU3 Bundle, not R4 (its Condition has clinicalStatus as a plain code). Kin Health imports FHIR R4 Bundles only.',
    );
    expect(
      message(bundleOf({ resourceType: 'Immunization', notGiven: false, status: 'completed' })),
    ).toMatch(/STU3/);
    expect(message(bundleOf({ resourceType: 'ProcedureRequest', status: 'active' }))).toMatch(
      /STU3 Bundle, not R4 \(its resource type ProcedureRequest is not in R4\)/,
    );
    expect(message(bundleOf({ resourceType: 'MedicationOrder' }))).toMatch(/DSTU2/);
    // Plain-code statuses are STU3's and DSTU2's alike: a sign only DSTU2 has decides.
    const dstu2 = bundleOf(
      { resourceType: 'Condition', clinicalStatus: 'active', code: { text: 'Asthma' }, subject },
      { resourceType: 'Encounter', status: 'finished', class: 'ambulatory' },
    );
    expect(message(dstu2)).toMatch(
      /^This file is a FHIR DSTU2 Bundle, not R4 \(its Encounter has its class as a plain code\)/,
    );
  });

  it('an R5 bundle, by its shapes', () => {
    expect(
      message(
        bundleOf({ resourceType: 'Encounter', status: 'completed', class: [{ text: 'AMB' }] }),
      ),
    ).toBe(
      'This file is a FHIR R5 Bundle, not R4 (its Encounter has a list of classes). Kin Health imports FHIR R4 Bundles only.',
    );
    expect(
      message(
        bundleOf({
          resourceType: 'MedicationStatement',
          status: 'recorded',
          medication: { concept: { text: 'X' } },
        }),
      ),
    ).toMatch(/R5/);
    expect(message({ resourceType: 'Bundle', type: 'collection', issues: {}, entry: [] })).toMatch(
      /R5/,
    );
  });

  it('a Coverage without a payor, naming it, where it was a server error', () => {
    const coverage = { resourceType: 'Coverage', id: 'c1', status: 'active', beneficiary: {} };
    expect(
      message({ resourceType: 'Bundle', type: 'collection', entry: [{ resource: coverage }] }),
    ).toBe(
      "This file is not a valid FHIR R4 Bundle: its Coverage 'c1' has no payor (the insurer), which R4 requires.",
    );
  });

  it('several patients in one bundle', () => {
    const two = { ...bundleOf(), entry: [patient, patient] };
    expect(message(two)).toBe(
      "This Bundle holds the records of 2 patients; import one person's Bundle at a time.",
    );
  });

  describe('in the reader’s language', () => {
    beforeAll(() => startServerLanguages());

    it('says what the file is in Spanish, FHIR’s own names kept', () => {
      expect(runInLanguage('es', () => message('{oops'))).toBe(
        'Este archivo no es un Bundle FHIR R4: no es JSON.',
      );
      expect(
        runInLanguage('es', () => message({ resourceType: 'Bundle', type: 'history', entry: [] })),
      ).toBe(
        "Este Bundle es de tipo 'history', que no se puede importar: Kin Health importa Bundles de tipo collection, document, searchset y transaction.",
      );
    });

    it('names the sign of another FHIR version in German and Chinese', () => {
      const stu3 = bundleOf({
        resourceType: 'Condition',
        clinicalStatus: 'active',
        code: { text: 'Asthma' },
        subject,
      });
      expect(runInLanguage('de', () => message(stu3))).toBe(
        'Diese Datei ist ein FHIR-STU3-Bundle, kein R4 (Condition hat clinicalStatus als einfachen Code). Kin Health importiert nur FHIR-R4-Bundles.',
      );
      const r5 = bundleOf({ resourceType: 'Transport', status: 'completed' });
      expect(runInLanguage('zh-CN', () => message(r5))).toBe(
        '此文件是 FHIR R5 Bundle，不是 R4（R4 中没有资源类型 Transport）。Kin Health 只导入 FHIR R4 Bundle。',
      );
    });

    it('says why a document was not brought in, in the summary', () => {
      const document = {
        resourceType: 'DocumentReference',
        status: 'current',
        description: 'Scan',
        content: [{ attachment: { contentType: 'application/pdf', url: 'https://example.org/x' } }],
      };
      const result = runInLanguage('fr', () =>
        importFhirBundle(bundleOf(document), { familyMemberId: null }),
      );
      expect(result.ok && result.summary).toBe(
        'Rien n’a été importé; ignoré : DocumentReference : 1; documents non importés : « Scan » (son fichier se trouve à une adresse hors du Bundle, que Kin Health ne récupère pas)',
      );
    });
  });
});

describe('a Synthea patient no one on the team wrote', () => {
  const synthea: unknown = JSON.parse(
    readFileSync(new URL('./fixtures/synthea-r4-luna60.json', import.meta.url), 'utf8'),
  );

  it('imports its visits, conditions, medications, shots, vitals and contacts, and says what it skipped', () => {
    const result = imported(synthea, MEMBER_ID);
    expect(result.imported).toEqual({
      visit: 23,
      medication: 6,
      shot: 27,
      condition: 8,
      lab_result: 11,
      // 70 vital-sign Observations at 15 moments: height, weight, blood pressure and pain
      // at each, BMI (10, derived here) taken without being kept. No vital sign is skipped.
      vital: 15,
      contact: 2,
    });
    expect(result.skipped).toEqual({
      // 15 surveys and 1 uncategorised Observation; no vital sign and no laboratory one.
      Observation: 16,
      Claim: 27,
      ExplanationOfBenefit: 23,
      Procedure: 6,
      CarePlan: 2,
      DiagnosticReport: 1,
    });
    expect(result.summary).toBe(
      'Imported 23 visits, 6 medications, 27 shots, 8 conditions, 11 lab results, 15 vitals entries, 2 contacts; skipped 27 Claims, 23 ExplanationOfBenefits, 16 Observations, 6 Procedures, 2 CarePlans, 1 DiagnosticReport',
    );
    for (const type of FHIR_RECORD_TYPES) {
      if (type === 'allergy') continue;
      for (const { values } of result.records[type]) definitionsByType[type].schema.parse(values);
    }
    // One moment's Observations are one entry: the first visit's, whole, in canonical units.
    expect(result.records.vital[0]?.values).toMatchObject({
      measured_at: '2009-07-16T16:18:29.000Z',
      height_cm: 69.8586,
      weight_kg: 6.8317,
      pain_score: 2,
      family_member_id: MEMBER_ID,
    });
    const first = result.records.vital[0]?.values;
    expect(first?.systolic_mmhg).toBeGreaterThan(first?.diastolic_mmhg ?? Infinity);
  });

  it('reads names, dates and people from the resources and what they reference', () => {
    const result = imported(synthea, MEMBER_ID);
    const [visit] = result.records.visit;
    expect(visit?.values).toMatchObject({
      visit_name: 'Encounter for check up (procedure)',
      visit_date: '2009-07-16T16:18:29.000Z',
      family_member_id: MEMBER_ID,
    });
    expect(visit?.values.doctor_name).toBeTruthy();
    expect(visit?.values.office_name).toBeTruthy();
    expect(result.records.medication[0]?.values).toMatchObject({
      medication_name: 'Ibuprofen 100 MG Oral Tablet',
      frequency: 'As Needed',
      start_date: '2009-09-02',
      end_date: '2009-09-02',
    });
    expect(
      result.records.condition.find((c) => c.values.condition_name.startsWith('Viral sinusitis'))
        ?.values.status,
    ).toBe('Resolved');
    expect(result.records.shot[0]?.values).toMatchObject({
      shot_name: 'IPV',
      date_administered: '2009-07-16',
    });
  });
});
