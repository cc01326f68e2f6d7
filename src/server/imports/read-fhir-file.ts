/**
 * The FHIR reader (file-readers.ts): a Bundle, or a single resource taken as a collection of
 * one, read by the FHIR import (fhir-import.ts), with the patient the file names (its
 * Patient's name, birth date, sex and id: this server's own $everything export gives the
 * person's id, which then matches them). A Bundle of a megabyte or more is streamed from
 * the file, each of the import's three passes in turn (bundle-entries.ts), and its records
 * handed on a slice at a time as they are read (decision 0075); a smaller file, or one that
 * is not a plain Bundle object, is parsed whole.
 */
import { readFile } from 'node:fs/promises';
import type { HumanName, Patient } from '@medplum/fhirtypes';
import { toSex } from '../../shared/family-members';
import {
  BundleImport,
  importFhirBundle,
  NOT_JSON,
  type ImportedRecords,
  type RecordSink,
} from '../fhir/fhir-import';
import { FHIR_RECORD_TYPES } from '../fhir/fhir-source';
import { eachEntry } from './bundle-entries';
import type { FilePatient, FileReader, ReadFileResult, RecordHand } from './file-readers';
import { isObject } from '../fhir/fhir-elements';

/** From this size a Bundle is streamed rather than parsed whole (a megabyte parsed is ~10 MB held). */
export const STREAM_FROM_BYTES = 1024 * 1024;

/** Records read are handed on once there are this many. */
const HAND_ON = 500;

/** A resource that is not a Bundle, as a collection Bundle holding it. */
export function asBundle(json: unknown): unknown {
  if (!isObject(json) || json.resourceType === 'Bundle' || typeof json.resourceType !== 'string') {
    return json;
  }
  return { resourceType: 'Bundle', type: 'collection', entry: [{ resource: json }] };
}

/** A name as people write it, given names first: the official one, else the first. */
function nameOf(names: readonly HumanName[] | undefined): string | null {
  const name = names?.find((candidate) => candidate.use === 'official') ?? names?.[0];
  if (!name) return null;
  const written = [...(name.given ?? []), name.family ?? ''].join(' ').trim();
  return written || name.text?.trim() || null;
}

/** The patient a bundle names (the first Patient: a bundle of several is refused on reading). */
export function patientOf(bundle: unknown): FilePatient | null {
  if (!isObject(bundle) || !Array.isArray(bundle.entry)) return null;
  const entry = (bundle.entry as unknown[]).find(
    (item) => isObject(item) && isObject(item.resource) && item.resource.resourceType === 'Patient',
  ) as { resource: Patient } | undefined;
  return filePatientOf(entry?.resource);
}

/** A Patient as the person it proposes. */
function filePatientOf(patient: Patient | undefined): FilePatient | null {
  if (!patient) return null;
  const birthDate = /^\d{4}-\d{2}-\d{2}$/.test(patient.birthDate ?? '') ? patient.birthDate! : null;
  return {
    name: nameOf(patient.name),
    birth_date: birthDate,
    sex: toSex(patient.gender),
    ids: typeof patient.id === 'string' ? [patient.id] : [],
  };
}

/** Each type's records read, handed on. */
async function handOn(records: ImportedRecords, hand: RecordSink) {
  for (const type of FHIR_RECORD_TYPES) {
    if (records[type].length > 0) await hand(type, records[type]);
  }
}

/**
 * A Bundle streamed from its file, three times: surveyed (refused here, with the words a
 * whole read gives), the resources its references point to kept, and read as records, handed
 * on as they are read when `hand` is given (after the patient, known from the first pass).
 * `whole` when the file is not a Bundle object.
 */
export async function streamFhirFile(
  path: string,
  hand?: RecordHand,
): Promise<ReadFileResult | 'whole'> {
  const reading = new BundleImport({ familyMemberId: null });
  let top: Awaited<ReturnType<typeof eachEntry>>;
  try {
    top = await eachEntry(path, (entry, position) => reading.survey(entry, position));
  } catch {
    return { ok: false, message: NOT_JSON };
  }
  if (top.kind !== 'object' || top.elements.resourceType !== 'Bundle') return 'whole';
  const refusal = reading.refusal(top.elements);
  if (refusal) return { ok: false, message: refusal };
  if (reading.pointsWithin)
    await eachEntry(path, (entry, position) => reading.keep(entry, position));
  const patient = filePatientOf(reading.patient);
  await hand?.patient(patient);
  await eachEntry(
    path,
    (entry, position) => reading.read(entry, position),
    async () => {
      if (hand && reading.pending >= HAND_ON) await handOn(reading.take(), hand.records);
    },
  );
  const records = reading.finish();
  return { kind: 'fhir', patient, records, problems: [] };
}

export const readFhirFile: FileReader = async (file, _options, hand) => {
  if (file.size >= STREAM_FROM_BYTES) {
    const streamed = await streamFhirFile(file.path, hand);
    if (streamed !== 'whole') return streamed;
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file.path, 'utf8'));
  } catch {
    return { ok: false, message: NOT_JSON };
  }
  const bundle = asBundle(json);
  // The person is chosen afterwards; the records take theirs as they are written.
  const records = importFhirBundle(bundle, { familyMemberId: null });
  if (!records.ok) return records;
  return { kind: 'fhir', patient: patientOf(bundle), records, problems: [] };
};
