/**
 * The first two of a FHIR import's three passes over a Bundle's entries (fhir-import.ts
 * reads the third): the survey, which finds what refuses the file before any record is read
 * and every address its references name, and the resources those references point to, kept
 * by their place in the bundle. Neither needs the bundle in memory: a file's reader streams
 * each pass (imports/read-fhir-file.ts; decision 0075).
 */
import type {
  BundleEntry,
  Patient,
  PractitionerRole,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import { formatNumber } from '../../shared/dates';
import { tr } from '../../shared/i18n/translate';
import { VersionEvidenceReading } from './fhir-version';
import { isObject } from './fhir-elements';

type Json = Record<string, unknown>;

/** A count as the language in force writes it, ungrouped as the English message always was. */
const plainNumber = (value: number) => formatNumber(value, { useGrouping: false });

export const ACCEPTED_BUNDLE_TYPES = ['collection', 'document', 'searchset', 'transaction'];
export const MAX_ENTRIES = 200_000;

/** Why a value that is not a Bundle's object cannot be imported (in the language in force). */
export function refusalOfShape(json: unknown): string | null {
  if (!isObject(json)) return tr('This file is not a FHIR R4 Bundle: it is not a JSON object.');
  const { resourceType, entry } = json;
  if (typeof resourceType !== 'string') {
    return tr('This file is not a FHIR R4 Bundle: it has no resourceType, so it is not FHIR.');
  }
  if (resourceType !== 'Bundle') {
    return tr(
      "This file is a single FHIR {type}, not a Bundle. Import a Bundle, such as a patient's $everything export.",
      { type: resourceType },
    );
  }
  if (entry !== undefined && !Array.isArray(entry)) {
    return tr('This file is not a FHIR R4 Bundle: its entries are not a list.');
  }
  return null;
}

/** Why a Bundle, surveyed entry by entry, cannot be imported, or null when it can. */
export function refusalOfBundle(bundle: Json, survey: BundleSurvey): string | null {
  if (survey.entries > MAX_ENTRIES) {
    return tr('This Bundle has {entries} entries; at most {most} can be imported at once.', {
      entries: plainNumber(survey.entries),
      most: plainNumber(MAX_ENTRIES),
    });
  }
  const foreign = survey.version.evidence();
  if (foreign) {
    return tr(
      'This file is a FHIR {version} Bundle, not R4 (its {evidence}). Kin Health imports FHIR R4 Bundles only.',
      { version: foreign.version, evidence: foreign.evidence },
    );
  }
  const { type } = bundle;
  if (typeof type !== 'string') return tr('This file is not a FHIR R4 Bundle: it has no type.');
  if (!ACCEPTED_BUNDLE_TYPES.includes(type)) {
    return tr(
      "This Bundle is of type '{type}', which cannot be imported: Kin Health imports collection, document, searchset and transaction Bundles.",
      { type },
    );
  }
  // R4 requires a policy's insurer; without one the policy names no one to claim from.
  if (survey.coverageWithoutPayor) {
    const { id } = survey.coverageWithoutPayor;
    const name = typeof id === 'string' ? ` '${id}'` : '';
    return tr(
      'This file is not a valid FHIR R4 Bundle: its Coverage{name} has no payor (the insurer), which R4 requires.',
      { name },
    );
  }
  if (survey.patients > 1) {
    return tr(
      "This Bundle holds the records of {patients} patients; import one person's Bundle at a time.",
      { patients: plainNumber(survey.patients) },
    );
  }
  return null;
}

/** A reference's part that names a resource of the bundle by its type and id. */
const RELATIVE_ADDRESS = /([A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/;

/** The addresses a reference may find a resource by: as written, and by type and id. */
function referenceAddresses(reference: Reference | undefined): string[] {
  const text = reference?.reference;
  if (!text || text.startsWith('#')) return [];
  const relative = RELATIVE_ADDRESS.exec(text)?.[1];
  return relative && relative !== text ? [text, relative] : [text];
}

/** The addresses a resource of the bundle is found by: its full URL, and its type and id. */
function resourceAddresses(entry: BundleEntry, resource: Resource): string[] {
  const addresses: string[] = [];
  if (entry.fullUrl) addresses.push(entry.fullUrl);
  if (resource.id) addresses.push(`${resource.resourceType}/${resource.id}`);
  return addresses;
}

/** Every reference a resource makes, however deep, and the files its documents point to. */
function referencesIn(resource: Resource): Reference[] {
  const found: Reference[] = [];
  // A stack, not recursion: a resource nested deeper than the call stack is still read.
  const pending: unknown[] = [resource];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (isObject(value)) {
      if (typeof value.reference === 'string') found.push(value as Reference);
      for (const item of Object.values(value)) if (typeof item === 'object') pending.push(item);
    }
  }
  if (resource.resourceType === 'DocumentReference') {
    for (const content of resource.content ?? []) {
      if (content.attachment?.url) found.push({ reference: content.attachment.url });
    }
  }
  return found;
}

/**
 * What the first reading of a bundle's entries learns, before any is read as records: what
 * refuses the file, and which resources others point to (the only ones kept for the
 * reading of records: a bundle is never all in memory at once when it is read from a file).
 */
export interface BundleSurvey {
  entries: number;
  patients: number;
  /** The first Patient: whom the file is about. */
  patient: Patient | undefined;
  coverageWithoutPayor: Resource | undefined;
  version: VersionEvidenceReading;
  /** Every address some reference of the bundle names. */
  referenced: Set<string>;
  /** What is read as part of another record: policies' insurers, statements' prescriptions. */
  parts: Reference[];
  /** The records documents name as the ones they belong to. */
  documentRecords: Reference[];
  /** Every PractitionerRole, with its place in the bundle: read with their practitioners. */
  roles: { position: number; role: PractitionerRole }[];
}

export const newSurvey = (): BundleSurvey => ({
  entries: 0,
  patients: 0,
  patient: undefined,
  coverageWithoutPayor: undefined,
  version: new VersionEvidenceReading(),
  referenced: new Set(),
  parts: [],
  documentRecords: [],
  roles: [],
});

/** The first reading: one entry of the bundle, at its place. */
export function surveyEntry(survey: BundleSurvey, entry: unknown, position: number) {
  survey.entries += 1;
  survey.version.readEntry(entry);
  if (!isObject(entry) || !isObject(entry.resource)) return;
  const resource = entry.resource as unknown as Resource;
  switch (resource.resourceType) {
    case 'Patient':
      survey.patients += 1;
      survey.patient ??= resource;
      break;
    case 'Coverage':
      if (!(Array.isArray(resource.payor) && resource.payor.length > 0)) {
        survey.coverageWithoutPayor ??= resource;
      } else survey.parts.push(...resource.payor);
      break;
    case 'MedicationStatement':
      if (Array.isArray(resource.basedOn)) survey.parts.push(...resource.basedOn);
      break;
    case 'PractitionerRole':
      survey.roles.push({ position, role: resource });
      break;
    case 'DocumentReference':
      if (Array.isArray(resource.context?.related)) {
        survey.documentRecords.push(...resource.context.related);
      }
      break;
  }
  for (const reference of referencesIn(resource)) {
    for (const address of referenceAddresses(reference)) survey.referenced.add(address);
  }
}

/**
 * The resources other resources point to, kept from the second reading of the entries:
 * found by every address a reference may use (the last of a bundle's resources at an
 * address, as a bundle read whole would find it), each known by its place in the bundle.
 */
export class ReferencedResources {
  private readonly byAddress = new Map<string, number>();
  private readonly kept = new Map<number, Resource>();
  private readonly places = new WeakMap<Resource, number>();

  constructor(private readonly survey: BundleSurvey) {}

  /** Whether any reference of the bundle points at this resource. */
  isReferenced(entry: BundleEntry, resource: Resource): boolean {
    return resourceAddresses(entry, resource).some((address) =>
      this.survey.referenced.has(address),
    );
  }

  /** The second reading: one entry, kept when something points at it. */
  keep(entry: unknown, position: number) {
    if (!isObject(entry) || !isObject(entry.resource)) return;
    const resource = entry.resource as unknown as Resource;
    const bundleEntry = entry as BundleEntry;
    if (!this.isReferenced(bundleEntry, resource)) return;
    this.kept.set(position, resource);
    this.places.set(resource, position);
    for (const address of resourceAddresses(bundleEntry, resource)) {
      this.byAddress.set(address, position);
    }
  }

  /** The place of the resource a reference points to, if the bundle has it. */
  placeOf(reference: Reference | undefined): number | undefined {
    // As written first, then by its type and id.
    const [written, relative] = referenceAddresses(reference);
    if (written === undefined) return undefined;
    return this.byAddress.get(written) ?? (relative ? this.byAddress.get(relative) : undefined);
  }

  at(position: number): Resource | undefined {
    return this.kept.get(position);
  }

  /** The place of a kept resource. */
  placeOfResource(resource: Resource): number | undefined {
    return this.places.get(resource);
  }
}
