/**
 * What every record type's mapping works with: out, the context of a record turned into
 * resources (the present and the patient); in, what a mapping may ask of the bundle it
 * reads, and what it answers (the records a resource holds, or to skip or ignore it). The
 * reading here needs the bundle (names of what a reference points to, IPS 'no known …'
 * statements); the shapes that do not are in fhir-elements.ts.
 */
import type { CodeableConcept, Element, Patient, Reference, Resource } from '@medplum/fhirtypes';
import { SYSTEM, nameOf } from '../fhir-elements';
import type { FhirClock, FhirRecordType, FhirValues } from '../fhir-source';

/** What every mapping needs besides its row: the present and the patient it is about. */
export interface MappingContext extends FhirClock {
  patient: Reference<Patient>;
}

/** A primitive may carry the data-absent marker in its `_name` twin. */
export type WithAbsent<R, K extends string> = R & { [P in `_${K}`]?: Element };

/** What the mappings may ask of the bundle they read. */
export interface ImportContext {
  /** The resource a reference points to in the bundle; resolving it marks it as used. */
  resolve(reference: Reference | undefined): Resource | undefined;
  /** The family member the records go to; null for the account holder. */
  familyMemberId: string | null;
  /**
   * Whether a resource is read as part of another record (a policy's insurer, the
   * prescription a medication statement is based on), and so is no record of its own.
   */
  isPartOfAnother(resource: Resource): boolean;
}

/** One record read from a resource; `part` tells apart several from one resource. */
export interface MappedRecord<K extends FhirRecordType = FhirRecordType> {
  type: K;
  values: Partial<FhirValues[K]>;
  part?: string;
}

export const SKIP = 'skip';
export const IGNORE = 'ignore';
export type MapResult = MappedRecord[] | typeof SKIP | typeof IGNORE;

/** A resource that holds one record. */
export const one = <K extends FhirRecordType>(
  type: K,
  values: Partial<FhirValues[K]>,
): MapResult => [{ type, values } as MappedRecord];

/** What a reference names: its display, else the name of the resource it points to. */
export function displayOf(reference: Reference | undefined, context: ImportContext): string | null {
  if (!reference) return null;
  return reference.display ?? nameOf(context.resolve(reference));
}

/** The resource type a reference points at, from its type, its target, or its text. */
export function targetType(
  reference: Reference | undefined,
  context: ImportContext,
): string | null {
  if (!reference) return null;
  return (
    reference.type ??
    context.resolve(reference)?.resourceType ??
    /(?:^|\/)([A-Z][A-Za-z]+)\/[^/]+$/.exec(reference.reference ?? '')?.[1] ??
    null
  );
}

/** SNOMED findings that say 'none known' (of allergies, problems, medications, shots). */
const NONE_KNOWN_SNOMED = new Set([
  '716186003',
  '409137002',
  '428607008',
  '429625007',
  '160245001',
  '787481004',
  '787482006',
]);

/**
 * An IPS absent/unknown statement in place of a record: 'no information' says nothing and
 * is ignored; 'no known …' asserts something we cannot keep, and is skipped.
 */
export function absentStatement(concept: CodeableConcept | undefined): MapResult | null {
  for (const coding of concept?.coding ?? []) {
    if (coding.system === SYSTEM.absentUnknown) {
      return coding.code?.endsWith('-info') ? IGNORE : SKIP;
    }
    if (coding.system === SYSTEM.snomed && NONE_KNOWN_SNOMED.has(coding.code ?? '')) return SKIP;
  }
  return null;
}
