/** One record type at a time: what each field becomes, and that every resource is valid R4. */
import { describe, expect, it } from 'vitest';
import type {
  AllergyIntolerance,
  Appointment,
  Condition,
  Coverage,
  DocumentReference,
  Encounter,
  FamilyMemberHistory,
  Immunization,
  ImmunizationRecommendation,
  MedicationStatement,
  Resource,
} from '@medplum/fhirtypes';
import { derivedId, fullUrlOf, referenceTo } from '../fhir-elements';
import { careTeamResource, contactResources } from './contacts';
import { recordResources } from './index';
import type { MappingContext } from './mapping';
import { patientResource } from './patient';
import { FHIR_RECORD_TYPES, type FhirRows } from '../fhir-source';
import {
  CLOCK,
  accountHolder,
  emptyPerson,
  fullPerson,
  fullRecords,
  TRICKY,
} from '../testing/fhir-test-data';
import { fhirProblems } from '../testing/fhir-validator';

const context: MappingContext = { ...CLOCK, patient: referenceTo(fullPerson.id) };
const records = { member: fullRecords(), holder: fullRecords(null) };

function resourcesOf<K extends keyof FhirRows>(type: K, rows: FhirRows[K][]): Resource[] {
  const map = recordResources[type] as (row: FhirRows[K], c: MappingContext) => Resource[];
  return rows.flatMap((row) => map(row, context));
}

const one = <T extends Resource>(type: keyof FhirRows, row: FhirRows[keyof FhirRows]) =>
  resourcesOf(type, [row])[0] as T;

describe('every resource is valid R4', () => {
  it.each(FHIR_RECORD_TYPES)(
    '%s, every field and enum value, for a member and the holder',
    (type) => {
      for (const set of [records.member, records.holder]) {
        for (const resource of resourcesOf(type, set[type])) {
          expect(fhirProblems(resource), `${resource.resourceType}/${resource.id}`).toEqual([]);
        }
      }
    },
  );

  it('the patient, with and without birth date and email', () => {
    for (const person of [fullPerson, accountHolder, emptyPerson]) {
      expect(fhirProblems(patientResource(person))).toEqual([]);
    }
  });

  it('the care team', () => {
    const team = careTeamResource('p', [{ id: fullPerson.id, contactType: 'Doctor' }], context);
    expect(team && fhirProblems(team)).toEqual([]);
  });
});

describe('the validator used here', () => {
  it('catches what medplum alone lets through: bad codes, empty values, bad narrative', () => {
    const problems = fhirProblems({
      resourceType: 'Encounter',
      status: 'walking' as 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor', code: 'NOPE' },
      reasonCode: [{ text: '' }],
      text: {
        status: 'generated',
        div: '<div xmlns="http://www.w3.org/1999/xhtml"><script/></div>',
      },
    });
    expect(problems.join('\n')).toMatch(/walking/);
    expect(problems.join('\n')).toMatch(/empty string/);
    expect(problems.join('\n')).toMatch(/<script>/);
    expect(fhirProblems({ resourceType: 'Encounter', status: 'finished' } as Resource)).toEqual([
      'Encounter.class: error Missing required property',
    ]);
  });
});

describe('ids and references', () => {
  it('a resource keeps its record id; derived ids are the same on every export', () => {
    const [policy] = records.member.insurance;
    const [coverage, payor] = resourcesOf('insurance', [policy!]);
    expect(coverage?.id).toBe(policy?.id);
    expect(payor?.id).toBe(derivedId(policy!.id, 'payor'));
    expect(resourcesOf('insurance', [policy!])[1]?.id).toBe(payor?.id);
    expect((coverage as Coverage).payor).toEqual([{ reference: `urn:uuid:${payor?.id}` }]);
  });

  it('an id that is not a UUID still gets a urn:uuid address, the same each time', () => {
    expect(fullUrlOf(accountHolder.id)).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(fullUrlOf(accountHolder.id)).toBe(fullUrlOf(accountHolder.id));
    expect(patientResource(accountHolder).id).toBe(accountHolder.id);
  });
});

