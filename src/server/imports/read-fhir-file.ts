/**
 * The FHIR reader (file-readers.ts): a Bundle, or a single resource taken as a collection of
 * one, read by the FHIR import (fhir-import.ts), with the patient the file names (its
 * Patient's name, birth date, sex and id: this server's own $everything export gives the
 * person's id, which then matches them).
 */
import { readFile } from 'node:fs/promises';
import type { HumanName, Patient } from '@medplum/fhirtypes';
import { toSex } from '../../shared/family-members';
import { importFhirBundle, NOT_JSON } from '../fhir/fhir-import';
import type { FilePatient, FileReader } from './file-readers';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

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
  if (!entry) return null;
  const patient = entry.resource;
  const birthDate = /^\d{4}-\d{2}-\d{2}$/.test(patient.birthDate ?? '') ? patient.birthDate! : null;
  return {
    name: nameOf(patient.name),
    birth_date: birthDate,
    sex: toSex(patient.gender),
    ids: typeof patient.id === 'string' ? [patient.id] : [],
  };
}

export const readFhirFile: FileReader = async (file) => {
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
