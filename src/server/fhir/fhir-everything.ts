/**
 * Patient/$everything: one person and every record of theirs as a FHIR R4 searchset
 * Bundle, written as a stream of JSON text. Rows are read one type at a time, each turned
 * into its resources and written out at once, so memory stays flat however long the
 * history: only the ids of the person's contacts are kept, for the care team at the end.
 */
import type { BundleEntry, Resource } from '@medplum/fhirtypes';
import { derivedId, fullUrlOf, referenceTo } from './fhir-elements';
import { documentReferenceResource } from './fhir-documents';
import { careTeamResource, type CareTeamMember } from './mappings/contacts';
import { recordResources } from './mappings';
import type { MappingContext } from './mappings/mapping';
import { doseResource } from './mappings/medications';
import { patientResource } from './mappings/patient';
import { overdueDoseResource, type OverdueDose } from './mappings/shots';
import { FHIR_RECORD_TYPES, readRows } from './fhir-source';
import type { FhirClock, FhirRecordType, FhirRows, FhirSource } from './fhir-source';
import { streamedText } from '../http/streamed-text';

/** Where a document's data goes in its entry's JSON, until it is written. */
const DATA_MARK = '\u0000document-data\u0000';

/** Text is handed on in pieces of about this size: few writes, and never the whole bundle. */
const CHUNK_SIZE = 64 * 1024;

function entryJson(resource: Resource, mode: 'match' | 'include'): string {
  const entry: BundleEntry = { fullUrl: fullUrlOf(resource.id ?? ''), resource, search: { mode } };
  return JSON.stringify(entry);
}

/** A file's bytes as base64 text, a piece at a time as they are read. */
async function* base64Of(file: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  let rest: Uint8Array = new Uint8Array(0);
  for await (const chunk of file) {
    const bytes = rest.length ? Buffer.concat([rest, chunk]) : Buffer.from(chunk);
    const whole = bytes.length - (bytes.length % 3);
    if (whole) yield bytes.subarray(0, whole).toString('base64');
    rest = bytes.subarray(whole);
  }
  if (rest.length) yield Buffer.from(rest).toString('base64');
}

/**
 * The Bundle's JSON, in chunks. It is a searchset because that is what the R4 operation
 * returns: the Patient is the match and every record an include. It carries no `total`
 * (the number of records is not known before they are read) and its entries are addressed
 * by `urn:uuid:`, since resources are not served one by one at URLs of their own.
 */
export async function* streamPatientEverything(
  source: FhirSource,
  clock: FhirClock,
  overdue: readonly OverdueDose[] = [],
): AsyncGenerator<string> {
  const { person } = source;
  const context: MappingContext = { ...clock, patient: referenceTo(person.id) };
  const header = {
    resourceType: 'Bundle',
    id: derivedId(person.id, 'everything', clock.now),
    type: 'searchset',
    timestamp: clock.now,
  };
  let buffer = `${JSON.stringify(header).slice(0, -1)},"entry":[${entryJson(patientResource(person), 'match')}`;
  const careTeam: CareTeamMember[] = [];
  /**
   * The records whose resources have ids of their own (a vitals entry's Observations), by
   * the record's id: the first of them, for a document that belongs to the record.
   */
  const resourceOfRecord = new Map<string, string>();
  /** The person's medications by id, for their doses: a name each, a short list. */
  const medications = new Map<string, string>();

  for (const type of FHIR_RECORD_TYPES) {
    const toResources = recordResources[type] as (
      row: FhirRows[FhirRecordType],
      context: MappingContext,
    ) => Resource[];
    for await (const row of readRows(source, type)) {
      const resources = toResources(row, context);
      for (const resource of resources) buffer += `,${entryJson(resource, 'include')}`;
      const first = resources[0]?.id;
      if (first && first !== row.id) resourceOfRecord.set(row.id, first);
      if (type === 'medication') {
        const medication = row as FhirRows['medication'];
        medications.set(medication.id, medication.medication_name);
      }
      if (type === 'contact') {
        const contact = row as FhirRows['contact'];
        careTeam.push({ id: contact.id, contactType: contact.contact_type });
      }
      if (buffer.length >= CHUNK_SIZE) {
        yield buffer;
        buffer = '';
      }
    }
  }
  for await (const dose of source.doses?.() ?? []) {
    const name = medications.get(dose.medication_id);
    if (name === undefined) continue;
    buffer += `,${entryJson(doseResource(dose, name, context), 'include')}`;
    if (buffer.length >= CHUNK_SIZE) {
      yield buffer;
      buffer = '';
    }
  }
  for await (const document of source.documents?.() ?? []) {
    // Each file goes in as its attachment's data, base64, written as it is read: never a
    // whole file in memory, however large.
    const parts = entryJson(
      documentReferenceResource(
        document,
        { data: DATA_MARK, ...(document.display ? { displayData: DATA_MARK } : {}) },
        context,
        document.record_ids.map((id) => resourceOfRecord.get(id) ?? id),
      ),
      'include',
    ).split(JSON.stringify(DATA_MARK));
    const files = [document.file, ...(document.display ? [document.display.file] : [])];
    yield `${buffer},${parts[0]}"`;
    for (const [index, file] of files.entries()) {
      if (index > 0) yield `"${parts[index]}"`;
      yield* base64Of(file());
    }
    buffer = `"${parts[files.length]}`;
  }
  for (const dose of overdue) {
    buffer += `,${entryJson(overdueDoseResource(person.id, dose, context), 'include')}`;
  }
  const team = careTeamResource(person.id, careTeam, context);
  if (team) buffer += `,${entryJson(team, 'include')}`;
  yield `${buffer}]}`;
}

/** The same stream as bytes, for a web Response body (http/streamed-text.ts). */
export function patientEverythingBody(
  source: FhirSource,
  clock: FhirClock,
  overdue: readonly OverdueDose[] = [],
): ReadableStream<Uint8Array> {
  return streamedText(streamPatientEverything(source, clock, overdue));
}