describe('visits', () => {
  const [past, future, atNow] = records.member.visit;

  it('a past visit is a finished Encounter with every field', () => {
    const encounter = one<Encounter>('visit', past!);
    expect(encounter).toMatchObject({
      resourceType: 'Encounter',
      status: 'finished',
      period: { start: '2026-03-04T09:30:00.000Z' },
      reasonCode: [{ text: past!.visit_name }],
      participant: [{ individual: { type: 'Practitioner', display: `Dr. ${TRICKY}` } }],
      location: [{ location: { type: 'Location', display: 'Clinique Saint-Éloi' } }],
    });
    expect(encounter.class.code).toBe('UNK');
    expect(encounter.extension?.map((e) => e.valueString)).toEqual(['Every 6 months', past!.notes]);
  });

  it('a visit from now on is a booked Appointment whose end is unknown', () => {
    for (const visit of [future!, atNow!]) {
      const appointment = one<Appointment & { _end?: unknown }>('visit', visit);
      expect(appointment.resourceType).toBe('Appointment');
      expect(appointment).toMatchObject({ status: 'booked', start: visit.visit_date });
      expect(appointment._end).toBeDefined();
    }
    expect(one<Appointment>('visit', future!).participant).toHaveLength(3);
    expect(one<Appointment>('visit', atNow!).participant).toEqual([
      { actor: context.patient, status: 'accepted' },
    ]);
  });
});

describe('medications', () => {
  const [daily, twice, weekly, asNeeded, futureStart, bare] = records.member.medication.map((row) =>
    one<MedicationStatement>('medication', row),
  );

  it('status follows the end date against today, and a future start is intended', () => {
    expect([daily, twice, weekly, futureStart, bare].map((m) => m?.status)).toEqual([
      'completed',
      'active',
      'active',
      'intended',
      'active',
    ]);
  });

  it('frequency and times of day become the timing; as needed is asNeededBoolean', () => {
    expect(daily?.dosage?.[0]).toMatchObject({
      text: '500 mg',
      timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd', when: ['MORN', 'EVE'] } },
    });
    expect(twice?.dosage?.[0]?.timing?.repeat).toEqual({
      frequency: 2,
      period: 1,
      periodUnit: 'd',
      when: ['NOON', 'EVE'],
    });
    expect(weekly?.dosage?.[0]?.timing?.repeat).toMatchObject({ periodUnit: 'wk', when: ['MORN'] });
    // As Needed is taken at no time of day (the medication form refuses one).
    expect(asNeeded?.dosage?.[0]).toMatchObject({ asNeededBoolean: true });
    expect(asNeeded?.dosage?.[0]?.timing?.repeat?.when).toBeUndefined();
    expect(bare?.dosage).toBeUndefined();
  });

  it('condition, prescriber, period and notes', () => {
    expect(daily).toMatchObject({
      reasonCode: [{ text: 'Hypertension' }],
      effectivePeriod: { start: '2025-01-10', end: '2026-01-31' },
      basedOn: [{ reference: '#prescription' }],
      contained: [{ resourceType: 'MedicationRequest', requester: { display: 'Dr. Okafor' } }],
    });
    expect(bare?.contained).toBeUndefined();
  });

  it('the supply: what a dose takes, what is on hand, and the dispense request', () => {
    expect(daily?.dosage?.[0]?.doseAndRate).toEqual([{ doseQuantity: { value: 1.5 } }]);
    expect(daily?.extension).toEqual([
      { url: 'urn:kin-health:fhir:medication-quantity-on-hand', valueString: '42.5' },
    ]);
    expect(daily?.contained?.[0]).toMatchObject({
      dispenseRequest: { numberOfRepeatsAllowed: 3, validityPeriod: { end: '2026-12-31' } },
    });
    // Run down to nothing, with no refill left: said, not dropped.
    expect(twice?.extension?.[0]?.valueString).toBe('0');
    expect(twice?.contained?.[0]).toMatchObject({ dispenseRequest: { numberOfRepeatsAllowed: 0 } });
    // No supply kept: a dose takes nothing worth saying.
    expect(weekly?.dosage?.[0]?.doseAndRate).toBeUndefined();
    expect(weekly?.extension).toBeUndefined();
  });
});

