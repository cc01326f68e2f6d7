/**
 * A FHIR Bundle streamed from its file, pass by pass (read-fhir-file.ts, bundle-entries.ts),
 * reads exactly as the same Bundle parsed whole: the same records in the same order, the
 * same documents and their records, the same skipped counts, patient and summary, and the
 * same refusals, for real bundles (Synthea's, our own export's, C-CDAs converted) and for one
 * made of every way a resource can point to another.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';
import { convertXmlToCcda } from '@medplum/ccda';
import { importFhirBundle, type ImportedRecord } from '../fhir/fhir-import';
import { FHIR_RECORD_TYPES, type FhirRecordType } from '../fhir/fhir-source';
import { streamPatientEverything } from '../fhir/fhir-everything';
import { CLOCK, fullMemberSource, fullSource } from '../fhir/testing/fhir-test-data';
import { startServerLanguages } from '../i18n/server-language';
import { ccdaBundle } from './ccda/ccda-convert';
import { NOT_JSON } from '../fhir/fhir-import';
import { patientOf, streamFhirFile } from './read-fhir-file';
import { manyAllergiesBundle } from './testing/many-allergies';

const folder = mkdtempSync(join(tmpdir(), 'kin-fhir-stream-'));
let files = 0;
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The text written to a file of its own. */
function fileOf(text: string): string {
  const path = join(folder, `bundle-${(files += 1)}.json`);
  writeFileSync(path, text);
  return path;
}

/** What reading the bundle whole answers, as the file reader answers it. */
function readWhole(bundle: unknown) {
  const records = importFhirBundle(bundle, { familyMemberId: null });
  if (!records.ok) return records;
  return { kind: 'fhir', patient: patientOf(bundle), records, problems: [] };
}

