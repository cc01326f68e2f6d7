/**
 * The clinical records an iPhone pulled from patients' portals (`clinical-records/*.json`,
 * one FHIR resource a file) read by the FHIR import: gathered into one collection Bundle
 * and read with importFhirBundle, so they become records exactly as a portal's own FHIR file
 * would. Apple keeps each resource in the FHIR version the portal spoke, and says which in
 * export.xml (`ClinicalRecord fhirVersion="1.0.2"`); the import reads R4 only, so a resource
 * of another version (DSTU2, from older portals) is counted as skipped, with that reason,
 * rather than read by R4's rules into wrong values (decision 0055). Where export.xml does not
 * say, the resource's own shapes tell (fhir-version.ts, and DSTU2 shapes R4's readers would
 * trip on). The patient each portal wrote is left out: the export's person is Apple's `Me`,
 * and a Bundle holding several portals' Patients names one person several times.
 */
import { importFhirBundle } from '../../fhir/fhir-import';
import { nonR4Evidence, type FhirVersion } from '../../fhir/fhir-version';
import type { ReadRecords } from '../file-readers';
import type { ClinicalRecordFile } from './export-zip';
import { key, tr } from '../../../shared/i18n/translate';
import { translateMessage } from '../../i18n/server-language';
import { isObject } from '../../fhir/fhir-elements';

type Json = Record<string, unknown>;

export const NOT_FHIR_JSON = key('Clinical records that are not a FHIR resource in JSON');

/** The version Apple names (`1.0.2`), as FHIR calls it; null for R4 or none said. */
function versionNamed(fhirVersion: string | undefined): FhirVersion | string | null {
  if (!fhirVersion || /^4\./.test(fhirVersion)) return null;
  if (/^1\.0\./.test(fhirVersion)) return 'DSTU2';
  if (/^3\.0\./.test(fhirVersion)) return 'STU3';
  if (/^5\./.test(fhirVersion)) return 'R5';
  return tr('version {number}', { number: fhirVersion });
}

/** DSTU2 shapes fhir-version.ts does not look for, which R4's readers cannot take. */
function dstu2Shape(resource: Json): boolean {
  switch (resource.resourceType) {
    case 'AllergyIntolerance':
      return 'substance' in resource || typeof resource.category === 'string';
    case 'Observation':
      return (
        (resource.category !== undefined && !Array.isArray(resource.category)) ||
        (resource.interpretation !== undefined && !Array.isArray(resource.interpretation))
      );
    case 'MedicationStatement':
      return 'patient' in resource || 'wasNotTaken' in resource;
    default:
      return false;
  }
}

const emptyRecords = () =>
  importFhirBundle(
    { resourceType: 'Bundle', type: 'collection', entry: [] },
    { familyMemberId: null },
  ) as ReadRecords;

/** The clinical records' records. `versions`: the FHIR version export.xml names per file. */
export function readClinicalRecords(
  files: readonly ClinicalRecordFile[],
  versions: ReadonlyMap<string, string> = new Map(),
): ReadRecords {
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  const entry: { resource: Json }[] = [];
  for (const { name, text } of files) {
    let resource: unknown;
    try {
      resource = JSON.parse(text);
    } catch {
      skip(tr(NOT_FHIR_JSON));
      continue;
    }
    if (!isObject(resource) || typeof resource.resourceType !== 'string') {
      skip(tr(NOT_FHIR_JSON));
      continue;
    }
    if (resource.resourceType === 'Patient') continue;
    const version =
      versionNamed(versions.get(name.split('/').pop() ?? '')) ??
      nonR4Evidence({}, [{ resource }])?.version ??
      (dstu2Shape(resource) ? 'DSTU2' : null);
    if (version) {
      skip(
        tr('{type} (a FHIR {version} clinical record: Kin Health reads FHIR R4)', {
          type: resource.resourceType,
          version,
        }),
      );
      continue;
    }
    entry.push({ resource });
  }
  // A resource of a shape no version check caught is skipped by the import itself.
  const result = importFhirBundle(
    { resourceType: 'Bundle', type: 'collection', entry },
    { familyMemberId: null },
  );
  if (!result.ok) {
    // The import's reason, said once for every clinical record it would not read.
    for (let index = 0; index < entry.length; index += 1) {
      skip(tr('Clinical records: {reason}', { reason: translateMessage(result.message) }));
    }
    return { ...emptyRecords(), skipped };
  }
  for (const [reason, count] of Object.entries(result.skipped)) {
    skipped[reason] = (skipped[reason] ?? 0) + count;
  }
  return { ...result, skipped };
}