describe('shots', () => {
  const [given, due, undated] = records.member.shot;

  it('given today or before: a completed Immunization; after today: a due recommendation', () => {
    expect(one<Immunization>('shot', given!)).toMatchObject({
      resourceType: 'Immunization',
      status: 'completed',
      occurrenceDateTime: '2025-10-01',
      location: { display: TRICKY },
    });
    expect(one<Immunization>('shot', { ...due!, date_administered: CLOCK.today })).toMatchObject({
      resourceType: 'Immunization',
      status: 'completed',
      occurrenceDateTime: CLOCK.today,
    });
    expect(one<ImmunizationRecommendation>('shot', due!)).toMatchObject({
      resourceType: 'ImmunizationRecommendation',
      recommendation: [
        {
          vaccineCode: [{ text: 'Tetanus booster' }],
          forecastStatus: { coding: [{ code: 'due' }] },
          dateCriterion: [{ value: '2026-06-16' }],
          description: 'Due',
        },
      ],
    });
  });

  it('undated: given at an unknown time', () => {
    const immunization = one<Immunization & { _occurrenceDateTime?: unknown }>('shot', undated!);
    expect(immunization.occurrenceDateTime).toBeUndefined();
    expect(immunization._occurrenceDateTime).toEqual({
      extension: [
        { url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' },
      ],
    });
  });
});

describe('conditions', () => {
  it('statuses map to clinical status, keeping our word as text', () => {
    const statuses = records.member.condition.map((row) => {
      const condition = one<Condition>('condition', row);
      return [condition.clinicalStatus?.coding?.[0]?.code, condition.clinicalStatus?.text];
    });
    expect(statuses).toEqual([
      ['active', 'Active'],
      ['resolved', 'Resolved'],
      ['active', 'Chronic'],
      ['active', 'Under Treatment'],
      [undefined, undefined],
    ]);
  });

  it('family history is a FamilyMemberHistory with the relation', () => {
    const row = records.holder.condition.find((c) => c.is_family_history)!;
    expect(one<FamilyMemberHistory>('condition', row)).toMatchObject({
      resourceType: 'FamilyMemberHistory',
      status: 'partial',
      relationship: { text: `Grand-mère ${TRICKY}` },
      condition: [{ code: { text: 'Family Active' }, onsetPeriod: { start: '1990-01-01' } }],
    });
  });
});

describe('allergies, insurance, notes, contacts', () => {
  it('allergy severity, category and status; a severity alone has an unknown manifestation', () => {
    const [first] = records.member.allergy;
    expect(one<AllergyIntolerance>('allergy', first!)).toMatchObject({
      clinicalStatus: { coding: [{ code: 'active' }] },
      category: ['food'],
      reaction: [{ manifestation: [{ text: 'Hives' }], severity: 'mild' }],
      recordedDate: '2020-05-05',
    });
    const dust = records.member.allergy.find((a) => a.substance === 'Dust')!;
    const mapped = one<AllergyIntolerance>('allergy', dust);
    expect(mapped.category).toBeUndefined();
    expect(mapped.reaction?.[0]?.manifestation[0]?.extension).toBeDefined();
  });

  it('insurance: type, policy, group, period and status', () => {
    const [medical, dental] = records.member.insurance.map((row) =>
      one<Coverage>('insurance', row),
    );
    expect(medical).toMatchObject({
      status: 'active',
      type: { coding: [{ code: 'HIP' }], text: 'Medical' },
      identifier: [{ value: 'P-0' }],
      class: [{ value: 'G-0' }],
      period: { start: '2026-01-01', end: '2026-12-31' },
    });
    expect(dental?.status).toBe('cancelled');
  });

  it('a note is a DocumentReference holding its content as text/plain', () => {
    const [letter] = records.member.note;
    const document = one<DocumentReference>('note', letter!);
    const attachment = document.content[0]?.attachment;
    expect(Buffer.from(attachment?.data ?? '', 'base64').toString('utf8')).toBe(letter?.content);
    expect(document).toMatchObject({
      type: { text: 'Provider Letter' },
      description: letter?.title,
    });
  });

  it('people are Practitioners with a role; the rest Organizations', () => {
    const kinds = records.member.contact.map((row) =>
      contactResources(row).map((r) => r.resourceType),
    );
    expect(kinds).toEqual([
      ['Practitioner', 'PractitionerRole'],
      ['Practitioner', 'PractitionerRole'],
      ['Organization'],
      ['Organization'],
      ['Practitioner', 'PractitionerRole'],
      ['Organization'],
      ['Practitioner', 'PractitionerRole'],
    ]);
  });
});
