/**
 * The clinical records an iPhone pulled from patients' portals (`clinical-records/*.json`,
 * one FHIR resource a file) read by the FHIR import: gathered into one collection Bundle
 * and read with importFhirBundle, so they become records exactly as a portal's own FHIR file
 * would. Apple keeps each resource in the FHIR version the portal spoke; the import reads R4
 * only, so a resource of another version (DSTU2, from older portals) is counted as skipped,
 * with that reason, rather than read by R4's rules into wrong values (decision 0055). The
 * patient each portal wrote is left out: the export's person is Apple's `Me`, and a Bundle
 * holding several portals' Patients names one person several times.
 */
import { importFhirBundle, type FhirImportResult } from '../../fhir/fhir-import';
import { nonR4Evidence } from '../../fhir/fhir-version';
import type { ReadRecords } from '../file-readers';
import type { ClinicalRecordFile } from './export-zip';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const NOT_FHIR_JSON = 'Clinical records that are not a FHIR resource in JSON';

/** The clinical records' records, or the reason the FHIR import refused them all. */
export function readClinicalRecords(files: readonly ClinicalRecordFile[]): ReadRecords {
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  const entry: { resource: Json }[] = [];
  for (const { text } of files) {
    let resource: unknown;
    try {
      resource = JSON.parse(text);
    } catch {
      skip(NOT_FHIR_JSON);
      continue;
    }
    if (!isObject(resource) || typeof resource.resourceType !== 'string') {
      skip(NOT_FHIR_JSON);
      continue;
    }
    if (resource.resourceType === 'Patient') continue;
    const foreign = nonR4Evidence({}, [{ resource }]);
    if (foreign) {
      skip(
        `${resource.resourceType} (a FHIR ${foreign.version} clinical record: Kin Health reads FHIR R4)`,
      );
      continue;
    }
    entry.push({ resource });
  }
  const result: FhirImportResult = importFhirBundle(
    { resourceType: 'Bundle', type: 'collection', entry },
    { familyMemberId: null },
  );
  if (!result.ok) {
    // The import's reason, said once for every clinical record it would not read.
    for (let index = 0; index < entry.length; index += 1)
      skip(`Clinical records: ${result.message}`);
    const empty = importFhirBundle(
      { resourceType: 'Bundle', type: 'collection', entry: [] },
      { familyMemberId: null },
    ) as ReadRecords;
    return { ...empty, skipped };
  }
  for (const [reason, count] of Object.entries(result.skipped))
    skipped[reason] = (skipped[reason] ?? 0) + count;
  return { ...result, skipped };
}
