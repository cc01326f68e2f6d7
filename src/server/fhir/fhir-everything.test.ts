/** $everything: a valid searchset Bundle of every record, streamed with flat memory. */
import { describe, expect, it } from 'vitest';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { streamPatientEverything, patientEverythingBody } from './fhir-everything';
import { vitalResources } from './mappings/vitals';
import { FHIR_CONTENT_TYPE, fhirContentType, type FhirRows, type FhirSource } from './fhir-source';
import {
  CLOCK,
  emptySource,
  fullMemberSource,
  fullRecords,
  fullSource,
  fullPerson,
} from './testing/fhir-test-data';
import { danglingReferences, fhirProblems } from './testing/fhir-validator';
import { longestStall } from '../test/event-loop-stall';

async function everything(source: FhirSource): Promise<Bundle> {
  let text = '';
  for await (const chunk of streamPatientEverything(source, CLOCK)) text += chunk;
  return JSON.parse(text) as Bundle;
}

const types = (bundle: Bundle) => bundle.entry?.map((entry) => entry.resource?.resourceType);

describe('$everything', () => {
  it('is served as application/fhir+json', () => {
    expect(FHIR_CONTENT_TYPE).toBe('application/fhir+json');
    expect(fhirContentType()).toBe('application/fhir+json; charset=utf-8');
  });

  it.each([
    ['a member with every field', fullMemberSource],
    ['the account holder with every field and family history', fullSource],
    ['a person with nothing', emptySource],
  ])('%s: the bundle and each of its resources are valid R4', async (_, source) => {
    const bundle = await everything(source());
    expect(bundle).toMatchObject({
      resourceType: 'Bundle',
      type: 'searchset',
      timestamp: CLOCK.now,
    });
    expect(fhirProblems(bundle)).toEqual([]);
    for (const entry of bundle.entry ?? []) {
      expect(fhirProblems(entry.resource as Resource), entry.fullUrl).toEqual([]);
    }
    expect(danglingReferences(bundle)).toEqual([]);
    expect(new Set(bundle.entry?.map((entry) => entry.fullUrl)).size).toBe(bundle.entry?.length);
  });

  it('holds the patient first, then every record, its derived resources and the care team', async () => {
    const records = fullRecords();
    const bundle = await everything(fullMemberSource());
    const people = records.contact.filter((c) =>
      ['Doctor', 'Nurse', 'Specialist'].includes(c.contact_type),
    );
    const expected =
      1 +
      Object.values(records).reduce((sum, rows) => sum + rows.length, 0) +
      records.insurance.length + // payor organisations
      people.length + // practitioner roles
      // a vitals entry is an Observation per measure (blood pressure one, BMI one more)
      records.vital.reduce(
        (sum, row) => sum + vitalResources(row, { ...CLOCK, patient: {} }).length - 1,
        0,
      ) +
      1; // care team
    expect(bundle.entry).toHaveLength(expected);
    expect(bundle.entry?.[0]).toMatchObject({
      resource: { resourceType: 'Patient', id: fullPerson.id },
      search: { mode: 'match' },
    });
    expect(bundle.entry?.slice(1).every((entry) => entry.search?.mode === 'include')).toBe(true);
    expect(types(bundle)?.at(-1)).toBe('CareTeam');
    const team = bundle.entry?.at(-1)?.resource as { participant: unknown[] };
    expect(team.participant).toHaveLength(records.contact.length);
  });

  it('a person with nothing is the patient alone', async () => {
    expect(types(await everything(emptySource()))).toEqual(['Patient']);
  });

  it('is the same text on every export at the same clock', async () => {
    const source = fullSource();
    const text = async () => JSON.stringify(await everything(source));
    expect(await text()).toBe(await text());
  });

  it('is also a byte stream for a Response body', async () => {
    const body = await new Response(patientEverythingBody(emptySource(), CLOCK)).json();
    expect(body).toMatchObject({
      resourceType: 'Bundle',
      entry: [{ resource: { resourceType: 'Patient' } }],
    });
  });
});

describe('$everything of 20,000 records', () => {
  const COUNT = 20_000;
  // A medication as people keep them: every field filled with a line of text.
  const template = fullRecords().medication[1]!;

  /** Rows made on demand, counting how many have been read. */
  function lazySource() {
    const counter = { read: 0 };
    async function* medications(): AsyncGenerator<FhirRows['medication']> {
      for (let index = 0; index < COUNT; index += 1) {
        counter.read += 1;
        yield { ...template, id: `0190a1b2-0000-7000-8000-${String(index).padStart(12, '0')}` };
      }
    }
    const source: FhirSource = { person: fullPerson, rows: { medication: medications } };
    return { source, counter };
  }

  it('streams, reading rows only as it writes them', async () => {
    const { source, counter } = lazySource();
    const readWhenChunked: number[] = [];
    let biggestChunk = 0;
    let text = '';
    for await (const chunk of streamPatientEverything(source, CLOCK)) {
      readWhenChunked.push(counter.read);
      biggestChunk = Math.max(biggestChunk, chunk.length);
      text += chunk;
    }

    const bundle = JSON.parse(text) as Bundle;
    expect(bundle.entry).toHaveLength(COUNT + 1);
    expect(new Set(bundle.entry?.map((entry) => entry.resource?.id)).size).toBe(COUNT + 1);
    // How fast is the benchmark's to say (npm run bench, fhir-everything-all), not a timed
    // test's. Incremental: the first chunk left before most rows were read, no chunk is big.
    expect(readWhenChunked.length).toBeGreaterThan(100);
    expect(readWhenChunked[0]).toBeLessThan(COUNT / 100);
    expect(biggestChunk).toBeLessThan(128 * 1024);
  });

  it('lets the server answer others between its chunks', async () => {
    const { source } = lazySource();
    const { result, gaps, elapsedMs } = await longestStall(() =>
      new Response(patientEverythingBody(source, CLOCK)).arrayBuffer(),
    );
    expect(result.byteLength).toBeGreaterThan(10 * 1024 * 1024);
    // Read in one go, the bundle would hold the thread for all of it: a timer could not run
    // in between. Chunked, it runs all along; a pause or two of the machine's own (another
    // process on the same core, a collection) does not count against the server.
    expect(elapsedMs).toBeGreaterThan(150);
    expect(gaps.length).toBeGreaterThan(10);
    const ninetieth = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length * 0.9)]!;
    expect(ninetieth).toBeLessThan(elapsedMs / 5);
  });

  it('stops reading when the reader stops', async () => {
    const { source, counter } = lazySource();
    for await (const chunk of streamPatientEverything(source, CLOCK)) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    expect(counter.read).toBeLessThan(COUNT / 100);
  });
});