async function everything(source: Parameters<typeof streamPatientEverything>[0]) {
  let text = '';
  for await (const chunk of streamPatientEverything(source, CLOCK)) text += chunk;
  return JSON.parse(text) as Bundle;
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Every way a resource points to another, in orders a reader could get wrong. */
function pointingBundle(): Bundle {
  const entries: BundleEntry[] = [
    // A role before its practitioner, and a practitioner with two roles.
    {
      fullUrl: 'urn:uuid:role-1',
      resource: {
        resourceType: 'PractitionerRole',
        practitioner: { reference: 'urn:uuid:dr-ada' },
        specialty: [{ text: 'Paediatrics' }],
        telecom: [{ system: 'phone', value: '555-0101' }],
      },
    },
    {
      fullUrl: 'urn:uuid:role-2',
      resource: {
        resourceType: 'PractitionerRole',
        practitioner: { reference: 'urn:uuid:dr-ada' },
        specialty: [{ text: 'Allergy' }],
      },
    },
    {
      fullUrl: 'urn:uuid:patient',
      resource: {
        resourceType: 'Patient',
        id: 'p-1',
        name: [{ given: ['Mia'], family: 'Jones' }],
        birthDate: '2018-04-02',
        gender: 'female',
      },
    },
    // A document's frame, naming its author.
    {
      fullUrl: 'urn:uuid:composition',
      resource: {
        resourceType: 'Composition',
        status: 'final',
        type: { text: 'Summary' },
        date: '2024-01-01',
        title: 'Summary',
        author: [{ reference: 'urn:uuid:dr-ada' }],
      },
    },
    // A policy before its insurer; the insurer is no contact of its own.
    {
      fullUrl: 'urn:uuid:coverage',
      resource: {
        resourceType: 'Coverage',
        status: 'active',
        beneficiary: { reference: 'urn:uuid:patient' },
        payor: [{ reference: 'Organization/insurer' }],
        subscriberId: 'X-1',
      },
    },
    // A visit at a place (a Location: no record, but read by the visit) by a practitioner
    // named by a versioned address.
    {
      fullUrl: 'urn:uuid:visit',
      resource: {
        resourceType: 'Encounter',
        id: 'e-1',
        status: 'finished',
        class: { code: 'AMB' },
        type: [{ text: 'Check-up' }],
        period: { start: '2024-02-01T10:00:00Z' },
        location: [{ location: { reference: 'Location/clinic' } }],
        participant: [
          { individual: { reference: 'https://ehr.example/fhir/Practitioner/ada/_history/3' } },
        ],
      },
    },
    // A statement and the prescription it is based on, which comes after it.
    {
      fullUrl: 'urn:uuid:statement',
      resource: {
        resourceType: 'MedicationStatement',
        status: 'active',
        subject: { reference: 'urn:uuid:patient' },
        medicationCodeableConcept: { text: 'Amoxicillin 250 mg' },
        basedOn: [{ reference: 'urn:uuid:request' }],
        effectivePeriod: { start: '2024-02-01' },
      },
    },
    {
      fullUrl: 'urn:uuid:condition',
      resource: {
        resourceType: 'Condition',
        id: 'c-1',
        code: { text: 'Otitis media' },
        onsetDateTime: '2024-02-01',
        clinicalStatus: { coding: [{ code: 'active' }] },
      } as Resource,
    },
    // A document whose file is a Binary of the bundle, belonging to the condition and to
    // two vital signs of one moment; and a second naming the same Binary.
    {
      fullUrl: 'urn:uuid:document',
      resource: {
        resourceType: 'DocumentReference',
        id: 'd-1',
        status: 'current',
        description: 'Ear exam',
        date: '2024-02-01T10:30:00Z',
        content: [{ attachment: { contentType: 'application/pdf', url: 'Binary/scan' } }],
        context: {
          related: [
            { reference: 'Condition/c-1' },
            { reference: 'urn:uuid:weight' },
            { reference: 'urn:uuid:height' },
          ],
        },
      },
    },
    {
      fullUrl: 'urn:uuid:document-again',
      resource: {
        resourceType: 'DocumentReference',
        status: 'current',
        description: 'Ear exam (copy)',
        content: [{ attachment: { contentType: 'application/pdf', url: 'Binary/scan' } }],
      },
    },
    ...(['weight', 'height'] as const).map((kind) => ({
      fullUrl: `urn:uuid:${kind}`,
      resource: {
        resourceType: 'Observation' as const,
        status: 'final' as const,
        category: [
          {
            coding: [
              {
                system: 'http://terminology.hl7.org/CodeSystem/observation-category',
                code: 'vital-signs',
              },
            ],
          },
        ],
        code: {
          coding: [{ system: 'http://loinc.org', code: kind === 'weight' ? '29463-7' : '8302-2' }],
        },
        effectiveDateTime: '2024-02-01T10:05:00Z',
        valueQuantity:
          kind === 'weight'
            ? { value: 18.2, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' }
            : { value: 104, unit: 'cm', system: 'http://unitsofmeasure.org', code: 'cm' },
      },
    })),
    {
      fullUrl: 'urn:uuid:binary',
      resource: {
        resourceType: 'Binary',
        id: 'scan',
        contentType: 'application/pdf',
        data: b64('%PDF-1.4\n% an ear exam\n'),
      },
    },
    {
      fullUrl: 'urn:uuid:request',
      resource: {
        resourceType: 'MedicationRequest',
        status: 'active',
        intent: 'order',
        subject: { reference: 'urn:uuid:patient' },
        medicationCodeableConcept: { text: 'Amoxicillin 250 mg' },
        dosageInstruction: [{ text: 'Twice a day' }],
      },
    },
    // The practitioner, at two addresses; a second resource at one of them, earlier in the
    // bundle than the last: the last at an address is the one found.
    {
      fullUrl: 'urn:uuid:dr-ada',
      resource: {
        resourceType: 'Practitioner',
        id: 'ada',
        name: [{ given: ['Ada'], family: 'Lovelace' }],
      },
    },
    {
      fullUrl: 'https://ehr.example/fhir/Practitioner/ada',
      resource: {
        resourceType: 'Practitioner',
        id: 'ada',
        name: [{ given: ['Ada'], family: 'King' }],
      },
    },
    {
      fullUrl: 'urn:uuid:insurer',
      resource: { resourceType: 'Organization', id: 'insurer', name: 'Blue Shield' },
    },
    {
      fullUrl: 'urn:uuid:clinic',
      resource: { resourceType: 'Location', id: 'clinic', name: 'Elm Street Clinic' },
    },
    // Pointed to by nothing: skipped.
    { resource: { resourceType: 'Provenance', recorded: '2024-02-01T00:00:00Z' } as never },
    { resource: { resourceType: 'Location', name: 'Nowhere' } },
    // Not a resource at all.
    { fullUrl: 'urn:uuid:empty' },
  ];
  return { resourceType: 'Bundle', type: 'document', entry: entries };
}

/** Streamed and whole, for one bundle's text. */
async function bothWays(text: string) {
  const streamed = await streamFhirFile(fileOf(text));
  let whole: unknown;
  try {
    whole = readWhole(JSON.parse(text));
  } catch {
    whole = { ok: false, message: NOT_JSON };
  }
  return { streamed, whole };
}

beforeAll(startServerLanguages);

describe('a FHIR Bundle streamed from its file', () => {
  it('reads as the same Bundle parsed whole: real bundles and one of every kind of reference', async () => {
    const fixtures = join(import.meta.dirname, '../fhir/fixtures');
    const bundles: [string, unknown][] = [
      ['Synthea', JSON.parse(readFileSync(join(fixtures, 'synthea-r4-luna60.json'), 'utf8'))],
      ["the account holder's $everything", await everything(fullSource())],
      ["a family member's $everything", await everything(fullMemberSource())],
      ['references of every kind', pointingBundle()],
    ];
    const ccdas = join(import.meta.dirname, 'testdata/ccda');
    for (const set of readdirSync(ccdas, { withFileTypes: true })) {
      if (!set.isDirectory()) continue;
      for (const name of readdirSync(join(ccdas, set.name)).filter((file) =>
        file.endsWith('.xml'),
      )) {
        const ccda = convertXmlToCcda(readFileSync(join(ccdas, set.name, name), 'utf8'));
        bundles.push([`C-CDA ${name}`, ccdaBundle(ccda)]);
      }
    }
    expect(bundles.length).toBeGreaterThan(6);
    for (const [name, bundle] of bundles) {
      const { streamed, whole } = await bothWays(JSON.stringify(bundle, null, 1));
      expect(streamed, name).toEqual(whole);
      expect((whole as { kind?: string }).kind, name).toBe('fhir');
    }
    // What the bundle of references reads, so that equal cannot mean equally wrong.
    const { streamed } = await bothWays(JSON.stringify(pointingBundle()));
    if (streamed === 'whole' || !('records' in streamed)) throw new Error('not read');
    const { records } = streamed;
    expect(records.skipped).toEqual({ Provenance: 1, Location: 1 });
    // Two practitioners: the roles name the first by its own address, and are read with it.
    expect(records.records.contact.map(({ values }) => values.contact_name)).toEqual([
      'Ada Lovelace',
      'Ada King',
    ]);
    expect(records.records.contact[0]?.values.specialty).toBe('Paediatrics');
    expect(records.records.contact[1]?.values.specialty).toBeNull();
    expect(records.records.medication).toHaveLength(1);
    expect(records.records.vital).toHaveLength(1);
    expect(records.documents).toHaveLength(1);
    expect(records.documents[0]?.source_ids).toEqual([
      'urn:uuid:document',
      'urn:uuid:document-again',
    ]);
    expect(records.documents[0]?.records.map(({ type }) => type)).toEqual(['condition', 'vital']);
    expect(streamed.patient).toMatchObject({ name: 'Mia Jones', birth_date: '2018-04-02' });
  });

  it('hands on the patient, then its records a slice at a time as it reads them, the rest kept to the end', async () => {
    const bundle = manyAllergiesBundle(3_000);
    const handed: { type: FhirRecordType; records: ImportedRecord<object>[] }[] = [];
    const patients: unknown[] = [];
    const streamed = await streamFhirFile(fileOf(JSON.stringify(bundle)), {
      patient: async (patient) => {
        expect(handed).toHaveLength(0);
        patients.push(patient);
      },
      records: async (type, records) => {
        handed.push({ type, records });
      },
    });
    if (streamed === 'whole' || !('records' in streamed)) throw new Error('not read');
    expect(patients).toEqual([streamed.patient]);
    expect(handed.length).toBeGreaterThan(3);
    const whole = importFhirBundle(bundle, { familyMemberId: null });
    if (!whole.ok) throw new Error(whole.message);
    for (const type of FHIR_RECORD_TYPES) {
      const all = [
        ...handed.filter((slice) => slice.type === type).flatMap((slice) => slice.records),
        ...streamed.records.records[type],
      ];
      expect(all, type).toEqual(whole.records[type]);
    }
    expect(streamed.records.imported).toEqual({ visit: 1, allergy: 3_000, contact: 1 });
    expect(streamed.records.summary).toBe(whole.summary);
  });

  it('refuses what a whole read refuses, with the same words; reads what is no plain Bundle whole', async () => {
    const refused = [
      '{"resourceType":"Bundle","type":"collection","entry":[{"resource":{"resourceType":"Condition"}}',
      '{"resourceType":"Bundle","type":"collection","entry":[]} trailing',
      JSON.stringify({ resourceType: 'Bundle', type: 'history', entry: [] }),
      JSON.stringify({ resourceType: 'Bundle', entry: [] }),
      JSON.stringify({
        resourceType: 'Bundle',
        type: 'collection',
        entry: [{ resource: { resourceType: 'MedicationOrder' } }],
      }),
      JSON.stringify({ entry: [], base: 'http://old.example', resourceType: 'Bundle' }),
      JSON.stringify({
        resourceType: 'Bundle',
        type: 'collection',
        entry: [{ resource: { resourceType: 'Coverage', id: 'c9', status: 'active' } }],
      }),
      JSON.stringify({
        resourceType: 'Bundle',
        type: 'collection',
        entry: [
          { resource: { resourceType: 'Patient' } },
          { resource: { resourceType: 'Patient' } },
        ],
      }),
    ];
    for (const text of refused) {
      const { streamed, whole } = await bothWays(text);
      expect(streamed, text).toEqual(whole);
      expect(streamed, text).toMatchObject({ ok: false });
    }
    // A single resource, a list, entries that are no list, two entry lists: read whole.
    for (const text of [
      JSON.stringify({ resourceType: 'Condition', code: { text: 'Asthma' } }),
      '[{"resourceType":"Bundle"}]',
      '{"resourceType":"Bundle","type":"collection","entry":{}}',
      '{"resourceType":"Bundle","type":"collection","entry":[],"entry":[]}',
    ]) {
      expect(await streamFhirFile(fileOf(text)), text).toBe('whole');
    }
  });
});
